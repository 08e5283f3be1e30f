//! The per-line grammar of KIF and KI2 move text: syntax only, no position.
//!
//! Small named nom 8 parsers over one line, failing with the shared
//! [`SyntaxError`] (what was expected, where). The lexicon (numerals,
//! squares, piece names, side marks, move words) is made of parsers too:
//! [`word_of`] reads one word of a table. [`message`] turns an error into
//! the finding's text, once, in the reader.

use crate::color::Color;
use crate::japanese::{digit_value, is_space, kanji_value};
use crate::ki2::notation::{Horizontal, RelativeMark, Vertical};
use crate::read::syntax::{expect, into_error, PResult, SyntaxError};
use crate::record::MoveTime;
use crate::role::Role;
use crate::square::Square;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_till1, take_while, take_while1};
use nom::character::complete::{anychar, char as ch, digit1};
use nom::combinator::{cut, map, map_opt, opt, peek, recognize, rest, value, verify};
use nom::multi::fold_many0;
use nom::sequence::{delimited, preceded, terminated};
use nom::Parser;

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

// What the grammar expects, as the findings say it.
const A_MOVE_NUMBER: &str = "a move number";
const A_SQUARE: &str = "a square like `７六` or `同`";
const A_PIECE: &str = "a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)";
const A_MOVE_OR_TERMINAL: &str = "a move or a terminal word";
const A_TIME: &str = "a time like `( 0:12/00:01:05)`";
const A_TIME_CLOSE: &str = "`)` closing the time";
const A_SIDE_MARK: &str = "▲ or △ starting a move";
const A_KI2_SUFFIX: &str = "右 左 直 上 寄 引 成 不成 打 or the next move";
const A_MOVE_AFTER_MARK: &str = "a move after the side mark";
const A_DIGIT: &str = "a digit 1 to 9";

/// The finding's message for a grammar error: `expected …, found `…``
/// quoting the character found (the whole `(…)` for a time), or just
/// `expected …` where the place says enough.
pub fn message(e: &SyntaxError<&str>) -> String {
    match e.expected {
        A_MOVE_NUMBER | A_TIME_CLOSE | A_MOVE_AFTER_MARK => format!("expected {}", e.expected),
        A_TIME => {
            let q = e.at.find(')').map_or(e.at, |c| &e.at[..=c]);
            format!("expected {}, found `{q}`", e.expected)
        }
        _ => match e.at.chars().next() {
            Some(c) => format!("expected {}, found `{c}`", e.expected),
            None => format!("expected {}, found `end of line`", e.expected),
        },
    }
}

/// Byte offset of `rest` (a subslice of `line`) in `line`.
pub fn offset(line: &str, rest: &str) -> usize {
    (rest.as_ptr() as usize)
        .saturating_sub(line.as_ptr() as usize)
        .min(line.len())
}

/// One word of `table` at the start of the input (the first that matches,
/// so longer words go first), with its value.
pub fn word_of<'a, T: Copy>(
    expected: &'static str,
    table: &'static [(&'static str, T)],
) -> impl Fn(&'a str) -> PResult<&'a str, T> {
    move |i: &'a str| {
        // A table lookup: an `alt` of 25 `tag`s would say the same, slower.
        match table.iter().find(|(w, _)| i.starts_with(w)) {
            Some(&(w, v)) => Ok((&i[w.len()..], v)),
            None => Err(nom::Err::Error(SyntaxError::new(i, expected))),
        }
    }
}

