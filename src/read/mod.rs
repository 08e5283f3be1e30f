//! Reading any format: [`Reader`] picks the format (given, from the file
//! extension, or sniffed from the first bytes) and dispatches to each
//! format's reader. What the format readers share (findings, decoding, the
//! line reader, the events of the [`Visitor`], the resolver and the
//! [`RecordBuilder`]) lives in the input layer below the formats and is
//! re-exported here under its public paths.

pub(crate) use crate::text::resolve;
pub use crate::text::{decode, lines, visitor};

/// The parts of a [`RawMove`], as the formats write them.
pub use crate::text::notation::csa::CsaMove;
pub use crate::text::notation::moves::{Dest, MoveText, Origin};
pub use crate::text::sink::{
    MAX_GAME_FINDINGS, MAX_GAME_TEXT_BYTES, MAX_GAME_VARIATIONS, TEXT_ENTRY_COST,
};
pub use crate::text::RecordBuilder;
pub use crate::text::{Finding, Game, ReadOptions, Rule, Severity, UnknownRule};
pub use decode::{DecodeOptions, Encoding};
pub use lines::LineReader;
pub use resolve::{RawMove, Resolved, MAX_GAME_MOVES};
pub use visitor::{visit_game, Flow, MoveEvent, Visitor, WrittenText, CONTINUE, SKIP};

use serde::Serialize;
use std::fmt;
use std::path::Path;

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Kakinoki KIF (`.kif` Shift_JIS, `.kifu` UTF-8).
    Kif,
    /// KI2 (`.ki2`, `.ki2u`).
    Ki2,
    /// CSA (`.csa`).
    Csa,
    /// PSN / PSN2 (`.psn`).
    Psn,
    /// JSON Kifu Format (`.jkf`, `.json`).
    Jkf,
    /// SFEN/USI lines (`.sfen`, `.usi`), one game per line.
    Usi,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 6] = [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Psn,
        Format::Jkf,
        Format::Usi,
    ];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Psn => "psn",
            Format::Jkf => "jkf",
            Format::Usi => "usi",
        }
    }

    /// File extensions (lower case, without dot) of this format.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Kif => &["kif", "kifu"],
            Format::Ki2 => &["ki2", "ki2u"],
            Format::Csa => &["csa"],
            Format::Psn => &["psn"],
            Format::Jkf => &["jkf", "json"],
            Format::Usi => &["sfen", "usi"],
        }
    }

    /// The format of a file extension.
    pub fn from_extension(ext: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.extensions().iter().any(|x| x.eq_ignore_ascii_case(ext)))
    }

    /// The format of a path by its extension.
    pub fn from_path(path: &Path) -> Option<Format> {
        path.extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
    }

    /// Guesses the format from the first bytes of a file.
    pub fn sniff(prefix: &[u8]) -> Option<Format> {
        let text = String::from_utf8_lossy(&prefix[..prefix.len().min(16384)]);
        let text = text.trim_start_matches('\u{feff}');
        let t = text.trim_start();
        if t.starts_with('{') {
            return Some(Format::Jkf);
        }
        if t.starts_with('[') {
            return Some(Format::Psn);
        }
        let mut kif_score = 0;
        let mut ki2_score = 0;
        for line in text.lines().take(200) {
            let l = line.trim();
            if l.starts_with("position ") || l.starts_with("startpos") || l.starts_with("sfen ") {
                return Some(Format::Usi);
            }
            if l.starts_with("'CSA")
                || l == "PI"
                || l.starts_with("P1")
                || l.starts_with("N+")
                || l.starts_with("N-")
                || (l.len() >= 7
                    && (l.starts_with('+') || l.starts_with('-'))
                    && l.as_bytes()[1].is_ascii_digit())
                || l == "V2.2"
                || l == "V2"
                || l == "V2.1"
                || l == "V3.0"
            {
                return Some(Format::Csa);
            }
            if l.starts_with("手数----") || l.starts_with("#KIF") {
                kif_score += 5;
            }
            if l.starts_with('▲') || l.starts_with('△') || l.starts_with('☗') || l.starts_with('☖')
            {
                ki2_score += 1;
            }
            let first = l.split_whitespace().next().unwrap_or("");
            if !first.is_empty() && first.chars().all(|c| c.is_ascii_digit()) && l.contains('(') {
                kif_score += 1;
            }
        }
        if kif_score > 0 && kif_score >= ki2_score {
            Some(Format::Kif)
        } else if ki2_score > 0 {
            Some(Format::Ki2)
        } else if text.contains("：") || text.contains("手合割") {
            Some(Format::Kif)
        } else if text
            .lines()
            .any(|l| crate::rules::sfen::parse_sfen(l, None).is_ok())
        {
            Some(Format::Usi)
        } else {
            None
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        let l = s.to_ascii_lowercase();
        match l.as_str() {
            "kifu" => Ok(Format::Kif),
            "ki2u" => Ok(Format::Ki2),
            "sfen" => Ok(Format::Usi),
            "json" => Ok(Format::Jkf),
            _ => Format::ALL
                .into_iter()
                .find(|f| f.name() == l)
                .ok_or_else(|| {
                    format!("unknown format `{s}` (expected kif, ki2, csa, psn, jkf, usi or sfen)")
                }),
        }
    }
}

