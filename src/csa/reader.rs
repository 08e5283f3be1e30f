//! The CSA reader: a syntax-only state machine over [`Statement`]s that
//! sends events to a [`Visitor`]; games are separated by `/` lines.

use super::grammar::{
    self, parse_statement, quick_move, quick_time, runs_to_end_of_line, CsaMove, Statement,
};
use crate::record::{HeaderKey, Location, MoveTime, Outcome, ResultClaim, Start, TerminalKind};
use crate::rules::color::Color;
use crate::rules::handicap::Handicap;
use crate::rules::role::{Piece, Role};
use crate::rules::setup::Setup;
use crate::rules::variant::Variant;
use crate::text::lines::LineError;
use crate::text::sink::{Sink, MAX_GAME_TEXT_BYTES, TEXT_ENTRY_COST};
use crate::text::{
    empty_finding, io_finding, line_finding, Finding, LineReader, MoveEvent, RawMove, Rule, Visitor,
};
use std::io::BufRead;
use std::sync::OnceLock;

/// Reads CSA records (V2, V2.1, V2.2, V3.0, and files without a version
/// line) from a line stream; records are separated by `/` lines. See
/// `docs/formats/csa.md` for what is tolerated.
pub(crate) struct CsaReader<R: BufRead> {
    lines: LineReader<R>,
    /// Byte offset to resume at in the current line after a `/` inside it.
    resume: usize,
    index: usize,
    done: bool,
    yielded: bool,
    last_line: u32,
    state: State,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Before any start-position statement.
    Header,
    /// Inside the start position (`PI`, `P1`…, `P+`…).
    Position,
    /// After the turn line.
    Moves,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Last {
    Nothing,
    Move,
    Terminal,
}

/// Pieces of a full set, by unpromoted role index (Pawn … King).
const FULL_BOX: [u8; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

/// The syntactic state of the game being read.
struct State {
    setup: Setup,
    start_location: Option<Location>,
    boxed: [u8; 8],
    phase: Phase,
    content: bool,
    board_given: bool,
    /// The board is the even start's and the hands are empty (set by a
    /// plain `PI`, cleared by any change): the handicap is then known
    /// without comparing boards.
    even: bool,
    last: Last,
    /// Whether the last move or terminal has its time.
    last_timed: bool,
    /// The special that ended the game, if any.
    terminal: Option<String>,
    /// Moves are no longer added (a broken move statement, or a move after
    /// the terminal).
    broken: bool,
    /// Comments read before the game's first statement (they belong to the
    /// game only if one follows).
    comments: Vec<(String, Location)>,
    /// What the held comments count towards the game's text cap.
    held_bytes: usize,
    v3: bool,
    /// The `N+` and `N-` names (for floodgate's `'summary:`).
    names: [Option<String>; 2],
    /// The side that made the last move read.
    last_mover: Option<Color>,
    /// floodgate's `'summary:` comment, if the game has one: its text,
    /// where, and what it says (`Err` when kifu cannot read it). Without a
    /// `%` line it is the game's result claim.
    summary: Option<(String, Location, Result<super::summary::Summary, ()>)>,
    warned_fraction: bool,
    warned_space: bool,
    warned_late_header: bool,
    warned_row: bool,
}

fn even_setup() -> &'static Setup {
    static EVEN: OnceLock<Setup> = OnceLock::new();
    EVEN.get_or_init(|| Handicap::Even.setup())
}

impl State {
    fn new() -> State {
        State {
            setup: Setup::empty(Variant::Standard),
            start_location: None,
            boxed: FULL_BOX,
            phase: Phase::Header,
            content: false,
            board_given: false,
            even: false,
            last: Last::Nothing,
            last_timed: false,
            terminal: None,
            broken: false,
            comments: Vec::new(),
            held_bytes: 0,
            v3: false,
            names: [None, None],
            last_mover: None,
            summary: None,
            warned_fraction: false,
            warned_space: false,
            warned_late_header: false,
            warned_row: false,
        }
    }

    fn reset(&mut self) {
        *self = State::new();
    }

    /// Marks the game as holding a statement, and begins it.
    fn content<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>) {
        self.content = true;
        self.flush(out);
    }

