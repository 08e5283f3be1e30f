//! The PSN / PSN2 token grammar, as small named nom parsers (nom 8) that
//! return the shared [`SyntaxError`](crate::text::syntax::SyntaxError).
//!
//! A PSN line is one of:
//! - tag pairs `[Key "value"]` (one or more on the line: [`tag_open`],
//!   [`tag_body`]), possibly followed by move text;
//! - Shogidokoro's `Variation:N` ([`variation_line`]);
//! - move text: a sequence of [`token`]s separated by ASCII white space —
//!   comments `{…}` (a comment left open goes on to the next lines:
//!   [`comment_rest`]), `;` line comments, times `(00:03 / 00:00:03)`,
//!   variations `(` … `)`, NAGs `$2`, and words. A word is a result
//!   ([`result`]), or a move number ([`move_number`]) followed by nothing,
//!   a terminal word ([`terminal`]), a null move ([`null_move`]) or a move
//!   (`PsnMove`'s grammar in [`super::notation::grammar`], then
//!   [`annotation`]); a PSN2 word may be a USI move.
//!
//! Syntax only: nothing here knows a position.

use crate::record::{MoveTime, Outcome, TerminalKind};
use crate::text::syntax::{expect, PResult, SyntaxError};
use nom::branch::alt;
use nom::bytes::complete::{is_not, tag, tag_no_case, take_till1, take_until, take_while};
use nom::character::complete::{alpha1, char, digit0, digit1, one_of};
use nom::combinator::{
    all_consuming, cut, eof, map, map_opt, map_res, opt, recognize, rest, value, verify,
};
use nom::error::{context, ParseError};
use nom::multi::fold_many0;
use nom::sequence::{delimited, preceded, terminated};
use nom::Parser;

/// One token of move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `{…}` closed on the same line: the text between the braces.
    Comment(&'a str),
    /// `{…` not closed on the line: the rest of the line.
    OpenComment(&'a str),
    /// A `}` that closes nothing.
    StrayBrace,
    /// `;…`: the rest of the line.
    LineComment(&'a str),
    /// A time in parentheses.
    Time(MoveTime),
    /// `(`: a variation starts.
    Open,
    /// `)`: a variation ends.
    Close,
    /// `$2`.
    Nag(&'a str),
    /// Anything else up to a delimiter: a result, a move number, a move, a
    /// terminal word.
    Word(&'a str),
}

/// Bytes that end a word (all ASCII, so a word ends on a character
/// boundary; no byte of a multi-byte character is one).
fn is_delim(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b';')
}

/// ASCII white space (what separates tokens). Scanned by byte: the
/// characters are ASCII.
pub fn space(i: &str) -> PResult<&str, &str> {
    let n = i.bytes().take_while(u8::is_ascii_whitespace).count();
    Ok((&i[n..], &i[..n]))
}

/// Any white space (around the numbers of a time or of `Variation:`).
fn blank(i: &str) -> PResult<&str, &str> {
    take_while(char::is_whitespace).parse(i)
}

/// `{…}` on one line, or `{` and the rest of the line.
pub fn comment(i: &str) -> PResult<&str, Token<'_>> {
    preceded(
        char('{'),
        alt((
            map(terminated(take_until("}"), char('}')), Token::Comment),
            map(rest, Token::OpenComment),
        )),
    )
    .parse(i)
}

/// The rest of a comment that began on an earlier line: its text on this
/// line and whether its `}` is here.
pub fn comment_rest(i: &str) -> PResult<&str, (&str, bool)> {
    alt((
        map(terminated(take_until("}"), char('}')), |t| (t, true)),
        map(rest, |t| (t, false)),
    ))
    .parse(i)
}

/// `;` and the rest of the line.
pub fn line_comment(i: &str) -> PResult<&str, Token<'_>> {
    map(preceded(char(';'), rest), Token::LineComment).parse(i)
}

/// One to six digits (at most six are taken), read by byte.
fn clock_part(i: &str) -> PResult<&str, u64> {
    let n = i.bytes().take(6).take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return Err(nom::Err::Error(SyntaxError::from_error_kind(
            i,
            nom::error::ErrorKind::TakeWhileMN,
        )));
    }
    let v = i.as_bytes()[..n]
        .iter()
        .fold(0u64, |v, b| v * 10 + u64::from(b - b'0'));
    Ok((&i[n..], v))
}

