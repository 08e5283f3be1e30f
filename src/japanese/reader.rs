//! The line state machine shared by the KIF and KI2 readers: header, board
//! diagram, moves, comments, 変化 blocks and the まで line. Syntax only: it
//! sends events to a [`Visitor`]; moves are resolved by whoever needs them.
//! Move lines are each format's own ([`MoveLines`], implemented in
//! `kif::reader` and `ki2::reader`), so this module imports neither.

use super::moves::{message, offset, Dest, MoveText, Origin};
use crate::japanese::{self, BoardBuilder};
use crate::record::{self, HeaderKey, Location, Outcome, ResultClaim, Start, TerminalKind};
use crate::rules::color::Color;
use crate::rules::handicap::Handicap;
use crate::rules::variant::Variant;
use crate::text::sink::Sink;
use crate::text::syntax::column;
use crate::text::syntax::SyntaxError;
use crate::text::{
    empty_finding, io_finding, line_finding, Finding, LineReader, MoveEvent, RawMove, Rule,
    Visitor, WrittenText,
};
use std::io::BufRead;

/// What differs between KIF and KI2 in the line reader: which lines are
/// move lines and how they are read (`kif::reader`, `ki2::reader`).
pub(crate) trait MoveLines {
    /// The format.
    const FLAVOR: Flavor;
    /// Whether `line` is a move line of the format.
    fn is_move_line(line: &str) -> bool;
    /// Reads a move line into the state.
    fn move_line<V: Visitor + ?Sized>(st: &mut State, out: &mut Sink<V>, line_no: u32, line: &str);
    /// Reads a Shift_JIS line from its bytes, without decoding it, if it
    /// is a plain move line the format reads that way; `false` leaves the
    /// line to be decoded and read by [`State::line`].
    fn raw_line<V: Visitor + ?Sized>(
        _st: &mut State,
        _out: &mut Sink<V>,
        _line_no: u32,
        _bytes: &[u8],
    ) -> bool {
        false
    }
    /// Reads a decoded line at once, as [`State::line`] would, if it is a
    /// plain move line the format reads that way; `false` leaves the line
    /// to [`State::line`].
    fn text_line<V: Visitor + ?Sized>(
        _st: &mut State,
        _out: &mut Sink<V>,
        _line_no: u32,
        _line: &str,
    ) -> bool {
        false
    }
}

/// Which of the two formats is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    Kif,
    Ki2,
}

/// A line of moves as the text shows it (numbers as the file writes them).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TextLine {
    /// Number of the line's first move.
    pub(crate) start: u32,
    /// Moves read in it.
    pub(crate) len: u32,
    /// Its terminal was read.
    pub(crate) terminal: bool,
    /// It takes no more moves (an error in it).
    pub(crate) stopped: bool,
}

impl TextLine {
    pub(crate) fn new(start: u32) -> TextLine {
        TextLine {
            start,
            len: 0,
            terminal: false,
            stopped: false,
        }
    }
}

pub(crate) struct State {
    pub(crate) flavor: Flavor,
    pub(crate) encoding: crate::text::Encoding,
    pub(crate) board: BoardBuilder,
    pub(crate) board_location: Option<Location>,
    pub(crate) handicap: Option<(String, Location)>,
    pub(crate) started: bool,
    /// The side to move at the start.
    pub(crate) start_turn: Color,
    pub(crate) lines: Vec<TextLine>,
    /// Number of moves before the first move (from 手数＝N, or the first
    /// move number).
    pub(crate) base: u32,
    pub(crate) base_fixed: bool,
    /// The main line's first `まで` line, once read: a later one is
    /// compared with it.
    pub(crate) claim: Option<ResultClaim>,
    pub(crate) content: bool,
    /// Between the top and bottom frame lines (`+---…---+`) of a board
    /// diagram: only board rows belong there.
    pub(crate) in_frame: bool,
    /// Skip move lines until the next 変化 (a malformed block).
    pub(crate) skipping: bool,
    /// A bare `変化：` waiting for its first move's number.
    pub(crate) pending_variation: Option<Location>,
    /// Which program wrote the file, as far as the `#` lines tell.
    pub producer: Option<&'static str>,
    /// The line of an encoding declaration the bytes contradict: the line
    /// reader reports it (`encoding`), not the `#` line's own check.
    pub(crate) overridden_line: Option<u32>,
    /// The move tokens of the KI2 line being read (its memory kept from
    /// line to line).
    pub(crate) tokens: Vec<crate::text::notation::moves::MoveToken>,
}

