//! KI2 relative marks (右 左 直 上 寄 引 打) in JKF's letters
//! (`R L C U M D H`). The logic is the KI2 writer's and reader's
//! ([`crate::ki2::relative_mark`], [`crate::ki2::notation::filter_candidates`]):
//! pseudo-legal candidates, as tsshogi and the JKF normalizer use.

use crate::japanese::marks::{filter_candidates, Horizontal, RelativeMark, Vertical};
use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;

/// The JKF `relative` value of a move, if it needs one.
pub fn relative_mark(pos: &Position, mv: Move) -> Option<&'static str> {
    let m = crate::ki2::relative_mark(pos, mv, false);
    if m.drop {
        return Some("H");
    }
    Some(match (m.horizontal, m.vertical) {
        (None, None) => return None,
        (Some(Horizontal::Left), None) => "L",
        (Some(Horizontal::Right), None) => "R",
        (Some(Horizontal::Straight), _) => "C",
        (None, Some(Vertical::Up)) => "U",
        (None, Some(Vertical::Sideways)) => "M",
        (None, Some(Vertical::Down)) => "D",
        (Some(Horizontal::Left), Some(Vertical::Up)) => "LU",
        (Some(Horizontal::Left), Some(Vertical::Sideways)) => "LM",
        (Some(Horizontal::Left), Some(Vertical::Down)) => "LD",
        (Some(Horizontal::Right), Some(Vertical::Up)) => "RU",
        (Some(Horizontal::Right), Some(Vertical::Sideways)) => "RM",
        (Some(Horizontal::Right), Some(Vertical::Down)) => "RD",
    })
}

/// Parses a JKF `relative` value (`L`, `RU`, `C`, `H`, …).
pub fn parse_relative(rel: &str) -> RelativeMark {
    let mut m = RelativeMark::NONE;
    for c in rel.chars() {
        match c {
            'L' => m.horizontal = Some(Horizontal::Left),
            'R' => m.horizontal = Some(Horizontal::Right),
            'C' => m.horizontal = Some(Horizontal::Straight),
            'U' => m.vertical = Some(Vertical::Up),
            'M' => m.vertical = Some(Vertical::Sideways),
            'D' => m.vertical = Some(Vertical::Down),
            'H' => m.drop = true,
            _ => {}
        }
    }
    m
}

/// Keeps the candidates (pieces of `role` and `color` that reach `to`)
/// that fit the JKF `relative` value.
pub fn filter_by_relative(
    cands: Bitboard,
    to: Square,
    color: Color,
    role: Role,
    rel: &str,
) -> Bitboard {
    let kept = filter_candidates(color, role, to, parse_relative(rel), cands.collect());
    let mut out = Bitboard::EMPTY;
    for sq in kept {
        out.insert(sq);
    }
    out
}
