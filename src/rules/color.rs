//! The two sides of a shogi game.

use std::fmt;
use std::ops::Not;

/// A side: `Black` is sente (先手, ▲, moves first in an even game),
/// `White` is gote (後手, △; the handicap giver 上手 in handicap games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Sente (先手 / 下手).
    #[serde(rename = "sente")]
    Black = 0,
    /// Gote (後手 / 上手).
    #[serde(rename = "gote")]
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// Index 0 for Black, 1 for White.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN side letter: `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// The CSA sign: `+` or `-`.
    pub const fn csa_char(self) -> char {
        match self {
            Color::Black => '+',
            Color::White => '-',
        }
    }

    /// `sente` or `gote`, as used in reports and CSV output.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "sente",
            Color::White => "gote",
        }
    }

    /// `先手` or `後手`.
    pub const fn japanese(self) -> &'static str {
        match self {
            Color::Black => "先手",
            Color::White => "後手",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
