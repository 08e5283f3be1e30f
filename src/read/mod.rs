//! What every reader shares: findings with locations, formats and their
//! detection, decoded line input, and the per-game result.

mod builder;
pub mod decode;
pub mod lines;
pub(crate) mod resolve;
pub(crate) mod sink;
pub(crate) mod syntax;
pub mod visitor;

pub use builder::RecordBuilder;
pub use decode::{DecodeOptions, Encoding};
pub use lines::LineReader;
pub use resolve::{RawMove, Resolved, MAX_GAME_MOVES};
pub use visitor::{visit_game, Flow, MoveEvent, Visitor, CONTINUE, SKIP};

use crate::record::{Location, Record};
use crate::rules::position::IllegalMove;
use serde::Serialize;
use std::fmt;
use std::path::Path;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something a reader tolerated, or a doubtful claim under `--lenient-claims`.
    Warning,
    /// The record is wrong.
    Error,
}

/// The rule a finding is about. [`Rule::id`] is the stable id scripts rely on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Text that does not follow the format.
    Syntax,
    /// Bytes that do not decode.
    Encoding,
    /// Nothing of the mover's on the origin square.
    NoPiece,
    /// The record names a piece that is not what stands there, or a
    /// promotion it cannot make, or the wrong side.
    PieceMismatch,
    /// The piece cannot move so, or its path is blocked.
    IllegalMovement,
    /// Own piece on the target, or drop on an occupied square.
    Occupied,
    /// The dropped piece is not in hand.
    NotInHand,
    /// A piece left where it can never move.
    MustPromote,
    /// A drop where the piece can never move.
    DeadDrop,
    /// Two unpromoted pawns on a file.
    Nifu,
    /// Mate by pawn drop.
    Uchifuzume,
    /// Leaves or puts one's own king in check.
    SelfCheck,
    /// Promotion where it is not allowed.
    IllegalPromotion,
    /// Moves after the game ended.
    AfterEnd,
    /// The stated result or terminal event is false.
    ClaimMismatch,
    /// Negative or inconsistent times.
    Time,
    /// An impossible start position.
    Setup,
    /// No game in the file.
    Empty,
    /// A KI2/PSN move that fits more than one piece.
    Ambiguous,
    /// Something a reader accepted although the format does not allow it.
    Dialect,
    /// The file could not be read.
    Io,
    /// A game larger than kifu keeps in memory (see
    /// [`resolve::MAX_GAME_MOVES`]); the moves beyond are not read.
    Limit,
    /// An illegal move the record states faithfully: the line ends on it
    /// and the record's verdict makes its player lose (a warning; the
    /// illegal move's own rule is in the message).
    Foul,
}

impl Rule {
    /// The stable id (`syntax`, `no-piece`, …).
    pub const fn id(self) -> &'static str {
        match self {
            Rule::Syntax => "syntax",
            Rule::Encoding => "encoding",
            Rule::NoPiece => "no-piece",
            Rule::PieceMismatch => "piece-mismatch",
            Rule::IllegalMovement => "illegal-movement",
            Rule::Occupied => "occupied",
            Rule::NotInHand => "not-in-hand",
            Rule::MustPromote => "must-promote",
            Rule::DeadDrop => "dead-drop",
            Rule::Nifu => "nifu",
            Rule::Uchifuzume => "uchifuzume",
            Rule::SelfCheck => "self-check",
            Rule::IllegalPromotion => "illegal-promotion",
            Rule::AfterEnd => "after-end",
            Rule::ClaimMismatch => "claim-mismatch",
            Rule::Time => "time",
            Rule::Setup => "setup",
            Rule::Empty => "empty",
            Rule::Ambiguous => "ambiguous",
            Rule::Dialect => "dialect",
            Rule::Io => "io",
            Rule::Limit => "limit",
            Rule::Foul => "foul",
        }
    }

    /// Every rule, for documentation.
    pub const ALL: [Rule; 23] = [
        Rule::Syntax,
        Rule::Encoding,
        Rule::NoPiece,
        Rule::PieceMismatch,
        Rule::IllegalMovement,
        Rule::Occupied,
        Rule::NotInHand,
        Rule::MustPromote,
        Rule::DeadDrop,
        Rule::Nifu,
        Rule::Uchifuzume,
        Rule::SelfCheck,
        Rule::IllegalPromotion,
        Rule::AfterEnd,
        Rule::ClaimMismatch,
        Rule::Time,
        Rule::Setup,
        Rule::Empty,
        Rule::Ambiguous,
        Rule::Dialect,
        Rule::Io,
        Rule::Limit,
        Rule::Foul,
    ];

    /// Whether this rule is about an illegal move (the replay stops there).
    pub fn is_illegal_move(self) -> bool {
        matches!(
            self,
            Rule::NoPiece
                | Rule::PieceMismatch
                | Rule::IllegalMovement
                | Rule::Occupied
                | Rule::NotInHand
                | Rule::MustPromote
                | Rule::DeadDrop
                | Rule::Nifu
                | Rule::Uchifuzume
                | Rule::SelfCheck
                | Rule::IllegalPromotion
                | Rule::Ambiguous
        )
    }
}

