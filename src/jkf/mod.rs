//! JSON Kifu Format (na2hiro's JKF): reader and writer.
//!
//! The reader accepts normalised JKF and the minimal (parser-level) form
//! that omits `to` when `same` is set, `from` for KI2-style moves (resolved
//! by candidates and the `relative` mark) and `color` (taken from the
//! position). The writer emits normalised JKF that validates against the
//! published schema. See `docs/formats/jkf.md`.
//!
//! ```
//! use kifu::jkf;
//! use kifu::read::{lines_from_bytes, ReadOptions};
//!
//! let text = r#"{"header":{"先手":"A"},"moves":[{},{"move":{"to":{"x":7,"y":6},"piece":"FU"}}]}"#.as_bytes();
//! let opts = ReadOptions::default();
//! let game = jkf::Reader::new(lines_from_bytes(text, &opts), &opts).next().unwrap();
//! assert_eq!(game.record.main.moves[0].mv.to_string(), "7g7f");
//! let out = jkf::write(&game.record, &jkf::WriteOptions::default()).unwrap();
//! assert!(out.text.contains("\"from\""));
//! ```

mod reader;
pub use crate::text::notation::jkf as relative;
mod schema;
mod writer;

pub use crate::text::notation::jkf::JkfMove;
pub use reader::Reader;
pub use relative::{filter_by_relative, relative_mark};
pub use writer::{write, WriteOptions};
