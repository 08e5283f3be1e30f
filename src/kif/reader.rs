//! The line state machine shared by the KIF and KI2 readers: header, board
//! diagram, moves, comments, 変化 blocks and the まで line.

use super::grammar::{self, Body, Dest, MoveText, Origin, SyntaxError};
use crate::color::Color;
use crate::handicap::Handicap;
use crate::japanese::{self, BoardBuilder};
use crate::ki2::notation::{self, ResolveError};
use crate::moves::Move;
use crate::position::Position;
use crate::read::lines::LineError;
use crate::read::{Finding, Game, LineReader, Rule};
use crate::record::{
    self, HeaderKey, Line, Location, Node, Outcome, Record, ResultClaim, Start, Terminal,
    TerminalKind,
};
use crate::square::Square;
use crate::variant::Variant;
use std::io::BufRead;

/// Which of the two formats is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    Kif,
    Ki2,
}

/// A line of the record being built, with what is needed to extend it.
struct Cursor {
    /// Path from the main line: (node index, variation index) pairs.
    path: Vec<(usize, usize)>,
    /// Absolute number of the first move of this line.
    start_ply: u32,
    /// Position before the first move.
    start_pos: Position,
    /// Destination of the move before the first move (for 同).
    start_last_to: Option<Square>,
    /// Position after the last move.
    pos: Position,
    /// Destination of the last move.
    last_to: Option<Square>,
    /// Moves are no longer added (unresolvable move, or a malformed block).
    stopped: bool,
    /// The position before move `k * CHECKPOINT_STRIDE` of the line, for
    /// every k: a `変化` block replays at most a stride of moves, not the
    /// whole line (which would make many blocks quadratic).
    checkpoints: Vec<Position>,
}

/// Moves between two stored positions of a line.
const CHECKPOINT_STRIDE: usize = 64;

fn line_mut<'a>(main: &'a mut Line, path: &[(usize, usize)]) -> Option<&'a mut Line> {
    let mut line = main;
    for &(i, j) in path {
        line = line.moves.get_mut(i)?.variations.get_mut(j)?;
    }
    Some(line)
}

/// Character column (1-based) of byte offset `b` in `line`.
fn column(line: &str, b: usize) -> u32 {
    let b = b.min(line.len());
    let mut i = b;
    while !line.is_char_boundary(i) {
        i -= 1;
    }
    line[..i].chars().count() as u32 + 1
}

pub(crate) struct State {
    flavor: Flavor,
    encoding: crate::read::Encoding,
    rec: Record,
    findings: Vec<Finding>,
    board: BoardBuilder,
    board_location: Option<Location>,
    handicap: Option<(String, Location)>,
    started: bool,
    stack: Vec<Cursor>,
    /// Number of moves before the first move (from 手数＝N, or the first
    /// move number).
    base: u32,
    base_fixed: bool,
    pending: Vec<String>,
    claim_seen: bool,
    content: bool,
    /// Skip move lines until the next 変化 (a malformed block).
    skipping: bool,
    /// Which program wrote the file, as far as the `#` lines tell.
    pub producer: Option<&'static str>,
}

impl State {
    pub(crate) fn new(flavor: Flavor, encoding: crate::read::Encoding) -> State {
        State {
            flavor,
            encoding,
            rec: Record::default(),
            findings: Vec::new(),
            board: BoardBuilder::default(),
            board_location: None,
            handicap: None,
            started: false,
            stack: Vec::new(),
            base: 0,
            base_fixed: false,
            pending: Vec::new(),
            claim_seen: false,
            content: false,
            skipping: false,
            producer: None,
        }
    }

    fn syntax(&mut self, line_no: u32, line: &str, e: SyntaxError) {
        self.findings.push(Finding::error(
            Rule::Syntax,
            Location::new(line_no, column(line, e.offset)),
            e.message,
        ));
    }

    fn dialect(&mut self, line_no: u32, col: u32, msg: impl Into<String>) {
        self.findings.push(Finding::warning(
            Rule::Dialect,
            Location::new(line_no, col),
            msg,
        ));
    }