    /// Begins the game and sends the comments held back (called on every
    /// statement: the comments, rare, are sent out of line).
    #[inline]
    fn flush<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>) {
        out.begin();
        if !self.comments.is_empty() {
            self.send_comments(out);
        }
    }

    #[cold]
    #[inline(never)]
    fn send_comments<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>) {
        for (c, at) in self.comments.drain(..) {
            out.comment(&c, at);
        }
        self.held_bytes = 0;
    }

    fn finding<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>, f: Finding) {
        self.flush(out);
        out.finding(f);
    }

    fn syntax<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        loc: Location,
        msg: impl Into<String>,
    ) {
        self.finding(out, Finding::error(Rule::Syntax, loc, msg));
    }

    /// The handicap of the start position (as [`Handicap::detect`] finds it).
    fn handicap(&self) -> Option<Handicap> {
        if self.even && self.setup.turn == Color::Black {
            Some(Handicap::Even)
        } else {
            Handicap::detect(&self.setup)
        }
    }

    fn take_from_box(&mut self, role: Role) {
        let i = role.unpromoted().index();
        if let Some(n) = self.boxed.get_mut(i) {
            *n = n.saturating_sub(1);
        }
    }

    fn return_to_box(&mut self, role: Role) {
        let i = role.unpromoted().index();
        if let Some(n) = self.boxed.get_mut(i) {
            *n = n.saturating_add(1);
        }
    }

    fn place(&mut self, sq: crate::rules::square::Square, piece: Option<Piece>) {
        self.even = false;
        if let Some(old) = self.setup.board[sq.index()] {
            self.return_to_box(old.role);
        }
        if let Some(p) = piece {
            self.take_from_box(p.role);
        }
        self.setup.board[sq.index()] = piece;
    }

    /// Enters the position phase (from the header), noting where it starts.
    fn start_position<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>, loc: Location) -> bool {
        match self.phase {
            Phase::Header => {
                self.phase = Phase::Position;
                self.start_location = Some(loc);
                true
            }
            Phase::Position => true,
            Phase::Moves => {
                self.syntax(
                    out,
                    loc,
                    "expected a move or a special, found a start-position line after the turn line",
                );
                false
            }
        }
    }

    /// Ends the start position with `turn` to move and sends it.
    fn finish_position<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        turn: Color,
        loc: Location,
    ) {
        if self.phase == Phase::Header {
            // Shogi Wars exports (via shogi-extend) give no start position
            // for an even game: the header, then the moves.
            self.finding(
                out,
                Finding::warning(
                    Rule::Dialect,
                    loc,
                    "no start position (`PI` or `P1`…`P9`): read from the even start",
                ),
            );
            self.setup = even_setup().clone();
            self.even = true;
            self.start_location = None;
        }
        self.setup.turn = turn;
        self.setup.ply = 1;
        self.phase = Phase::Moves;
        out.start(&Start {
            handicap: self.handicap(),
            setup: self.setup.clone(),
            location: self.start_location,
        });
    }

    /// Makes sure moves may follow (the turn line was given). One policy
    /// for what the spec makes mandatory and a record leaves out, each a
    /// `dialect` warning: a record with no start position at all starts
    /// from the even position, and a start position without its turn
    /// line (a board, `PI`, hands) is complete otherwise; either way the
    /// side to move is the side of the first move's sign, else sente.
    #[inline(always)]
    fn ensure_moves<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        loc: Location,
        first: Option<Color>,
    ) {
        if self.phase != Phase::Moves {
            self.start_moves(out, loc, first);
        }
    }

    /// The first move of a game: ends its start position.
    #[cold]
    #[inline(never)]
    fn start_moves<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        loc: Location,
        first: Option<Color>,
    ) {
        match self.phase {
            Phase::Moves => {}
            Phase::Header => self.finish_position(out, first.unwrap_or(Color::Black), loc),
            Phase::Position => self.missing_turn(out, loc, first),
        }
    }

    fn comment<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>, text: &str, loc: Location) {
        if self.summary.is_none() && text.starts_with("summary:") {
            self.read_summary(text, loc);
        }
        if out.begun() {
            out.comment(text, loc);
        } else if self.held_bytes > MAX_GAME_TEXT_BYTES {
            // More comments than a game may keep: they are not held back
            // any longer, the game begins (and its text cap is reported).
            self.flush(out);
            out.comment(text, loc);
        } else {
            self.held_bytes += text.len() + TEXT_ENTRY_COST;
            self.comments.push((text.to_string(), loc));
        }
    }

    /// Keeps floodgate's `'summary:` (rare: out of the per-line path).
    #[cold]
    #[inline(never)]
    fn read_summary(&mut self, text: &str, loc: Location) {
        let names = [self.names[0].as_deref(), self.names[1].as_deref()];
        if let Some(s) = super::summary::parse(text, names) {
            self.summary = Some((text.trim_end().to_string(), loc, s));
        }
    }

    /// At the end of a game with no `%` line: floodgate's `'summary:` is
    /// the server's statement of the result, sent as the game's claim (the
    /// validator checks it against the moves like a `まで` line). A
    /// summary kifu cannot read is a `dialect` warning.
    #[cold]
    #[inline(never)]
    fn summary_claim<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>) {
        let Some((text, location, read)) = self.summary.take() else {
            return;
        };
        match read {
            Ok(s) => {
                let outcome = match s.outcome {
                    // The names do not tell: the ending does, with the
                    // side to move at the end.
                    Outcome::Unknown => {
                        let to_move = self.last_mover.map_or(self.setup.turn, |c| !c);
                        match s.kind {
                            TerminalKind::Repetition => Outcome::Unknown,
                            ref k => k.outcome(to_move),
                        }
                    }
                    o => o,
                };
                out.claim(&ResultClaim {
                    outcome,
                    plies: None,
                    kind: Some(s.kind),
                    text,
                    location,
                });
            }
            Err(()) => out.finding(Finding::warning(
                Rule::Dialect,
                location,
                format!("floodgate summary `{text}` not understood: no result is read from it"),
            )),
        }
    }

    fn header<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        key: HeaderKey,
        value: &str,
        loc: Location,
    ) {
        if self.phase != Phase::Header && !self.warned_late_header {
            self.warned_late_header = true;
            self.finding(
                out,
                Finding::warning(Rule::Dialect, loc, "header line after the start position"),
            );
        }
        out.header(&key, value.trim_end(), loc);
    }

    #[inline(always)]
    fn play<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        m: CsaMove,
        stmt: &str,
        loc: Location,
    ) {
        self.ensure_moves(out, loc, Some(m.color));
        if self.broken {
            return;
        }
        out.movement(&MoveEvent {
            raw: RawMove::Csa(m),
            written: stmt.into(),
            at: loc,
        });
        if self.terminal.is_some() {
            // The resolver reports it (`after-end`); nothing after it counts.
            self.broken = true;
            return;
        }
        self.last = Last::Move;
        self.last_timed = false;
        self.last_mover = Some(m.color);
    }

    fn special<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>, name: &str, loc: Location) {
        self.ensure_moves(out, loc, None);
        if self.broken {
            return;
        }
        if let Some(t) = &self.terminal {
            if t == name {
                // floodgate: the declaring player's `%KACHI`, then the
                // server's.
                self.finding(
                    out,
                    Finding::warning(Rule::Dialect, loc, format!("repeated special `%{name}`")),
                );
                return;
            }
            let msg = format!(
                "expected the end of the record, found a second special `%{name}` after `%{t}`"
            );
            self.syntax(out, loc, msg);
            return;
        }
        self.terminal = Some(name.to_string());
        let kind = kind_from_special(name);
        if !SPECIALS.contains(&name) {
            let msg = match &kind {
                TerminalKind::Other(_) => format!("unknown special `%{name}` kept verbatim"),
                _ => format!(
                    "`%{name}` is not a CSA special; read as `%{}`",
                    special_name(&kind).unwrap_or(name)
                ),
            };
            self.finding(out, Finding::warning(Rule::Dialect, loc, msg));
        }
        out.terminal(&kind, loc);
        self.last = Last::Terminal;
        self.last_timed = false;
    }

    #[inline(always)]
    fn time<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>, ms: u64, frac: bool, loc: Location) {
        if frac && !self.v3 && !self.warned_fraction {
            self.warned_fraction = true;
            self.finding(
                out,
                Finding::warning(Rule::Dialect, loc, "fractional seconds before CSA V3.0"),
            );
        }
        if self.broken {
            return;
        }
        match self.last {
            Last::Move | Last::Terminal if !self.last_timed => {
                self.last_timed = true;
                out.time(
                    MoveTime {
                        spent_ms: Some(ms),
                        total_ms: None,
                    },
                    loc,
                );
            }
            Last::Move | Last::Terminal => self.syntax(
                out,
                loc,
                "expected a move or a special, found a second time",
            ),
            Last::Nothing => self.syntax(out, loc, "expected a move before the time"),
        }
    }

    fn statement<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        st: Statement<'_>,
        raw: &str,
        loc: Location,
    ) {
        match st {
            Statement::Comment(text) => {
                self.comment(out, text, loc);
                return;
            }
            Statement::Encoding(_) => {
                if self.content {
                    self.comment(out, &raw[1..], loc);
                }
                return;
            }
            _ => {}
        }
        self.content(out);
        match st {
            Statement::Comment(_) | Statement::Encoding(_) => {}
            Statement::Version(v) => {
                if self.phase != Phase::Header {
                    self.syntax(
                        out,
                        loc,
                        "expected a start position, move or special, found a version line",
                    );
                } else {
                    match v {
                        "2" | "2.1" | "2.2" => {}
                        "3.0" | "3" => self.v3 = true,
                        _ => self.finding(
                            out,
                            Finding::error(
                                Rule::Syntax,
                                Location::new(loc.line, loc.column + 1),
                                format!("expected a version 2, 2.1, 2.2 or 3.0, found `{v}`"),
                            ),
                        ),
                    }
                }
            }
            Statement::Name(c, name) => {
                self.names[c.index()] = Some(name.trim().to_string());
                let key = match c {
                    Color::Black => HeaderKey::Sente,
                    Color::White => HeaderKey::Gote,
                };
                self.header(out, key, name, loc);
            }
            Statement::Info(key, value) => self.header(out, header_key(key), value, loc),
            Statement::Pi(removals) => {
                if self.start_position(out, loc) {
                    if self.board_given {
                        self.syntax(
                            out,
                            loc,
                            "expected one start position, found a second board",
                        );
                    }
                    self.board_given = true;
                    self.setup.board = even_setup().board;
                    self.even = self.setup.hands.iter().all(|h| h.is_empty());
                    self.boxed = [0; 8];
                    for &(at, (sq, role)) in removals.iter() {
                        match self.setup.board[sq.index()] {
                            Some(p) if p.role == role => self.place(sq, None),
                            _ => self.finding(
                                out,
                                Finding::error(
                                    Rule::Syntax,
                                    Location::new(loc.line, loc.column + at as u32),
                                    format!(
                                        "expected a piece of the even position, found no {} on {}{}",
                                        role.csa(),
                                        sq.file(),
                                        sq.rank()
                                    ),
                                ),
                            ),
                        }
                    }
                }
            }
            Statement::Row(rank, cells, loose) => {
                if loose && !self.warned_row {
                    self.warned_row = true;
                    self.finding(
                        out,
                        Finding::warning(
                            Rule::Dialect,
                            loc,
                            "board row cells not in 3-character columns",
                        ),
                    );
                }
                if self.start_position(out, loc) {
                    self.board_given = true;
                    for (i, cell) in cells.iter().enumerate() {
                        let file = 9 - i as u8;
                        if let Some(sq) = crate::rules::square::Square::new(file, rank) {
                            let piece = cell.map(|(c, r)| Piece::new(c, r));
                            self.place(sq, piece);
                        }
                    }
                }
            }
            Statement::Place(color, items) => {
                if self.start_position(out, loc) {
                    for &(at, (sq, role)) in items.iter() {
                        match (sq, role) {
                            (Some(sq), Some(role)) => self.place(sq, Some(Piece::new(color, role))),
                            (None, Some(role)) => {
                                if role.is_promoted() || role == Role::King {
                                    self.finding(
                                        out,
                                        Finding::error(
                                            Rule::Syntax,
                                            Location::new(loc.line, loc.column + at as u32 + 2),
                                            format!(
                                                "expected a piece that can be held, found `{}`",
                                                role.csa()
                                            ),
                                        ),
                                    );
                                } else {
                                    self.even = false;
                                    self.take_from_box(role);
                                    self.setup.hands[color.index()].add(role);
                                }
                            }
                            (None, None) => {
                                self.even = false;
                                for role in Role::HAND {
                                    let i = role.index();
                                    if i < 7 {
                                        let n = self.boxed[i];
                                        let hand = &mut self.setup.hands[color.index()];
                                        let have = hand.count(role);
                                        hand.set(role, have.saturating_add(n));
                                        self.boxed[i] = 0;
                                    }
                                }
                            }
                            (Some(_), None) => {}
                        }
                    }
                }
            }
            Statement::Turn(c) => {
                if self.phase == Phase::Moves {
                    self.syntax(
                        out,
                        loc,
                        "expected a move or a special, found a second turn line",
                    );
                } else {
                    self.finish_position(out, c, loc);
                }
            }
            Statement::Move(m) => self.play(out, m, raw, loc),
            Statement::Special(name) => self.special(out, name, loc),
            Statement::Time(ms, frac) => self.time(out, ms, frac, loc),
            Statement::Separator => {}
        }
    }

    /// A start position that ends without its turn line (at the first
    /// move, or at the end of the game): `first`'s side to move (the first
    /// move's sign), else sente; a `dialect` warning, as for a record
    /// without a start position.
    fn missing_turn<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        loc: Location,
        first: Option<Color>,
    ) {
        let turn = first.unwrap_or(Color::Black);
        let why = if first.is_some() {
            "the first move's sign"
        } else {
            "no move says otherwise"
        };
        self.finding(
            out,
            Finding::warning(
                Rule::Dialect,
                loc,
                format!(
                    "no turn line (`+` or `-`) after the start position: {turn} to move ({why})"
                ),
            ),
        );
        self.finish_position(out, turn, loc);
    }

    /// Ends the game: a start position without its turn line is read as
    /// one ([`Self::missing_turn`]).
    fn finish<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>, end: Location) {
        if self.content && self.phase != Phase::Moves {
            match self.phase {
                Phase::Position => self.missing_turn(out, end, None),
                _ => self.finish_position(out, Color::Black, end),
            }
        }
    }
}

