//! Pictures of positions: terminal text ([`text()`]), SVG ([`svg()`]), the
//! KIF board diagram ([`bod()`]), a self-contained HTML viewer of a
//! whole game ([`html`]), and the index page of a collection ([`index`]).
//!
//! Everything here is a pure function from a [`Position`] (plus
//! [`Options`]) to a `String`: no I/O.
//!
//! ```
//! use kifu::diagram::{self, Options};
//! use kifu::{Move, Position, Variant};
//!
//! let before = Position::new(Variant::Standard);
//! let mv = Move::from_usi("7g7f", Variant::Standard).unwrap();
//! let mut pos = before;
//! pos.play(mv).unwrap();
//! let opts = Options {
//!     last_move: Some(mv),
//!     caption: Some(diagram::caption(&before, mv, None, diagram::Notation::Kif)),
//!     ..Options::default()
//! };
//! let svg = diagram::svg(&pos, &opts);
//! assert!(svg.contains(r#"class="hl""#));
//! assert_eq!(svg.matches(r#"class="piece""#).count(), 40);
//! assert!(diagram::text(&pos, &opts).contains("1手目 ▲７六歩"));
//! ```
//!
//! Glyphs: standard and minishogi pieces use their one-character kanji
//! (`歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍`; the king of the side that
//! moves second is drawn `王`, as printed diagrams do). Doubutsu pieces,
//! whose names are words, are drawn with one kanji each: lion `獅`
//! (獅子), giraffe `麒` (麒麟), elephant `象`, chick `雛`, hen `鶏`. The
//! BOD diagram keeps the characters KIF files use (`ラ き ぞ ひ に`).

mod bod;
pub mod html;
pub mod index;
mod svg;
mod text;

pub use bod::bod;
pub use svg::svg;
pub use text::text;

use crate::psn::notation::PsnMove;
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use std::fmt;
use std::str::FromStr;

/// How squares are labelled around the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Coords {
    /// Files `9`–`1` across the top, rank kanji `一`–`九` down the side.
    #[default]
    Japanese,
    /// Files `9`–`1` across the top, ranks `a`–`i` down the side.
    Western,
}

impl FromStr for Coords {
    type Err = String;
    fn from_str(s: &str) -> Result<Coords, String> {
        match s.to_ascii_lowercase().as_str() {
            "japanese" | "ja" | "kanji" => Ok(Coords::Japanese),
            "western" | "en" | "international" => Ok(Coords::Western),
            _ => Err(format!(
                "unknown coordinates `{s}` (expected japanese or western)"
            )),
        }
    }
}

/// Move notation for captions and move lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Japanese: `▲７六歩` in captions, `７六歩(77)` in move lists.
    #[default]
    Kif,
    /// International (PSN): `P-7f`.
    Psn,
}

impl FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Notation, String> {
        match s.to_ascii_lowercase().as_str() {
            "kif" | "ki2" | "japanese" => Ok(Notation::Kif),
            "psn" | "western" | "international" => Ok(Notation::Psn),
            _ => Err(format!("unknown notation `{s}` (expected kif or psn)")),
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Notation::Kif => "kif",
            Notation::Psn => "psn",
        })
    }
}

/// What to draw besides the pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The move that led to the position: its squares are highlighted.
    pub last_move: Option<Move>,
    /// The last move as KI2 writes it (`▲７六歩`), for the BOD
    /// `手数＝N  ▲７六歩  まで` line.
    pub last_move_ki2: Option<String>,
    /// Text under the board (SVG) or below it (text), e.g. from
    /// [`caption`].
    pub caption: Option<String>,
    /// Player names, sente's then gote's.
    pub names: [Option<String>; 2],
    /// Coordinate labels.
    pub coords: Coords,
    /// View the board from gote's side.
    pub flip: bool,
    /// Call the sides 下手/上手 (handicap games) instead of 先手/後手.
    pub handicap: bool,
    /// Colour the text diagram with ANSI escapes (ignored by the others).
    pub color: bool,
}

/// The one-character glyph a diagram draws for `role` of `color` (see the
/// module docs).
pub fn glyph(role: Role, color: Color, variant: Variant) -> char {
    if variant == Variant::Doubutsu {
        match role {
            Role::King => return '獅',
            Role::Giraffe => return '麒',
            Role::Elephant => return '象',
            Role::Pawn => return '雛',
            Role::ProPawn => return '鶏',
            _ => {}
        }
    }
    if role == Role::King && color == Color::White {
        return '王';
    }
    role.board_char(variant)
}

