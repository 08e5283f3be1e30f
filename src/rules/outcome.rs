//! How a game ended: who won. Shared by the replay (which decides it) and
//! the record layer (which states it).

use crate::rules::color::Color;
use serde::Serialize;

/// Who won, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Sente (Black) won.
    SenteWin,
    /// Gote (White) won.
    GoteWin,
    /// Drawn.
    Draw,
    /// Stopped without a result.
    Aborted,
    /// Not known.
    Unknown,
}

impl Outcome {
    /// The outcome where `c` wins.
    pub fn win(c: Color) -> Outcome {
        match c {
            Color::Black => Outcome::SenteWin,
            Color::White => Outcome::GoteWin,
        }
    }

    /// `sente_win`, `gote_win`, `draw`, `aborted` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::SenteWin => "sente_win",
            Outcome::GoteWin => "gote_win",
            Outcome::Draw => "draw",
            Outcome::Aborted => "aborted",
            Outcome::Unknown => "unknown",
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::SenteWin => Some(Color::Black),
            Outcome::GoteWin => Some(Color::White),
            _ => None,
        }
    }
}