impl State {
    pub(crate) fn new(flavor: Flavor, encoding: crate::text::Encoding) -> State {
        State {
            flavor,
            encoding,
            board: BoardBuilder::default(),
            board_location: None,
            handicap: None,
            started: false,
            start_turn: Color::Black,
            lines: Vec::new(),
            overridden_line: None,
            base: 0,
            base_fixed: false,
            claim: None,
            content: false,
            in_frame: false,
            skipping: false,
            pending_variation: None,
            producer: None,
            tokens: Vec::new(),
        }
    }

    pub(crate) fn finding<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>, f: Finding) {
        out.finding(f);
    }

    pub(crate) fn syntax<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        line_no: u32,
        line: &str,
        e: SyntaxError<&str>,
    ) {
        out.finding(Finding::error(
            Rule::Syntax,
            Location::new(line_no, column(line, offset(line, e.at))),
            message(&e),
        ));
    }

    /// A `syntax` error: `expected WHAT, found `LINE``.
    fn expected<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        loc: Location,
        what: &str,
        line: &str,
    ) {
        self.finding(
            out,
            Finding::error(
                Rule::Syntax,
                loc,
                format!("expected {what}, found `{}`", record::written(line)),
            ),
        );
    }

    pub(crate) fn dialect<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        line_no: u32,
        col: u32,
        msg: impl Into<String>,
    ) {
        out.finding(Finding::warning(
            Rule::Dialect,
            Location::new(line_no, col),
            msg,
        ));
    }

    /// The side to move after the moves read in the current line.
    pub(crate) fn to_move(&self) -> Color {
        let played = self
            .lines
            .last()
            .map_or(0, |t| t.start.saturating_sub(self.base + 1) + t.len);
        if played.is_multiple_of(2) {
            self.start_turn
        } else {
            !self.start_turn
        }
    }

    pub(crate) fn top(&mut self) -> &mut TextLine {
        self.lines.last_mut().expect("started")
    }

    pub(crate) fn stop(&mut self) {
        if let Some(l) = self.lines.last_mut() {
            l.stopped = true;
        }
    }

    /// Fixes the start position (at the first move, 変化 or separator) and
    /// sends it.
    pub(crate) fn start<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>) {
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
                out.finding(Finding::error(
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
                    out.finding(Finding::error(Rule::Syntax, loc, msg));
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
        self.start_turn = start.setup.turn;
        out.start(&start);
        self.lines.push(TextLine::new(self.base + 1));
    }

    pub(crate) fn comment<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        loc: Location,
        text: String,
    ) {
        self.content = true;
        out.comment(&text, loc);
    }

    pub(crate) fn set_terminal<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        kind: TerminalKind,
        time: Option<record::MoveTime>,
        loc: Location,
    ) {
        out.terminal(&kind, loc);
        if let Some(t) = time {
            out.time(t, loc);
        }
        self.top().terminal = true;
    }

    /// Sends a move of the current line.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn push_move<'w, V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        mut mt: MoveText,
        color: Option<Color>,
        written: impl Into<WrittenText<'w>>,
        time: Option<record::MoveTime>,
        loc: Location,
        line_no: u32,
        line: &str,
        body_offset: usize,
    ) {
        if mt.wrote_funari && self.flavor == Flavor::Kif {
            self.dialect(
                out,
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
                out,
                line_no,
                column(line, body_offset),
                "KI2 relative mark (右 左 直 上 寄 引) in a KIF move; the origin square decides",
            );
        }
        match (self.flavor, mt.origin) {
            (Flavor::Ki2, Origin::Square(_)) => self.dialect(
                out,
                line_no,
                loc.column,
                "KI2 moves do not give an origin square",
            ),
            (Flavor::Kif, Origin::None) => self.dialect(
                out,
                line_no,
                loc.column,
                "KIF move without an origin square `(77)` or `打`; resolved like KI2",
            ),
            _ => {}
        }
        // `同` on the first move of the game refers to the diagram's last
        // move (`手数＝N  ▲６二角成  まで`).
        let top = *self.top();
        if mt.dest == Dest::Same && top.start + top.len == self.base + 1 {
            if let Some(sq) = self.board.last_to {
                mt.dest = Dest::Square(sq);
            }
        }
        out.movement(&MoveEvent {
            raw: RawMove::Japanese(mt, color),
            written: written.into(),
            at: loc,
        });
        if let Some(t) = time {
            out.time(t, loc);
        }
        self.top().len += 1;
    }

    /// Handles `変化：N手`.
    pub(crate) fn variation<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        n: u32,
        loc: Location,
    ) {
        self.start(out);
        self.skipping = false;
        if self.lines[0].len == 0 {
            self.dialect(
                out,
                loc.line,
                loc.column,
                "`変化` before any move is ignored",
            );
            self.skipping = true;
            return;
        }
        // Close lines that start at or after N, or that have no move N.
        while self.lines.len() > 1 {
            let c = self.lines[self.lines.len() - 1];
            if c.start >= n || (c.start as u64) + (c.len as u64) <= n as u64 {
                self.lines.pop();
                out.end_variation();
            } else {
                break;
            }
        }
        if self.lines.len() > crate::record::MAX_VARIATION_DEPTH {
            out.finding(Finding::error(
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
        let top = *self.top();
        match n.checked_sub(top.start) {
            Some(i) if i < top.len => {}
            _ => {
                out.finding(Finding::error(
                    Rule::Syntax,
                    loc,
                    format!("`変化：{n}手` has no move {n} to branch from"),
                ));
                self.skipping = true;
                return;
            }
        }
        out.begin_variation(n - self.base, loc);
        self.lines.push(TextLine::new(n));
    }

    pub(crate) fn summary<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        text: &str,
        loc: Location,
    ) {
        let Some(sum) = japanese::parse_summary(text) else {
            self.dialect(
                out,
                loc.line,
                loc.column,
                format!("unrecognised summary line `{text}`"),
            );
            return;
        };
        // KI2 has no terminal lines: the summary is the only record of the
        // end (also of a game that ended before its first move,
        // `まで0手で中断`), so it fixes the start position too.
        if self.flavor == Flavor::Ki2 {
            self.start(out);
        }
        let start_turn = self.start_turn;
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
        let is_main = self.lines.len() <= 1;
        if is_main {
            let claim = ResultClaim {
                outcome,
                plies: sum.plies,
                kind: sum.kind.clone(),
                text: japanese::trim(text).to_string(),
                location: loc,
            };
            match &self.claim {
                None => {
                    out.claim(&claim);
                    self.claim = Some(claim);
                }
                Some(first) => {
                    if let Some(f) = crate::text::claims::second_claim(first, &claim) {
                        out.finding(f);
                    }
                }
            }
        }
        if self.flavor == Flavor::Ki2 {
            let top = *self.top();
            if top.stopped {
                return;
            }
            let played = top.start - self.base - 1 + top.len;
            let to_move = if played.is_multiple_of(2) {
                start_turn
            } else {
                !start_turn
            };
            let kind = match sum.kind {
                Some(k) => Some(k),
                None => match outcome.winner() {
                    Some(w) if w != to_move => Some(TerminalKind::Resign),
                    _ => None,
                },
            };
            if let Some(kind) = kind {
                if !top.terminal {
                    self.set_terminal(out, kind, None, loc);
                }
            }
        }
    }

    pub(crate) fn header<V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        key: &str,
        value: &str,
        loc: Location,
    ) -> bool {
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
                    self.dialect(
                        out,
                        loc.line,
                        loc.column,
                        "`#` comment after the 手合割 value",
                    );
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
                    out.header(&HeaderKey::Other("手合割".to_string()), value, loc);
                }
            }
            return true;
        }
        out.header(&japanese::header_key(key), value, loc);
        true
    }

    /// Reads one decoded line.
    pub(crate) fn line<M: MoveLines, V: Visitor + ?Sized>(
        &mut self,
        out: &mut Sink<V>,
        line_no: u32,
        raw: &str,
    ) {
        let line = raw.trim_end_matches(['\r', '\n']);
        let line = if line_no == 1 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        if M::text_line(self, out, line_no, line) {
            return;
        }
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
                if let Some(declared) = crate::text::Encoding::from_label(&label) {
                    let actual = self.encoding;
                    let same = declared == actual
                        || matches!(
                            (declared, actual),
                            (crate::text::Encoding::Utf8, crate::text::Encoding::Utf8Bom)
                        );
                    if !same && self.overridden_line != Some(line_no) {
                        self.dialect(
                            out,
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
        // Board diagram parts. Inside the frame only rows belong: any other
        // line would leave the board short of a rank, or (read as a header)
        // go silently into the header.
        if self.in_frame && !t.starts_with('|') && !t.starts_with("+-") {
            self.in_frame = false;
            // A line that comes after a board (the frame's bottom line is
            // missing) is read as such; any other is not read.
            let after_board = japanese::hand_line_head(t).is_some()
                || japanese::parse_turn_line(t).is_some()
                || t.starts_with("手数")
                || M::is_move_line(line);
            if after_board {
                self.dialect(
                    out,
                    line_no,
                    loc.column,
                    format!(
                        "the board diagram ends without its frame's bottom line (`+---…---+`) before `{}`",
                        record::written(t)
                    ),
                );
            } else {
                self.expected(
                    out,
                    loc,
                    "a board row (`|…|一`) or the frame's bottom line inside the board diagram",
                    t,
                );
                self.in_frame = true;
                return;
            }
        }
        if let Some(r) = japanese::parse_hand_line(t) {
            self.content = true;
            if let Some((c, n, false)) = japanese::hand_line_head(t) {
                let spec = format!(
                    "{}の持駒：",
                    japanese::side_name(c, t.starts_with(['上', '下']))
                );
                self.dialect(
                    out,
                    line_no,
                    loc.column,
                    format!(
                        "`{}` is not the spec's `{spec}`; read as {c}'s hand",
                        &t[..n]
                    ),
                );
            }
            if self.started {
                self.dialect(
                    out,
                    line_no,
                    loc.column,
                    "a hand line after the moves began is ignored: the start position is fixed",
                );
                return;
            }
            match r {
                Ok((c, h)) => self.board.set_hand(c, h),
                Err(off) => self.finding(
                    out,
                    Finding::error(
                        Rule::Syntax,
                        Location::new(line_no, column(line, lead + off)),
                        "expected a piece name in the hand",
                    ),
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
                Err((c, msg)) => self.finding(
                    out,
                    Finding::error(Rule::Syntax, Location::new(line_no, c as u32 + 1), msg),
                ),
            }
            return;
        }
        if !self.started && t.starts_with("+-") {
            // The top frame line opens the board, the bottom one closes it.
            if self.in_frame {
                self.in_frame = false;
            } else if !self.board.has_board {
                self.in_frame = true;
            }
            return;
        }
        if !self.started
            && t.chars().any(|c| ('１'..='９').contains(&c))
            && t.chars()
                .all(|c| japanese::is_space(c) || japanese::digit_value(c).is_some())
        {
            return;
        }
        if let Some(c) = japanese::parse_turn_line(t) {
            if self.started {
                self.dialect(
                    out,
                    line_no,
                    loc.column,
                    "a turn line after the moves began is ignored: the start position is fixed",
                );
            } else {
                self.board.set_turn(c);
            }
            return;
        }
        if !self.started && self.board.move_number_line(t) {
            return;
        }
        if t.starts_with("手数----") || t.starts_with("手数――") {
            self.content = true;
            self.start(out);
            return;
        }
        // Moves.
        if M::is_move_line(line) {
            M::move_line(self, out, line_no, line);
            return;
        }
        if let Some(rest) = t.strip_prefix("変化") {
            self.pending_variation = None;
            match parse_variation_header(rest) {
                VariationHeader::Number(n, odd) => {
                    if let Some(why) = odd {
                        self.dialect(
                            out,
                            line_no,
                            loc.column,
                            format!("`{}`: {why}; read as `変化：{n}手`", record::written(t)),
                        );
                    }
                    self.variation(out, n, loc);
                }
                VariationHeader::Bare if self.flavor == Flavor::Kif => {
                    // tsshogi and shogi-kifu-converter branch at the number
                    // of the block's first move: so does kifu.
                    self.pending_variation = Some(loc);
                }
                _ => self.finding(
                    out,
                    Finding::error(
                        Rule::Syntax,
                        loc,
                        format!("expected `変化：N手`, found `{t}`"),
                    ),
                ),
            }
            return;
        }
        if let Some(c) = t.strip_prefix('*') {
            let text = line.trim_start_matches(japanese::is_space);
            let text = text.strip_prefix('*').unwrap_or(c);
            if !self.skipping {
                self.comment(out, loc, text.to_string());
            }
            return;
        }
        if t.starts_with('&') {
            if !self.skipping {
                self.comment(
                    out,
                    loc,
                    line.trim_start_matches(japanese::is_space).to_string(),
                );
            }
            return;
        }
        if t.starts_with("まで") {
            if !self.skipping {
                self.summary(out, t, loc);
            }
            return;
        }
        if let Some((k, v)) = split_header(t) {
            // A key that names a hand (`持駒：…`, `▲持駒：…`) but is no
            // hand line kifu reads: the hand would be lost from the
            // position, never a header.
            if k.contains("持駒") || k.contains("持ち駒") {
                self.expected(out, loc, "a hand line such as `先手の持駒：角　歩二`", t);
                return;
            }
            if self.header(out, k, v, loc) {
                return;
            }
        }
        self.dialect(
            out,
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

    /// Ends the game.
    pub(crate) fn finish<V: Visitor + ?Sized>(mut self, mut out: Sink<V>) -> V::Output {
        let content = self.content || self.handicap.is_some() || self.board.has_board;
        self.start(&mut out);
        if let Some(at) = self.pending_variation.take() {
            self.dialect(
                &mut out,
                at.line,
                at.column,
                "`変化：` without a move number and without moves is ignored",
            );
        }
        for _ in 1..self.lines.len() {
            out.end_variation();
        }
        if !content {
            out.finding(empty_finding());
        }
        out.finish()
    }
}

/// A `変化` header, read.
enum VariationHeader {
    /// The move number, and why the header is odd if it is (a `dialect`
    /// warning).
    Number(u32, Option<&'static str>),
    /// `変化：` with no number.
    Bare,
    /// Something else.
    Bad,
}

/// Reads what follows `変化` in a header line: `：N手` (the spec; spaces
/// around N as KI2 pads them), and, as dialects, `：N` (MyShogi), full-width
/// digits, an ASCII colon or none, and text after `手`.
fn parse_variation_header(rest: &str) -> VariationHeader {
    let mut odd = None;
    let rest = match rest.strip_prefix('：') {
        Some(r) => r,
        None => {
            odd = Some("not the `変化：N手` of the spec (colon)");
            rest.strip_prefix(':').unwrap_or(rest)
        }
    };
    let rest = japanese::trim(rest);
    if rest.is_empty() {
        return VariationHeader::Bare;
    }
    let mut n: u32 = 0;
    let mut digits = 0;
    let mut wide = false;
    for c in rest.chars() {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '０'..='９' => {
                wide = true;
                c as u32 - '０' as u32
            }
            _ => break,
        };
        match n.checked_mul(10).and_then(|n| n.checked_add(d)) {
            Some(v) => n = v,
            None => return VariationHeader::Bad,
        }
        digits += c.len_utf8();
    }
    if digits == 0 {
        return VariationHeader::Bad;
    }
    if wide {
        odd = odd.or(Some("full-width digits"));
    }
    let tail = japanese::trim(&rest[digits..]);
    match tail.strip_prefix('手') {
        Some("") => {}
        Some(_) => odd = odd.or(Some("text after `手`")),
        None if tail.is_empty() => odd = odd.or(Some("no `手` after the number")),
        None => odd = odd.or(Some("text after the number")),
    }
    VariationHeader::Number(n, odd)
}

/// Splits `KEY：VALUE` (full-width or ASCII colon, whichever comes first).
fn split_header(t: &str) -> Option<(&str, &str)> {
    let i = t.find(['：', ':'])?;
    let sep = t[i..].chars().next()?;
    Some((&t[..i], &t[i + sep.len_utf8()..]))
}

/// Reads the whole game of a KIF or KI2 input (one game per file) into
/// `v`; returns its output and the producer the `#` lines name.
pub(crate) fn read_game<M: MoveLines, R: BufRead, V: Visitor + ?Sized>(
    lines: &mut LineReader<R>,
    v: &mut V,
) -> (V::Output, Option<&'static str>) {
    let encoding = lines.encoding();
    let mut st = State::new(M::FLAVOR, encoding);
    st.overridden_line = lines.overridden().map(|o| o.line);
    let mut out = Sink::new(v, 0);
    out.begin();
    loop {
        // Shift_JIS move lines are offered undecoded first.
        let mut raw = |n: u32, bytes: &[u8]| M::raw_line(&mut st, &mut out, n, bytes);
        let item = match lines.next_line_or_raw(&mut raw) {
            None => break,
            Some(x) => x,
        };
        match item {
            Err(e) => {
                out.finding(io_finding(&e));
                break;
            }
            Ok(Ok(None)) => {}
            // The line is read where the line reader holds it, not copied.
            Ok(Ok(Some((n, text)))) => st.line::<M, V>(&mut out, n, text),
            Ok(Err((n, err))) => {
                out.finding(line_finding(n, &err, encoding));
                st.line::<M, V>(&mut out, n, lines.current_text());
            }
        }
    }
    let producer = st.producer;
    (st.finish(out), producer)
}