impl From<IllegalMove> for Rule {
    fn from(m: IllegalMove) -> Rule {
        match m {
            IllegalMove::NoPiece => Rule::NoPiece,
            IllegalMove::IllegalMovement => Rule::IllegalMovement,
            IllegalMove::Occupied => Rule::Occupied,
            IllegalMove::NotInHand => Rule::NotInHand,
            IllegalMove::MustPromote => Rule::MustPromote,
            IllegalMove::DeadDrop => Rule::DeadDrop,
            IllegalMove::Nifu => Rule::Nifu,
            IllegalMove::Uchifuzume => Rule::Uchifuzume,
            IllegalMove::SelfCheck => Rule::SelfCheck,
            IllegalMove::IllegalPromotion => Rule::IllegalPromotion,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Rule {
    /// What the rule is about, in one line (for `--help`, SARIF rule
    /// descriptions and documentation).
    pub const fn description(self) -> &'static str {
        match self {
            Rule::Syntax => "text that does not follow the format",
            Rule::Encoding => "bytes that do not decode",
            Rule::NoPiece => "nothing of the mover's on the origin square",
            Rule::PieceMismatch => {
                "the record names another piece, side or promotion than the board has"
            }
            Rule::IllegalMovement => "the piece cannot move so, or its path is blocked",
            Rule::Occupied => "own piece on the target, or a drop on an occupied square",
            Rule::NotInHand => "the dropped piece is not in hand",
            Rule::MustPromote => "a piece left where it can never move",
            Rule::DeadDrop => "a drop where the piece can never move",
            Rule::Nifu => "two unpromoted pawns of a side on one file",
            Rule::Uchifuzume => "checkmate by a pawn drop",
            Rule::SelfCheck => "the move leaves or puts one's own king in check",
            Rule::IllegalPromotion => "promotion where it is not allowed",
            Rule::AfterEnd => "moves after checkmate, repetition or another end",
            Rule::ClaimMismatch => {
                "a false result: mate, repetition, declaration, winner, move count"
            }
            Rule::Time => "inconsistent cumulative times",
            Rule::Setup => "an impossible start position",
            Rule::Empty => "a file with no game",
            Rule::Ambiguous => "a KI2/PSN move that fits several pieces",
            Rule::Dialect => "something tolerated that the format does not allow",
            Rule::Io => "the file could not be read",
            Rule::Limit => {
                "a game larger than kifu reads (more than 1,048,576 moves in all its lines)"
            }
            Rule::Foul => {
                "an illegal move the record ends on with its verdict: the player who made it loses"
            }
        }
    }

    /// The severity findings of this rule have unless options change it
    /// (`claim-mismatch` is a warning with lenient claims; `io` is a
    /// warning for a directory entry that was skipped).
    pub const fn default_severity(self) -> Severity {
        match self {
            Rule::Time | Rule::Dialect | Rule::Foul => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// The rule with this id (`nifu`, `self-check`, …).
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.id() == id)
    }
}

/// A rule id that names no rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule `{}`; the rules are:", self.0)?;
        for r in Rule::ALL {
            write!(f, " {}", r.id())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownRule {}

impl std::str::FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        Rule::from_id(s).ok_or_else(|| UnknownRule(s.to_string()))
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// A problem found in a file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// Error or warning.
    pub severity: Severity,
    /// What was expected and what was found.
    pub message: String,
    /// 1-based line (0 = the whole file).
    pub line: u32,
    /// 1-based column (characters).
    pub column: u32,
    /// The ply (1-based move number within the game) of the move concerned.
    pub ply: Option<u32>,
    /// The move as written.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The position before the move, as SFEN.
    pub sfen: Option<String>,
}

impl Finding {
    /// An error at `loc`.
    pub fn error(rule: Rule, loc: Location, message: impl Into<String>) -> Finding {
        Finding {
            rule,
            severity: Severity::Error,
            message: message.into(),
            line: loc.line,
            column: loc.column,
            ply: None,
            mv: None,
            sfen: None,
        }
    }

    /// A warning at `loc`.
    pub fn warning(rule: Rule, loc: Location, message: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Warning,
            ..Finding::error(rule, loc, message)
        }
    }

    /// Adds the ply, move and position.
    pub fn at_move(mut self, ply: u32, mv: &str, sfen: String) -> Finding {
        self.ply = Some(ply);
        self.mv = Some(mv.to_string());
        self.sfen = Some(sfen);
        self
    }

    /// The location.
    pub fn location(&self) -> Location {
        Location::new(self.line, self.column)
    }
}

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
        let ext = ext.to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|f| f.extensions().contains(&ext.as_str()))
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