/// The mark of a side: `☗` for sente, `☖` for gote.
pub fn side_mark(color: Color) -> char {
    match color {
        Color::Black => '☗',
        Color::White => '☖',
    }
}

/// The text of `mv` played in `before`: KI2 style (`▲７六歩`, `△同　銀`)
/// or PSN (`P-7f`). `prev_to` is the previous move's destination (for 同).
pub fn move_text(
    before: &Position,
    mv: Move,
    prev_to: Option<Square>,
    notation: Notation,
) -> String {
    match notation {
        Notation::Kif => crate::ki2::move_text(before, mv, prev_to, None, false)
            .unwrap_or_else(|| mv.usi(before.variant()).to_string()),
        Notation::Psn => PsnMove::from_move(before, mv)
            .display(before.variant())
            .to_string(),
    }
}

/// A caption for the position after `mv`: `1手目 ▲７六歩` (KIF) or
/// `1. P-7f` (PSN), numbered as the record numbers the move.
pub fn caption(before: &Position, mv: Move, prev_to: Option<Square>, notation: Notation) -> String {
    let text = move_text(before, mv, prev_to, notation);
    let n = before.ply();
    match notation {
        Notation::Kif => format!("{n}手目 {text}"),
        Notation::Psn => format!("{n}. {text}"),
    }
}

/// Where square `sq` is drawn: `(column, row)` from the top-left corner
/// of the board as the viewer sees it.
pub(crate) fn cell(sq: Square, variant: Variant, flip: bool) -> (u8, u8) {
    let rules = variant.rules();
    if flip {
        (sq.file() - 1, rules.ranks - sq.rank())
    } else {
        (rules.files - sq.file(), sq.rank() - 1)
    }
}

/// The label of the `i`-th column (0 = left) and row (0 = top).
pub(crate) fn file_label(col: u8, variant: Variant, flip: bool) -> u8 {
    let files = variant.rules().files;
    if flip {
        col + 1
    } else {
        files - col
    }
}

/// The rank shown on row `row` (0 = top).
pub(crate) fn rank_of_row(row: u8, variant: Variant, flip: bool) -> u8 {
    let ranks = variant.rules().ranks;
    if flip {
        ranks - row
    } else {
        row + 1
    }
}

/// A rank label: `一` or `a`.
pub(crate) fn rank_label(rank: u8, coords: Coords) -> char {
    match coords {
        Coords::Japanese => crate::japanese::KANJI_DIGITS[(rank - 1) as usize],
        Coords::Western => (b'a' + rank - 1) as char,
    }
}

/// The side names: `先手`/`後手` or `下手`/`上手`.
pub(crate) fn side_name(color: Color, handicap: bool) -> &'static str {
    crate::japanese::side_name(color, handicap)
}

/// The squares a move touches, origin first (a drop has none).
pub(crate) fn move_squares(mv: Move) -> (Option<Square>, Square) {
    match mv {
        Move::Normal { from, to, .. } => (Some(from), to),
        Move::Drop { to, .. } => (None, to),
    }
}

/// Escapes text for XML and HTML content and attribute values.
pub(crate) fn escape_xml(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Characters XML 1.0 does not allow.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_labels() {
        let sq = Square::new(7, 7).unwrap();
        assert_eq!(cell(sq, Variant::Standard, false), (2, 6));
        assert_eq!(cell(sq, Variant::Standard, true), (6, 2));
        assert_eq!(file_label(0, Variant::Standard, false), 9);
        assert_eq!(file_label(0, Variant::Standard, true), 1);
        assert_eq!(rank_of_row(0, Variant::Minishogi, true), 5);
        assert_eq!(rank_label(9, Coords::Western), 'i');
        assert_eq!(rank_label(4, Coords::Japanese), '四');
    }

    #[test]
    fn escaping() {
        let mut s = String::new();
        escape_xml("<a href=\"x\">&'\u{1}", &mut s);
        assert_eq!(s, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;\u{FFFD}");
    }

    #[test]
    fn captions() {
        let pos = Position::new(Variant::Standard);
        let mv = Move::from_usi("7g7f", Variant::Standard).unwrap();
        assert_eq!(caption(&pos, mv, None, Notation::Kif), "1手目 ▲７六歩");
        assert_eq!(caption(&pos, mv, None, Notation::Psn), "1. P-7f");
        assert_eq!(glyph(Role::King, Color::White, Variant::Standard), '王');
        assert_eq!(glyph(Role::King, Color::Black, Variant::Standard), '玉');
        assert_eq!(glyph(Role::ProPawn, Color::Black, Variant::Doubutsu), '鶏');
    }
}
