//! CSA records (V2 to V3.0): reader and writer.
//!
//! The reader sends the events of one game per record (records are
//! separated by `/` lines); the writer emits V2.2 (default) or V3.0. See
//! `docs/formats/csa.md` for what is tolerated and what is written.

pub(crate) mod grammar;
mod reader;
pub(crate) mod summary;
mod writer;

pub(crate) use reader::CsaReader;
pub use reader::{header_key, kind_from_special, special_name, SPECIALS};
pub use writer::{write, write_games, CsaVersion, WriteOptions};