/// Spaces KIF/KI2 files use (ASCII space, tab, U+3000), possibly none.
pub fn spaces(i: &str) -> PResult<&str, &str> {
    take_while(is_space).parse(i)
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

/// The side mark ▲△ (and ☗☖ ▼▽).
pub fn side_mark(i: &str) -> PResult<&str, Color> {
    alt((
        value(Color::Black, alt((tag("▲"), tag("☗"), tag("▼")))),
        value(Color::White, alt((tag("△"), tag("☖"), tag("▽")))),
    ))
    .parse(i)
}

/// Whether `c` starts a KI2 move (a side mark).
fn is_side_mark(c: char) -> bool {
    matches!(c, '▲' | '△' | '☗' | '☖' | '▼' | '▽')
}

/// A file digit: full-width `１`..`９` or ASCII `1`..`9`.
fn file_digit(i: &str) -> PResult<&str, u8> {
    expect(A_DIGIT, map_opt(anychar, digit_value)).parse(i)
}

/// A rank: kanji `一`..`九` (or a digit, tolerated).
fn rank_numeral(i: &str) -> PResult<&str, u8> {
    expect(A_DIGIT, map_opt(anychar, kanji_value)).parse(i)
}

/// A square `７六` (also `7六`, `７6`).
pub fn square(i: &str) -> PResult<&str, Square> {
    expect(
        A_SQUARE,
        map_opt((file_digit, rank_numeral), |(f, r)| Square::new(f, r)),
    )
    .parse(i)
}

/// The destination: a square, or `同` (with U+3000, ASCII space(s) or
/// nothing after it; a square may follow).
fn dest(i: &str) -> PResult<&str, Dest> {
    expect(
        A_SQUARE,
        alt((
            map(square, Dest::Square),
            value(Dest::Same, (tag("同"), spaces, opt(square))),
        )),
    )
    .parse(i)
}

/// Piece names accepted in moves, longest first (so `成銀` wins over `成`).
const ROLE_NAMES: &[(&str, Role)] = &[
    ("ライオン", Role::King),
    ("にわとり", Role::ProPawn),
    ("ひよこ", Role::Pawn),
    ("きりん", Role::Giraffe),
    ("ぞう", Role::Elephant),
    ("成銀", Role::ProSilver),
    ("成桂", Role::ProKnight),
    ("成香", Role::ProLance),
    ("成歩", Role::ProPawn),
    ("歩", Role::Pawn),
    ("香", Role::Lance),
    ("桂", Role::Knight),
    ("銀", Role::Silver),
    ("金", Role::Gold),
    ("角", Role::Bishop),
    ("飛", Role::Rook),
    ("玉", Role::King),
    ("王", Role::King),
    ("と", Role::ProPawn),
    ("全", Role::ProSilver),
    ("圭", Role::ProKnight),
    ("杏", Role::ProLance),
    ("馬", Role::Horse),
    ("龍", Role::Dragon),
    ("竜", Role::Dragon),
];

/// A piece name (`歩`, `成銀`, `全`, `竜`, `王`, doubutsu `ひよこ`, …).
pub fn role(i: &str) -> PResult<&str, Role> {
    word_of(A_PIECE, ROLE_NAMES).parse(i)
}

/// A KIF origin `(77)` (ASCII or full-width digits).
fn origin(i: &str) -> PResult<&str, Square> {
    map_opt(
        delimited(ch('('), (file_digit, file_digit), ch(')')),
        |(f, r)| Square::new(f, r),
    )
    .parse(i)
}

/// What may follow the piece, in any order and repeated (the last wins).
#[derive(Clone, Copy)]
enum Suffix {
    Promote,
    NoPromote,
    Drop,
    Horizontal(Horizontal),
    Vertical(Vertical),
    Origin(Square),
}

/// Move words after the piece (成 不成 生 打 右 左 直 上 行 寄 引) with their
/// meaning.
const SUFFIX_WORDS: &[(&str, Suffix)] = &[
    ("不成", Suffix::NoPromote),
    ("生", Suffix::NoPromote),
    ("成", Suffix::Promote),
    ("打", Suffix::Drop),
    ("右", Suffix::Horizontal(Horizontal::Right)),
    ("左", Suffix::Horizontal(Horizontal::Left)),
    ("直", Suffix::Horizontal(Horizontal::Straight)),
    ("上", Suffix::Vertical(Vertical::Up)),
    ("行", Suffix::Vertical(Vertical::Up)),
    ("寄", Suffix::Vertical(Vertical::Sideways)),
    ("引", Suffix::Vertical(Vertical::Down)),
];

fn suffix(i: &str) -> PResult<&str, Suffix> {
    alt((
        word_of(A_KI2_SUFFIX, SUFFIX_WORDS),
        map(origin, Suffix::Origin),
    ))
    .parse(i)
}

impl MoveText {
    fn with(mut self, s: Suffix) -> MoveText {
        match s {
            Suffix::Promote => self.promote = Some(true),
            Suffix::NoPromote => {
                self.promote = Some(false);
                self.wrote_funari = true;
            }
            Suffix::Drop => {
                self.origin = Origin::Drop;
                self.mark.drop = true;
            }
            Suffix::Horizontal(h) => self.mark.horizontal = Some(h),
            Suffix::Vertical(v) => self.mark.vertical = Some(v),
            Suffix::Origin(sq) => self.origin = Origin::Square(sq),
        }
        self
    }
}

/// A move: destination and piece, then promotion/origin (KIF) or relative
/// marks (KI2) in any order.
pub fn move_text(i: &str) -> PResult<&str, MoveText> {
    let (i, (dest, role)) = (dest, role).parse(i)?;
    let mt = MoveText {
        dest,
        role,
        promote: None,
        origin: Origin::None,
        mark: RelativeMark::NONE,
        wrote_funari: false,
    };
    fold_many0(suffix, move || mt, MoveText::with).parse(i)
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

/// Whether a line is a KIF move line (`^\s*\d+`).
pub fn is_move_line(line: &str) -> bool {
    let t = line.trim_start_matches(is_space);
    t.chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
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

/// The body of a KI2 token (the text up to the next side mark, trailing
/// spaces trimmed): a move and nothing after it, or a terminal word.
fn ki2_body(i: &str) -> PResult<&str, Body<'_>> {
    let the_end = expect(A_KI2_SUFFIX, nom::combinator::eof);
    let word = verify(preceded(spaces, rest), |w: &str| !w.is_empty());
    alt((
        preceded(
            peek(dest),
            cut(terminated(map(move_text, Body::Move), the_end)),
        ),
        expect(A_MOVE_AFTER_MARK, map(word, Body::Terminal)),
    ))
    .parse(i)
}

/// One KI2 token: a side mark and what follows up to the next mark; the
/// body is parsed on its own slice (so the token's end is where a move
/// must end).
fn ki2_token(i: &str) -> PResult<&str, (Color, &str, Body<'_>)> {
    let (after_mark, color) = expect(A_SIDE_MARK, side_mark).parse(i)?;
    let (next, token) = take_till(is_side_mark).parse(after_mark)?;
    let body_text = token.trim_end_matches(is_space);
    let (_, body) = ki2_body(body_text)?;
    let written = &i[..i.len() - after_mark.len() + body_text.len()];
    let (next, _) = spaces(next)?;
    Ok((next, (color, written, body)))
}

/// The tokens of a KI2 move line, in order; an error ends them.
pub struct Ki2Tokens<'a> {
    line: &'a str,
    rest: &'a str,
}

impl<'a> Iterator for Ki2Tokens<'a> {
    type Item = Result<Ki2Token<'a>, SyntaxError<&'a str>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let start = self.rest;
        match ki2_token(start) {
            Ok((next, (color, written, body))) => {
                self.rest = next;
                Some(Ok(Ki2Token {
                    offset: offset(self.line, start),
                    color,
                    written,
                    body,
                }))
            }
            Err(e) => {
                self.rest = "";
                Some(Err(into_error(e, start)))
            }
        }
    }
}

/// The tokens of a KI2 move line (`▲７六歩    △３四歩`), without
/// allocating.
pub fn ki2_tokens(line: &str) -> Ki2Tokens<'_> {
    Ki2Tokens {
        line,
        rest: line.trim_start_matches(is_space),
    }
}

/// Splits a KI2 move line into tokens and parses each. Stops at the first
/// error, returning the tokens before it and the error.
pub fn ki2_line(line: &str) -> (Vec<Ki2Token<'_>>, Option<SyntaxError<&str>>) {
    let mut out = Vec::new();
    for t in ki2_tokens(line) {
        match t {
            Ok(t) => out.push(t),
            Err(e) => return (out, Some(e)),
        }
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