/// A line reader over bytes in memory (for tests and small inputs).
pub fn lines_from_bytes<'a>(bytes: &'a [u8], opts: &ReadOptions) -> LineReader<&'a [u8]> {
    LineReader::new(bytes, &opts.decode).expect("reading from memory cannot fail")
}

/// A boxed stream of games.
pub type Games = Box<dyn Iterator<Item = Game> + Send>;

/// A byte source a reader can own.
pub type Source = Box<dyn std::io::BufRead + Send>;

/// Reads the games of one input, in any format, one at a time: either into
/// a [`Visitor`] ([`Reader::read_game`]) or as built [`Game`]s
/// ([`Reader::games`]).
///
/// ```
/// use kifu::read::Reader;
///
/// let text = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
/// let mut reader = Reader::new(&text[..]).unwrap();
/// let games: Vec<_> = reader.games().collect();
/// assert_eq!(games.len(), 1);
/// assert_eq!(games[0].record.main.moves.len(), 2);
/// assert!(games[0].findings.is_empty());
/// ```
pub struct Reader<R: std::io::BufRead> {
    format: Format,
    encoding: Encoding,
    inner: Inner<R>,
}

/// The format readers: each turns lines into the events of one game at a
/// time.
#[allow(clippy::large_enum_variant)]
enum Inner<R: std::io::BufRead> {
    /// A binary file: one game with one `encoding` finding (the NUL byte
    /// at this offset), then nothing.
    Binary(Option<usize>),
    Csa(crate::csa::CsaReader<R>),
    Kif(crate::kif::Reader<R>),
    Ki2(crate::ki2::Reader<R>),
    Psn(crate::psn::Reader<R>),
    Jkf(crate::jkf::Reader<R>),
    Usi(crate::usi::Reader<R>),
}

impl<R: std::io::BufRead> Reader<R> {
    /// A reader that detects the format (from the first bytes) and the
    /// encoding.
    pub fn new(source: R) -> std::io::Result<Reader<R>> {
        Reader::with_options(source, None, &ReadOptions::default())
    }

    /// A reader of `format` (sniffed from the first bytes when `None`,
    /// KIF when nothing fits) with `opts`.
    pub fn with_options(
        mut source: R,
        format: Option<Format>,
        opts: &ReadOptions,
    ) -> std::io::Result<Reader<R>> {
        let prefix = source.fill_buf()?;
        if let Some(at) = binary_at(prefix, &opts.decode) {
            return Ok(Reader {
                format: format.unwrap_or(Format::Kif),
                encoding: Encoding::Utf8,
                inner: Inner::Binary(Some(at)),
            });
        }
        let format = match format {
            Some(f) => f,
            None => Format::sniff(prefix).unwrap_or(Format::Kif),
        };
        let lines = LineReader::new(source, &opts.decode)?;
        Ok(Reader::from_lines(format, lines, opts))
    }

