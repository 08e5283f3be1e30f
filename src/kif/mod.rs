//! KIF (Kakinoki) records: reader and writer.
//!
//! ```
//! use kifu::kif;
//! use kifu::read::{lines_from_bytes, ReadOptions};
//!
//! let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n";
//! let opts = ReadOptions::default();
//! let game = kif::Reader::new(lines_from_bytes(text.as_bytes(), &opts), &opts).next().unwrap();
//! assert!(game.findings.is_empty());
//! assert_eq!(game.record.main.moves.len(), 2);
//! let out = kif::write(&game.record, &kif::WriteOptions::default()).unwrap();
//! assert!(out.text.contains("   1 ７六歩(77)"));
//! ```

pub(crate) mod grammar;
pub(crate) mod reader;
pub(crate) mod writer;

pub use writer::{move_text, push_move_text, write};

use crate::text::{Encoding, Game, LineReader, ReadOptions};
use std::io::BufRead;

/// Reads the game of a KIF file (one game per file).
pub struct Reader<R: BufRead> {
    lines: LineReader<R>,
    done: bool,
    producer: Option<&'static str>,
}

impl<R: BufRead> Reader<R> {
    /// A reader over decoded lines.
    pub fn new(lines: LineReader<R>, _opts: &ReadOptions) -> Reader<R> {
        Reader {
            lines,
            done: false,
            producer: None,
        }
    }

    /// The program that wrote the file, as far as its `#` lines tell
    /// (`Shogidokoro`, `Kifu for Windows`, `Piyo Shogi`, …); known after
    /// the game was read.
    pub fn producer(&self) -> Option<&'static str> {
        self.producer
    }
}

impl<R: BufRead> Reader<R> {
    /// Reads the game into `v`; `None` once it was read.
    pub fn read_game<V: crate::text::Visitor + ?Sized>(&mut self, v: &mut V) -> Option<V::Output> {
        if self.done {
            return None;
        }
        self.done = true;
        let (out, producer) =
            crate::japanese::reader::read_game::<reader::Kif, _, _>(&mut self.lines, v);
        self.producer = producer;
        Some(out)
    }

    /// The encoding in use.
    pub fn encoding(&self) -> Encoding {
        self.lines.encoding()
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        self.read_game(&mut crate::text::RecordBuilder::new())
    }
}

/// How to write KIF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The encoding the first line declares (`#KIF version=2.0
    /// encoding=UTF-8` or `=Shift_JIS`). The text is always returned as a
    /// UTF-8 `String`; encode it with [`crate::text::decode::encode`] for
    /// Shift_JIS. Default: UTF-8.
    pub encoding: Encoding,
    /// End lines with CRLF (as Kifu for Windows does) instead of LF.
    pub crlf: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            encoding: Encoding::Utf8,
            crlf: false,
        }
    }
}
