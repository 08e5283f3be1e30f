//! The format-neutral game record that every reader produces and every
//! writer consumes.

use crate::rules::color::Color;
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
pub use crate::rules::outcome::Outcome;

pub mod key;
pub mod players;
mod time_control;
use crate::rules::role::Role;
use crate::rules::setup::Setup;
use crate::rules::variant::Variant;
use arrayvec::ArrayString;
use serde::Serialize;
use std::fmt;
pub use time_control::TimeControl;

/// The deepest nesting of variations a reader builds. Deeper variations are
/// reported (rule `syntax`) and left out, so every tree walk stays within a
/// bounded stack.
pub const MAX_VARIATION_DEPTH: usize = 128;

/// A place in a source file: 1-based line and column (columns count
/// characters, not bytes). Line 0 means "no particular line" (whole file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Location {
    /// 1-based line.
    pub line: u32,
    /// 1-based column in characters.
    pub column: u32,
}

impl Location {
    /// A location.
    pub const fn new(line: u32, column: u32) -> Location {
        Location { line, column }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A header key. Known keys are typed so that they convert between formats;
/// anything else keeps its key verbatim.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HeaderKey {
    /// Black's player (先手/下手, `N+`, `[Sente]`).
    Sente,
    /// White's player (後手/上手, `N-`, `[Gote]`).
    Gote,
    /// Event or tournament (棋戦, `$EVENT`, `[Event]`).
    Event,
    /// Place (場所, `$SITE`, `[Site]`).
    Site,
    /// Start date/time (開始日時, `$START_TIME`, `[Date]`).
    StartTime,
    /// End date/time (終了日時, `$END_TIME`).
    EndTime,
    /// Time control (持ち時間, `$TIME_LIMIT`/`$TIME`, `[TimeControl]`).
    TimeControl,
    /// Opening (戦型, `$OPENING`, `[Opening]`).
    Opening,
    /// Title (表題).
    Title,
    /// Any other key, verbatim.
    Other(String),
}

impl HeaderKey {
    /// The canonical English name used in JSON and CSV output.
    pub fn name(&self) -> &str {
        match self {
            HeaderKey::Sente => "sente",
            HeaderKey::Gote => "gote",
            HeaderKey::Event => "event",
            HeaderKey::Site => "site",
            HeaderKey::StartTime => "start_time",
            HeaderKey::EndTime => "end_time",
            HeaderKey::TimeControl => "time_control",
            HeaderKey::Opening => "opening",
            HeaderKey::Title => "title",
            HeaderKey::Other(k) => k,
        }
    }
}

/// Ordered header entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// Entries in source order.
    pub entries: Vec<(HeaderKey, String)>,
}

impl Header {
    /// The first value of `key`.
    pub fn get(&self, key: &HeaderKey) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `key` (replacing the first entry with that key, else appending).
    pub fn set(&mut self, key: HeaderKey, value: impl Into<String>) {
        let value = value.into();
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 = value,
            None => self.entries.push((key, value)),
        }
    }

    /// Appends an entry.
    pub fn push(&mut self, key: HeaderKey, value: impl Into<String>) {
        self.entries.push((key, value.into()));
    }
}

/// The start position of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// Board, hands, side to move.
    pub setup: Setup,
    /// The standard start it is, when it is one.
    pub handicap: Option<Handicap>,
    /// Where the start position was given (board diagram, `PI`, tag…).
    pub location: Option<Location>,
}

impl Start {
    /// The start of a standard start position.
    pub fn handicap(h: Handicap) -> Start {
        Start {
            setup: h.setup(),
            handicap: Some(h),
            location: None,
        }
    }

    /// The start position of a variant (the even game for standard shogi).
    pub fn variant(v: Variant) -> Start {
        match v {
            Variant::Standard => Start::handicap(Handicap::Even),
            _ => Start {
                setup: crate::rules::sfen::parse_sfen(v.rules().start_sfen, Some(v))
                    .expect("start"),
                handicap: None,
                location: None,
            },
        }
    }

    /// The variant.
    pub fn variant_of(&self) -> Variant {
        self.setup.variant
    }
}

impl Default for Start {
    fn default() -> Start {
        Start::handicap(Handicap::Even)
    }
}

