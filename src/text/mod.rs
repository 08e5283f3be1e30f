//! The input layer below the formats: what every format reader shares.
//! Findings with rule ids and locations, encodings and their detection
//! ([`decode`]), the line reader ([`lines`]), the one nom error type
//! ([`syntax`]), the events a reader sends and the [`Visitor`] trait
//! ([`visitor`], [`sink`]), moves as each format writes them and the one
//! resolver ([`resolve`], [`notation`]), and the [`RecordBuilder`]. It
//! imports only the rules engine and the record; the formats import it, and
//! `read` (the dispatch over the formats) re-exports it under its public
//! paths (`kifu::read::…`).

mod builder;
pub(crate) mod claims;
pub mod decode;
pub mod lines;
pub mod notation;
pub(crate) mod resolve;
pub(crate) mod sink;
pub(crate) mod syntax;
pub mod visitor;

pub use builder::RecordBuilder;
pub use decode::{DecodeOptions, Encoding};
pub use lines::LineReader;
pub use resolve::{RawMove, Resolved};
pub use visitor::{Flow, MoveEvent, Visitor, WrittenText};

use crate::record::{Location, Record};
use crate::rules::position::IllegalMove;
use serde::Serialize;
use std::fmt;

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
    /// A game larger than kifu keeps in memory: more moves than
    /// [`resolve::MAX_GAME_MOVES`], variations than
    /// [`sink::MAX_GAME_VARIATIONS`], comment and header text than
    /// [`sink::MAX_GAME_TEXT_BYTES`] or reader findings than
    /// [`sink::MAX_GAME_FINDINGS`]; what is beyond is not read.
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
                "a game larger than kifu reads (more than 1,048,576 moves in all its lines, 65,536 variations, 16 MiB of comments and headers, or 10,000 reader findings)"
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
/// [`lines::MAX_LINE_BYTES`] (`syntax`); or for the encoding declaration
/// the bytes contradict (an `encoding` warning). Every reader reports them
/// alike.
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
        lines::LineError::Overridden(o) => Finding::warning(
            Rule::Encoding,
            Location::new(line, o.column),
            o.message.clone(),
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