/// The header key of a `$` key.
pub fn header_key(key: &str) -> HeaderKey {
    match key {
        "EVENT" => HeaderKey::Event,
        "SITE" => HeaderKey::Site,
        "START_TIME" => HeaderKey::StartTime,
        "END_TIME" => HeaderKey::EndTime,
        "TIME_LIMIT" | "TIME" => HeaderKey::TimeControl,
        "OPENING" => HeaderKey::Opening,
        _ => HeaderKey::Other(key.to_string()),
    }
}

/// The terminal kind of a special name (without `%`).
/// The specials of CSA V2.2 and V3.0.
pub const SPECIALS: [&str; 15] = [
    "TORYO",
    "CHUDAN",
    "SENNICHITE",
    "TIME_UP",
    "ILLEGAL_MOVE",
    "+ILLEGAL_ACTION",
    "-ILLEGAL_ACTION",
    "JISHOGI",
    "KACHI",
    "HIKIWAKE",
    "MAX_MOVES",
    "TSUMI",
    "FUZUMI",
    "ERROR",
    "MATTA",
];

/// The terminal of a CSA (and JKF) special name. Besides the specials of
/// the spec, the unsigned `ILLEGAL_ACTION` that JKF's KIF parser writes for
/// 反則勝ち (the previous move was the foul) is read, and the `ILLEGAL_WIN` /
/// `ILLEGAL_LOSE` some converters write.
pub fn kind_from_special(name: &str) -> TerminalKind {
    match name {
        "TORYO" => TerminalKind::Resign,
        "CHUDAN" => TerminalKind::Abort,
        "SENNICHITE" => TerminalKind::Repetition,
        "TIME_UP" => TerminalKind::TimeUp,
        "ILLEGAL_MOVE" => TerminalKind::IllegalLoss,
        "+ILLEGAL_ACTION" => TerminalKind::IllegalAction(Color::Black),
        "-ILLEGAL_ACTION" => TerminalKind::IllegalAction(Color::White),
        "ILLEGAL_ACTION" | "ILLEGAL_WIN" => TerminalKind::IllegalWin,
        "ILLEGAL_LOSE" => TerminalKind::IllegalLoss,
        "JISHOGI" => TerminalKind::Impasse,
        "KACHI" => TerminalKind::DeclarationWin,
        "HIKIWAKE" => TerminalKind::DeclarationDraw,
        "MAX_MOVES" => TerminalKind::MaxMoves,
        "TSUMI" => TerminalKind::Checkmate,
        "FUZUMI" => TerminalKind::NoMate,
        "ERROR" => TerminalKind::Error,
        "MATTA" => TerminalKind::Matta,
        other => TerminalKind::Other(other.to_string()),
    }
}

