//! KI2 moves resolved against a position: the piece a destination, a piece
//! name and a relative mark designate. The marks themselves live in
//! [`crate::japanese::marks`].

use crate::rules::attacks::attacks;
use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
pub use crate::text::notation::marks::{
    filter_candidates, relative_mark, vertical, Horizontal, RelativeMark, Vertical,
};

/// Why a KI2 move could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// No piece of that role can move there (and none can be dropped).
    NoPiece,
    /// Several pieces fit; their squares.
    Ambiguous(Vec<Square>),
}

/// A resolved KI2 move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// Whether only legality told the candidates apart (the mark was not
    /// enough by the pseudo-legal rule: a dialect).
    pub by_legality: bool,
}

/// Resolves a KI2 move of the side to move: the piece of `role` that can
/// reach `to` and fits `mark`; a drop when `mark.drop`, or when no board
/// piece of that role can reach `to`, no mark is given and the piece is in
/// hand. `promote` is the 成 flag (不成 and nothing both mean `false`).
pub fn resolve(
    pos: &Position,
    to: Square,
    role: Role,
    mark: RelativeMark,
    promote: bool,
) -> Result<Resolved, ResolveError> {
    let color = pos.turn();
    let drop = Resolved {
        mv: Move::Drop { role, to },
        by_legality: false,
    };
    if mark.drop {
        return Ok(drop);
    }
    let no_mark = mark.horizontal.is_none() && mark.vertical.is_none();
    let all = attackers(pos, to, color, role);
    if no_mark {
        // The usual move: one piece of that role reaches the square and no
        // mark is written (no candidate list needed).
        if let Some(from) = all.single() {
            return Ok(Resolved {
                mv: Move::Normal { from, to, promote },
                by_legality: false,
            });
        }
    }
    if all.is_empty() {
        if no_mark && pos.hand(color).count(role) > 0 && role.hand_index().is_some() {
            return Ok(drop);
        }
        return Err(ResolveError::NoPiece);
    }
    let c = filter_by_mark(color, role, to, mark, all);
    if let Some(from) = c.single() {
        return Ok(Resolved {
            mv: Move::Normal { from, to, promote },
            by_legality: false,
        });
    }
    if c.is_empty() {
        return Err(ResolveError::NoPiece);
    }
    let mut legal = c
        .filter(|&from| pos.check(Move::Normal { from, to, promote }).is_ok())
        .fuse();
    match (legal.next(), legal.next()) {
        (Some(from), None) => Ok(Resolved {
            mv: Move::Normal { from, to, promote },
            by_legality: true,
        }),
        _ => Err(ResolveError::Ambiguous(c.collect())),
    }
}

/// The pieces of `color` and `role` that reach `to` by the piece's
/// movement alone (as [`Position::pseudo_attackers`] gives them), found
/// from `to` by the reverse attack set: a piece of `color` on `from`
/// attacks `to` exactly when the same piece of the other colour on `to`
/// would attack `from` (steps mirror, sliders see through the same
/// occupancy).
#[inline]
pub(crate) fn attackers(pos: &Position, to: Square, color: Color, role: Role) -> Bitboard {
    if !pos.rules().board.contains(to) {
        return Bitboard::EMPTY;
    }
    attacks(!color, role, to, pos.occupied()) & pos.pieces(color, role)
}

/// [`filter_candidates`] on a set of squares (the same squares, without a
/// list).
fn filter_by_mark(
    color: Color,
    role: Role,
    to: Square,
    mark: RelativeMark,
    all: Bitboard,
) -> Bitboard {
    let keep = |c: Bitboard, f: &dyn Fn(Square) -> bool| {
        let mut out = Bitboard::EMPTY;
        for s in c {
            if f(s) {
                out.insert(s);
            }
        }
        out
    };
    let mut c = all;
    if let Some(v) = mark.vertical {
        c = keep(c, &|s| vertical(color, s, to) == v);
    }
    match mark.horizontal {
        None => c,
        Some(Horizontal::Straight) => keep(c, &|s| {
            s.file() == to.file() && vertical(color, s, to) == Vertical::Up
        }),
        Some(_) if matches!(role, Role::Dragon | Role::Horse) && c.more_than_one() => {
            // The extreme piece on that side, as `filter_candidates` picks
            // it (the vertical part is applied already).
            let rest = RelativeMark {
                vertical: None,
                ..mark
            };
            let mut b = Bitboard::EMPTY;
            for s in filter_candidates(color, role, to, rest, c.collect()) {
                b.insert(s);
            }
            b
        }
        Some(h) => keep(c, &|s| {
            let dx = s.file() as i8 - to.file() as i8;
            let dx = if color == Color::Black { dx } else { -dx };
            let side = match dx {
                d if d < 0 => Some(Horizontal::Right),
                d if d > 0 => Some(Horizontal::Left),
                _ => None,
            };
            side == Some(h)
        }),
    }
}

