//! The rules engine: pieces, squares, hands, positions, legal moves, SFEN,
//! handicaps and the replay that decides how a game ends. Knows nothing of
//! records or formats (it never imports [`crate::record`], [`crate::read`]
//! or a format module; `tests/layout.rs` checks it).
//!
//! Everything public is re-exported here, flat (`kifu::rules::Replay`,
//! `kifu::rules::parse_sfen`), and the most used types again at the crate
//! root (`kifu::Position`).

#[doc(hidden)]
pub mod attacks; // slider lookups: public only for tests/sliders.rs and benches/engine.rs
pub(crate) mod bitboard;
pub(crate) mod color;
pub(crate) mod hand;
pub(crate) mod handicap;
pub(crate) mod moves;
pub(crate) mod outcome;
pub(crate) mod position;
pub(crate) mod replay;
pub(crate) mod role;
pub(crate) mod setup;
pub(crate) mod sfen;
pub(crate) mod square;
pub(crate) mod variant;

pub use bitboard::{Bitboard, FULL};
pub use color::Color;
pub use hand::Hand;
pub use handicap::{Handicap, HandicapInfo, HANDICAPS, THREE_PIECE_ALT_SFEN};
pub use moves::{Move, UsiDisplay};
pub use outcome::Outcome;
pub use position::{IllegalMove, MoveList, Position, Status};
pub use replay::{
    status_end, Declaration, DeclarationCount, EndReason, GameEnd, ImpasseRule, PathHistory, Replay,
};
pub use role::{Piece, Role};
pub use setup::{Setup, SetupError, SetupErrors, Waivers};
pub use sfen::{parse_sfen, write_board, write_hands, write_sfen, SfenError, MAX_MOVE_NUMBER};
pub use square::{ParseSquareError, Square};
pub use variant::{RepetitionRule, Rules, UnknownVariant, Variant};
