//! The one error type of every line and move grammar.
//!
//! Each format's grammar (`kif`, `ki2`, `csa`, `psn`, `usi`) is written as
//! small named nom parsers returning [`PResult`]. Their error,
//! [`SyntaxError`], keeps two things and nothing else: *where* the parser
//! stopped (the rest of the input, so the byte offset in the line is
//! `line.len() - rest.len()`) and *what* it expected there (a phrase such as
//! ``"a piece code (FU, KY, … RY)"``, attached with nom's
//! [`context`](nom::error::context) or [`expect`]). A reader converts it
//! once, at the line, into a [`Finding`](crate::text::Finding) with the exact
//! character column ([`SyntaxError::offset_in`], [`column`]) and the message
//! `expected …, found …` ([`SyntaxError::message`]).
//!
//! Rules of the house:
//! - the innermost label wins: a `context` only names an error that has no
//!   label yet, so `context("a move", …)` around a parser that already said
//!   "a destination square" keeps the more precise phrase;
//! - in `alt`, the branch that got further wins (ties keep the later
//!   branch's label only when the earlier one has none);
//! - after a parser has recognised what a line is (a move number, a `変化`
//!   keyword, a CSA sign) the rest is wrapped in [`cut`](nom::combinator::cut)
//!   so a later mistake is reported where it is, not as "not a move line".

use nom::error::{ContextError, ErrorKind, FromExternalError, ParseError};
use nom::{IResult, Input, Parser};

/// What a grammar expected and where it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyntaxError<I> {
    /// The input left where the parser failed.
    pub at: I,
    /// What was expected there, e.g. `"a destination square"`.
    pub expected: &'static str,
    /// False while the phrase is nom's generic description of an
    /// [`ErrorKind`]; a [`context`](nom::error::context) label replaces it.
    labelled: bool,
}

/// A grammar's result.
pub type PResult<I, O> = IResult<I, O, SyntaxError<I>>;

impl<I> SyntaxError<I> {
    /// An error at `at` saying what was expected.
    pub fn new(at: I, expected: &'static str) -> Self {
        SyntaxError {
            at,
            expected,
            labelled: true,
        }
    }
}

impl<I: Input> SyntaxError<I> {
    /// Byte (or element) offset of the error in `line`, the input the
    /// grammar started from.
    pub fn offset_in(&self, line: &I) -> usize {
        line.input_len().saturating_sub(self.at.input_len())
    }
}

impl SyntaxError<&str> {
    /// `expected …, found …`, quoting up to twelve characters of what is
    /// there (or naming the end of the text as `end`).
    pub fn message(&self, end: &str) -> String {
        format!("expected {}, found {}", self.expected, found(self.at, end))
    }
}

impl SyntaxError<&[u8]> {
    /// `expected …, found …` for a byte grammar; the quotation is decoded
    /// lossily (the bytes of an ASCII format are ASCII when they are right).
    pub fn message(&self, end: &str) -> String {
        let text = String::from_utf8_lossy(self.at);
        format!("expected {}, found {}", self.expected, found(&text, end))
    }
}

/// A short quotation of `rest` for messages, or `end` when nothing is left.
pub fn found(rest: &str, end: &str) -> String {
    if rest.is_empty() {
        end.to_string()
    } else {
        let q: String = rest.chars().take(12).collect();
        format!("`{q}`")
    }
}

/// The 1-based character column of byte offset `b` in `line` (an offset
/// inside a character counts as that character).
pub fn column(line: &str, b: usize) -> u32 {
    let b = b.min(line.len());
    let mut i = b;
    while !line.is_char_boundary(i) {
        i -= 1;
    }
    line[..i].chars().count() as u32 + 1
}

/// nom's own words for its error kinds, used until a label names the error.
fn describe(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Digit => "a digit",
        ErrorKind::Char | ErrorKind::OneOf => "a particular character",
        ErrorKind::Space | ErrorKind::MultiSpace => "a space",
        ErrorKind::Eof => "the end of the line",
        ErrorKind::Tag => "a keyword",
        _ => "valid syntax",
    }
}

