//! A CSA move as written (the CSA grammar, `crate::csa::grammar`, parses
//! it; the resolver plays it).

use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::square::Square;

/// A move as written: sign, origin (`None` = from hand, `00`), destination
/// and the piece code, which names the piece *after* the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsaMove {
    /// The sign (`+` Black, `-` White).
    pub color: Color,
    /// Origin square, `None` for a drop.
    pub from: Option<Square>,
    /// Destination square.
    pub to: Square,
    /// The piece after the move.
    pub role: Role,
}