/// The special name (without `%`) of a terminal kind that CSA can express
/// without knowing the side to move (`IllegalWin` needs it: see the writer).
pub fn special_name(kind: &TerminalKind) -> Option<&str> {
    Some(match kind {
        TerminalKind::Resign => "TORYO",
        TerminalKind::Abort => "CHUDAN",
        TerminalKind::Repetition => "SENNICHITE",
        TerminalKind::TimeUp => "TIME_UP",
        TerminalKind::IllegalLoss => "ILLEGAL_MOVE",
        TerminalKind::IllegalAction(Color::Black) => "+ILLEGAL_ACTION",
        TerminalKind::IllegalAction(Color::White) => "-ILLEGAL_ACTION",
        TerminalKind::Impasse => "JISHOGI",
        TerminalKind::DeclarationWin => "KACHI",
        TerminalKind::DeclarationDraw => "HIKIWAKE",
        TerminalKind::MaxMoves => "MAX_MOVES",
        TerminalKind::Checkmate => "TSUMI",
        TerminalKind::NoMate => "FUZUMI",
        TerminalKind::Error => "ERROR",
        TerminalKind::Matta => "MATTA",
        TerminalKind::Other(s) => s,
        _ => return None,
    })
}

/// What processing a line ended with.
enum LineEnd {
    /// The whole line was used.
    Done,
    /// A `/` ended the game; the line continues at this byte offset.
    Separator(usize, Location),
}