    /// Fixes the start position (at the first move, 変化 or separator).
    fn start(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        let mut start = Start::default();
        if let Some((name, loc)) = self.handicap.clone() {
            let n = japanese::trim(&name);
            if let Some(h) = Handicap::from_name(n) {
                start = Start::handicap(h);
            } else if matches!(
                n,
                "5五将棋" | "５五将棋" | "五々将棋" | "5five将棋" | "minishogi"
            ) {
                start = Start::variant(Variant::Minishogi);
            } else if matches!(n, "どうぶつしょうぎ" | "どうぶつ将棋" | "動物将棋")
            {
                start = Start::variant(Variant::Doubutsu);
            } else if !self.board.has_board {
                self.findings.push(Finding::error(
                    Rule::Setup,
                    loc,
                    format!("手合割 `{n}` is not a standard handicap and no board diagram gives the position"),
                ));
            }
            start.location = Some(loc);
        }
        if self.board.has_board {
            match self.board.build() {
                Ok(setup) => {
                    start = Start {
                        handicap: Handicap::detect(&setup),
                        setup,
                        location: self.board_location,
                    };
                }
                Err(msg) => {
                    let loc = self.board_location.unwrap_or_default();
                    self.findings.push(Finding::error(Rule::Syntax, loc, msg));
                }
            }
        } else {
            // Hands or a turn line without a board modify the named start.
            if self.board.has_hands {
                start.setup.hands = self.board.hands();
                start.handicap = Handicap::detect(&start.setup);
            }
            if let Some(t) = self.board.turn() {
                if t != start.setup.turn {
                    start.setup.turn = t;
                    start.handicap = Handicap::detect(&start.setup);
                }
            }
            if let Some(p) = self.board.ply() {
                start.setup.ply = p.saturating_add(1);
            }
        }
        self.base = start.setup.ply.saturating_sub(1);
        self.base_fixed = self.board.ply().is_some();
        let pos = Position::from_setup_unchecked(&start.setup);
        self.rec.start = start;
        self.stack.push(Cursor {
            path: Vec::new(),
            start_ply: self.base + 1,
            start_pos: pos,
            start_last_to: self.board.last_to,
            pos,
            last_to: self.board.last_to,
            stopped: false,
            checkpoints: vec![pos],
        });
    }

    fn top_line(&mut self) -> Option<&mut Line> {
        let path = &self.stack.last()?.path;
        line_mut(&mut self.rec.main, path)
    }

    fn add_comment(&mut self, text: String) {
        self.content = true;
        if !self.started || self.stack.is_empty() {
            self.rec.initial_comments.push(text);
            return;
        }
        let is_main = self.stack.len() == 1;
        let Some(line) = self.top_line() else {
            return;
        };
        if let Some(t) = line.terminal.as_mut() {
            t.comments.push(text);
        } else if let Some(n) = line.moves.last_mut() {
            n.comments.push(text);
        } else if is_main {
            self.rec.initial_comments.push(text);
        } else {
            self.pending.push(text);
        }
    }

    fn set_terminal(&mut self, kind: TerminalKind, time: record::MoveTime, loc: Location) {
        let pending = std::mem::take(&mut self.pending);
        if let Some(line) = self.top_line() {
            line.terminal = Some(Terminal {
                kind,
                time,
                comments: pending,
                location: loc,
            });
        }
    }

