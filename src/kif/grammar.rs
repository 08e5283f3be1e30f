//! The KIF move line grammar (`   1 ７六歩(77)   ( 0:01/00:00:01)+`): move
//! number, move text or terminal word, time, branch mark. Syntax only, no
//! position; the move text is [`crate::japanese::moves`]'s.

use crate::japanese::lexicon::is_space;
use crate::japanese::moves::{
    dest, move_text, side_mark, spaces, A_MOVE_NUMBER, A_MOVE_OR_TERMINAL, A_TIME, A_TIME_CLOSE,
};
#[allow(unused_imports)] // `Dest`, `MoveText`, `Origin`: named here by the tests
pub use crate::japanese::moves::{is_move_line, offset, Body, Dest, MoveText, Origin};
use crate::record::MoveTime;
use crate::rules::color::Color;
use crate::text::syntax::{expect, into_error, PResult, SyntaxError};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_till1, take_while1};
use nom::character::complete::{char as ch, digit1};
use nom::combinator::{cut, map, map_opt, opt, peek, recognize, rest, value};
use nom::sequence::{delimited, preceded};
use nom::Parser;

/// One KIF move line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KifLine<'a> {
    /// The move number as written.
    pub number: u32,
    /// A ▲/△ mark after the number (a dialect).
    pub mark: Option<Color>,
    /// Byte offset of the body.
    pub body_offset: usize,
    /// The body text as written (up to the time).
    pub written: &'a str,
    /// The move or terminal.
    pub body: Body<'a>,
    /// The time, if written.
    pub time: Option<MoveTime>,
    /// The trailing `+` branch mark.
    pub branch: bool,
    /// Byte offset of unexpected trailing text, if any.
    pub trailing: Option<usize>,
}

/// A move number, ASCII or full-width digits (`12`, `１２`).
fn number(i: &str) -> PResult<&str, u32> {
    let digits = take_while1(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    let value = |d: &str| {
        d.chars().try_fold(0u32, |n, c| {
            let v = c.to_digit(10).unwrap_or_else(|| c as u32 - '０' as u32);
            n.checked_mul(10)?.checked_add(v)
        })
    };
    expect(A_MOVE_NUMBER, map_opt(digits, value)).parse(i)
}

/// One field of a time: digits (an explicit `+` tolerated).
fn time_field(i: &str) -> PResult<&str, u64> {
    map_opt(
        delimited(spaces, preceded(opt(ch('+')), digit1), spaces),
        |d: &str| d.parse::<u64>().ok(),
    )
    .parse(i)
}

/// `s`, `m:s` or `h:m:s` in milliseconds; nothing (spaces) is `None`.
fn clock(i: &str) -> PResult<&str, Option<u64>> {
    let colon = || preceded(ch(':'), time_field);
    let fields = (time_field, opt(colon()), opt(colon()));
    let to_ms = |(a, b, c): (u64, Option<u64>, Option<u64>)| {
        let secs = match (b, c) {
            (None, _) => a,
            (Some(s), None) => a.checked_mul(60)?.checked_add(s)?,
            (Some(m), Some(s)) => a
                .checked_mul(3600)?
                .checked_add(m.checked_mul(60)?)?
                .checked_add(s)?,
        };
        secs.checked_mul(1000)
    };
    alt((map(map_opt(fields, to_ms), Some), value(None, spaces))).parse(i)
}

/// A KIF time `( 0:12/00:01:05)`; tolerates spaces, `00:01 / 00:00:01`, a
/// missing total (`0:5/`) and an hour field in the spent part.
pub fn time(i: &str) -> PResult<&str, MoveTime> {
    peek(expect(
        A_TIME_CLOSE,
        (ch('('), take_till(|c| c == ')'), ch(')')),
    ))
    .parse(i)?;
    let inner = (clock, opt(preceded(ch('/'), clock)));
    let mt = |(spent_ms, total): (Option<u64>, Option<Option<u64>>)| MoveTime {
        spent_ms,
        total_ms: total.flatten(),
    };
    expect(A_TIME, map(delimited(ch('('), inner, ch(')')), mt)).parse(i)
}

/// A word of a KIF terminal line: up to a space, `(` or `+`.
fn word(i: &str) -> PResult<&str, &str> {
    take_till1(|c: char| is_space(c) || c == '(' || c == '+').parse(i)
}

/// A terminal word as written, with the side first as Shogi Club 24 writes
/// it (`先手 反則負け`).
fn terminal(i: &str) -> PResult<&str, &str> {
    let side = alt((tag("先手"), tag("下手"), tag("後手"), tag("上手")));
    expect(
        A_MOVE_OR_TERMINAL,
        alt((recognize((side, take_while1(is_space), word)), word)),
    )
    .parse(i)
}

/// The body of a KIF move line: a move when it starts with a destination,
/// else a terminal word.
fn kif_body(i: &str) -> PResult<&str, Body<'_>> {
    alt((
        preceded(peek(dest), cut(map(move_text, Body::Move))),
        map(terminal, Body::Terminal),
    ))
    .parse(i)
}

/// Parses a KIF move line (`   1 ７六歩(77)   ( 0:01/00:00:01)+`).
pub fn kif_line(line: &str) -> Result<KifLine<'_>, SyntaxError<&str>> {
    kif_line_parts(line)
        .map(|(_, l)| l)
        .map_err(|e| into_error(e, line))
}

fn kif_line_parts(line: &str) -> PResult<&str, KifLine<'_>> {
    let (i, (_, number, _, mark)) = (spaces, number, spaces, opt(side_mark)).parse(line)?;
    let body_offset = offset(line, i);
    let (after, body) = kif_body(i)?;
    let written = &i[..i.len() - after.len()];
    let (i, (_, time, _, branch, _, trailing)) = (
        spaces,
        opt(preceded(peek(ch('(')), cut(time))),
        spaces,
        opt(preceded(spaces, ch('+'))),
        spaces,
        rest,
    )
        .parse(after)?;
    let _ = i;
    Ok((
        "",
        KifLine {
            number,
            mark,
            body_offset,
            written,
            body,
            time,
            branch: branch.is_some(),
            trailing: (!trailing.is_empty()).then(|| offset(line, trailing)),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::role::Role;

    #[test]
    fn kif_lines() {
        let l = kif_line("   1 ７六歩(77)   ( 0:01/00:00:01)+").unwrap();
        assert_eq!(l.number, 1);
        assert!(l.branch);
        assert_eq!(l.written, "７六歩(77)");
        assert_eq!(
            l.time,
            Some(MoveTime {
                spent_ms: Some(1000),
                total_ms: Some(1000)
            })
        );
        let l = kif_line("  10 同　玉(22)").unwrap();
        match l.body {
            Body::Move(m) => {
                assert_eq!(m.dest, Dest::Same);
                assert_eq!(m.role, Role::King);
            }
            _ => panic!(),
        }
        let l = kif_line("  12 詰み         ( 0:00/00:00:00)").unwrap();
        assert_eq!(l.body, Body::Terminal("詰み"));
        let l = kif_line("1 ７六歩(77) (00:01 / 00:00:01)").unwrap();
        assert_eq!(l.time.unwrap().total_ms, Some(1000));
        let l = kif_line("5 ５五角(33) ( 0:5/)").unwrap();
        assert_eq!(l.time.unwrap().spent_ms, Some(5000));
        assert_eq!(l.time.unwrap().total_ms, None);
        assert!(kif_line("3 ７六x(77)").is_err());
    }
}
