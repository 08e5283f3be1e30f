//! The CSA reader: a state machine over [`Statement`]s that owns the
//! position, builds one [`Record`] per game and streams games separated by
//! `/` lines.

use super::grammar::{parse_statement, runs_to_end_of_line, CsaMove, Statement, SyntaxError};
use crate::color::Color;
use crate::handicap::Handicap;
use crate::moves::Move;
use crate::position::Position;
use crate::read::lines::LineError;
use crate::read::{Finding, Game, LineReader, ReadOptions, Rule};
use crate::record::{written, HeaderKey, Location, Node, Record, Start, Terminal, TerminalKind};
use crate::role::{Piece, Role};
use crate::setup::Setup;
use crate::variant::Variant;
use std::io::BufRead;
use std::sync::OnceLock;

/// Reads CSA records (V2, V2.1, V2.2, V3.0, and files without a version
/// line) from a line stream, one [`Game`] per record; records are separated
/// by `/` lines. See `docs/formats/csa.md` for what is tolerated.
///
/// ```
/// use kifu::csa::Reader;
/// use kifu::read::{lines_from_bytes, ReadOptions};
///
/// let text = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
/// let opts = ReadOptions::default();
/// let games: Vec<_> = Reader::new(lines_from_bytes(text, &opts), &opts).collect();
/// assert_eq!(games.len(), 1);
/// assert_eq!(games[0].record.main.moves.len(), 2);
/// assert!(games[0].findings.is_empty());
/// ```
pub struct Reader<R: BufRead> {
    lines: LineReader<R>,
    /// Byte offset to resume at in the current line after a `/` inside it.
    resume: usize,
    index: usize,
    done: bool,
    yielded: bool,
    last_line: u32,
    builder: Builder,
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

struct Builder {
    record: Record,
    findings: Vec<Finding>,
    setup: Setup,
    boxed: [u8; 8],
    phase: Phase,
    content: bool,
    board_given: bool,
    pos: Position,
    last: Last,
    /// Moves are no longer added (a broken move statement).
    broken: bool,
    /// Fractional `T` seen (warn once).
    v3: bool,
    warned_fraction: bool,
    warned_space: bool,
    warned_late_header: bool,
    warned_row: bool,
}

fn even_setup() -> &'static Setup {
    static EVEN: OnceLock<Setup> = OnceLock::new();
    EVEN.get_or_init(|| Handicap::Even.setup())
}

impl Builder {
    fn new() -> Builder {
        let setup = Setup::empty(Variant::Standard);
        Builder {
            record: Record::default(),
            findings: Vec::new(),
            pos: Position::from_setup_unchecked(&setup),
            setup,
            boxed: FULL_BOX,
            phase: Phase::Header,
            content: false,
            board_given: false,
            last: Last::Nothing,
            broken: false,
            v3: false,
            warned_fraction: false,
            warned_space: false,
            warned_late_header: false,
            warned_row: false,
        }
    }

    fn reset(&mut self) {
        *self = Builder::new();
    }

