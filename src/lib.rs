//! # kifu
//!
//! Read, validate, convert and analyse shogi game records.
//!
//! The rules engine knows standard shogi (with every handicap), minishogi
//! and doubutsu shogi:
//!
//! ```
//! use kifu::{Move, Position, Variant};
//!
//! let pos = Position::new(Variant::Standard);
//! assert_eq!(pos.legal_moves().len(), 30);
//! let m = Move::from_usi("7g7f", Variant::Standard).unwrap();
//! assert!(pos.check(m).is_ok());
//! ```

#![warn(missing_docs)]

pub mod attacks;
pub mod batch;
pub mod bitboard;
pub mod color;
pub mod convert;
pub mod csa;
pub mod hand;
pub mod handicap;
pub mod japanese;
pub mod jkf;
pub mod ki2;
pub mod kif;
pub mod moves;
pub mod output;
pub mod position;
pub mod psn;
pub mod read;
pub mod record;
pub mod replay;
pub mod role;
pub mod setup;
pub mod sfen;
pub mod square;
pub mod stats;
pub mod usi;
pub mod validate;
pub mod variant;
pub mod write;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use handicap::Handicap;
pub use moves::Move;
pub use position::{IllegalMove, MoveList, Position, Status};
pub use role::{Piece, Role};
pub use setup::{Setup, SetupError, SetupErrors, Waivers};
pub use sfen::SfenError;
pub use square::Square;
pub use variant::{Rules, Variant};