/// Processes the statements of `line` from byte `start`.
fn process_line<V: Visitor + ?Sized>(
    b: &mut State,
    out: &mut Sink<V>,
    line_no: u32,
    line: &str,
    start: usize,
) -> LineEnd {
    let bytes = line.as_bytes();
    if start == 0 && quick_line(b, out, line_no, bytes, line) {
        return LineEnd::Done;
    }
    let mut cols = crate::text::Columns::new(line);
    let mut i = start;
    while i < bytes.len() {
        // Skip whitespace before a statement.
        let ws_start = i;
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        if i > ws_start && !b.warned_space && bytes[i] != b',' {
            b.warned_space = true;
            let at = Location::new(line_no, cols.at(ws_start));
            b.finding(
                out,
                Finding::warning(Rule::Dialect, at, "whitespace before a statement"),
            );
        }
        let (end, next) = if runs_to_end_of_line(bytes[i]) {
            (bytes.len(), bytes.len())
        } else {
            match memchr::memchr(b',', &bytes[i..]) {
                Some(k) => (i + k, i + k + 1),
                None => (bytes.len(), bytes.len()),
            }
        };
        let raw_full = &line[i..end];
        let raw = if bytes[i] == b'\'' {
            raw_full
        } else {
            // Trailing blanks, on bytes (ASCII: the cut is a char boundary).
            let kept = raw_full
                .as_bytes()
                .iter()
                .rposition(|&c| c != b' ' && c != b'\t');
            &raw_full[..kept.map_or(0, |k| k + 1)]
        };
        let loc = Location::new(line_no, cols.at(i));
        if !raw.is_empty() {
            match parse_statement(raw) {
                Ok(Statement::Separator) => return LineEnd::Separator(next, loc),
                Ok(st) => b.statement(out, st, raw, loc),
                Err(e) => {
                    // The one conversion of the grammar's error: its place
                    // (a byte offset in the statement, as a column) and words.
                    let offset = e.offset_in(&raw.as_bytes());
                    b.content(out);
                    if raw.starts_with(['+', '-']) && raw.len() > 1 {
                        // A broken move: later moves cannot be placed.
                        let sign = if raw.starts_with('+') {
                            Color::Black
                        } else {
                            Color::White
                        };
                        b.ensure_moves(out, loc, Some(sign));
                        b.broken = true;
                    }
                    let col = cols.at(i + offset);
                    b.finding(
                        out,
                        Finding::error(
                            Rule::Syntax,
                            Location::new(line_no, col),
                            grammar::message(&e),
                        ),
                    );
                }
            }
        }
        i = next;
    }
    LineEnd::Done
}