/// Time spent on a move, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveTime {
    /// Time this move took.
    pub spent_ms: Option<u64>,
    /// The mover's cumulative time after this move, as recorded.
    pub total_ms: Option<u64>,
}

/// The move as written in the source, for diagnostics (truncated to 48 bytes).
pub type Written = ArrayString<48>;

/// Makes a [`Written`] from text, truncating at a character boundary.
pub fn written(s: &str) -> Written {
    if let Ok(w) = Written::from(s) {
        return w;
    }
    let mut w = Written::new();
    for c in s.chars() {
        if w.try_push(c).is_err() {
            break;
        }
    }
    w
}

/// One move of a line, with what came with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move, resolved against the position (it may still be illegal:
    /// the validator judges).
    pub mv: Move,
    /// The role the record says moves (before promotion), when the format
    /// names it; checked by the validator (`piece-mismatch`).
    pub role: Option<Role>,
    /// The colour the record says moves, when the format names it (CSA
    /// `+`/`-`, KI2 ▲/△, JKF `color`).
    pub color: Option<Color>,
    /// The move as written.
    pub written: Written,
    /// Time spent.
    pub time: MoveTime,
    /// Comments after this move (KIF `*` lines, CSA `'` lines, …), one entry
    /// per comment line.
    pub comments: Vec<String>,
    /// Alternative lines: each starts with an alternative to *this* move.
    pub variations: Vec<Line>,
    /// Where the move is in the source.
    pub location: Location,
}

impl Node {
    /// A node with nothing but a move.
    pub fn new(mv: Move, location: Location) -> Node {
        Node {
            mv,
            role: None,
            color: None,
            written: Written::new(),
            time: MoveTime::default(),
            comments: Vec::new(),
            variations: Vec::new(),
            location,
        }
    }
}

/// A line of moves, with the terminal event that ends it (if any).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves.
    pub moves: Vec<Node>,
    /// How the line ends.
    pub terminal: Option<Terminal>,
    /// Where the reader stopped the line: a move written in the record
    /// that could not be placed on the board (`None` for every line that
    /// reads to its end).
    pub stop: Option<Stop>,
}

/// A move the record writes but the reader could not place on the board
/// (no piece can make it, a move after the line's end, the move limit). Its
/// finding is among the reader's findings; the line's later moves are not
/// read. Kept so that validating the built record
/// ([`crate::validate::validate`]) judges the line as `kifu validate` does
/// while reading: same verdict, same game key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The move as written.
    pub written: String,
    /// Where it is written.
    pub location: Location,
    /// How many moves the line writes after it.
    pub after: u32,
    /// It came after the line's terminal (a move after the end).
    pub after_terminal: bool,
}

/// How a game (or a line) ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TerminalKind {
    /// The side to move resigned (投了, `%TORYO`).
    Resign,
    /// The game was interrupted (中断, `%CHUDAN`).
    Abort,
    /// Repetition (千日手, `%SENNICHITE`).
    Repetition,
    /// Impasse draw (持将棋, `%JISHOGI`).
    Impasse,
    /// The side to move declared an entering-king win (入玉勝ち, `%KACHI`).
    DeclarationWin,
    /// The side to move declared an entering-king draw (`%HIKIWAKE`).
    DeclarationDraw,
    /// The side to move lost on time (切れ負け, `%TIME_UP`).
    TimeUp,
    /// The side to move lost by a foul (反則負け, `%ILLEGAL_MOVE`).
    IllegalLoss,
    /// The previous move was a foul: the side to move wins (反則勝ち).
    IllegalWin,
    /// The given side fouled (`%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`).
    IllegalAction(Color),
    /// The side to move is checkmated (詰み, `%TSUMI`).
    Checkmate,
    /// No mate (不詰, `%FUZUMI`).
    NoMate,
    /// The move limit was reached (`%MAX_MOVES`, 最大手数).
    MaxMoves,
    /// A try win by the side that moved last (トライ, doubutsu or try rule).
    Try,
    /// Sealed move (封じ手).
    Sealed,
    /// Take-back (`%MATTA`).
    Matta,
    /// An error (`%ERROR`).
    Error,
    /// Win by default (不戦勝) for the side to move.
    DefaultWin,
    /// Loss by default (不戦敗) for the side to move.
    DefaultLoss,
    /// Draw by agreement or arbitration (引き分け).
    Draw,
    /// Anything else, verbatim.
    Other(String),
}

