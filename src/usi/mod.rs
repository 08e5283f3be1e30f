//! SFEN/USI records: one game per line, as USI `position` commands
//! (`position startpos moves 7g7f 3c3d`, `position sfen <SFEN> moves …`),
//! the same without the `position` word, or bare SFEN lines (zero-move
//! games). See `docs/formats/usi.md`.
//!
//! ```
//! use kifu::usi;
//! use kifu::read::{lines_from_bytes, ReadOptions};
//!
//! let text = b"position startpos moves 7g7f 3c3d\n# a comment\nstartpos moves 2g2f\n";
//! let opts = ReadOptions::default();
//! let games: Vec<_> = usi::Reader::new(lines_from_bytes(text, &opts), &opts).collect();
//! assert_eq!(games.len(), 2);
//! assert_eq!(games[1].index, 1);
//! let out = usi::write(&games[0].record, &usi::WriteOptions::default()).unwrap();
//! assert_eq!(out.text, "position startpos moves 7g7f 3c3d\n");
//! ```

pub(crate) mod grammar;
mod reader;
mod writer;

pub use reader::Reader;
pub use writer::{write, write_games, WriteOptions};