/// How far [`process_block`] got.
struct BlockRun {
    /// Bytes taken (whole lines with their breaks).
    bytes: usize,
    /// Lines taken.
    lines: u32,
    /// Where the last line taken is, in the text given.
    last: (usize, usize),
    /// The last line taken holds a `/` that ended the game: where the line
    /// goes on, and where the `/` is.
    separator: Option<(usize, Location)>,
}

/// Processes the lines of `rest` (the line reader's checked block, whose
/// first line is line `before + 1`) until a `/` ends the game or the
/// block ends. A CR ending the block is left to the line reader (whether
/// an LF follows is not known yet).
#[inline(never)]
fn process_block<V: Visitor + ?Sized>(
    b: &mut State,
    out: &mut Sink<V>,
    rest: &str,
    before: u32,
) -> BlockRun {
    let bytes = rest.as_bytes();
    let mut lines = 0;
    let mut last = (0, 0);
    let mut separator = None;
    let mut pos = 0;
    while let Some(i) = crate::text::lines::line_break(&bytes[pos..]) {
        let end = pos + i;
        let mut next = end + 1;
        if bytes[end] == b'\r' {
            match bytes.get(next) {
                Some(b'\n') => next += 1,
                Some(_) => {}
                None => break,
            }
        }
        lines += 1;
        let line_no = before + lines;
        let (start, line) = (pos, &bytes[pos..end]);
        last = (pos, end);
        pos = next;
        // As [`quick_line`], the text of the line taken only when needed.
        let at = || Location::new(line_no, 1);
        if let Some(m) = quick_move(line) {
            b.content(out);
            b.play(out, m, &rest[start..end], at());
        } else if let Some(ms) = quick_time(line) {
            b.content(out);
            b.time(out, ms, false, at());
        } else if let LineEnd::Separator(at, loc) =
            process_line(b, out, line_no, &rest[start..end], 0)
        {
            separator = Some((at, loc));
            break;
        }
    }
    BlockRun {
        bytes: pos,
        lines,
        last,
        separator,
    }
}

