//! KI2 records (no origin squares, relative marks): reader and writer.

pub(crate) mod fast;
pub(crate) mod grammar;
pub use crate::text::notation::ki2 as notation;
pub(crate) mod reader;
pub(crate) mod writer;

pub use notation::{
    relative_mark, resolve, Horizontal, RelativeMark, ResolveError, Resolved, Vertical,
};
pub use writer::{move_text, write};

use crate::text::{Encoding, Game, LineReader, ReadOptions};
use std::io::BufRead;

/// Reads the game of a KI2 file (one game per file).
pub struct Reader<R: BufRead> {
    lines: LineReader<R>,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader over decoded lines.
    pub fn new(lines: LineReader<R>, _opts: &ReadOptions) -> Reader<R> {
        Reader { lines, done: false }
    }
}

impl<R: BufRead> Reader<R> {
    /// Reads the game into `v`; `None` once it was read.
    pub fn read_game<V: crate::text::Visitor + ?Sized>(&mut self, v: &mut V) -> Option<V::Output> {
        if self.done {
            return None;
        }
        self.done = true;
        Some(crate::japanese::reader::read_game::<reader::Ki2, _, _>(&mut self.lines, v).0)
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        self.read_game(&mut crate::text::RecordBuilder::new())
    }
}

/// How to write KI2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Count only pieces that can legally move to the square when deciding
    /// whether a relative mark is needed (default `false`: pseudo-legal
    /// attackers, pins ignored, like tsshogi, shogiops and JKF).
    pub legal_candidates_only: bool,
    /// The encoding the caller will use (only decides whether a `#KI2
    /// version=2.0 encoding=…` line is written: never, by default).
    pub encoding: Option<Encoding>,
    /// End lines with CRLF instead of LF.
    pub crlf: bool,
}