/// Whether the piece moving in `mv` could promote (origin or destination in
/// the zone, promotable role).
pub fn can_promote(pos: &Position, mv: Move) -> bool {
    match mv {
        Move::Drop { .. } => false,
        Move::Normal { from, to, .. } => {
            let Some(p) = pos.piece_at(from) else {
                return false;
            };
            let rules = pos.rules();
            p.role.promoted().is_some()
                && rules.can_promote(p.role)
                && (rules.zone[p.color.index()].contains(from)
                    || rules.zone[p.color.index()].contains(to))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;
    use crate::text::notation::marks::candidates;

    /// `resolve` as it was, on candidate lists.
    fn resolve_by_lists(
        pos: &Position,
        to: Square,
        role: Role,
        mark: RelativeMark,
        promote: bool,
    ) -> Result<Resolved, ResolveError> {
        let color = pos.turn();
        let drop = Resolved {
            mv: Move::Drop { role, to },
            by_legality: false,
        };
        if mark.drop {
            return Ok(drop);
        }
        let no_mark = mark.horizontal.is_none() && mark.vertical.is_none();
        let all = candidates(pos, to, color, role, false);
        if all.is_empty() {
            if no_mark && pos.hand(color).count(role) > 0 && role.hand_index().is_some() {
                return Ok(drop);
            }
            return Err(ResolveError::NoPiece);
        }
        let c = filter_candidates(color, role, to, mark, all);
        let normal = |from, by_legality| Resolved {
            mv: Move::Normal { from, to, promote },
            by_legality,
        };
        match c.len() {
            1 => Ok(normal(c[0], false)),
            0 => Err(ResolveError::NoPiece),
            _ => {
                let legal: Vec<Square> = c
                    .iter()
                    .copied()
                    .filter(|&from| pos.check(Move::Normal { from, to, promote }).is_ok())
                    .collect();
                if legal.len() == 1 {
                    Ok(normal(legal[0], true))
                } else {
                    Err(ResolveError::Ambiguous(c))
                }
            }
        }
    }

    /// A small deterministic generator.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// Over the positions of random games in every variant, the reverse
    /// attack sets give `pseudo_attackers`, and `resolve` answers as on
    /// candidate lists, for every square, role and mark.
    #[test]
    fn resolve_agrees_with_candidate_lists() {
        let hs = [
            None,
            Some(Horizontal::Left),
            Some(Horizontal::Right),
            Some(Horizontal::Straight),
        ];
        let vs = [
            None,
            Some(Vertical::Up),
            Some(Vertical::Sideways),
            Some(Vertical::Down),
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        for game in 0..60 {
            let variant = Variant::ALL[game % 3];
            let mut pos = Position::new(variant);
            for _ in 0..120 {
                for to in (0..81).filter_map(Square::from_index) {
                    for role in Role::ALL {
                        for color in [Color::Black, Color::White] {
                            assert_eq!(
                                attackers(&pos, to, color, role),
                                pos.pseudo_attackers(to, color, role)
                            );
                        }
                        if rng.below(4) != 0 {
                            continue;
                        }
                        let mark = RelativeMark {
                            horizontal: hs[rng.below(4) as usize],
                            vertical: vs[rng.below(4) as usize],
                            drop: rng.below(8) == 0,
                        };
                        let promote = rng.below(2) == 0;
                        assert_eq!(
                            resolve(&pos, to, role, mark, promote),
                            resolve_by_lists(&pos, to, role, mark, promote),
                            "{to} {role:?} {mark:?}"
                        );
                        checked += 1;
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                pos.play(m).unwrap();
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