/// The common lines, a whole-line move (`+7776FU`) or whole seconds
/// (`T12`), go straight to the state machine: no statement split, no column
/// count, no `Statement`; `false` for anything else (and every error),
/// which [`process_line`] reads with the grammar, the same way (the fast
/// parsers are checked against the grammar in its tests).
#[inline(always)]
fn quick_line<V: Visitor + ?Sized>(
    b: &mut State,
    out: &mut Sink<V>,
    line_no: u32,
    bytes: &[u8],
    line: &str,
) -> bool {
    let at = || Location::new(line_no, 1);
    if let Some(m) = quick_move(bytes) {
        b.content(out);
        b.play(out, m, line, at());
        return true;
    }
    if let Some(ms) = quick_time(bytes) {
        b.content(out);
        b.time(out, ms, false, at());
        return true;
    }
    false
}

impl<R: BufRead> CsaReader<R> {
    /// A reader over decoded lines.
    pub fn new(lines: LineReader<R>) -> CsaReader<R> {
        CsaReader {
            lines,
            resume: 0,
            index: 0,
            done: false,
            yielded: false,
            last_line: 0,
            state: State::new(),
        }
    }

    /// Reads the next game into `v`; `None` at the end of the input.
    pub fn read_game<V: Visitor + ?Sized>(&mut self, v: &mut V) -> Option<V::Output> {
        if self.done {
            return None;
        }
        let mut out = Sink::new(v, self.index);
        let encoding = self.lines.encoding();
        loop {
            let start = std::mem::take(&mut self.resume);
            let CsaReader {
                lines,
                state: b,
                last_line,
                ..
            } = self;
            // Most lines are in the reader's checked block: read there in a
            // row, the reader told once how far it got (the same lines, one
            // by one, that `next_line` gives).
            if let Some(rest) = lines.block_rest() {
                let first = lines.line_number();
                let run = process_block(b, &mut out, rest, first);
                if run.lines > 0 {
                    lines.took_block_lines(run.bytes, run.lines, run.last);
                    *last_line = first + run.lines;
                    if let Some((next, loc)) = run.separator {
                        self.resume = next;
                        self.lines.unread();
                        if out.begun() {
                            return Some(self.emit(out, loc));
                        }
                        // Only comments (or nothing): not a game.
                        self.state.reset();
                    }
                    continue;
                }
            }
            // Most lines are in the reader's checked block: taken from
            // there directly (the same line `next_line` gives).
            let end = if let Some((n, text)) = lines.next_block_line() {
                *last_line = n;
                Some(process_line(b, &mut out, n, text, start))
            } else {
                match lines.next_line() {
                    None => None,
                    Some(Err(e)) => {
                        b.finding(&mut out, io_finding(&e));
                        None
                    }
                    Some(Ok(Ok((n, text)))) => {
                        *last_line = n;
                        Some(process_line(b, &mut out, n, text, start))
                    }
                    Some(Ok(Err((n, err)))) => {
                        *last_line = n;
                        b.finding(&mut out, line_finding(n, &err, encoding));
                        match err {
                            LineError::Encoding { .. } | LineError::Overridden(_) => {
                                let text = lines.current_text();
                                Some(process_line(b, &mut out, n, text, start))
                            }
                            LineError::TooLong => Some(LineEnd::Done),
                        }
                    }
                }
            };
            match end {
                None => {
                    self.done = true;
                    let end = Location::new(self.last_line + 1, 1);
                    if out.begun() || !self.yielded {
                        return Some(self.emit(out, end));
                    }
                    return None;
                }
                Some(LineEnd::Done) => {}
                Some(LineEnd::Separator(next, loc)) => {
                    self.resume = next;
                    self.lines.unread();
                    if out.begun() {
                        return Some(self.emit(out, loc));
                    }
                    // Only comments (or nothing): not a game.
                    self.state.reset();
                }
            }
        }
    }