impl<I: Input> ParseError<I> for SyntaxError<I> {
    fn from_error_kind(input: I, kind: ErrorKind) -> Self {
        SyntaxError {
            at: input,
            expected: describe(kind),
            labelled: false,
        }
    }

    fn append(_: I, _: ErrorKind, other: Self) -> Self {
        other
    }

    fn or(self, other: Self) -> Self {
        // `self` is the earlier branch's error; the one that got further wins.
        let (a, b) = (self.at.input_len(), other.at.input_len());
        if a < b || (a == b && self.labelled && !other.labelled) {
            self
        } else {
            other
        }
    }
}

impl<I> ContextError<I> for SyntaxError<I> {
    fn add_context(_: I, ctx: &'static str, mut other: Self) -> Self {
        if !other.labelled {
            other.expected = ctx;
            other.labelled = true;
        }
        other
    }
}

impl<I, E> FromExternalError<I, E> for SyntaxError<I> {
    fn from_external_error(input: I, _: ErrorKind, _: E) -> Self {
        SyntaxError {
            at: input,
            expected: "valid syntax",
            labelled: false,
        }
    }
}

/// Runs `parser`; on failure the error is re-labelled `expected` *at the
/// start* of `parser`'s input, whatever the parser's own label said. Use it
/// for tokens that are one unit to a reader ("a destination square"), where
/// `context` would keep a finer inner label.
pub fn expect<I: Clone, O, P>(
    expected: &'static str,
    mut parser: P,
) -> impl FnMut(I) -> PResult<I, O>
where
    P: Parser<I, Output = O, Error = SyntaxError<I>>,
{
    move |input: I| {
        parser.parse(input.clone()).map_err(|e| {
            e.map(|_| SyntaxError {
                at: input.clone(),
                expected,
                labelled: true,
            })
        })
    }
}

/// The error of a parser that ran: `Error` and `Failure` alike (a grammar
/// run to completion has no `Incomplete`, every parser is `complete`).
pub fn into_error<I>(e: nom::Err<SyntaxError<I>>, at: I) -> SyntaxError<I> {
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => e,
        nom::Err::Incomplete(_) => SyntaxError::new(at, "more text"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nom::branch::alt;
    use nom::bytes::complete::tag;
    use nom::character::complete::digit1;
    use nom::combinator::cut;
    use nom::error::context;
    use nom::sequence::preceded;

    fn number(i: &str) -> PResult<&str, &str> {
        context("a move number", digit1).parse(i)
    }

    fn line(i: &str) -> PResult<&str, &str> {
        preceded(number, cut(preceded(tag(" "), context("a square", digit1)))).parse(i)
    }

    #[test]
    fn the_innermost_label_and_the_place_survive() {
        let l = "12 x";
        let e = into_error(line(l).unwrap_err(), l);
        assert_eq!((e.expected, e.offset_in(&l)), ("a square", 3));
        assert_eq!(
            e.message("the end of the line"),
            "expected a square, found `x`"
        );
        let e = into_error(context("a move", line).parse(l).unwrap_err(), l);
        assert_eq!(
            e.expected, "a square",
            "an outer context never hides an inner label"
        );
        assert!(
            matches!(line(l), Err(nom::Err::Failure(_))),
            "cut after the number"
        );
    }

    #[test]
    fn alt_keeps_the_branch_that_got_further() {
        let l = "12 ";
        let mut p = alt((tag("x"), line));
        let e = into_error(p.parse(l).unwrap_err(), l);
        assert_eq!((e.expected, e.offset_in(&l)), ("a square", 3));
        assert_eq!(
            e.message("the end of the line"),
            "expected a square, found the end of the line"
        );
    }

    #[test]
    fn expect_relabels_at_its_start() {
        let l = "1x";
        let e = into_error(
            expect("two digits", (digit1, digit1)).parse(l).unwrap_err(),
            l,
        );
        assert_eq!((e.expected, e.offset_in(&l)), ("two digits", 0));
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(column("７六歩", 3), 2);
        assert_eq!(column("７六歩", 4), 2);
        assert_eq!(column("ab", 9), 3);
    }
}