impl TerminalKind {
    /// The outcome of the game when this event ends it with `to_move` to
    /// move. `IllegalWin` means the previous move was illegal.
    pub fn outcome(&self, to_move: Color) -> Outcome {
        use TerminalKind::*;
        match self {
            Resign | TimeUp | IllegalLoss | Checkmate | DefaultLoss => Outcome::win(!to_move),
            DeclarationWin | IllegalWin | DefaultWin => Outcome::win(to_move),
            IllegalAction(c) => Outcome::win(!*c),
            Try => Outcome::win(!to_move),
            Repetition | Impasse | DeclarationDraw | MaxMoves | Draw => Outcome::Draw,
            Abort | Sealed | Matta => Outcome::Aborted,
            NoMate | Error | Other(_) => Outcome::Unknown,
        }
    }

    /// The reason id reports and CSV use (`resign`, `checkmate`, …): one
    /// of a closed list ([`crate::validate::REASONS`]); a word kifu does
    /// not know ([`TerminalKind::Other`]) is `other` (its text is
    /// [`TerminalKind::other_text`]).
    pub fn reason_id(&self) -> &'static str {
        use TerminalKind::*;
        match self {
            Resign => "resign",
            Abort => "abort",
            Repetition => "repetition",
            Impasse => "impasse",
            DeclarationWin => "declaration",
            DeclarationDraw => "declaration-draw",
            TimeUp => "time-up",
            IllegalLoss | IllegalWin | IllegalAction(_) => "illegal-move",
            Checkmate => "checkmate",
            NoMate => "no-mate",
            MaxMoves => "max-moves",
            Try => "try",
            Sealed => "sealed",
            Matta => "matta",
            Error => "error",
            DefaultWin | DefaultLoss => "default",
            Draw => "draw",
            Other(_) => "other",
        }
    }

    /// The text of a terminal word kifu does not know, as written.
    pub fn other_text(&self) -> Option<&str> {
        match self {
            TerminalKind::Other(s) => Some(s),
            _ => None,
        }
    }

    /// A short reason word (`resign`, `checkmate`, …; the text itself for
    /// [`TerminalKind::Other`]), for comments and notation. Reports use
    /// [`TerminalKind::reason_id`].
    pub fn reason(&self) -> &str {
        self.other_text().unwrap_or_else(|| self.reason_id())
    }
}

/// The event that ends a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terminal {
    /// What happened.
    pub kind: TerminalKind,
    /// Time spent on it, if recorded.
    pub time: MoveTime,
    /// Comments after it.
    pub comments: Vec<String>,
    /// Where it is.
    pub location: Location,
}

/// A result claimed apart from the moves (KIF `まで` line, PSN `[Result]`,
/// a result header), checked against the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultClaim {
    /// The outcome it states.
    pub outcome: Outcome,
    /// The number of moves it states, if any.
    pub plies: Option<u32>,
    /// The terminal it states, if any (e.g. `詰` in `まで71手で詰`).
    pub kind: Option<TerminalKind>,
    /// The text as written.
    pub text: String,
    /// Where.
    pub location: Location,
}

/// A whole game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Header entries.
    pub header: Header,
    /// The start position.
    pub start: Start,
    /// Comments on the start position.
    pub initial_comments: Vec<String>,
    /// The main line and its terminal event.
    pub main: Line,
    /// A separately stated result, when the format has one.
    pub claim: Option<ResultClaim>,
}

impl Record {
    /// The variant.
    pub fn variant(&self) -> Variant {
        self.start.setup.variant
    }

    /// Number of variations in the whole tree.
    pub fn variation_count(&self) -> usize {
        fn count(line: &Line) -> usize {
            line.moves
                .iter()
                .map(|n| n.variations.len() + n.variations.iter().map(count).sum::<usize>())
                .sum()
        }
        count(&self.main)
    }

    /// Number of comments in the whole tree (initial comments included).
    pub fn comment_count(&self) -> usize {
        fn count(line: &Line) -> usize {
            line.moves
                .iter()
                .map(|n| n.comments.len() + n.variations.iter().map(count).sum::<usize>())
                .sum::<usize>()
                + line.terminal.as_ref().map_or(0, |t| t.comments.len())
        }
        self.initial_comments.len() + count(&self.main)
    }
}
