//! PSN records in international (Hodges) notation, and PSN2: reader and writer.
//!
//! The reader accepts PGN-style PSN (tag pairs, move text with or without
//! move numbers, `{}` comments, `()` variations, `;` line comments, NAGs,
//! results), Shogidokoro's dialect (one ply per line, times
//! `(00:03 / 00:00:03)`, `Variation:N` blocks, terminal words) and PSN2
//! (USI moves, `[Black]`/`[White]` tags). Several games per file are read one
//! at a time. See `docs/formats/psn.md`.
//!
//! ```
//! use kifu::psn;
//! use kifu::read::{lines_from_bytes, ReadOptions};
//!
//! let text = b"[Sente \"A\"]\n[Gote \"B\"]\n\n1. P-7f P-3d 2. Bx2b+ Sx2b 1-0\n";
//! let opts = ReadOptions::default();
//! let games: Vec<_> = psn::Reader::new(lines_from_bytes(text, &opts), &opts).collect();
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].record.main.moves.len(), 4);
//! let out = psn::write(&games[0].record, &psn::WriteOptions::default()).unwrap();
//! assert!(out.text.contains("3.Bx2b+"));
//! ```

mod grammar;
pub use crate::text::notation::psn as notation;
mod reader;
mod writer;

pub use notation::{ParsePsnError, Promotion, PsnMove, ResolveError};
pub use reader::Reader;
pub use writer::{write, write_games, PsnTimes, WriteOptions};