/// Options every reader takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Encoding choice and lossy decoding.
    pub decode: DecodeOptions,
}

/// One game read from a file, with what the reader found wrong or tolerated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// 0-based index of the game in its file.
    pub index: usize,
    /// The record.
    pub record: Record,
    /// Syntax, encoding and resolution findings of the reader.
    pub findings: Vec<Finding>,
}

impl Game {
    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }
}

/// The finding for a line the line reader could not give whole: bytes that
/// do not decode (`encoding`) or a line longer than
/// [`lines::MAX_LINE_BYTES`] (`syntax`). Every reader reports them alike.
pub(crate) fn line_finding(line: u32, err: &lines::LineError, encoding: Encoding) -> Finding {
    match err {
        lines::LineError::Encoding { column, bytes } => Finding::error(
            Rule::Encoding,
            Location::new(line, *column),
            format!(
                "bytes {} do not decode as {}",
                bytes
                    .iter()
                    .map(|b| format!("{b:02X}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                encoding.name()
            ),
        ),
        lines::LineError::TooLong => Finding::error(
            Rule::Syntax,
            Location::new(line, 1),
            format!(
                "line too long: longer than {} MiB, cut there",
                lines::MAX_LINE_BYTES >> 20
            ),
        ),
    }
}

/// The finding for an input that could not be read to its end.
pub(crate) fn io_finding(e: &std::io::Error) -> Finding {
    Finding::error(
        Rule::Io,
        Location::default(),
        format!("cannot read the input: {e}"),
    )
}

/// The finding for an input without any game.
pub(crate) fn empty_finding() -> Finding {
    Finding::error(Rule::Empty, Location::default(), "no game in the input")
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
        let format = match format {
            Some(f) => f,
            None => {
                let prefix = source.fill_buf()?;
                Format::sniff(prefix).unwrap_or(Format::Kif)
            }
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

/// Reads every game of an in-memory input (tests, small files).
pub fn read_all(bytes: &[u8], format: Option<Format>, opts: &ReadOptions) -> Vec<Game> {
    match Reader::with_options(bytes, format, opts) {
        Ok(mut r) => r.games().collect(),
        Err(_) => Vec::new(),
    }
}

/// Turns byte offsets of one line into 1-based character columns, counting
/// each character once however many offsets are asked (offsets that only
/// grow cost nothing more than one pass over the line).
pub(crate) struct Columns<'a> {
    text: &'a str,
    byte: usize,
    col: u32,
}

impl<'a> Columns<'a> {
    /// Columns of `text`.
    pub fn new(text: &'a str) -> Columns<'a> {
        Columns {
            text,
            byte: 0,
            col: 1,
        }
    }

    /// The column of byte offset `off` (clamped to the line, and to a
    /// character boundary).
    pub fn at(&mut self, off: usize) -> u32 {
        let mut end = off.min(self.text.len());
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        if end < self.byte {
            self.byte = 0;
            self.col = 1;
        }
        let s = &self.text[self.byte..end];
        self.col += s.bytes().filter(|&b| (b as i8) >= -0x40).count() as u32;
        self.byte = end;
        self.col
    }
}