/// `m:ss`, `mm:ss` or `h:mm:ss` in milliseconds (each part one to six
/// digits): a part, then one or two more after `:` (what
/// `fold_many_m_n(1, 2, preceded(char(':'), clock_part), …)` reads, as a
/// loop).
pub fn clock(i: &str) -> PResult<&str, u64> {
    let (mut i, mut secs) = clock_part(i)?;
    let mut more = 0;
    while more < 2 {
        let Some(after) = i.strip_prefix(':') else {
            break;
        };
        match clock_part(after) {
            Ok((r, p)) => {
                secs = secs * 60 + p;
                i = r;
                more += 1;
            }
            Err(_) => break,
        }
    }
    if more == 0 {
        return Err(nom::Err::Error(SyntaxError::from_error_kind(
            i,
            nom::error::ErrorKind::ManyMN,
        )));
    }
    Ok((i, secs * 1000))
}

/// A time: `(00:03 / 00:00:03)` (spent / total) or `(00:00:03)`.
pub fn time(i: &str) -> PResult<&str, MoveTime> {
    let spent = delimited(blank, clock, blank);
    let total = preceded(char('/'), delimited(blank, clock, blank));
    map(
        delimited(char('('), (spent, opt(total)), char(')')),
        |(spent, total)| MoveTime {
            spent_ms: Some(spent),
            total_ms: total,
        },
    )
    .parse(i)
}

/// `$` and digits: a numeric annotation glyph.
pub fn nag(i: &str) -> PResult<&str, Token<'_>> {
    map(recognize(preceded(char('$'), digit0)), Token::Nag).parse(i)
}

/// A word: everything up to white space or a delimiter (scanned by byte,
/// as [`is_delim`] says why it may be).
pub fn word(i: &str) -> PResult<&str, &str> {
    match i.bytes().position(is_delim).unwrap_or(i.len()) {
        0 => Err(nom::Err::Error(SyntaxError::new(i, "a token"))),
        n => Ok((&i[n..], &i[..n])),
    }
}

/// One token of move text (white space before it already skipped). A time
/// is tried before `(`: a parenthesis that does not hold a time opens a
/// variation. The first character picks the parser (a `match` rather than
/// an `alt`: words, by far the most tokens, would otherwise fail through
/// seven parsers first).
pub fn token(i: &str) -> PResult<&str, Token<'_>> {
    match i.as_bytes().first() {
        Some(b'{') => comment(i),
        Some(b'}') => value(Token::StrayBrace, char('}')).parse(i),
        Some(b';') => line_comment(i),
        Some(b'(') => alt((map(time, Token::Time), value(Token::Open, char('(')))).parse(i),
        Some(b')') => value(Token::Close, char(')')).parse(i),
        Some(b'$') => nag(i),
        _ => map(word, Token::Word).parse(i),
    }
}

/// Whether `w` may be a whole result word ([`result`] decides): a check
/// by byte that most words (moves, move numbers) fail at once.
pub fn may_be_result(w: &str) -> bool {
    matches!(w.len(), 1 | 3 | 5 | 7) && matches!(w.as_bytes()[0], b'0' | b'1' | b'*' | 0xC2)
}

/// A whole word that is a result: `1-0`, `0-1`, `1/2-1/2` (`½-½`), or `*`
/// (no outcome).
pub fn result(i: &str) -> PResult<&str, Option<Outcome>> {
    all_consuming(alt((
        value(Some(Outcome::SenteWin), tag("1-0")),
        value(Some(Outcome::GoteWin), tag("0-1")),
        value(Some(Outcome::Draw), alt((tag("1/2-1/2"), tag("½-½")))),
        value(None, tag("*")),
    )))
    .parse(i)
}

/// A move number before a move or alone: `12.`, `12...` (digits, then
/// dots; read by byte).
pub fn move_number(i: &str) -> PResult<&str, &str> {
    let b = i.as_bytes();
    let digits = b.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(nom::Err::Error(SyntaxError::from_error_kind(
            i,
            nom::error::ErrorKind::Digit,
        )));
    }
    let dots = b[digits..].iter().take_while(|&&b| b == b'.').count();
    if dots == 0 {
        return Err(nom::Err::Error(SyntaxError::from_error_kind(
            &i[digits..],
            nom::error::ErrorKind::TakeWhile1,
        )));
    }
    Ok((&i[digits + dots..], &i[..digits + dots]))
}

