//! The move grammar KIF and KI2 share: nom 8 parsers for the vocabulary
//! (side marks, squares, piece names, move words) and the move text
//! (destination or `同`, piece, then 成 不成 生 打 右 左 直 上 寄 引 and a
//! KIF origin `(77)` in any order), with the syntactic move they produce.
//! Syntax only, no position. Errors are the shared [`SyntaxError`];
//! [`message`] turns one into the finding's text, once, in the reader.

use super::lexicon::{digit_value, is_space, kanji_value, ROLE_NAMES};
use super::marks::{Horizontal, RelativeMark, Vertical};
use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::text::syntax::{expect, PResult, SyntaxError};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while};
use nom::character::complete::{anychar, char as ch};
use nom::combinator::{map, map_opt, opt, value};
use nom::multi::fold_many0;
use nom::sequence::delimited;
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

/// One move token of a KI2 line read on its bytes (`ki2::fast`): a side
/// mark and a plain move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveToken {
    /// Byte offset of the side mark.
    pub(crate) start: usize,
    /// Byte offset of the end of the move text (the token as written is
    /// `start..end`).
    pub(crate) end: usize,
    /// The 1-based column (in characters) of the side mark.
    pub(crate) col: u32,
    /// The side mark.
    pub(crate) color: Color,
    /// The move.
    pub(crate) mt: MoveText,
}

// What the grammar expects, as the findings say it.
pub(crate) const A_MOVE_NUMBER: &str = "a move number";
pub(crate) const A_SQUARE: &str = "a square like `７六` or `同`";
pub(crate) const A_PIECE: &str = "a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)";
pub(crate) const A_MOVE_OR_TERMINAL: &str = "a move or a terminal word";
pub(crate) const A_TIME: &str = "a time like `( 0:12/00:01:05)`";
pub(crate) const A_TIME_CLOSE: &str = "`)` closing the time";
pub(crate) const A_SIDE_MARK: &str = "▲ or △ starting a move";
pub(crate) const A_KI2_SUFFIX: &str = "右 左 直 上 寄 引 成 不成 打 or the next move";
pub(crate) const A_MOVE_AFTER_MARK: &str = "a move after the side mark";
pub(crate) const A_DIGIT: &str = "a digit 1 to 9";

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

/// The side mark ▲△ (and ☗☖ ▼▽).
pub fn side_mark(i: &str) -> PResult<&str, Color> {
    alt((
        value(Color::Black, alt((tag("▲"), tag("☗"), tag("▼")))),
        value(Color::White, alt((tag("△"), tag("☖"), tag("▽")))),
    ))
    .parse(i)
}

/// Whether `c` starts a KI2 move (a side mark).
pub fn is_side_mark(c: char) -> bool {
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
pub fn dest(i: &str) -> PResult<&str, Dest> {
    expect(
        A_SQUARE,
        alt((
            map(square, Dest::Square),
            value(Dest::Same, (tag("同"), spaces, opt(square))),
        )),
    )
    .parse(i)
}

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
pub(crate) enum Suffix {
    Promote,
    NoPromote,
    Drop,
    Horizontal(Horizontal),
    Vertical(Vertical),
    Origin(Square),
}

/// Move words after the piece (成 不成 生 打 右 左 直 上 行 寄 引) with their
/// meaning.
pub(crate) const SUFFIX_WORDS: &[(&str, Suffix)] = &[
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
    pub(crate) fn with(mut self, s: Suffix) -> MoveText {
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

/// Whether a line is a KIF move line (`^\s*\d+`).
pub fn is_move_line(line: &str) -> bool {
    let t = line.trim_start_matches(is_space);
    t.chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
}

/// Whether a line holds KI2 moves (starts with a side mark).
pub fn is_ki2_move_line(line: &str) -> bool {
    line.trim_start_matches(is_space).starts_with(is_side_mark)
}

// The fast path. Most move lines are the plain shape every program writes
// (`７六歩(77)`, `同　角成`, `▲５五金左上`); they are read here by hand, one
// character at a time, with the tables the parsers above use. Whatever this
// path does not recognise with certainty (a dialect, an error, an overflow)
// it leaves to the nom parsers, so findings (columns, messages) come from
// one place. A proptest checks that both agree wherever the fast path
// answers.

/// The first character of `i` and the rest.
#[inline]
fn next_char(i: &str) -> Option<(char, &str)> {
    let c = i.chars().next()?;
    Some((c, &i[c.len_utf8()..]))
}

/// [`spaces`] without nom.
#[inline]
pub(crate) fn skip_spaces(i: &str) -> &str {
    let b = i.as_bytes();
    let mut k = 0;
    loop {
        match b.get(k..k + 1) {
            Some(b" " | b"\t") => k += 1,
            // U+3000 IDEOGRAPHIC SPACE.
            Some(b"\xE3") if b.get(k..k + 3) == Some("\u{3000}".as_bytes()) => k += 3,
            _ => return &i[k..],
        }
    }
}

/// [`square`] without nom: `None` where it fails.
#[inline]
fn square_fast(i: &str) -> Option<(&str, Square)> {
    let (f, r1) = next_char(i)?;
    let file = digit_value(f)?;
    let (r, r2) = next_char(r1)?;
    let rank = kanji_value(r)?;
    Some((r2, Square::new(file, rank)?))
}

/// [`dest`] without nom: `None` where it fails.
#[inline]
pub(crate) fn dest_fast(i: &str) -> Option<(&str, Dest)> {
    if let Some((rest, sq)) = square_fast(i) {
        return Some((rest, Dest::Square(sq)));
    }
    let rest = skip_spaces(i.strip_prefix('同')?);
    Some((square_fast(rest).map_or(rest, |(r, _)| r), Dest::Same))
}

/// [`move_text`] without nom: `Some` only where `move_text` succeeds with
/// the same rest and move; `None` where it fails.
pub(crate) fn move_text_fast(i: &str) -> Option<(&str, MoveText)> {
    let (i, dest) = dest_fast(i)?;
    let &(name, role) = ROLE_NAMES.iter().find(|(n, _)| i.starts_with(n))?;
    let mut i = &i[name.len()..];
    let mut mt = MoveText {
        dest,
        role,
        promote: None,
        origin: Origin::None,
        mark: RelativeMark::NONE,
        wrote_funari: false,
    };
    loop {
        if let Some(&(w, s)) = SUFFIX_WORDS.iter().find(|(w, _)| i.starts_with(w)) {
            mt = mt.with(s);
            i = &i[w.len()..];
            continue;
        }
        if let Some(r) = i.strip_prefix('(') {
            let origin = next_char(r).and_then(|(f, r)| {
                let (k, r) = next_char(r)?;
                let sq = Square::new(digit_value(f)?, digit_value(k)?)?;
                Some((r.strip_prefix(')')?, sq))
            });
            if let Some((r, sq)) = origin {
                mt = mt.with(Suffix::Origin(sq));
                i = r;
                continue;
            }
        }
        return Some((i, mt));
    }
}