    fn syntax(&mut self, loc: Location, msg: impl Into<String>) {
        self.findings.push(Finding::error(Rule::Syntax, loc, msg));
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

    fn place(&mut self, sq: crate::square::Square, piece: Option<Piece>) {
        if let Some(old) = self.setup.board[sq.index()] {
            self.return_to_box(old.role);
        }
        if let Some(p) = piece {
            self.take_from_box(p.role);
        }
        self.setup.board[sq.index()] = piece;
    }

    /// Enters the position phase (from the header), noting where it starts.
    fn start_position(&mut self, loc: Location) -> bool {
        match self.phase {
            Phase::Header => {
                self.phase = Phase::Position;
                self.record.start.location = Some(loc);
                true
            }
            Phase::Position => true,
            Phase::Moves => {
                self.syntax(
                    loc,
                    "expected a move or a special, found a start-position line after the turn line",
                );
                false
            }
        }
    }

    /// Ends the start position with `turn` to move.
    fn finish_position(&mut self, turn: Color, loc: Location) {
        if self.phase == Phase::Header {
            self.syntax(
                loc,
                "expected a start position (`PI` or `P1`…`P9`) before the turn line",
            );
            self.setup = even_setup().clone();
            self.record.start.location = None;
        }
        self.setup.turn = turn;
        self.setup.ply = 1;
        self.pos = Position::from_setup_unchecked(&self.setup);
        self.record.start = Start {
            handicap: Handicap::detect(&self.setup),
            setup: self.setup.clone(),
            location: self.record.start.location,
        };
        self.phase = Phase::Moves;
    }

    /// Makes sure moves may follow (the turn line was given), reporting and
    /// inferring Black otherwise.
    fn ensure_moves(&mut self, loc: Location) {
        if self.phase != Phase::Moves {
            self.syntax(
                loc,
                "expected the turn line (`+` or `-`) before the first move",
            );
            self.finish_position(Color::Black, loc);
        }
    }

    fn comment(&mut self, text: &str) {
        let text = text.to_string();
        match self.last {
            Last::Nothing => self.record.initial_comments.push(text),
            Last::Move => match self.record.main.moves.last_mut() {
                Some(n) => n.comments.push(text),
                None => self.record.initial_comments.push(text),
            },
            Last::Terminal => match self.record.main.terminal.as_mut() {
                Some(t) => t.comments.push(text),
                None => self.record.initial_comments.push(text),
            },
        }
    }

    fn header(&mut self, key: HeaderKey, value: &str, loc: Location) {
        if self.phase != Phase::Header && !self.warned_late_header {
            self.warned_late_header = true;
            self.findings.push(Finding::warning(
                Rule::Dialect,
                loc,
                "header line after the start position",
            ));
        }
        self.record.header.push(key, value.trim_end());
    }

    fn play(&mut self, m: CsaMove, stmt: &str, loc: Location) {
        self.ensure_moves(loc);
        if self.broken {
            return;
        }
        if self.record.main.terminal.is_some() {
            let ply = self.record.main.moves.len() as u32 + 1;
            self.findings.push(
                Finding::error(
                    Rule::AfterEnd,
                    loc,
                    format!("move `{stmt}` after the terminal"),
                )
                .at_move(ply, stmt, self.pos.sfen()),
            );
            self.broken = true;
            return;
        }
        let (mv, role) = match m.from {
            None => (
                Move::Drop {
                    role: m.role,
                    to: m.to,
                },
                m.role,
            ),
            Some(from) => {
                let origin = self.pos.piece_at(from).map(|p| p.role);
                match origin {
                    Some(r) if r != m.role && r.promoted() == Some(m.role) => (
                        Move::Normal {
                            from,
                            to: m.to,
                            promote: true,
                        },
                        r,
                    ),
                    _ => (
                        Move::Normal {
                            from,
                            to: m.to,
                            promote: false,
                        },
                        m.role,
                    ),
                }
            }
        };
        let mut node = Node::new(mv, loc);
        node.role = Some(role);
        node.color = Some(m.color);
        node.written = written(stmt);
        self.pos.play_unchecked(mv);
        self.record.main.moves.push(node);
        self.last = Last::Move;
    }

    fn special(&mut self, name: &str, loc: Location) {
        self.ensure_moves(loc);
        if self.broken {
            return;
        }
        if let Some(t) = &self.record.main.terminal {
            if special_name(&t.kind) == Some(name) {
                // floodgate: the declaring player's `%KACHI`, then the
                // server's.
                self.findings.push(Finding::warning(
                    Rule::Dialect,
                    loc,
                    format!("repeated special `%{name}`"),
                ));
                return;
            }
            let msg = format!(
                "expected the end of the record, found a second special `%{name}` after `%{}`",
                special_name(&t.kind).unwrap_or("?")
            );
            self.syntax(loc, msg);
            return;
        }
        self.record.main.terminal = Some(Terminal {
            kind: kind_from_special(name),
            time: Default::default(),
            comments: Vec::new(),
            location: loc,
        });
        self.last = Last::Terminal;
    }

    fn time(&mut self, ms: u64, frac: bool, loc: Location) {
        if frac && !self.v3 && !self.warned_fraction {
            self.warned_fraction = true;
            self.findings.push(Finding::warning(
                Rule::Dialect,
                loc,
                "fractional seconds before CSA V3.0",
            ));
        }
        if self.broken {
            return;
        }
        let slot = match self.last {
            Last::Move => self.record.main.moves.last_mut().map(|n| &mut n.time),
            Last::Terminal => self.record.main.terminal.as_mut().map(|t| &mut t.time),
            Last::Nothing => None,
        };
        match slot {
            Some(t) if t.spent_ms.is_none() => t.spent_ms = Some(ms),
            Some(_) => self.syntax(loc, "expected a move or a special, found a second time"),
            None => self.syntax(loc, "expected a move before the time"),
        }
    }

    fn statement(&mut self, st: Statement<'_>, raw: &str, loc: Location) {
        match st {
            Statement::Comment(text) => {
                self.comment(text);
                return;
            }
            Statement::Encoding(_) => {
                if self.content {
                    self.comment(&raw[1..]);
                }
                return;
            }
            _ => {}
        }
        self.content = true;
        match st {
            Statement::Comment(_) | Statement::Encoding(_) => {}
            Statement::Version(v) => {
                if self.phase != Phase::Header {
                    self.syntax(
                        loc,
                        "expected a start position, move or special, found a version line",
                    );
                } else {
                    match v {
                        "2" | "2.1" | "2.2" => {}
                        "3.0" | "3" => self.v3 = true,
                        _ => self.findings.push(Finding::error(
                            Rule::Syntax,
                            Location::new(loc.line, loc.column + 1),
                            format!("expected a version 2, 2.1, 2.2 or 3.0, found `{v}`"),
                        )),
                    }
                }
            }
            Statement::Name(c, name) => {
                let key = match c {
                    Color::Black => HeaderKey::Sente,
                    Color::White => HeaderKey::Gote,
                };
                self.header(key, name, loc);
            }
            Statement::Info(key, value) => self.header(header_key(key), value, loc),
            Statement::Pi(removals) => {
                if self.start_position(loc) {
                    if self.board_given {
                        self.syntax(loc, "expected one start position, found a second board");
                    }
                    self.board_given = true;
                    self.setup.board = even_setup().board;
                    self.boxed = [0; 8];
                    for &(at, sq, role) in removals.iter() {
                        match self.setup.board[sq.index()] {
                            Some(p) if p.role == role => self.place(sq, None),
                            _ => self.findings.push(Finding::error(
                                Rule::Syntax,
                                Location::new(loc.line, loc.column + at as u32),
                                format!(
                                    "expected a piece of the even position, found no {} on {}{}",
                                    role.csa(),
                                    sq.file(),
                                    sq.rank()
                                ),
                            )),
                        }
                    }
                }
            }
            Statement::Row(rank, cells, loose) => {
                if loose && !self.warned_row {
                    self.warned_row = true;
                    self.findings.push(Finding::warning(
                        Rule::Dialect,
                        loc,
                        "board row cells not in 3-character columns",
                    ));
                }
                if self.start_position(loc) {
                    self.board_given = true;
                    for (i, cell) in cells.iter().enumerate() {
                        let file = 9 - i as u8;
                        if let Some(sq) = crate::square::Square::new(file, rank) {
                            let piece = cell.map(|(c, r)| Piece::new(c, r));
                            self.place(sq, piece);
                        }
                    }
                }
            }
            Statement::Place(color, items) => {
                if self.start_position(loc) {
                    for &(at, (sq, role)) in items.iter() {
                        match (sq, role) {
                            (Some(sq), Some(role)) => self.place(sq, Some(Piece::new(color, role))),
                            (None, Some(role)) => {
                                if role.is_promoted() || role == Role::King {
                                    self.findings.push(Finding::error(
                                        Rule::Syntax,
                                        Location::new(loc.line, loc.column + at as u32 + 2),
                                        format!(
                                            "expected a piece that can be held, found `{}`",
                                            role.csa()
                                        ),
                                    ));
                                } else {
                                    self.take_from_box(role);
                                    self.setup.hands[color.index()].add(role);
                                }
                            }
                            (None, None) => {
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
                        loc,
                        "expected a move or a special, found a second turn line",
                    );
                } else {
                    self.finish_position(c, loc);
                }
            }
            Statement::Move(m) => self.play(m, raw, loc),
            Statement::Special(name) => self.special(name, loc),
            Statement::Time(ms, frac) => self.time(ms, frac, loc),
            Statement::Separator => {}
        }
    }

    /// Takes the finished game out of the builder.
    fn finish(&mut self, index: usize, end: Location) -> Game {
        if self.content && self.phase != Phase::Moves {
            self.syntax(end, "expected the turn line (`+` or `-`)");
            self.finish_position(Color::Black, end);
        }
        let record = std::mem::take(&mut self.record);
        let findings = std::mem::take(&mut self.findings);
        self.reset();
        Game {
            index,
            record,
            findings,
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
pub fn kind_from_special(name: &str) -> TerminalKind {
    match name {
        "TORYO" => TerminalKind::Resign,
        "CHUDAN" => TerminalKind::Abort,
        "SENNICHITE" => TerminalKind::Repetition,
        "TIME_UP" => TerminalKind::TimeUp,
        "ILLEGAL_MOVE" => TerminalKind::IllegalLoss,
        "+ILLEGAL_ACTION" => TerminalKind::IllegalAction(Color::Black),
        "-ILLEGAL_ACTION" => TerminalKind::IllegalAction(Color::White),
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

/// 1-based character column of byte offset `at` in `line`.
fn column(line: &str, at: usize) -> u32 {
    let prefix = line.get(..at).unwrap_or(line);
    prefix.chars().count() as u32 + 1
}

/// What processing a line ended with.
enum LineEnd {
    /// The whole line was used.
    Done,
    /// A `/` ended the game; the line continues at this byte offset.
    Separator(usize, Location),
}

/// Processes the statements of `line` from byte `start`.
fn process_line(b: &mut Builder, line_no: u32, line: &str, start: usize) -> LineEnd {
    let bytes = line.as_bytes();
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
            b.findings.push(Finding::warning(
                Rule::Dialect,
                Location::new(line_no, column(line, ws_start)),
                "whitespace before a statement",
            ));
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
            raw_full.trim_end_matches([' ', '\t'])
        };
        let loc = Location::new(line_no, column(line, i));
        if !raw.is_empty() {
            match parse_statement(raw) {
                Ok(Statement::Separator) => return LineEnd::Separator(next, loc),
                Ok(st) => b.statement(st, raw, loc),
                Err(SyntaxError { offset, message }) => {
                    b.content = true;
                    if raw.starts_with(['+', '-']) && raw.len() > 1 {
                        // A broken move: later moves cannot be placed.
                        b.ensure_moves(loc);
                        b.broken = true;
                    }
                    let col = column(line, i + offset);
                    b.findings.push(Finding::error(
                        Rule::Syntax,
                        Location::new(line_no, col),
                        message,
                    ));
                }
            }
        }
        i = next;
    }
    LineEnd::Done
}

impl<R: BufRead> Reader<R> {
    /// A reader over decoded lines.
    pub fn new(lines: LineReader<R>, _opts: &ReadOptions) -> Reader<R> {
        Reader {
            lines,
            resume: 0,
            index: 0,
            done: false,
            yielded: false,
            last_line: 0,
            builder: Builder::new(),
        }
    }

    /// Bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.lines.bytes_read()
    }

    fn emit(&mut self, end: Location) -> Option<Game> {
        let b = &mut self.builder;
        if !b.content && b.findings.is_empty() {
            // Only comments (or nothing): not a game.
            b.reset();
            return None;
        }
        let empty = !b.content;
        let mut game = b.finish(self.index, end);
        if empty {
            game.findings.push(Finding::error(
                Rule::Empty,
                Location::new(0, 0),
                "no game in the input",
            ));
        }
        self.index += 1;
        self.yielded = true;
        Some(game)
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        if self.done {
            return None;
        }
        loop {
            let start = std::mem::take(&mut self.resume);
            let Reader { lines, builder, .. } = self;
            let end = match lines.next_line() {
                None => None,
                Some(Err(e)) => {
                    builder.findings.push(Finding::error(
                        Rule::Io,
                        Location::new(self.last_line, 0),
                        format!("read error: {e}"),
                    ));
                    None
                }
                Some(Ok(Ok((n, text)))) => {
                    self.last_line = n;
                    Some(process_line(builder, n, text, start))
                }
                Some(Ok(Err((n, err)))) => {
                    self.last_line = n;
                    match err {
                        LineError::Encoding { column, bytes } => {
                            builder.findings.push(Finding::error(
                                Rule::Encoding,
                                Location::new(n, column),
                                format!("bytes {bytes:02X?} do not decode"),
                            ));
                            let text = lines.current_text();
                            Some(process_line(builder, n, text, start))
                        }
                        LineError::TooLong => {
                            builder.syntax(Location::new(n, 1), "line too long");
                            Some(LineEnd::Done)
                        }
                    }
                }
            };
            match end {
                None => {
                    self.done = true;
                    let end = Location::new(self.last_line + 1, 1);
                    if let Some(g) = self.emit(end) {
                        return Some(g);
                    }
                    if !self.yielded {
                        self.yielded = true;
                        let mut g = self.builder.finish(self.index, end);
                        g.findings.push(Finding::error(
                            Rule::Empty,
                            Location::new(0, 0),
                            "no game in the input",
                        ));
                        return Some(g);
                    }
                    return None;
                }
                Some(LineEnd::Done) => {}
                Some(LineEnd::Separator(next, loc)) => {
                    self.resume = next;
                    self.lines.unread();
                    if let Some(g) = self.emit(loc) {
                        return Some(g);
                    }
                }
            }
        }
    }
}
