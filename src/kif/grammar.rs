//! The per-line grammar of KIF and KI2 move text: syntax only, no position.

use crate::japanese::{is_space, parse_role, parse_square};
use crate::ki2::notation::{Horizontal, RelativeMark, Vertical};
use crate::record::MoveTime;
use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::square::Square;
use nom7::branch::alt;
use nom7::bytes::complete::{tag, take_while, take_while1};
use nom7::character::complete::char as ch;
use nom7::combinator::{map, map_res, opt};
use nom7::sequence::{delimited, preceded, tuple};
use nom7::IResult;

/// A syntax problem: byte offset into the line and a message saying what
/// was expected and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset of the problem in the line.
    pub offset: usize,
    /// What was expected, what was found.
    pub message: String,
}

/// The destination of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// A square.
    Square(Square),
    /// `同`: the previous move's destination.
    Same,
}

/// Where a KIF move comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `(77)`.
    Square(Square),
    /// `打`.
    Drop,
    /// Not given (KI2 style inside a KIF file).
    None,
}

/// A move body: dest, piece, promotion, origin / relative mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Destination.
    pub dest: Dest,
    /// The piece named (before promotion).
    pub role: Role,
    /// `Some(true)` = 成, `Some(false)` = 不成/生, `None` = neither.
    pub promote: Option<bool>,
    /// KIF origin.
    pub origin: Origin,
    /// KI2 relative mark (`打` included).
    pub mark: RelativeMark,
    /// Whether `不成` was written (a KIF dialect).
    pub wrote_funari: bool,
}

/// The body of a move line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body<'a> {
    /// A move.
    Move(MoveText),
    /// A terminal word (`投了`, …) as written.
    Terminal(&'a str),
}

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

fn spaces(s: &str) -> IResult<&str, &str> {
    take_while(is_space)(s)
}

fn number(s: &str) -> IResult<&str, u32> {
    map_res(
        take_while1(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c)),
        |d: &str| {
            d.chars()
                .map(|c| {
                    if c.is_ascii_digit() {
                        c
                    } else {
                        char::from(b'0' + (c as u32 - '０' as u32) as u8)
                    }
                })
                .collect::<String>()
                .parse::<u32>()
        },
    )(s)
}

/// The side mark ▲△ (and ☗☖ ▼▽).
pub fn side_mark(s: &str) -> IResult<&str, Color> {
    alt((
        map(alt((tag("▲"), tag("☗"), tag("▼"))), |_| Color::Black),
        map(alt((tag("△"), tag("☖"), tag("▽"))), |_| Color::White),
    ))(s)
}

fn square(s: &str) -> IResult<&str, Square> {
    match parse_square(s) {
        Some((sq, n)) => Ok((&s[n..], sq)),
        None => Err(nom7::Err::Error(nom7::error::Error::new(
            s,
            nom7::error::ErrorKind::Tag,
        ))),
    }
}

fn dest(s: &str) -> IResult<&str, Dest> {
    alt((
        map(square, Dest::Square),
        // 同 with U+3000, ASCII space(s) or nothing; a square may follow.
        map(tuple((tag("同"), spaces, opt(square))), |_| Dest::Same),
    ))(s)
}

fn role(s: &str) -> IResult<&str, Role> {
    match parse_role(s) {
        Some((r, n)) => Ok((&s[n..], r)),
        None => Err(nom7::Err::Error(nom7::error::Error::new(
            s,
            nom7::error::ErrorKind::Tag,
        ))),
    }
}

fn ascii_or_wide_digit(s: &str) -> IResult<&str, u8> {
    let c = s.chars().next();
    match c.and_then(crate::japanese::digit_value) {
        Some(v) => Ok((&s[c.map_or(0, |c| c.len_utf8())..], v)),
        None => Err(nom7::Err::Error(nom7::error::Error::new(
            s,
            nom7::error::ErrorKind::Digit,
        ))),
    }
}

fn origin(s: &str) -> IResult<&str, Square> {
    map_res(
        delimited(
            ch('('),
            tuple((ascii_or_wide_digit, ascii_or_wide_digit)),
            ch(')'),
        ),
        |(f, r)| Square::new(f, r).ok_or(()),
    )(s)
}

/// Byte offset of `rest` (a subslice of `line`) in `line`.
fn off(line: &str, rest: &str) -> usize {
    (rest.as_ptr() as usize)
        .saturating_sub(line.as_ptr() as usize)
        .min(line.len())
}

