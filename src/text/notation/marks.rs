//! KI2 relative marks (右 左 直 / 上 寄 引 / 打): the type, and which mark a
//! move needs by the JSA rules (pseudo-legal candidates). Shared by the KI2
//! writer and reader (`ki2::notation::resolve`), the KIF reader and JKF.

use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use std::fmt;

/// Where the moving piece stands relative to the other candidates
/// (from the mover's seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Horizontal {
    /// 左: the piece on the mover's left.
    Left,
    /// 右: the piece on the mover's right.
    Right,
    /// 直: moves straight forward (gold-like pieces and silvers).
    Straight,
}

/// How the moving piece moves (from the mover's seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertical {
    /// 上 (also written 行): forward.
    Up,
    /// 寄: sideways on the same rank.
    Sideways,
    /// 引: backward.
    Down,
}

/// The relative part of a KI2 move: `左上`, `直`, `打`, or nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RelativeMark {
    /// 左 / 右 / 直.
    pub horizontal: Option<Horizontal>,
    /// 上 / 寄 / 引.
    pub vertical: Option<Vertical>,
    /// 打 (a drop while a board piece could also move there).
    pub drop: bool,
}

impl RelativeMark {
    /// No mark.
    pub const NONE: RelativeMark = RelativeMark {
        horizontal: None,
        vertical: None,
        drop: false,
    };

    /// Whether there is no mark at all.
    pub fn is_empty(&self) -> bool {
        *self == RelativeMark::NONE
    }
}

impl fmt::Display for RelativeMark {
    /// The marks in JSA order: `右`/`左`/`直`, then `上`/`寄`/`引`, then `打`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.horizontal {
            Some(Horizontal::Left) => f.write_str("左")?,
            Some(Horizontal::Right) => f.write_str("右")?,
            Some(Horizontal::Straight) => f.write_str("直")?,
            None => {}
        }
        match self.vertical {
            Some(Vertical::Up) => f.write_str("上")?,
            Some(Vertical::Sideways) => f.write_str("寄")?,
            Some(Vertical::Down) => f.write_str("引")?,
            None => {}
        }
        if self.drop {
            f.write_str("打")?;
        }
        Ok(())
    }
}

/// The movement of a piece of `color` from `from` to `to`.
pub fn vertical(color: Color, from: Square, to: Square) -> Vertical {
    let forward = match color {
        Color::Black => from.rank() as i8 - to.rank() as i8,
        Color::White => to.rank() as i8 - from.rank() as i8,
    };
    match forward {
        f if f > 0 => Vertical::Up,
        0 => Vertical::Sideways,
        _ => Vertical::Down,
    }
}

/// Which side of the destination `from` is on, from `color`'s seat
/// (`None` = same file).
fn side_of(color: Color, from: Square, to: Square) -> Option<Horizontal> {
    let dx = from.file() as i8 - to.file() as i8;
    let dx = if color == Color::Black { dx } else { -dx };
    match dx {
        d if d < 0 => Some(Horizontal::Right),
        d if d > 0 => Some(Horizontal::Left),
        _ => None,
    }
}

/// Whether `a` is to the right of `b` from `color`'s seat.
fn right_of(color: Color, a: Square, b: Square) -> Option<bool> {
    match a.file().cmp(&b.file()) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Less => Some(color == Color::Black),
        std::cmp::Ordering::Greater => Some(color == Color::White),
    }
}

fn is_pair_role(role: Role) -> bool {
    matches!(role, Role::Dragon | Role::Horse)
}

/// The candidates of `color` and `role` that could move to `to`: pseudo-legal
/// attackers (pins ignored), or only legal movers when `legal_only`.
pub(crate) fn candidates(
    pos: &Position,
    to: Square,
    color: Color,
    role: Role,
    legal_only: bool,
) -> Vec<Square> {
    let bb = if legal_only {
        pos.legal_attackers(to, color, role)
    } else {
        pos.pseudo_attackers(to, color, role)
    };
    bb.into_iter().collect()
}

/// The relative mark KI2 needs for `mv` in `pos` (JSA rules, FORMATS §2.2):
/// nothing when no other piece of the same role could reach the square;
/// 上/引/寄 first where that suffices; 右/左/直 otherwise or in addition;
/// 龍/馬 use the pair's relative position and never 直; 打 only when a board
/// piece of the dropped role could also reach the square. Candidates are
/// pseudo-legal attackers unless `legal_only`.
pub fn relative_mark(pos: &Position, mv: Move, legal_only: bool) -> RelativeMark {
    let color = pos.turn();
    match mv {
        Move::Drop { role, to } => RelativeMark {
            drop: !candidates(pos, to, color, role, legal_only).is_empty(),
            ..RelativeMark::NONE
        },
        Move::Normal { from, to, .. } => {
            let Some(piece) = pos.piece_at(from) else {
                return RelativeMark::NONE;
            };
            let color = piece.color;
            let role = piece.role;
            let others: Vec<Square> = candidates(pos, to, color, role, legal_only)
                .into_iter()
                .filter(|&s| s != from)
                .collect();
            if others.is_empty() {
                return RelativeMark::NONE;
            }
            let v = vertical(color, from, to);
            let share_v = others.iter().any(|&o| vertical(color, o, to) == v);
            if is_pair_role(role) {
                if !share_v {
                    return RelativeMark {
                        vertical: Some(v),
                        ..RelativeMark::NONE
                    };
                }
                // Same movement: tell the pair apart by their relative position.
                let other = others
                    .iter()
                    .copied()
                    .find(|&o| vertical(color, o, to) == v)
                    .unwrap_or(others[0]);
                let h = match right_of(color, from, other) {
                    Some(true) => Some(Horizontal::Right),
                    Some(false) => Some(Horizontal::Left),
                    None => None,
                };
                return RelativeMark {
                    horizontal: h,
                    vertical: if h.is_none() { Some(v) } else { None },
                    drop: false,
                };
            }
            let h = side_of(color, from, to);
            let share_h = others.iter().any(|&o| side_of(color, o, to) == h);
            let mut mark = RelativeMark::NONE;
            let mut emit_v = share_h || !share_v;
            if share_v {
                match h {
                    Some(h) => mark.horizontal = Some(h),
                    None if v == Vertical::Up => {
                        mark.horizontal = Some(Horizontal::Straight);
                        emit_v = false;
                    }
                    None => emit_v = true,
                }
            }
            if emit_v {
                mark.vertical = Some(v);
            }
            mark
        }
    }
}

/// Keeps the candidates (origin squares of pieces of `role` that reach
/// `to`) that fit the 右/左/直 and 上/寄/引 parts of `mark`.
pub fn filter_candidates(
    color: Color,
    role: Role,
    to: Square,
    mark: RelativeMark,
    all: Vec<Square>,
) -> Vec<Square> {
    let mut c: Vec<Square> = all;
    if let Some(v) = mark.vertical {
        c.retain(|&s| vertical(color, s, to) == v);
    }
    match mark.horizontal {
        None => {}
        Some(Horizontal::Straight) => {
            c.retain(|&s| s.file() == to.file() && vertical(color, s, to) == Vertical::Up)
        }
        Some(h) if is_pair_role(role) && c.len() > 1 => {
            // The extreme piece on that side.
            let want_right = h == Horizontal::Right;
            let best = c
                .iter()
                .copied()
                .filter(|&s| {
                    c.iter()
                        .all(|&o| o == s || right_of(color, s, o) == Some(want_right))
                })
                .collect::<Vec<_>>();
            c = best;
        }
        Some(h) => c.retain(|&s| side_of(color, s, to) == Some(h)),
    }
    c
}
