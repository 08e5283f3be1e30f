//! USI/SFEN line syntax: `[position] startpos|sfen <SFEN>|<SFEN> [moves …]`
//! and the USI move (`7g7f`, `7g7f+`, `P*5e`), as small nom 8 parsers over
//! the line's text returning the shared
//! [`SyntaxError`](crate::text::syntax::SyntaxError).
//!
//! Words are separated by any whitespace. The grammar only splits and
//! classifies: the SFEN fields are handed to the rules layer
//! ([`parse_sfen`](crate::rules::sfen::parse_sfen)) and a move's drop letter is
//! checked against the variant by [`UsiMove::to_move`].

use crate::record::TerminalKind;
use crate::rules::moves::Move;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::text::syntax::{expect, PResult, SyntaxError};
use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{char, one_of, satisfy};
use nom::combinator::{cut, eof, map, map_opt, not, opt, peek, recognize, value, verify};
use nom::error::context;
use nom::sequence::{preceded, terminated};
use nom::Parser;

/// The grammar's error: the shared syntax error over the line's text.
pub type Error<'a> = SyntaxError<&'a str>;

/// What `position`/`startpos`/`sfen` said about the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartSpec<'a> {
    /// `startpos`.
    Startpos,
    /// An SFEN: its text (board, side, hand and an optional move number,
    /// with the whitespace between them as written), and whether it stood
    /// alone (no `sfen` word: a bare SFEN line).
    Sfen {
        /// The SFEN fields.
        text: &'a str,
        /// No `sfen` word before it.
        bare: bool,
    },
}

/// A USI move as written, before the variant gives its drop letter a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UsiMove {
    /// `7g7f`, `7g7f+`.
    Normal {
        /// The origin square.
        from: Square,
        /// The destination square.
        to: Square,
        /// A `+` after the squares.
        promote: bool,
    },
    /// `P*5e` (or `P@5e`).
    Drop {
        /// The SFEN letter of the piece dropped.
        letter: char,
        /// The destination square.
        to: Square,
    },
}

impl UsiMove {
    /// The move, if the drop letter names a piece that can be held in
    /// `variant`.
    pub fn to_move(self, variant: Variant) -> Option<Move> {
        match self {
            UsiMove::Normal { from, to, promote } => Some(Move::Normal { from, to, promote }),
            UsiMove::Drop { letter, to } => {
                let role = Role::from_sfen_char(letter, false, variant)?;
                role.hand_index()?;
                Some(Move::Drop { role, to })
            }
        }
    }
}

/// Whitespace (any, as USI lines are split on it).
pub fn blanks(i: &str) -> PResult<&str, &str> {
    take_while(char::is_whitespace).parse(i)
}

/// One word: everything up to the next whitespace.
fn word(i: &str) -> PResult<&str, &str> {
    take_till1(char::is_whitespace).parse(i)
}

/// The word `k`, whole.
fn keyword<'a>(k: &'static str) -> impl FnMut(&'a str) -> PResult<&'a str, &'a str> {
    move |i: &'a str| verify(word, |w: &str| w == k).parse(i)
}

/// The end of a word: whitespace or the end of the line follows.
fn word_end(i: &str) -> PResult<&str, ()> {
    not(satisfy(|c| !c.is_whitespace())).parse(i)
}

/// A square: a file digit 1…9 and a rank letter a…i (or digit 1…9).
fn square(i: &str) -> PResult<&str, Square> {
    map_opt(
        (
            satisfy(|c| c.is_ascii_digit()),
            satisfy(|c| matches!(c, 'a'..='i' | '1'..='9')),
        ),
        |(f, r)| {
            let rank = match r {
                'a'..='i' => r as u8 - b'a' + 1,
                _ => r as u8 - b'0',
            };
            Square::new(f as u8 - b'0', rank)
        },
    )
    .parse(i)
}

/// `P*5e`: a letter, `*` (or `@`) and the destination.
fn drop_move(i: &str) -> PResult<&str, UsiMove> {
    map(
        (satisfy(|c| c.is_ascii_alphabetic()), one_of("*@"), square),
        |(letter, _, to)| UsiMove::Drop { letter, to },
    )
    .parse(i)
}

/// `7g7f` or `7g7f+`.
fn board_move(i: &str) -> PResult<&str, UsiMove> {
    map((square, square, opt(char('+'))), |(from, to, p)| {
        UsiMove::Normal {
            from,
            to,
            promote: p.is_some(),
        }
    })
    .parse(i)
}

/// A USI move, as a whole word.
pub fn usi_move(i: &str) -> PResult<&str, UsiMove> {
    terminated(alt((drop_move, board_move)), word_end).parse(i)
}

/// A terminal word (`resign`, `win`, `draw`, …; any case), as a whole word.
pub fn terminal(i: &str) -> PResult<&str, TerminalKind> {
    map_opt(word, crate::japanese::terminal_from_usi).parse(i)
}

/// One word of a `moves` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A move.
    Move(UsiMove),
    /// A terminal word.
    Terminal(TerminalKind),
}

/// One word of a `moves` list: a move or a terminal word.
pub fn token(i: &str) -> PResult<&str, Token> {
    expect(
        "a USI move",
        alt((map(usi_move, Token::Move), map(terminal, Token::Terminal))),
    )
    .parse(i)
}

/// The SFEN fields from the board on: the board, up to two more words
/// (side and hand) and a move number if the next word is digits.
fn sfen_fields(i: &str) -> PResult<&str, &str> {
    expect(
        "an SFEN",
        recognize((
            word,
            opt((blanks, word)),
            opt((blanks, word)),
            opt((
                blanks,
                verify(word, |w: &str| w.bytes().all(|b| b.is_ascii_digit())),
            )),
        )),
    )
    .parse(i)
}