/// Parses a destination and piece, then promotion/origin (KIF) or relative
/// marks (KI2) in any order.
pub fn move_text<'a>(line: &str, start: &'a str) -> Result<(MoveText, &'a str), SyntaxError> {
    let (rest, d) = dest(start).map_err(|_| SyntaxError {
        offset: off(line, start),
        message: format!(
            "expected a square like `７六` or `同`, found `{}`",
            start
                .chars()
                .next()
                .map_or(String::from("end of line"), |c| c.to_string())
        ),
    })?;
    let (mut rest, r) =
        role(rest).map_err(|_| SyntaxError {
            offset: off(line, rest),
            message: format!(
            "expected a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍), found `{}`",
            rest.chars().next().map_or(String::from("end of line"), |c| c.to_string())
        ),
        })?;
    let mut mt = MoveText {
        dest: d,
        role: r,
        promote: None,
        origin: Origin::None,
        mark: RelativeMark::NONE,
        wrote_funari: false,
    };
    loop {
        if let Some(r) = rest.strip_prefix("不成") {
            mt.promote = Some(false);
            mt.wrote_funari = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('生') {
            mt.promote = Some(false);
            mt.wrote_funari = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('成') {
            mt.promote = Some(true);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('打') {
            mt.origin = Origin::Drop;
            mt.mark.drop = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('右') {
            mt.mark.horizontal = Some(Horizontal::Right);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('左') {
            mt.mark.horizontal = Some(Horizontal::Left);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('直') {
            mt.mark.horizontal = Some(Horizontal::Straight);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('上').or_else(|| rest.strip_prefix('行')) {
            mt.vertical_set(Vertical::Up);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('寄') {
            mt.vertical_set(Vertical::Sideways);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('引') {
            mt.vertical_set(Vertical::Down);
            rest = r;
        } else if let Ok((r, sq)) = origin(rest) {
            mt.origin = Origin::Square(sq);
            rest = r;
        } else {
            break;
        }
    }
    Ok((mt, rest))
}

impl MoveText {
    fn vertical_set(&mut self, v: Vertical) {
        self.mark.vertical = Some(v);
    }
}

fn time_fields(s: &str) -> Option<Vec<u64>> {
    let t = s.trim_matches(is_space);
    if t.is_empty() {
        return Some(Vec::new());
    }
    t.split(':')
        .map(|p| p.trim_matches(is_space).parse::<u64>().ok())
        .collect()
}

fn to_ms(fields: &[u64]) -> Option<u64> {
    let secs = match fields {
        [] => return None,
        [s] => *s,
        [m, s] => m.checked_mul(60)?.checked_add(*s)?,
        [h, m, s] => h
            .checked_mul(3600)?
            .checked_add(m.checked_mul(60)?)?
            .checked_add(*s)?,
        _ => return None,
    };
    secs.checked_mul(1000)
}

/// Parses the inside of a KIF time `( 0:12/00:01:05)` (without the
/// parentheses); tolerates spaces, `00:01 / 00:00:01`, a missing total
/// (`0:5/`) and an hour field in the spent part.
pub fn parse_time(inner: &str) -> Option<MoveTime> {
    let (a, b) = match inner.split_once('/') {
        Some((a, b)) => (a, b),
        None => (inner, ""),
    };
    let a = time_fields(a)?;
    let b = time_fields(b)?;
    if a.len() > 3 || b.len() > 3 {
        return None;
    }
    let spent = to_ms(&a);
    let total = to_ms(&b);
    if !a.is_empty() && spent.is_none() || !b.is_empty() && total.is_none() {
        return None;
    }
    Some(MoveTime {
        spent_ms: spent,
        total_ms: total,
    })
}

/// Whether a line is a KIF move line (`^\s*\d+`).
pub fn is_move_line(line: &str) -> bool {
    let t = line.trim_start_matches(is_space);
    t.chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
}

/// Parses a KIF move line (`   1 ７六歩(77)   ( 0:01/00:00:01)+`).
pub fn kif_line(line: &str) -> Result<KifLine<'_>, SyntaxError> {
    let (rest, _) = spaces(line).unwrap_or((line, ""));
    let (rest, n) = number(rest).map_err(|_| SyntaxError {
        offset: off(line, rest),
        message: "expected a move number".to_string(),
    })?;
    let (rest, _) = spaces(rest).unwrap_or((rest, ""));
    let (rest, mark) = opt(side_mark)(rest).unwrap_or((rest, None));
    let body_offset = off(line, rest);
    let (body, after) = if rest.starts_with('同') || parse_square(rest).is_some() {
        let (mt, after) = move_text(line, rest)?;
        (Body::Move(mt), after)
    } else {
        let word_end = |t: &str| {
            t.find(|c: char| is_space(c) || c == '(' || c == '+')
                .unwrap_or(t.len())
        };
        let mut end = word_end(rest);
        // Shogi Club 24 names the side first: `  93 先手 反則負け`.
        if crate::japanese::side_word(&rest[..end]).is_some_and(|(_, n)| n == end) {
            let after = rest[end..].trim_start_matches(is_space);
            let next = word_end(after);
            if next > 0 && after.len() < rest.len() - end {
                end = rest.len() - after.len() + next;
            }
        }
        if end == 0 {
            return Err(SyntaxError {
                offset: body_offset,
                message: format!(
                    "expected a move or a terminal word, found `{}`",
                    rest.chars()
                        .next()
                        .map_or(String::from("end of line"), |c| c.to_string())
                ),
            });
        }
        (Body::Terminal(&rest[..end]), &rest[end..])
    };
    let written = &line[body_offset..off(line, after)];
    let (mut rest, _) = spaces(after).unwrap_or((after, ""));
    let mut time = None;
    if rest.starts_with('(') {
        match rest.find(')') {
            Some(close) => {
                let inner = &rest[1..close];
                time = Some(parse_time(inner).ok_or_else(|| SyntaxError {
                    offset: off(line, rest),
                    message: format!("expected a time like `( 0:12/00:01:05)`, found `({inner})`"),
                })?);
                rest = &rest[close + 1..];
            }
            None => {
                return Err(SyntaxError {
                    offset: off(line, rest),
                    message: "expected `)` closing the time".to_string(),
                })
            }
        }
    }
    let (rest, _) = spaces(rest).unwrap_or((rest, ""));
    let (rest, branch) = match preceded(spaces, ch::<&str, nom7::error::Error<&str>>('+'))(rest) {
        Ok((r, _)) => (r, true),
        Err(_) => (rest, false),
    };
    let (rest, _) = spaces(rest).unwrap_or((rest, ""));
    let trailing = (!rest.is_empty()).then(|| off(line, rest));
    Ok(KifLine {
        number: n,
        mark,
        body_offset,
        written,
        body,
        time,
        branch,
        trailing,
    })
}

/// One KI2 move token (between side marks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ki2Token<'a> {
    /// Byte offset of the mark in the line.
    pub offset: usize,
    /// The side mark.
    pub color: Color,
    /// The token as written (mark included, spaces trimmed).
    pub written: &'a str,
    /// The move or a terminal word.
    pub body: Body<'a>,
}

/// Whether a line holds KI2 moves (starts with a side mark).
pub fn is_ki2_move_line(line: &str) -> bool {
    side_mark(line.trim_start_matches(is_space)).is_ok()
}

/// Splits a KI2 move line into tokens and parses each. Stops at the first
/// error, returning the tokens before it and the error.
pub fn ki2_line(line: &str) -> (Vec<Ki2Token<'_>>, Option<SyntaxError>) {
    let mut out = Vec::new();
    let mut rest = line.trim_start_matches(is_space);
    while !rest.is_empty() {
        let start = off(line, rest);
        let (after_mark, color) = match side_mark(rest) {
            Ok(x) => x,
            Err(_) => {
                return (
                    out,
                    Some(SyntaxError {
                        offset: start,
                        message: format!(
                            "expected ▲ or △ starting a move, found `{}`",
                            rest.chars().next().unwrap_or(' ')
                        ),
                    }),
                )
            }
        };
        // The token runs to the next mark.
        let end = after_mark
            .char_indices()
            .find(|&(_, c)| matches!(c, '▲' | '△' | '☗' | '☖' | '▼' | '▽'))
            .map_or(after_mark.len(), |(i, _)| i);
        let token = &after_mark[..end];
        let body_text = token.trim_end_matches(is_space);
        let written = &line[start..off(line, after_mark) + body_text.len()];
        let body = if body_text.starts_with('同') || parse_square(body_text).is_some() {
            match move_text(line, body_text) {
                Ok((mt, r)) => {
                    if !r.is_empty() {
                        return (
                            out,
                            Some(SyntaxError {
                                offset: off(line, r),
                                message: format!(
                                    "expected 右 左 直 上 寄 引 成 不成 打 or the next move, found `{}`",
                                    r.chars().next().unwrap_or(' ')
                                ),
                            }),
                        );
                    }
                    Body::Move(mt)
                }
                Err(e) => return (out, Some(e)),
            }
        } else {
            let w = body_text.trim_start_matches(is_space);
            if w.is_empty() {
                return (
                    out,
                    Some(SyntaxError {
                        offset: off(line, after_mark),
                        message: "expected a move after the side mark".to_string(),
                    }),
                );
            }
            Body::Terminal(w)
        };
        out.push(Ki2Token {
            offset: start,
            color,
            written,
            body,
        });
        rest = after_mark[end..].trim_start_matches(is_space);
    }
    (out, None)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn ki2_tokens() {
        let (t, e) = ki2_line("▲７六歩    △３四歩    ▲同　角成  △同銀");
        assert!(e.is_none());
        assert_eq!(t.len(), 4);
        assert_eq!(t[2].written, "▲同　角成");
        let (t, e) = ki2_line("▲５五金左上 △５四銀右引不成");
        assert!(e.is_none());
        match t[1].body {
            Body::Move(m) => {
                assert_eq!(m.mark.horizontal, Some(Horizontal::Right));
                assert_eq!(m.mark.vertical, Some(Vertical::Down));
                assert_eq!(m.promote, Some(false));
            }
            _ => panic!(),
        }
    }
}
