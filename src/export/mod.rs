//! Training data for engines: games written as cshogi's and YaneuraOu's
//! binary layouts (`.hcpe`, `.psv`, `.hcpe3`; see [`Layout`] and
//! `docs/export.md`).
//!
//! An [`Exporter`] is a [`crate::read::Visitor`] that drives a
//! [`crate::Validator`]: each main-line move is played once, and before it
//! is played the position is encoded into the game's buffer; the
//! evaluation comment that follows the move fills its eval. At the end of
//! the game the result is filled in, or the game is left out with a
//! [`SkipReason`] (an illegal move, no decided result, a variant without a
//! position code, the options' filters). Its output, a [`GameExport`],
//! holds the game's bytes, ready to append to a file or to a buffer.
//!
//! ```
//! use kifu::export::{ExportOptions, Exporter, Layout};
//! use kifu::read::Reader;
//! use kifu::replay::Replay;
//! use kifu::validate::ValidateOptions;
//!
//! let csa = b"PI\n+\n+7776FU\n'** 30\n-3334FU\n'** 45\n+8822UM\n%TORYO\n";
//! let mut reader = Reader::new(&csa[..]).unwrap();
//! let exporter = Exporter::new(ExportOptions::new(Layout::Hcpe));
//! let mut replay = Replay::new(ValidateOptions::default(), exporter);
//! let game = reader.read_game(&mut replay).unwrap().output;
//! assert_eq!(game.skipped, None);
//! assert_eq!(game.records, 3);
//! let size = Layout::Hcpe.move_size(); // 38
//! assert_eq!(game.bytes.len(), 3 * size);
//! // The second position (gote to move) has eval -45: sente's +45 seen by gote.
//! let eval = i16::from_le_bytes([game.bytes[size + 32], game.bytes[size + 33]]);
//! assert_eq!(eval, -45);
//! // Sente won (gote resigned after 8822UM): gameResult 1.
//! assert_eq!(game.bytes[36], 1);
//! ```

mod ending;
mod exporter;
mod layout;
mod pack;

pub use ending::{parse_ending, EndingError, EndingErrorKind};
pub use exporter::{export, ExportOptions, Exporter, GameExport, SkipReason, Totals};
pub use layout::{Field, Layout};
pub use pack::{
    check, decode_hcp, decode_packed_sfen, hcp, move16, move_from_move16, move_from_psv_move16,
    packed_sfen, psv_move16, BadCode, Code, Incremental, Kind, Unencodable,
};