    fn emit<V: Visitor + ?Sized>(&mut self, mut out: Sink<V>, end: Location) -> V::Output {
        let b = &mut self.state;
        b.flush(&mut out);
        b.finish(&mut out, end);
        if b.terminal.is_none() && b.summary.is_some() {
            b.summary_claim(&mut out);
        }
        if !b.content {
            out.finding(empty_finding());
        }
        b.reset();
        self.index += 1;
        self.yielded = true;
        out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::CsaReader;
    use crate::text::{Game, LineReader, RecordBuilder};

    fn games(text: &str) -> Vec<Game> {
        let lines = LineReader::new(text.as_bytes(), &Default::default()).unwrap();
        let mut reader = CsaReader::new(lines);
        std::iter::from_fn(|| reader.read_game(&mut RecordBuilder::new())).collect()
    }

    /// The handicap the reader gives without comparing boards (a plain
    /// `PI`) is the one [`Handicap::detect`] finds, whatever follows it.
    #[test]
    fn the_even_start_is_known_as_detect_finds_it() {
        use crate::rules::handicap::Handicap;
        let starts = [
            "PI\n+\n",
            "PI\n-\n",
            "PI82HI22KA\n-\n",
            "PI\nP+00FU\n+\n",
            "PI\nP-00AL\n+\n",
            "PI\nP+55FU\n+\n",
            "PI\nP-11KY\n+\n",
            "PI\nPI\n+\n",
            "P+00FU\nPI\n+\n",
            "+\n",
            "N+a\n+7776FU\n",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n",
        ];
        for text in starts {
            for g in games(text) {
                let start = &g.record.start;
                assert_eq!(start.handicap, Handicap::detect(&start.setup), "{text}");
            }
        }
        assert_eq!(
            games("PI\n+\n")[0].record.start.handicap,
            Some(Handicap::Even)
        );
    }

    /// The games of UTF-8 `text` read through a buffer of `cap` bytes (the
    /// encoding given: detection would see only the first `cap` bytes).
    fn games_with_buffer(text: &[u8], cap: usize) -> Vec<Game> {
        let src = std::io::BufReader::with_capacity(cap, text);
        let opts = crate::text::decode::DecodeOptions {
            encoding: Some(crate::text::decode::Encoding::Utf8),
            lossy: false,
        };
        let lines = LineReader::new(src, &opts).unwrap();
        let mut reader = CsaReader::new(lines);
        std::iter::from_fn(|| reader.read_game(&mut RecordBuilder::new())).collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Lines taken from the checked block in a row (`process_block`)
        /// read as lines taken one by one: the same games, findings and
        /// locations whatever the source's buffer size (a small buffer
        /// sends most lines through `next_line`).
        #[test]
        fn block_runs_read_like_single_lines(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::prelude::Just("+7776FU"),
                    proptest::prelude::Just("-3334FU"),
                    proptest::prelude::Just("+8822UM"),
                    proptest::prelude::Just("T12"),
                    proptest::prelude::Just("T3.5"),
                    proptest::prelude::Just("%TORYO"),
                    proptest::prelude::Just("/"),
                    proptest::prelude::Just(" / "),
                    proptest::prelude::Just("PI"),
                    proptest::prelude::Just("PI82HI"),
                    proptest::prelude::Just("+"),
                    proptest::prelude::Just("-"),
                    proptest::prelude::Just("V2.2"),
                    proptest::prelude::Just("N+a"),
                    proptest::prelude::Just("'c"),
                    proptest::prelude::Just("+7776FU,T1"),
                    proptest::prelude::Just("+7776F"),
                    proptest::prelude::Just("\u{3042}"),
                    proptest::prelude::Just(""),
                ],
                0..40,
            ),
            breaks in proptest::collection::vec(0usize..3, 40),
            cap in 1usize..24,
        ) {
            let mut text = String::new();
            for (i, p) in parts.iter().enumerate() {
                text.push_str(p);
                text.push_str(["\n", "\r\n", "\r"][breaks[i]]);
            }
            let fast = games_with_buffer(text.as_bytes(), 1 << 20);
            let slow = games_with_buffer(text.as_bytes(), cap);
            proptest::prop_assert_eq!(fast.len(), slow.len());
            for (a, b) in fast.iter().zip(&slow) {
                proptest::prop_assert_eq!(&a.record, &b.record);
                proptest::prop_assert_eq!(&a.findings, &b.findings);
            }
        }
    }

    /// Whole-line moves and times take the reader's byte path; with a
    /// trailing blank they take the statement grammar. Same games.
    #[test]
    fn the_line_fast_path_reads_like_the_grammar() {
        let fast = "V2.2\nPI\n+\n+7776FU\nT12\n-3334FU\nT3\n+8822UM\n%TORYO\n";
        let slow = fast.replace("FU\n", "FU \n").replace("UM\n", "UM\t\n");
        let slow = slow.replace("T12\n", "T12 \n");
        let (a, b) = (games(fast), games(&slow));
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].record, b[0].record);
        assert_eq!(a[0].findings, b[0].findings);
        assert_eq!(a[0].record.main.moves.len(), 3);
    }
}
