//! KI2-style relative marks (右 左 直 上 寄 引 打) in JKF's letters
//! (`R L C U M D H`), computed as FORMATS.md §2.2 describes (the
//! tsshogi/JKF writer algorithm, pseudo-legal candidates).
//!
//! This is a local implementation for JKF; the KI2 writer has its own
//! (`kifu::ki2::relative_mark`), and the two may be unified later.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::role::Role;
use crate::square::Square;

/// Vertical movement seen from the mover's seat.
#[derive(Clone, Copy, PartialEq, Eq)]
enum V {
    Up,
    Sideways,
    Down,
}

/// Horizontal side seen from the mover's seat.
#[derive(Clone, Copy, PartialEq, Eq)]
enum H {
    Left,
    Straight,
    Right,
}

fn vertical(color: Color, from: Square, to: Square) -> V {
    let fwd = match color {
        Color::Black => from.rank() as i32 - to.rank() as i32,
        Color::White => to.rank() as i32 - from.rank() as i32,
    };
    match fwd {
        f if f > 0 => V::Up,
        0 => V::Sideways,
        _ => V::Down,
    }
}

/// Side of `a` relative to `b` from the mover's seat (file 1 is on Black's
/// right, file 9 on White's right).
fn side(color: Color, a: Square, b: Square) -> H {
    let (fa, fb) = (a.file(), b.file());
    match (color, fa.cmp(&fb)) {
        (_, std::cmp::Ordering::Equal) => H::Straight,
        (Color::Black, std::cmp::Ordering::Less) | (Color::White, std::cmp::Ordering::Greater) => {
            H::Right
        }
        _ => H::Left,
    }
}

fn is_range_promoted(role: Role) -> bool {
    matches!(role, Role::Dragon | Role::Horse)
}

/// The relative mark JKF writes for `m` (`None` when the move needs none).
pub fn relative_mark(pos: &Position, m: Move) -> Option<&'static str> {
    match m {
        Move::Drop { role, to } => {
            let color = pos.turn();
            pos.pseudo_attackers(to, color, role).any().then_some("H")
        }
        Move::Normal { from, to, .. } => {
            let piece = pos.piece_at(from)?;
            let (color, role) = (piece.color, piece.role);
            let mut others: Bitboard = pos.pseudo_attackers(to, color, role);
            others.remove(from);
            if others.is_empty() {
                return None;
            }
            let h_of = |sq: Square, all: Bitboard| -> H {
                if is_range_promoted(role) {
                    // The pair's relative file, never 直.
                    match all.into_iter().find(|&o| o != sq) {
                        Some(o) => match side(color, sq, o) {
                            H::Straight => H::Straight,
                            h => h,
                        },
                        None => H::Straight,
                    }
                } else {
                    side(color, sq, to)
                }
            };
            let mut all = others;
            all.insert(from);
            let mv = vertical(color, from, to);
            let mh = h_of(from, all);
            let shares_v = others
                .into_iter()
                .filter(|&o| vertical(color, o, to) == mv)
                .count()
                > 0;
            let shares_h = others.into_iter().filter(|&o| h_of(o, all) == mh).count() > 0;
            let emit_h = shares_v && !(is_range_promoted(role) && mh == H::Straight);
            let emit_v = (shares_h || !shares_v) && !(emit_h && mh == H::Straight);
            Some(match (emit_h.then_some(mh), emit_v.then_some(mv)) {
                (Some(H::Left), Some(V::Up)) => "LU",
                (Some(H::Left), Some(V::Down)) => "LD",
                (Some(H::Left), Some(V::Sideways)) => "LM",
                (Some(H::Right), Some(V::Up)) => "RU",
                (Some(H::Right), Some(V::Down)) => "RD",
                (Some(H::Right), Some(V::Sideways)) => "RM",
                (Some(H::Left), None) => "L",
                (Some(H::Right), None) => "R",
                (Some(H::Straight), _) => "C",
                (None, Some(V::Up)) => "U",
                (None, Some(V::Down)) => "D",
                (None, Some(V::Sideways)) => "M",
                (None, None) => return None,
            })
        }
    }
}

/// Narrows `cands` (pieces of `color` and `role` that can reach `to`) by a
/// relative mark (`L`, `RU`, `C`, …), as a KI2 reader does.
pub fn filter_by_relative(
    cands: Bitboard,
    to: Square,
    color: Color,
    role: Role,
    rel: &str,
) -> Bitboard {
    let mut out = cands;
    for c in rel.chars() {
        let keep: Bitboard = match c {
            'U' | 'M' | 'D' => {
                let want = match c {
                    'U' => V::Up,
                    'M' => V::Sideways,
                    _ => V::Down,
                };
                out.into_iter()
                    .filter(|&sq| vertical(color, sq, to) == want)
                    .fold(Bitboard::EMPTY, |mut b, sq| {
                        b.insert(sq);
                        b
                    })
            }
            'C' => out
                .into_iter()
                .filter(|&sq| sq.file() == to.file() && vertical(color, sq, to) == V::Up)
                .fold(Bitboard::EMPTY, |mut b, sq| {
                    b.insert(sq);
                    b
                }),
            'L' | 'R' => {
                let want = if c == 'L' { H::Left } else { H::Right };
                if is_range_promoted(role) {
                    // The extreme piece on that side.
                    let pick = out.into_iter().reduce(|a, b| {
                        let a_more = side(color, a, b) == want;
                        if a_more {
                            a
                        } else {
                            b
                        }
                    });
                    pick.map_or(Bitboard::EMPTY, Bitboard::from_square)
                } else {
                    out.into_iter()
                        .filter(|&sq| side(color, sq, to) == want)
                        .fold(Bitboard::EMPTY, |mut b, sq| {
                            b.insert(sq);
                            b
                        })
                }
            }
            _ => out,
        };
        out = keep;
    }
    out
}
