//! KI2 relative marks (右 左 直 上 寄 引 打) in JKF's letters
//! (`R L C U M D H`). The logic is the KI2 writer's and reader's
//! ([`crate::text::notation::ki2::relative_mark`], [`crate::text::notation::ki2::filter_candidates`]):
//! pseudo-legal candidates, as tsshogi and the JKF normalizer use.

use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::text::notation::marks::{filter_candidates, Horizontal, RelativeMark, Vertical};
use crate::text::Rule;

/// The JKF `relative` value of a move, if it needs one.
pub fn relative_mark(pos: &Position, mv: Move) -> Option<&'static str> {
    let m = crate::text::notation::ki2::relative_mark(pos, mv, false);
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

/// A JKF move as written: every field as the document gives it (the
/// resolver checks them against the position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JkfMove {
    /// `color` (0 = Black, 1 = White).
    pub color: Option<u8>,
    /// `from` as (x, y).
    pub from: Option<(i64, i64)>,
    /// `to` as (x, y).
    pub to: Option<(i64, i64)>,
    /// `piece` (a CSA code), cut to 8 bytes.
    pub piece: Option<arrayvec::ArrayString<8>>,
    /// `same`.
    pub same: Option<bool>,
    /// `promote`.
    pub promote: Option<bool>,
    /// `relative` (`L`, `RU`, `H`, …), cut to 8 bytes.
    pub relative: Option<arrayvec::ArrayString<8>>,
}

impl JkfMove {
    /// The move as diagnostics show it (`76FU`).
    pub(crate) fn written(&self) -> String {
        format!(
            "{}{}",
            self.to.map_or(String::new(), |(x, y)| format!("{x}{y}")),
            self.piece.as_deref().unwrap_or("")
        )
    }

    /// Resolves the move in `pos` (`last_to` for `same`).
    pub fn to_move(
        &self,
        pos: &Position,
        last_to: Option<Square>,
    ) -> Result<crate::text::Resolved, (Rule, String)> {
        let square = |(x, y): (i64, i64)| {
            ((1..=9).contains(&x) && (1..=9).contains(&y))
                .then(|| Square::new(x as u8, y as u8))
                .flatten()
        };
        let role = match self.piece.as_deref().and_then(Role::from_csa) {
            Some(r) if r != Role::Giraffe && r != Role::Elephant => r,
            _ => {
                return Err((
                    Rule::Syntax,
                    format!(
                        "expected a piece (FU, KY, …, RY), found {}",
                        self.piece
                            .as_deref()
                            .map_or("nothing".into(), |p| format!("`{p}`"))
                    ),
                ))
            }
        };
        let color = match self.color {
            Some(c) => match color_of(c) {
                Some(c) => Some(c),
                None => return Err((Rule::Syntax, format!("expected color 0 or 1, found {c}"))),
            },
            None => None,
        };
        let to = match (self.to, self.same) {
            (Some(p), _) => square(p).ok_or_else(|| {
                (
                    Rule::Syntax,
                    format!(
                        "expected a square with x and y in 1..9, found ({}, {})",
                        p.0, p.1
                    ),
                )
            })?,
            (None, Some(true)) => {
                last_to.ok_or((Rule::Syntax, "`same` with no previous move".to_string()))?
            }
            (None, _) => return Err((Rule::Syntax, "a move without `to`".to_string())),
        };
        let promote = self.promote == Some(true);
        let mover = color.unwrap_or(pos.turn());
        let mv = match self.from {
            Some(p) => match square(p) {
                Some(from) => Move::Normal { from, to, promote },
                None => {
                    return Err((
                        Rule::Syntax,
                        format!(
                            "expected a square with x and y in 1..9, found ({}, {})",
                            p.0, p.1
                        ),
                    ))
                }
            },
            None => {
                let rel = self.relative.as_deref().unwrap_or("");
                let cands = if rel == "H" {
                    crate::rules::bitboard::Bitboard::EMPTY
                } else {
                    let c = pos.pseudo_attackers(to, mover, role);
                    if rel.is_empty() {
                        c
                    } else {
                        filter_by_relative(c, to, mover, role, rel)
                    }
                };
                match (cands.single(), cands.count()) {
                    (Some(from), _) => Move::Normal { from, to, promote },
                    (None, 0) => {
                        if role.hand_index().is_some() {
                            Move::Drop { role, to }
                        } else {
                            return Err((Rule::NoPiece, format!("no {role} can move to {to}")));
                        }
                    }
                    (None, n) => {
                        return Err((
                            Rule::Ambiguous,
                            format!("{n} pieces can move to {to}; `from` or `relative` is needed"),
                        ))
                    }
                }
            }
        };
        Ok(crate::text::Resolved {
            mv,
            role: Some(role),
            color,
            by_legality: false,
            unpromoted_name: None,
        })
    }
}

/// The colour of a JKF `color` field.
fn color_of(c: u8) -> Option<Color> {
    match c {
        0 => Some(Color::Black),
        1 => Some(Color::White),
        _ => None,
    }
}
