//! A position that has not been checked yet, and the named ways it can be
//! impossible.

use crate::rules::color::Color;
use crate::rules::hand::Hand;
use crate::rules::role::{Piece, Role};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use std::fmt;

/// Board, hands, side to move and move number, as read from a file. Turn it
/// into a [`crate::Position`] with [`crate::Position::from_setup`], which
/// checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Rule set.
    pub variant: Variant,
    /// The piece on each square (index = [`Square::index`]).
    pub board: [Option<Piece>; 81],
    /// Pieces in hand, Black's then White's.
    pub hands: [Hand; 2],
    /// Side to move.
    pub turn: Color,
    /// Move number of the next ply, as SFEN writes it (starts at 1).
    pub ply: u32,
}

impl Setup {
    /// An empty board of `variant`, Black to move.
    pub fn empty(variant: Variant) -> Setup {
        Setup {
            variant,
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            turn: Color::Black,
            ply: 1,
        }
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
}

/// One way a setup is not a playable position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupError {
    /// A side has no king (normal for tsume problems: waive it).
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A piece stands where it could never move (pawn/lance on the last rank,
    /// knight on the last two).
    DeadPiece(Square),
    /// Two unpromoted pawns of a side on one file.
    Nifu(Color, u8),
    /// The side not to move is in check.
    OpponentInCheck,
    /// More pieces of a kind than the set has.
    TooManyPieces(Role),
    /// A piece outside the variant's board.
    OutsideBoard(Square),
    /// A piece in hand that this variant cannot hold.
    BadHandPiece(Role),
}

impl SetupError {
    /// A short stable id for the kind of problem.
    pub const fn id(&self) -> &'static str {
        match self {
            SetupError::MissingKing(_) => "missing-king",
            SetupError::TooManyKings(_) => "too-many-kings",
            SetupError::DeadPiece(_) => "dead-piece",
            SetupError::Nifu(..) => "nifu",
            SetupError::OpponentInCheck => "opponent-in-check",
            SetupError::TooManyPieces(_) => "too-many-pieces",
            SetupError::OutsideBoard(_) => "outside-board",
            SetupError::BadHandPiece(_) => "bad-hand-piece",
        }
    }

    fn bit(&self) -> u16 {
        1 << match self {
            SetupError::MissingKing(_) => 0,
            SetupError::TooManyKings(_) => 1,
            SetupError::DeadPiece(_) => 2,
            SetupError::Nifu(..) => 3,
            SetupError::OpponentInCheck => 4,
            SetupError::TooManyPieces(_) => 5,
            SetupError::OutsideBoard(_) => 6,
            SetupError::BadHandPiece(_) => 7,
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::MissingKing(c) => write!(f, "{c} has no king"),
            SetupError::TooManyKings(c) => write!(f, "{c} has more than one king"),
            SetupError::DeadPiece(sq) => write!(f, "the piece on {sq} can never move"),
            SetupError::Nifu(c, file) => {
                write!(f, "{c} has two unpromoted pawns on file {file}")
            }
            SetupError::OpponentInCheck => f.write_str("the side not to move is in check"),
            SetupError::TooManyPieces(r) => write!(f, "more {r} pieces than the set holds"),
            SetupError::OutsideBoard(sq) => write!(f, "a piece on {sq}, outside the board"),
            SetupError::BadHandPiece(r) => write!(f, "a {r} in hand, which this variant has not"),
        }
    }
}

/// Which [`SetupError`]s a caller accepts (e.g. a missing king in a tsume).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Waivers(u16);

impl Waivers {
    /// Accept nothing.
    pub const NONE: Waivers = Waivers(0);
    /// Accept what tsume problems and diagrams need: missing kings, more
    /// pieces than a set (diagrams often omit the box), and an unusual count.
    pub const TSUME: Waivers = Waivers(1 << 0 | 1 << 5);

    /// Also accept errors of the kind of `e`.
    pub fn waive(self, e: SetupError) -> Waivers {
        Waivers(self.0 | e.bit())
    }

    /// Whether `e` is accepted.
    pub fn allows(self, e: &SetupError) -> bool {
        self.0 & e.bit() != 0
    }
}

/// The setup errors found, none of them waived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupErrors(pub Vec<SetupError>);

impl fmt::Display for SetupErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupErrors {}
