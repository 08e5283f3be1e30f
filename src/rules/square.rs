//! Squares, 1-based files and ranks as shogi players name them.

use std::fmt;
use std::str::FromStr;

/// A square of the 9×9 grid. Smaller variants use the corner with files
/// 1..=N and ranks 1..=M (file 1 is on Black's right, rank 1 is White's back
/// rank), so a minishogi `5e` and a standard `5e` share the same index.
///
/// The index is `(file - 1) * 9 + (rank - 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the grid.
    pub const COUNT: usize = 81;

    /// The square at `file`, `rank` (both 1..=9), or `None`.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The square with the given index (0..81), or `None`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// # Safety-free precondition
    /// `index < 81`; used by bitboard iteration.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    /// Index 0..81.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 1..=9 (counted from Black's right).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Rank 1..=9 (rank 1 is White's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// Every square, by index.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// USI/SFEN rank letter (`a` for rank 1).
    pub const fn rank_char(self) -> char {
        (b'a' + self.rank() - 1) as char
    }

    /// Parses USI form `7g` (also accepts the digit form `77`).
    pub fn from_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'0');
        let rank = match b[1] {
            b'a'..=b'i' => b[1] - b'a' + 1,
            b'1'..=b'9' => b[1] - b'0',
            _ => return None,
        };
        Square::new(file, rank)
    }

    /// The square as CSA writes it: two digits, `76`.
    pub fn csa(self) -> [u8; 2] {
        [b'0' + self.file(), b'0' + self.rank()]
    }

    /// The square mirrored through the centre of a board with `files` × `ranks`
    /// (rotating by 180°), used for flipping perspective.
    pub const fn rotate(self, files: u8, ranks: u8) -> Square {
        Square((files - self.file()) * 9 + (ranks - self.rank()))
    }
}

impl fmt::Display for Square {
    /// USI form: file digit and rank letter, `7f`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank_char())
    }
}

/// Error for an unparsable square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a square such as 7f or 76")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_usi(s).ok_or(ParseSquareError)
    }
}