/// The terminal words of Shogidokoro and PSN2, matched in any ASCII case.
const TERMINALS: [(&str, TerminalKind); 12] = [
    ("resigns", TerminalKind::Resign),
    ("resign", TerminalKind::Resign),
    ("interrupt", TerminalKind::Abort),
    ("mate", TerminalKind::Checkmate),
    ("sennichite", TerminalKind::Repetition),
    ("repetitiondraw", TerminalKind::Repetition),
    ("jishogi", TerminalKind::Impasse),
    ("timeup", TerminalKind::TimeUp),
    ("repetitionwin", TerminalKind::IllegalWin),
    ("maxmovesdraw", TerminalKind::MaxMoves),
    ("declarationwin", TerminalKind::DeclarationWin),
    ("tryrulewin", TerminalKind::Try),
];

/// A whole word of ASCII letters.
fn letters(i: &str) -> PResult<&str, &str> {
    all_consuming(alpha1).parse(i)
}

/// A terminal word of Shogidokoro or PSN2, in any case (`Resigns`,
/// `Sennichite`, `TimeUp`, …). The word is taken first and looked up in
/// one table: a move (`P-7f`) stops at its second character, where twelve
/// keyword parsers would each compare it.
pub fn terminal(i: &str) -> PResult<&str, TerminalKind> {
    context(
        "a terminal word",
        map_opt(letters, |w: &str| {
            TERMINALS
                .iter()
                .find(|(t, _)| t.eq_ignore_ascii_case(w))
                .map(|(_, k)| k.clone())
        }),
    )
    .parse(i)
}

/// A whole word that writes a null move: `--`, `0000`, `pass` (any case).
pub fn null_move(i: &str) -> PResult<&str, &str> {
    alt((
        terminated(tag("--"), eof),
        terminated(tag("0000"), eof),
        verify(letters, |w: &str| w.eq_ignore_ascii_case("pass")),
    ))
    .parse(i)
}

/// What may follow a move in its word: nothing, or glyphs (`!`, `?!`, or
/// any other ASCII punctuation, which a reader reports as ignored).
pub fn annotation(i: &str) -> PResult<&str, &str> {
    expect(
        "a move",
        all_consuming(take_while(|c: char| c.is_ascii_punctuation())),
    )
    .parse(i)
}

/// Whether a line (white space before it skipped) may be a `Variation:`
/// line ([`variation_line`] decides): a check of its first byte.
pub fn may_be_variation_line(t: &str) -> bool {
    t.as_bytes().first().is_some_and(|b| b | 0x20 == b'v')
}

/// `Variation:N` (Shogidokoro; `N` the number of the move it replaces,
/// 1 or more). Once `Variation:` is read the rest must be the number.
pub fn variation_line(i: &str) -> PResult<&str, u32> {
    let number = verify(
        map_res(
            recognize(preceded(opt(char('+')), digit1)),
            str::parse::<u32>,
        ),
        |n| *n >= 1,
    );
    preceded(
        tag_no_case("variation:"),
        cut(preceded(
            blank,
            expect(
                "a move number after `Variation:`",
                terminated(number, (blank, eof)),
            ),
        )),
    )
    .parse(i)
}

/// `[` and a tag name (up to white space, `"` or `]`).
pub fn tag_open(i: &str) -> PResult<&str, &str> {
    preceded(
        char('['),
        expect(
            "a tag name after `[`",
            take_till1(|c: char| c.is_ascii_whitespace() || c == '"' || c == ']'),
        ),
    )
    .parse(i)
}

/// One piece of a tag value: plain text, or `\"` / `\\` (a `\` before
/// anything else is itself).
fn value_piece(i: &str) -> PResult<&str, &str> {
    alt((
        is_not("\\\""),
        preceded(char('\\'), recognize(one_of("\"\\"))),
        tag("\\"),
    ))
    .parse(i)
}

/// The value of a tag between quotes, unescaped.
pub fn tag_value(i: &str) -> PResult<&str, String> {
    fold_many0(value_piece, String::new, |mut s, p| {
        s.push_str(p);
        s
    })
    .parse(i)
}

