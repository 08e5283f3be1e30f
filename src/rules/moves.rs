//! Moves: a board move (with optional promotion) or a drop.

use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use std::fmt;

/// A move as the rules know it. Notation (USI, CSA, KIF, …) is parsed into
/// this only with a position at hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Moves the piece on `from` to `to`, promoting if `promote`.
    Normal {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// Whether the piece promotes.
        promote: bool,
    },
    /// Drops a piece of `role` from hand on `to`.
    Drop {
        /// The dropped role (unpromoted).
        role: Role,
        /// Destination.
        to: Square,
    },
}

impl Move {
    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// Origin square of a board move.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether the move promotes.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// Whether this is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// USI text in the given variant (`7g7f`, `8h2b+`, `P*5e`; doubutsu
    /// drops use `C*`, `G*`, `E*`).
    pub fn usi(self, variant: Variant) -> UsiDisplay {
        UsiDisplay(self, variant)
    }

    /// A space and the USI text (the bytes of [`Move::usi_bytes`]) as
    /// the little-endian bytes of a word, and how many of them count;
    /// squares come from a table: the game key writes every main-line
    /// move so.
    #[inline(always)]
    pub(crate) fn usi_word(self, variant: Variant) -> (u64, usize) {
        match self {
            Move::Normal { from, to, promote } => {
                let f = USI_SQUARES[from.index()] as u64;
                let t = USI_SQUARES[to.index()] as u64;
                let word = b' ' as u64 | f << 8 | t << 24 | (b'+' as u64) << 40;
                (word, 5 + promote as usize)
            }
            Move::Drop { role, to } => {
                // One letter (every role in hand of shogi and minishogi):
                // from the tables too.
                if let [letter] = role.sfen(variant).as_bytes() {
                    let t = USI_SQUARES[to.index()] as u64;
                    let word = b' ' as u64 | (*letter as u64) << 8 | (b'*' as u64) << 16 | t << 24;
                    return (word, 5);
                }
                let b = self.usi_bytes(variant);
                let mut bytes = [0u8; 8];
                bytes[0] = b' ';
                bytes[1..1 + b.len()].copy_from_slice(&b);
                (u64::from_le_bytes(bytes), 1 + b.len())
            }
        }
    }

    /// The USI text as bytes, without going through `fmt` (hot paths such
    /// as the game key).
    pub(crate) fn usi_bytes(self, variant: Variant) -> arrayvec::ArrayVec<u8, 8> {
        let mut out = arrayvec::ArrayVec::new();
        let square = |out: &mut arrayvec::ArrayVec<u8, 8>, sq: Square| {
            out.push(b'0' + sq.file());
            out.push(sq.rank_char() as u8);
        };
        match self {
            Move::Normal { from, to, promote } => {
                square(&mut out, from);
                square(&mut out, to);
                if promote {
                    out.push(b'+');
                }
            }
            Move::Drop { role, to } => {
                for &b in role.sfen(variant).as_bytes().iter().take(2) {
                    out.push(b);
                }
                out.push(b'*');
                square(&mut out, to);
            }
        }
        out
    }

    /// Parses USI text (`7g7f`, `8h2b+`, `P*5e`) for the given variant.
    /// Only syntax is checked; legality needs a position.
    pub fn from_usi(s: &str, variant: Variant) -> Option<Move> {
        let b = s.as_bytes();
        if b.len() == 4 && (b[1] == b'*' || b[1] == b'@') {
            let c = b[0] as char;
            if !c.is_ascii_alphabetic() {
                return None;
            }
            let role = Role::from_sfen_char(c, false, variant)?;
            role.hand_index()?;
            let to = Square::from_usi(&s[2..4])?;
            return Some(Move::Drop { role, to });
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return None,
        };
        if !s.is_char_boundary(2) || !s.is_char_boundary(4) {
            return None;
        }
        let from = Square::from_usi(&s[0..2])?;
        let to = Square::from_usi(&s[2..4])?;
        Some(Move::Normal { from, to, promote })
    }
}

/// Displays a move in USI notation; see [`Move::usi`].
pub struct UsiDisplay(Move, Variant);

impl fmt::Display for UsiDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.0.usi_bytes(self.1);
        f.write_str(std::str::from_utf8(&bytes).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Display for Move {
    /// USI notation with standard letters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        UsiDisplay(*self, Variant::Standard).fmt(f)
    }
}

/// The USI name of every square by index (file digit, rank letter) as a
/// little-endian pair of bytes.
static USI_SQUARES: [u16; 81] = {
    let mut t = [0u16; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (b'1' + (i / 9) as u8) as u16 | ((b'a' + (i % 9) as u8) as u16) << 8;
        i += 1;
    }
    t
};