    /// A reader of `format` over decoded lines.
    pub fn from_lines(format: Format, lines: LineReader<R>, opts: &ReadOptions) -> Reader<R> {
        let encoding = lines.encoding();
        let inner = match format {
            Format::Csa => Inner::Csa(crate::csa::CsaReader::new(lines)),
            Format::Kif => Inner::Kif(crate::kif::Reader::new(lines, opts)),
            Format::Ki2 => Inner::Ki2(crate::ki2::Reader::new(lines, opts)),
            Format::Psn => Inner::Psn(crate::psn::Reader::new(lines, opts)),
            Format::Jkf => Inner::Jkf(crate::jkf::Reader::new(lines, opts)),
            Format::Usi => Inner::Usi(crate::usi::Reader::new(lines, opts)),
        };
        Reader {
            format,
            encoding,
            inner,
        }
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The encoding detected (or chosen).
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Reads the next game into `visitor`; `None` when the input has no
    /// more games. An input without any game yields one game with an
    /// `empty` finding; an I/O error ends the input with an `io` finding.
    pub fn read_game<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Option<V::Output> {
        match &mut self.inner {
            Inner::Binary(at) => {
                let at = at.take()?;
                let _ = visitor.begin_game(0);
                let _ = visitor.finding(Finding::error(
                    Rule::Encoding,
                    crate::record::Location::default(),
                    format!("binary file (a NUL byte at byte {at}): not read as a record"),
                ));
                Some(visitor.end_game())
            }
            Inner::Csa(r) => r.read_game(visitor),
            Inner::Kif(r) => r.read_game(visitor),
            Inner::Ki2(r) => r.read_game(visitor),
            Inner::Psn(r) => r.read_game(visitor),
            Inner::Jkf(r) => r.read_game(visitor),
            Inner::Usi(r) => r.read_game(visitor),
        }
    }

    /// Skips the next game; `false` when there was none.
    pub fn skip_game(&mut self) -> bool {
        struct Skip;
        impl Visitor for Skip {
            type Output = ();
            fn begin_game(&mut self, _: usize) -> Flow {
                SKIP
            }
            fn end_game(&mut self) {}
        }
        self.read_game(&mut Skip).is_some()
    }

    /// The next game, built ([`RecordBuilder`]).
    pub fn next_game(&mut self) -> Option<Game> {
        self.read_game(&mut RecordBuilder::new())
    }

    /// The remaining games, built ([`RecordBuilder`]).
    pub fn games(&mut self) -> impl Iterator<Item = Game> + '_ {
        std::iter::from_fn(move || self.next_game())
    }

    /// The remaining games, built, owning the reader.
    pub fn into_games(mut self) -> impl Iterator<Item = Game> {
        std::iter::from_fn(move || self.next_game())
    }
}

impl Reader<std::io::BufReader<std::fs::File>> {
    /// Opens a file: the format from its extension (sniffed when the
    /// extension says nothing), the encoding detected.
    pub fn from_path(path: impl AsRef<Path>) -> std::io::Result<Self> {
        let path = path.as_ref();
        let file = std::fs::File::open(path)?;
        let source = std::io::BufReader::with_capacity(1 << 16, file);
        Reader::with_options(source, Format::from_path(path), &ReadOptions::default())
    }
}

/// Opens a game stream: picks the format (given, else sniffed from the
/// first bytes), detects the encoding, and returns the games lazily.
pub fn open(
    source: Source,
    format: Option<Format>,
    opts: &ReadOptions,
) -> std::io::Result<(Format, Encoding, Games)> {
    let reader = Reader::with_options(source, format, opts)?;
    let (format, encoding) = (reader.format(), reader.encoding());
    Ok((format, encoding, Box::new(reader.into_games())))
}

/// The games of a decoded line stream in `format`.
pub fn games_from_lines(format: Format, lines: LineReader<Source>, opts: &ReadOptions) -> Games {
    Box::new(Reader::from_lines(format, lines, opts).into_games())
}

/// How many bytes of an input's start [`binary_at`] looks at.
pub const BINARY_PROBE: usize = 64 << 10;

/// The offset of a NUL byte in the first [`BINARY_PROBE`] bytes of an
/// input, which makes it a binary file (as ripgrep decides): no record
/// holds one, except one in UTF-16 (a byte-order mark, or the encoding
/// chosen), which is never called binary. A binary file reads as one
/// game with one `encoding` error, never a finding per line.
pub fn binary_at(prefix: &[u8], opts: &DecodeOptions) -> Option<usize> {
    if matches!(opts.encoding, Some(Encoding::Utf16Le | Encoding::Utf16Be))
        || prefix.starts_with(&[0xFF, 0xFE])
        || prefix.starts_with(&[0xFE, 0xFF])
    {
        return None;
    }
    memchr::memchr(0, &prefix[..prefix.len().min(BINARY_PROBE)])
}

/// Reads every game of an in-memory input (tests, small files).
pub fn read_all(bytes: &[u8], format: Option<Format>, opts: &ReadOptions) -> Vec<Game> {
    match Reader::with_options(bytes, format, opts) {
        Ok(mut r) => r.games().collect(),
        Err(_) => Vec::new(),
    }
}