/// After a tag's name: `"value"` and `]`, with white space between. The
/// first output is the value's byte offset in `i` (after its `"`).
pub fn tag_body(i: &str) -> PResult<&str, (usize, String)> {
    let start = i.len();
    let (i, _) = space(i)?;
    let (i, _) = expect("`\"` to start the value of tag", char('"')).parse(i)?;
    let at = start - i.len();
    let (i, value) = tag_value(i)?;
    let (i, _) = expect("`\"` to close the value of tag", char('"')).parse(i)?;
    let (i, _) = space(i)?;
    let (i, _) = expect("`]` to close tag", char(']')).parse(i)?;
    Ok((i, (at, value)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::syntax::into_error;

    #[test]
    fn tokens() {
        assert_eq!(token("{a b} x"), Ok((" x", Token::Comment("a b"))));
        assert_eq!(token("{a b"), Ok(("", Token::OpenComment("a b"))));
        assert_eq!(token("}x"), Ok(("x", Token::StrayBrace)));
        assert_eq!(token("; c"), Ok(("", Token::LineComment(" c"))));
        assert_eq!(
            token("(00:03 / 00:00:03) x"),
            Ok((
                " x",
                Token::Time(MoveTime {
                    spent_ms: Some(3000),
                    total_ms: Some(3000)
                })
            ))
        );
        assert_eq!(
            token("(1:02:03)"),
            Ok((
                "",
                Token::Time(MoveTime {
                    spent_ms: Some(3_723_000),
                    total_ms: None
                })
            ))
        );
        assert_eq!(token("(P-7f)"), Ok(("P-7f)", Token::Open)));
        assert_eq!(token("(1234567:00)"), Ok(("1234567:00)", Token::Open)));
        assert_eq!(token("(1:2:3:4)"), Ok(("1:2:3:4)", Token::Open)));
        assert_eq!(token("$12 x"), Ok((" x", Token::Nag("$12"))));
        assert_eq!(token("12.P-7f{"), Ok(("{", Token::Word("12.P-7f"))));
    }

    #[test]
    fn words() {
        assert_eq!(result("1/2-1/2"), Ok(("", Some(Outcome::Draw))));
        assert_eq!(result("*"), Ok(("", None)));
        assert!(result("1-0x").is_err());
        assert_eq!(move_number("12...P-7f"), Ok(("P-7f", "12...")));
        assert_eq!(terminal("RESIGN"), Ok(("", TerminalKind::Resign)));
        assert_eq!(terminal("Resigns"), Ok(("", TerminalKind::Resign)));
        assert!(terminal("Resignsx").is_err());
        assert_eq!(null_move("PASS"), Ok(("", "PASS")));
        assert_eq!(annotation("?!"), Ok(("", "?!")));
        let e = into_error(annotation("!x").unwrap_err(), "");
        assert_eq!((e.expected, e.at), ("a move", "!x"));
    }

    #[test]
    fn variation_lines() {
        assert_eq!(variation_line("Variation: 12 "), Ok(("", 12)));
        assert_eq!(variation_line("variation:+3"), Ok(("", 3)));
        let l = "Variation: 0";
        let e = into_error(variation_line(l).unwrap_err(), l);
        assert_eq!(
            (e.expected, e.at),
            ("a move number after `Variation:`", "0")
        );
        assert!(matches!(variation_line("Varia"), Err(nom::Err::Error(_))));
    }

    #[test]
    fn tags() {
        let l = "[Sente \"a \\\"b\\\" \\x\"] rest";
        let (r, name) = tag_open(l).unwrap();
        assert_eq!(name, "Sente");
        let (r, (at, v)) = tag_body(r).unwrap();
        assert_eq!((at, v.as_str(), r), (2, "a \"b\" \\x", " rest"));
        let l = "[42]";
        let (r, name) = tag_open(l).unwrap();
        let e = into_error(tag_body(r).unwrap_err(), r);
        assert_eq!(
            (name, e.expected, e.at),
            ("42", "`\"` to start the value of tag", "]")
        );
        let e = into_error(tag_open("[ x").unwrap_err(), "");
        assert_eq!((e.expected, e.at), ("a tag name after `[`", " x"));
        let e = into_error(tag_body(" \"v").unwrap_err(), "");
        assert_eq!((e.expected, e.at), ("`\"` to close the value of tag", ""));
        let e = into_error(tag_body(" \"v\" x").unwrap_err(), "");
        assert_eq!((e.expected, e.at), ("`]` to close tag", "x"));
    }
}