    /// Resolves and appends a move to the top line.
    #[allow(clippy::too_many_arguments)]
    fn push_move(
        &mut self,
        mt: MoveText,
        color: Option<Color>,
        written: &str,
        time: record::MoveTime,
        loc: Location,
        line_no: u32,
        line: &str,
        body_offset: usize,
    ) {
        let Some(cur) = self.stack.last() else {
            return;
        };
        if cur.stopped {
            return;
        }
        let pos = cur.pos;
        let ply = pos.ply().saturating_sub(self.rec.start.setup.ply) + 1;
        let to = match mt.dest {
            Dest::Square(sq) => sq,
            Dest::Same => match cur.last_to {
                Some(sq) => sq,
                None => {
                    self.findings.push(
                        Finding::error(
                            Rule::Syntax,
                            loc,
                            "`同` needs a previous move, but this is the first move",
                        )
                        .at_move(ply, written, pos.sfen()),
                    );
                    if let Some(c) = self.stack.last_mut() {
                        c.stopped = true;
                    }
                    return;
                }
            },
        };
        if mt.wrote_funari && self.flavor == Flavor::Kif {
            self.dialect(
                line_no,
                column(line, body_offset),
                "`不成` is not KIF (the spec writes nothing when a piece does not promote)",
            );
        }
        if self.flavor == Flavor::Kif
            && (mt.mark.horizontal.is_some() || mt.mark.vertical.is_some())
            && matches!(mt.origin, Origin::Square(_))
        {
            self.dialect(
                line_no,
                column(line, body_offset),
                "KI2 relative mark (右 左 直 上 寄 引) in a KIF move; the origin square decides",
            );
        }
        let promote = mt.promote == Some(true);
        let mv = match (self.flavor, mt.origin) {
            (Flavor::Kif, Origin::Square(from)) => Move::Normal { from, to, promote },
            (_, Origin::Drop) => Move::Drop { role: mt.role, to },
            (_, Origin::Square(from)) => {
                // An origin inside a KI2 file: take it, but say so.
                self.dialect(
                    line_no,
                    loc.column,
                    "KI2 moves do not give an origin square",
                );
                Move::Normal { from, to, promote }
            }
            (flavor, Origin::None) => {
                if flavor == Flavor::Kif {
                    self.dialect(
                        line_no,
                        loc.column,
                        "KIF move without an origin square `(77)` or `打`; resolved like KI2",
                    );
                }
                match notation::resolve(&pos, to, mt.role, mt.mark, promote) {
                    Ok(r) => {
                        if r.by_legality {
                            self.dialect(
                                line_no,
                                loc.column,
                                format!("`{written}` fits several pieces; only one of them can move there legally"),
                            );
                        }
                        r.mv
                    }
                    Err(e) => {
                        let (rule, msg) = match e {
                            ResolveError::NoPiece => (
                                Rule::NoPiece,
                                format!(
                                    "no {} of the side to move can move to {} as `{written}` says",
                                    mt.role, to
                                ),
                            ),
                            ResolveError::Ambiguous(sqs) => (
                                Rule::Ambiguous,
                                format!(
                                    "`{written}` fits {} pieces: {}",
                                    sqs.len(),
                                    sqs.iter()
                                        .map(|s| {
                                            let mut t = String::new();
                                            japanese::push_square(*s, &mut t);
                                            format!("{t} ({s})")
                                        })
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            ),
                        };
                        self.findings.push(Finding::error(rule, loc, msg).at_move(
                            ply,
                            written,
                            pos.sfen(),
                        ));
                        if let Some(c) = self.stack.last_mut() {
                            c.stopped = true;
                        }
                        return;
                    }
                }
            }
        };
        let mut node = Node::new(mv, loc);
        node.role = Some(mt.role);
        node.color = color;
        node.written = record::written(written);
        node.time = time;
        node.comments = std::mem::take(&mut self.pending);
        let mut after = pos;
        after.play_unchecked(mv);
        if let Some(c) = self.stack.last_mut() {
            c.pos = after;
            c.last_to = Some(to);
        }
        let len = self.top_line().map(|l| {
            l.moves.push(node);
            l.moves.len()
        });
        if let (Some(len), Some(c)) = (len, self.stack.last_mut()) {
            if len.is_multiple_of(CHECKPOINT_STRIDE) {
                c.checkpoints.push(after);
            }
        }
    }

    /// Handles `変化：N手`.
    fn variation(&mut self, n: u32, loc: Location) {
        self.start();
        self.skipping = false;
        if self.rec.main.moves.is_empty() {
            self.dialect(loc.line, loc.column, "`変化` before any move is ignored");
            self.skipping = true;
            return;
        }
        // Pop lines that start at or after N, or that have no move N.
        while self.stack.len() > 1 {
            let Some(c) = self.stack.last() else { break };
            let len = line_mut(&mut self.rec.main, &c.path).map_or(0, |l| l.moves.len()) as u64;
            if c.start_ply >= n || (c.start_ply as u64) + len <= n as u64 {
                self.stack.pop();
            } else {
                break;
            }
        }
        let Some(top) = self.stack.last() else {
            return;
        };
        if top.path.len() >= crate::record::MAX_VARIATION_DEPTH {
            self.findings.push(Finding::error(
                Rule::Syntax,
                loc,
                format!(
                    "variations nested more than {} deep are not supported; this block is skipped",
                    crate::record::MAX_VARIATION_DEPTH
                ),
            ));
            self.skipping = true;
            return;
        }
        let idx = n.checked_sub(top.start_ply).map(|i| i as usize);
        let path = top.path.clone();
        let start_last_to = top.start_last_to;
        let k = idx
            .map_or(0, |i| i / CHECKPOINT_STRIDE)
            .min(top.checkpoints.len().saturating_sub(1));
        let checkpoint = top.checkpoints.get(k).copied().unwrap_or(top.start_pos);
        let line_len = line_mut(&mut self.rec.main, &path).map_or(0, |l| l.moves.len());
        let idx = match idx {
            Some(i) if i < line_len => i,
            _ => {
                self.findings.push(Finding::error(
                    Rule::Syntax,
                    loc,
                    format!("`変化：{n}手` has no move {n} to branch from"),
                ));
                self.skipping = true;
                return;
            }
        };
        let Some(line) = line_mut(&mut self.rec.main, &path) else {
            return;
        };
        let mut pos = checkpoint;
        let from = (k * CHECKPOINT_STRIDE).min(idx);
        for node in &line.moves[from..idx] {
            pos.play_unchecked(node.mv);
        }
        let last_to = if idx > 0 {
            Some(line.moves[idx - 1].mv.to())
        } else {
            start_last_to
        };
        let node = &mut line.moves[idx];
        node.variations.push(Line::default());
        let j = node.variations.len() - 1;
        let mut p = path;
        p.push((idx, j));
        self.stack.push(Cursor {
            path: p,
            start_ply: n,
            start_pos: pos,
            start_last_to: last_to,
            pos,
            last_to,
            stopped: false,
            checkpoints: vec![pos],
        });
    }

    fn summary(&mut self, text: &str, loc: Location) {
        let Some(sum) = japanese::parse_summary(text) else {
            self.dialect(
                loc.line,
                loc.column,
                format!("unrecognised summary line `{text}`"),
            );
            return;
        };
        let start_turn = self.rec.start.setup.turn;
        let mut outcome = sum.outcome;
        if sum.mated {
            outcome = match sum.plies {
                Some(n) if n > self.base => {
                    let k = n - self.base;
                    Outcome::win(if k % 2 == 1 { start_turn } else { !start_turn })
                }
                _ => Outcome::Unknown,
            };
        }
        let is_main = self.stack.len() <= 1;
        if is_main && !self.claim_seen {
            self.claim_seen = true;
            self.rec.claim = Some(ResultClaim {
                outcome,
                plies: sum.plies,
                kind: sum.kind.clone(),
                text: japanese::trim(text).to_string(),
                location: loc,
            });
        }
        if self.flavor == Flavor::Ki2 {
            // KI2 has no terminal lines: the summary is the only record of
            // the end (also of a game that ended before its first move,
            // `まで0手で中断`), so it fixes the start position too.
            self.start();
            let Some(cur) = self.stack.last() else {
                return;
            };
            let to_move = cur.pos.turn();
            let kind = match sum.kind {
                Some(k) => Some(k),
                None => match outcome.winner() {
                    Some(w) if w != to_move => Some(TerminalKind::Resign),
                    _ => None,
                },
            };
            if let Some(kind) = kind {
                let has = self.top_line().is_some_and(|l| l.terminal.is_some());
                if !has {
                    self.set_terminal(kind, record::MoveTime::default(), loc);
                }
            }
        }
    }

    fn header(&mut self, key: &str, value: &str, loc: Location) -> bool {
        let key = japanese::trim(key);
        if key.is_empty() || key.contains(char::is_whitespace) || key.chars().count() > 24 {
            return false;
        }
        let value = japanese::trim(value);
        self.content = true;
        if key == "手合割" {
            let mut value = value;
            if let Some((name, _)) = value.split_once('#') {
                if Handicap::from_name(name).is_some() {
                    self.dialect(loc.line, loc.column, "`#` comment after the 手合割 value");
                    value = japanese::trim(name);
                }
            }
            if self.handicap.is_none() {
                self.handicap = Some((value.to_string(), loc));
                let known = Handicap::from_name(value).is_some()
                    || matches!(
                        value,
                        "5五将棋"
                            | "５五将棋"
                            | "五々将棋"
                            | "どうぶつしょうぎ"
                            | "どうぶつ将棋"
                            | "動物将棋"
                    );
                if !known {
                    self.rec
                        .header
                        .push(HeaderKey::Other("手合割".to_string()), value);
                }
            }
            return true;
        }
        self.rec.header.push(japanese::header_key(key), value);
        true
    }

    /// Reads one decoded line.
    pub(crate) fn line(&mut self, line_no: u32, raw: &str) {
        let line = raw.trim_end_matches(['\r', '\n']);
        let line = if line_no == 1 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        let t = japanese::trim(line);
        if t.is_empty() {
            return;
        }
        let lead = line.len() - line.trim_start_matches(japanese::is_space).len();
        let loc = Location::new(line_no, column(line, lead));
        if t.starts_with('#') {
            if let (Some(i), true) = (t.find("encoding="), t.starts_with("#KI")) {
                let label: String = t[i + 9..]
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .collect();
                if let Some(declared) = crate::read::Encoding::from_label(&label) {
                    let actual = self.encoding;
                    let same = declared == actual
                        || matches!(
                            (declared, actual),
                            (crate::read::Encoding::Utf8, crate::read::Encoding::Utf8Bom)
                        );
                    if !same {
                        self.dialect(
                            line_no,
                            column(line, lead + i),
                            format!(
                                "the file declares {} but is {}",
                                declared.name(),
                                actual.name()
                            ),
                        );
                    }
                }
            }
            if self.producer.is_none() {
                self.producer = japanese::producer(t);
            }
            return;
        }
        // Board diagram parts.
        if let Some(r) = japanese::parse_hand_line(t) {
            self.content = true;
            match r {
                Ok((c, h)) => self.board.set_hand(c, h),
                Err(off) => self.syntax(
                    line_no,
                    line,
                    SyntaxError {
                        offset: lead + off,
                        message: "expected a piece name in the hand".to_string(),
                    },
                ),
            }
            return;
        }
        if t.starts_with('|') && !self.started {
            self.content = true;
            if self.board_location.is_none() {
                self.board_location = Some(loc);
            }
            match japanese::parse_board_row(line) {
                Ok((cells, _)) => self.board.push_row(cells),
                Err((c, msg)) => self.findings.push(Finding::error(
                    Rule::Syntax,
                    Location::new(line_no, c as u32 + 1),
                    msg,
                )),
            }
            return;
        }
        if !self.started
            && (t.starts_with("+-")
                || (t.chars().any(|c| ('１'..='９').contains(&c))
                    && t.chars()
                        .all(|c| japanese::is_space(c) || japanese::digit_value(c).is_some())))
        {
            return;
        }
        if let Some(c) = japanese::parse_turn_line(t) {
            if !self.started {
                self.board.set_turn(c);
            }
            return;
        }
        if !self.started && self.board.move_number_line(t) {
            return;
        }
        if t.starts_with("手数----") || t.starts_with("手数――") {
            self.content = true;
            self.start();
            return;
        }
        // Moves.
        match self.flavor {
            Flavor::Kif if grammar::is_move_line(line) => {
                self.kif_move_line(line_no, line);
                return;
            }
            Flavor::Ki2 if grammar::is_ki2_move_line(line) => {
                self.ki2_move_line(line_no, line);
                return;
            }
            _ => {}
        }
        if let Some(rest) = t.strip_prefix("変化") {
            let rest = rest.trim_start_matches(['：', ':']);
            let digits: String = japanese::trim(rest)
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            match digits.parse::<u32>() {
                Ok(n) => self.variation(n, loc),
                Err(_) => self.findings.push(Finding::error(
                    Rule::Syntax,
                    loc,
                    format!("expected `変化：N手`, found `{t}`"),
                )),
            }
            return;
        }
        if let Some(c) = t.strip_prefix('*') {
            let text = line.trim_start_matches(japanese::is_space);
            let text = text.strip_prefix('*').unwrap_or(c);
            if !self.skipping {
                self.add_comment(text.to_string());
            }
            return;
        }
        if t.starts_with('&') {
            if !self.skipping {
                self.add_comment(line.trim_start_matches(japanese::is_space).to_string());
            }
            return;
        }
        if t.starts_with("まで") {
            if !self.skipping {
                self.summary(t, loc);
            }
            return;
        }
        if let Some((k, v)) = split_header(t) {
            if self.header(k, v, loc) {
                return;
            }
        }
        self.dialect(
            line_no,
            loc.column,
            format!(
                "ignored a line that is not {}: `{}`",
                if self.flavor == Flavor::Kif {
                    "KIF"
                } else {
                    "KI2"
                },
                record::written(t)
            ),
        );
    }

    fn kif_move_line(&mut self, line_no: u32, line: &str) {
        self.content = true;
        self.start();
        if self.skipping {
            return;
        }
        let ml = match grammar::kif_line(line) {
            Ok(m) => m,
            Err(e) => {
                self.syntax(line_no, line, e);
                if let Some(c) = self.stack.last_mut() {
                    c.stopped = true;
                }
                return;
            }
        };
        if let Some(off) = ml.trailing {
            self.dialect(
                line_no,
                column(line, off),
                format!(
                    "ignored text after the move: `{}`",
                    record::written(&line[off..])
                ),
            );
        }
        let loc = Location::new(line_no, column(line, ml.body_offset));
        let Some(cur) = self.stack.last() else {
            return;
        };
        if cur.stopped {
            return;
        }
        let is_main = self.stack.len() == 1;
        let len = self
            .top_line()
            .map_or(0, |l| l.moves.len() + usize::from(l.terminal.is_some()));
        let Some(cur) = self.stack.last() else {
            return;
        };
        let expected = cur.start_ply as u64 + len as u64;
        if ml.number as u64 != expected {
            if is_main && len == 0 && !self.base_fixed && ml.number >= 1 {
                // A record that starts from a diagram without 手数＝N.
                self.base = ml.number - 1;
                self.base_fixed = true;
                if let Some(c) = self.stack.last_mut() {
                    c.start_ply = ml.number;
                }
            } else if !is_main && len == 0 {
                self.dialect(
                    line_no,
                    column(line, 0),
                    format!(
                        "the first move of `変化：{expected}手` is numbered {}; the 変化 number is used",
                        ml.number
                    ),
                );
            } else {
                self.findings.push(Finding::error(
                    Rule::Syntax,
                    Location::new(line_no, column(line, 0)),
                    format!("expected move number {expected}, found {}", ml.number),
                ));
                if let Some(c) = self.stack.last_mut() {
                    c.stopped = true;
                }
                return;
            }
        }
        self.base_fixed = true;
        if self.top_line().is_some_and(|l| l.terminal.is_some()) {
            if let Body::Terminal(w) = ml.body {
                self.dialect(
                    line_no,
                    loc.column,
                    format!("a second terminal `{w}` after the line ended is ignored"),
                );
                return;
            }
            self.findings.push(Finding::error(
                Rule::Syntax,
                loc,
                "a move after the terminal of its line",
            ));
            if let Some(c) = self.stack.last_mut() {
                c.stopped = true;
            }
            return;
        }
        let time = ml.time.unwrap_or_default();
        match ml.body {
            Body::Move(mt) => self.push_move(
                mt,
                ml.mark,
                ml.written,
                time,
                loc,
                line_no,
                line,
                ml.body_offset,
            ),
            Body::Terminal(w) => {
                let kind = match japanese::terminal_from_word(w) {
                    Some(k) => k,
                    None if w.contains('\u{fffd}') => {
                        self.findings.push(Finding::error(
                            Rule::Syntax,
                            loc,
                            "the move text is U+FFFD replacement characters: the file was damaged by a lossy re-encoding",
                        ));
                        if let Some(c) = self.stack.last_mut() {
                            c.stopped = true;
                        }
                        return;
                    }
                    None if japanese::terminal_from_english(w).is_some() => {
                        self.dialect(
                            line_no,
                            loc.column,
                            format!("English terminal word `{w}` (81Dojo)"),
                        );
                        japanese::terminal_from_english(w).unwrap_or(TerminalKind::Abort)
                    }
                    None => {
                        self.dialect(
                            line_no,
                            loc.column,
                            format!("unknown terminal word `{w}` kept as it is"),
                        );
                        TerminalKind::Other(w.to_string())
                    }
                };
                self.set_terminal(kind, time, loc);
            }
        }
    }

    fn ki2_move_line(&mut self, line_no: u32, line: &str) {
        self.content = true;
        self.start();
        if self.skipping {
            return;
        }
        let (tokens, err) = grammar::ki2_line(line);
        for tok in tokens {
            let loc = Location::new(line_no, column(line, tok.offset));
            if self.stack.last().is_some_and(|c| c.stopped) {
                return;
            }
            if self.top_line().is_some_and(|l| l.terminal.is_some()) {
                self.findings.push(Finding::error(
                    Rule::Syntax,
                    loc,
                    "a move after the terminal of its line",
                ));
                if let Some(c) = self.stack.last_mut() {
                    c.stopped = true;
                }
                return;
            }
            match tok.body {
                Body::Move(mt) => self.push_move(
                    mt,
                    Some(tok.color),
                    tok.written,
                    record::MoveTime::default(),
                    loc,
                    line_no,
                    line,
                    tok.offset,
                ),
                Body::Terminal(w) => match japanese::terminal_from_word(w) {
                    Some(k) => {
                        self.dialect(
                            line_no,
                            loc.column,
                            format!("terminal word `{w}` written as a move"),
                        );
                        self.set_terminal(k, record::MoveTime::default(), loc);
                    }
                    None => {
                        self.syntax(
                            line_no,
                            line,
                            SyntaxError {
                                offset: tok.offset,
                                message: format!("expected a move, found `{w}`"),
                            },
                        );
                        if let Some(c) = self.stack.last_mut() {
                            c.stopped = true;
                        }
                        return;
                    }
                },
            }
        }
        if let Some(e) = err {
            self.syntax(line_no, line, e);
            if let Some(c) = self.stack.last_mut() {
                c.stopped = true;
            }
        }
    }

    pub(crate) fn finish(mut self) -> Game {
        let content = self.content || self.handicap.is_some() || self.board.has_board;
        self.start();
        if !self.pending.is_empty() {
            let p = std::mem::take(&mut self.pending);
            self.rec.initial_comments.extend(p);
        }
        if !content {
            self.findings.push(Finding::error(
                Rule::Empty,
                Location::new(0, 0),
                "no game in the file",
            ));
        }
        Game {
            index: 0,
            record: self.rec,
            findings: self.findings,
        }
    }
}

/// Splits `KEY：VALUE` (full-width or ASCII colon, whichever comes first).
fn split_header(t: &str) -> Option<(&str, &str)> {
    let i = t.find(['：', ':'])?;
    let sep = t[i..].chars().next()?;
    Some((&t[..i], &t[i + sep.len_utf8()..]))
}

/// Reads a whole game (KIF/KI2 hold one game per file).
pub(crate) fn read_game<R: BufRead>(
    lines: &mut LineReader<R>,
    flavor: Flavor,
) -> (Game, Option<&'static str>) {
    let mut st = State::new(flavor, lines.encoding());
    let mut buf = String::new();
    loop {
        let item = match lines.next_line() {
            None => break,
            Some(x) => x,
        };
        match item {
            Err(e) => {
                let n = lines.line_number();
                st.findings.push(Finding::error(
                    Rule::Io,
                    Location::new(n, 0),
                    format!("read error: {e}"),
                ));
                break;
            }
            Ok(Ok((n, text))) => {
                buf.clear();
                buf.push_str(text);
                st.line(n, &buf);
            }
            Ok(Err((n, err))) => {
                match err {
                    LineError::Encoding { column, bytes } => st.findings.push(Finding::error(
                        Rule::Encoding,
                        Location::new(n, column),
                        format!(
                            "bytes {} do not decode as {}",
                            bytes
                                .iter()
                                .map(|b| format!("{b:02X}"))
                                .collect::<Vec<_>>()
                                .join(" "),
                            lines.encoding().name()
                        ),
                    )),
                    LineError::TooLong => st.findings.push(Finding::error(
                        Rule::Syntax,
                        Location::new(n, 1),
                        "line too long",
                    )),
                }
                buf.clear();
                buf.push_str(lines.current_text());
                st.line(n, &buf);
            }
        }
    }
    let producer = st.producer;
    (st.finish(), producer)
}