/// The SFEN fields, paired with the line from their first word on.
fn fields_at<'a>(bare: bool) -> impl FnMut(&'a str) -> PResult<&'a str, (&'a str, StartSpec<'a>)> {
    move |i: &'a str| sfen_fields(i).map(|(r, text)| (r, (i, StartSpec::Sfen { text, bare })))
}

/// `sfen <fields>`.
fn sfen(i: &str) -> PResult<&str, (&str, StartSpec<'_>)> {
    preceded((keyword("sfen"), blanks), cut(fields_at(false))).parse(i)
}

/// A bare SFEN: a first word with a `/` (a board).
fn bare_sfen(i: &str) -> PResult<&str, (&str, StartSpec<'_>)> {
    preceded(
        peek(verify(word, |w: &str| w.contains('/'))),
        fields_at(true),
    )
    .parse(i)
}

/// `startpos`.
fn startpos(i: &str) -> PResult<&str, (&str, StartSpec<'_>)> {
    map(keyword("startpos"), |_| (i, StartSpec::Startpos)).parse(i)
}

/// The start of a line: an optional `position` word, then `startpos`,
/// `sfen` and an SFEN, or a bare SFEN. The output's slice is the line from
/// the start's first word on (`startpos`, or the SFEN's board: where
/// findings about the start point).
pub fn start(i: &str) -> PResult<&str, (&str, StartSpec<'_>)> {
    preceded(
        (blanks, opt((keyword("position"), blanks))),
        context(
            "`position`, `startpos`, `sfen` or an SFEN",
            alt((startpos, sfen, bare_sfen)),
        ),
    )
    .parse(i)
}

/// The word `moves` (after whitespace).
pub fn moves_keyword(i: &str) -> PResult<&str, ()> {
    preceded(blanks, expect("`moves`", value((), keyword("moves")))).parse(i)
}

/// Only whitespace to the end of the line.
pub fn line_end(i: &str) -> PResult<&str, ()> {
    preceded(blanks, expect("the end of the line", value((), eof))).parse(i)
}

/// `expected …, found …` for a USI error: the whole word found there is
/// quoted (USI is read word by word), or `the end of the line`.
pub fn message(e: &Error<'_>) -> String {
    format!("expected {}, found {}", e.expected, found_word(e.at))
}

/// The word at the start of `rest`, quoted, or `the end of the line`.
pub fn found_word(rest: &str) -> String {
    match word(rest) {
        Ok((_, w)) => format!("`{w}`"),
        Err(_) => "the end of the line".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::syntax::into_error;

    fn sq(s: &str) -> Square {
        Square::from_usi(s).unwrap()
    }

    #[test]
    fn moves_match_move_from_usi() {
        let v = Variant::Standard;
        for w in [
            "7g7f", "7g7f+", "P*5e", "p*5e", "R@1a", "K*5e", "7g7f++", "7g7", "0a1a", "7j7f",
            "7g7f=", "P*5", "7777", "P*55", "X*5e", "７g7f", "",
        ] {
            let g = terminated(usi_move, eof)
                .parse(w)
                .ok()
                .and_then(|(_, m)| m.to_move(v));
            assert_eq!(g, Move::from_usi(w, v), "{w}");
        }
        assert_eq!(
            usi_move("7g7f+ 3c3d").unwrap(),
            (
                " 3c3d",
                UsiMove::Normal {
                    from: sq("7g"),
                    to: sq("7f"),
                    promote: true
                }
            )
        );
    }

    fn err(p: fn(&str) -> PResult<&str, ()>, line: &str) -> (usize, String) {
        let e = into_error(p(line).unwrap_err(), line);
        (e.offset_in(&line), message(&e))
    }

    #[test]
    fn starts() {
        fn s(l: &str) -> PResult<&str, StartSpec<'_>> {
            start(l).map(|(r, (_, s))| (r, s))
        }
        assert_eq!(
            s("position startpos moves 7g7f"),
            Ok((" moves 7g7f", StartSpec::Startpos))
        );
        assert_eq!(
            s("sfen 9/9/9 b - 1 moves"),
            Ok((
                " moves",
                StartSpec::Sfen {
                    text: "9/9/9 b - 1",
                    bare: false
                }
            ))
        );
        assert_eq!(
            s("9/9/9  b -"),
            Ok((
                "",
                StartSpec::Sfen {
                    text: "9/9/9  b -",
                    bare: true
                }
            ))
        );
        fn st(l: &str) -> PResult<&str, ()> {
            start(l).map(|(r, _)| (r, ()))
        }
        fn tok(l: &str) -> PResult<&str, ()> {
            token(l).map(|(r, _)| (r, ()))
        }
        assert_eq!(
            err(st, "position startpoz"),
            (
                9,
                "expected `position`, `startpos`, `sfen` or an SFEN, found `startpoz`".into()
            )
        );
        assert_eq!(
            err(st, "sfen  "),
            (6, "expected an SFEN, found the end of the line".into())
        );
        assert_eq!(
            err(st, "position"),
            (
                8,
                "expected `position`, `startpos`, `sfen` or an SFEN, found the end of the line"
                    .into()
            )
        );
        assert_eq!(
            err(moves_keyword, " movez 7g7f"),
            (1, "expected `moves`, found `movez`".into())
        );
        assert_eq!(
            err(tok, "7g7x 3c3d"),
            (0, "expected a USI move, found `7g7x`".into())
        );
        assert_eq!(
            token("RESIGN").unwrap().1,
            Token::Terminal(TerminalKind::Resign)
        );
    }
}
