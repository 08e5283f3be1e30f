//! KI2 moves resolved against a position: the piece a destination, a piece
//! name and a relative mark designate. The marks themselves live in
//! [`crate::japanese::marks`].

use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::text::notation::marks::candidates;
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
    if no_mark {
        // The usual move: one piece of that role reaches the square and no
        // mark is written (no candidate list needed).
        if let Some(from) = pos.pseudo_attackers(to, color, role).single() {
            return Ok(Resolved {
                mv: Move::Normal { from, to, promote },
                by_legality: false,
            });
        }
    }
    let all = candidates(pos, to, color, role, false);
    if all.is_empty() {
        if no_mark && pos.hand(color).count(role) > 0 && role.hand_index().is_some() {
            return Ok(drop);
        }
        return Err(ResolveError::NoPiece);
    }
    let c = filter_candidates(color, role, to, mark, all);
    match c.len() {
        1 => Ok(Resolved {
            mv: Move::Normal {
                from: c[0],
                to,
                promote,
            },
            by_legality: false,
        }),
        0 => Err(ResolveError::NoPiece),
        _ => {
            let legal: Vec<Square> = c
                .iter()
                .copied()
                .filter(|&from| pos.check(Move::Normal { from, to, promote }).is_ok())
                .collect();
            if legal.len() == 1 {
                Ok(Resolved {
                    mv: Move::Normal {
                        from: legal[0],
                        to,
                        promote,
                    },
                    by_legality: true,
                })
            } else {
                Err(ResolveError::Ambiguous(c))
            }
        }
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
