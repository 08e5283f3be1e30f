//! The JKF reader: one game per document, sent as events.

use super::schema::*;
use crate::record::{Location, MoveTime, Start, TerminalKind};
use crate::rules::color::Color;
use crate::rules::hand::Hand;
use crate::rules::handicap::Handicap;
use crate::rules::role::{Piece, Role};
use crate::rules::setup::Setup;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::text::notation::jkf::JkfMove;
use crate::text::sink::Sink;
use crate::text::{
    empty_finding, io_finding, line_finding, Finding, Game, LineReader, MoveEvent, RawMove,
    ReadOptions, RecordBuilder, Rule, Visitor,
};
use std::io::BufRead;

// ---------------------------------------------------------------------------
// Reader

/// Reads the single game of a JKF file.
pub struct Reader<R: BufRead> {
    lines: Option<LineReader<R>>,
}

impl<R: BufRead> Reader<R> {
    /// A reader over decoded lines.
    pub fn new(lines: LineReader<R>, _opts: &ReadOptions) -> Reader<R> {
        Reader { lines: Some(lines) }
    }
}

/// Where the keys of a JKF document are: the `"move": {` and `"special":`
/// keys in document order (the walker meets them in that order), the first
/// `initial`, `data` and `preset` keys, and the first `color` written as a
/// boolean (JKF before 1.0).
#[derive(Default)]
struct KeyMap {
    moves: Vec<Location>,
    specials: Vec<Location>,
    /// Every key with its location, in document order (for errors: the
    /// key a value belongs to). Only short keys are kept.
    keys: Vec<(arrayvec::ArrayString<16>, Location)>,
    initial: Option<Location>,
    data: Option<Location>,
    preset: Option<Location>,
    legacy_color: Option<Location>,
}

impl KeyMap {
    fn scan(text: &str) -> KeyMap {
        let mut map = KeyMap::default();
        let (mut line, mut col) = (1u32, 0u32);
        let mut in_str = false;
        let mut esc = false;
        let mut str_start = Location::default();
        let mut str_buf = arrayvec::ArrayString::<16>::new();
        let mut str_long = false;
        // After a string: 1 = waiting for ':' (a key), 2 = for its value.
        let mut state = 0u8;
        let mut key = arrayvec::ArrayString::<16>::new();
        let mut key_at = Location::default();
        for c in text.chars() {
            if c == '\n' {
                line += 1;
                col = 0;
                continue;
            }
            col += 1;
            if in_str {
                if esc {
                    esc = false;
                } else if c == '\\' {
                    esc = true;
                } else if c == '"' {
                    in_str = false;
                    if !str_long {
                        state = 1;
                        key = str_buf;
                        key_at = str_start;
                    }
                } else if str_buf.try_push(c).is_err() {
                    str_long = true;
                }
                continue;
            }
            if c.is_whitespace() {
                continue;
            }
            match (state, c) {
                (1, ':') => {
                    state = 2;
                    map.keys.push((key, key_at));
                    match key.as_str() {
                        "initial" => {
                            map.initial.get_or_insert(key_at);
                        }
                        "data" => {
                            map.data.get_or_insert(key_at);
                        }
                        "preset" => {
                            map.preset.get_or_insert(key_at);
                        }
                        _ => {}
                    }
                    continue;
                }
                (2, v) => {
                    match (key.as_str(), v) {
                        ("move", '{') => map.moves.push(key_at),
                        ("special", _) => map.specials.push(key_at),
                        ("color", 't' | 'f') => {
                            map.legacy_color.get_or_insert(key_at);
                        }
                        _ => {}
                    }
                    state = 0;
                }
                _ => state = 0,
            }
            if c == '"' {
                in_str = true;
                str_buf.clear();
                str_long = false;
                str_start = Location::new(line, col);
            }
        }
        map
    }

    /// The last key at or before `at` (the key a value at `at` belongs to).
    fn key_before(&self, at: Location) -> Option<&str> {
        self.keys
            .iter()
            .take_while(|(_, l)| (l.line, l.column) <= (at.line, at.column))
            .last()
            .map(|(k, _)| k.as_str())
    }
}

/// A serde error message in JKF's words: the key it is about first, what
/// was expected, then what was found.
fn jkf_error_message(msg: &str, key: Option<&str>) -> String {
    let msg = msg.split(" at line ").next().unwrap_or(msg);
    let words = |t: &str| -> String {
        match t {
            "u8" | "u16" | "u32" | "u64" | "i64" | "i32" | "usize" => "an integer".to_string(),
            "a boolean" | "a string" | "a sequence" | "a map" => t.to_string(),
            t if t.starts_with("struct ") => "an object".to_string(),
            t => t.to_string(),
        }
    };
    let body = if let Some(rest) = msg
        .strip_prefix("invalid type: ")
        .or_else(|| msg.strip_prefix("invalid value: "))
    {
        match rest.rsplit_once(", expected ") {
            Some((found, want)) => format!("expected {}, found {found}", words(want)),
            None => rest.to_string(),
        }
    } else {
        msg.to_string()
    };
    match key {
        Some(k) if msg.starts_with("invalid ") => format!("`{k}`: {body}"),
        _ => body,
    }
}

fn short(s: &str) -> arrayvec::ArrayString<8> {
    let mut out = arrayvec::ArrayString::new();
    for c in s.chars() {
        if out.try_push(c).is_err() {
            break;
        }
    }
    out
}

/// The move of a document's move object.
fn jkf_move(m: &MoveIn) -> JkfMove {
    JkfMove {
        color: color_in(m.color),
        from: m.from.map(|p| (p.x, p.y)),
        to: m.to.map(|p| (p.x, p.y)),
        piece: m.piece.as_deref().map(short),
        same: m.same,
        promote: m.promote,
        relative: m.relative.as_deref().map(short),
    }
}

/// Walks the document and sends its events.
struct Walk<'s, 'v, V: Visitor + ?Sized> {
    out: &'s mut Sink<'v, V>,
    /// Locations of the `move` keys, in document order.
    locations: std::vec::IntoIter<Location>,
    /// Locations of the `special` keys, in document order.
    specials: std::vec::IntoIter<Location>,
    /// The location of the last entry met (for entries without a key of
    /// their own).
    last: Location,
}

fn comments_of(item: &ItemIn) -> Vec<String> {
    let mut comments: Vec<String> = item.comments.clone().unwrap_or_default();
    comments.extend(item.comment.clone());
    comments
}

fn time_of(t: &TimeIn) -> MoveTime {
    MoveTime {
        spent_ms: t.now.as_ref().and_then(ClockIn::ms),
        total_ms: t.total.as_ref().and_then(ClockIn::ms),
    }
}

impl<V: Visitor + ?Sized> Walk<'_, '_, V> {
    fn next_loc(&mut self) -> Location {
        if let Some(l) = self.locations.next() {
            self.last = l;
        }
        self.last
    }

    fn next_special(&mut self) -> Location {
        if let Some(l) = self.specials.next() {
            self.last = l;
        }
        self.last
    }

    /// Sends the items of one line; `ply` is the ply of its first move.
    fn line(&mut self, items: &[ItemIn], ply: u32) {
        let mut ply = ply;
        let mut dead = false;
        let mut terminal: Option<TerminalKind> = None;
        for item in items {
            if let Some(mi) = &item.mv {
                let loc = self.next_loc();
                if dead {
                    self.skip_forks(item);
                    continue;
                }
                let m = jkf_move(mi);
                let written = m.written();
                self.out.movement(&MoveEvent {
                    raw: RawMove::Jkf(m),
                    written: written.as_str().into(),
                    at: loc,
                });
                if terminal.is_some() {
                    // The resolver reports it (`after-end`); the line ends.
                    dead = true;
                    self.skip_forks(item);
                    continue;
                }
                if let Some(t) = &item.time {
                    self.out.time(time_of(t), loc);
                }
                for c in comments_of(item) {
                    self.out.comment(&c, loc);
                }
                for fork in item.forks.iter().flatten() {
                    self.out.begin_variation(ply, loc);
                    self.line(fork, ply);
                    self.out.end_variation();
                }
                ply += 1;
            } else if let Some(sp) = &item.special {
                let at = self.next_special();
                let kind = special_kind(sp);
                if item.forks.as_ref().is_some_and(|f| !f.is_empty()) {
                    self.out.finding(Finding::warning(
                        Rule::Dialect,
                        at,
                        "ignored `forks` on a special (terminal) entry",
                    ));
                    self.skip_forks(item);
                }
                match &terminal {
                    Some(t) if *t == kind => {
                        for c in comments_of(item) {
                            self.out.comment(&c, at);
                        }
                    }
                    Some(_) => self.out.finding(Finding::warning(
                        Rule::Dialect,
                        at,
                        format!("ignored a second special `{sp}` after the terminal event"),
                    )),
                    None => {
                        match &kind {
                            TerminalKind::Other(s) => self.out.finding(Finding::warning(
                                Rule::Dialect,
                                at,
                                format!("unknown special `{s}` kept verbatim"),
                            )),
                            _ if !crate::csa::SPECIALS.contains(&sp.as_str())
                                && sp != "MAX_MOVES"
                                && sp != "ILLEGAL_ACTION" =>
                            {
                                self.out.finding(Finding::warning(
                                    Rule::Dialect,
                                    at,
                                    format!("`{sp}` is not a JKF special; read as a foul verdict"),
                                ))
                            }
                            _ => {}
                        }
                        self.out.terminal(&kind, at);
                        if let Some(t) = &item.time {
                            self.out.time(time_of(t), at);
                        }
                        for c in comments_of(item) {
                            self.out.comment(&c, at);
                        }
                        terminal = Some(kind);
                    }
                }
            } else {
                // A comment-only entry: attach to what precedes it.
                let comments = comments_of(item);
                self.skip_forks(item);
                if comments.is_empty() {
                    continue;
                }
                let at = self.last;
                self.out.finding(Finding::warning(
                    Rule::Dialect,
                    at,
                    "an entry with neither `move` nor `special`; its comments go to the move before it",
                ));
                for c in comments {
                    self.out.comment(&c, at);
                }
            }
        }
    }

    /// Consumes the locations of moves that are not read.
    fn skip_forks(&mut self, item: &ItemIn) {
        for fork in item.forks.iter().flatten() {
            for it in fork {
                if it.mv.is_some() {
                    self.next_loc();
                } else if it.special.is_some() {
                    self.next_special();
                }
                self.skip_forks(it);
            }
        }
    }
}

fn setup_from_state(st: &StateIn, at: Location, findings: &mut Vec<Finding>) -> Setup {
    let mut setup = Setup::empty(Variant::Standard);
    setup.turn = color_in(st.color)
        .and_then(color_of)
        .unwrap_or(Color::Black);
    let warn = |findings: &mut Vec<Finding>, msg: String| {
        findings.push(Finding::error(Rule::Setup, at, msg));
    };
    if let Some(board) = &st.board {
        if board.len() != 9 || board.iter().any(|c| c.len() != 9) {
            warn(findings, "expected a 9×9 `board`".into());
        }
        for (x, col) in board.iter().enumerate().take(9) {
            for (y, cell) in col.iter().enumerate().take(9) {
                let (Some(c), Some(k)) = (color_in(cell.color), cell.kind.as_deref()) else {
                    continue;
                };
                match (color_of(c), Role::from_csa(k)) {
                    (Some(color), Some(role)) => {
                        if let Some(sq) = Square::new(x as u8 + 1, y as u8 + 1) {
                            setup.board[sq.index()] = Some(Piece::new(color, role));
                        }
                    }
                    _ => warn(
                        findings,
                        format!("bad piece `{k}` (color {c}) on the board"),
                    ),
                }
            }
        }
    }
    if let Some(hands) = &st.hands {
        for (i, h) in hands.iter().enumerate().take(2) {
            let mut hand = Hand::EMPTY;
            for (k, &n) in h {
                match Role::from_csa(k) {
                    Some(role) if role.hand_index().is_some() => {
                        if !hand.set(role, n.min(255) as u8) {
                            warn(findings, format!("bad count {n} of `{k}` in hand"));
                        }
                    }
                    _ if n == 0 => {}
                    _ => warn(findings, format!("`{k}` cannot be held in hand")),
                }
            }
            setup.hands[i] = hand;
        }
    }
    setup
}

/// Sends the game of a JKF document.
fn read_jkf<V: Visitor + ?Sized>(text: &str, out: &mut Sink<V>) {
    let keys = KeyMap::scan(text);
    let doc: JkfIn = match serde_json::from_str(text) {
        Ok(d) => d,
        Err(e) => {
            let line = e.line() as u32;
            let byte_col = e.column();
            let col =
                text.lines()
                    .nth(line.saturating_sub(1) as usize)
                    .map_or(byte_col as u32, |l| {
                        let mut end = byte_col.min(l.len());
                        while end > 0 && !l.is_char_boundary(end) {
                            end -= 1;
                        }
                        l[..end].chars().count() as u32
                    });
            let at = Location::new(line.max(1), col.max(1));
            let msg = jkf_error_message(&e.to_string(), keys.key_before(at));
            out.finding(Finding::error(
                Rule::Syntax,
                at,
                format!("not valid JKF: {msg}"),
            ));
            return;
        }
    };
    let top = Location::new(1, 1);
    let mut findings = Vec::new();
    if let Some(at) = keys.legacy_color {
        findings.push(Finding::warning(
            Rule::Dialect,
            at,
            "`color` written as true/false (JKF before 1.0): true is sente, false is gote",
        ));
    }
    match doc.header {
        Some(h) => {
            for (k, v) in h.0 {
                out.header(&header_key(&k), &v, Location::default());
            }
        }
        None => findings.push(Finding::warning(
            Rule::Dialect,
            top,
            "no `header` (the schema requires one)",
        )),
    }
    let mut start = Start::default();
    if let Some(init) = doc.initial {
        let init_at = keys.initial.unwrap_or(top);
        let data_at = keys.data.unwrap_or(init_at);
        let preset_at = keys.preset.unwrap_or(init_at);
        let preset = init.preset.as_deref().unwrap_or("OTHER");
        let from_data = |st: &StateIn, findings: &mut Vec<Finding>| {
            let setup = setup_from_state(st, data_at, findings);
            Start {
                handicap: Handicap::detect(&setup),
                setup,
                location: Some(data_at),
            }
        };
        if preset == "OTHER" {
            match &init.data {
                Some(st) => start = from_data(st, &mut findings),
                None => findings.push(Finding::error(
                    Rule::Setup,
                    preset_at,
                    "preset OTHER without `data`",
                )),
            }
        } else {
            match Handicap::all().find(|h| h.info().jkf == preset) {
                Some(h) => start = Start::handicap(h),
                None => match &init.data {
                    Some(st) => {
                        findings.push(Finding::warning(
                            Rule::Dialect,
                            preset_at,
                            format!("unknown preset `{preset}`; the `data` board is used"),
                        ));
                        start = from_data(st, &mut findings);
                    }
                    None => findings.push(Finding::error(
                        Rule::Setup,
                        preset_at,
                        format!("unknown preset `{preset}`"),
                    )),
                },
            }
        }
    }
    let items = match doc.moves {
        Some(m) => m,
        None => {
            findings.push(Finding::warning(
                Rule::Dialect,
                top,
                "no `moves` (the schema requires them)",
            ));
            Vec::new()
        }
    };
    for f in findings {
        out.finding(f);
    }
    out.start(&start);
    let rest = match items.first() {
        Some(first) if first.mv.is_none() && first.special.is_none() => {
            for c in comments_of(first) {
                out.comment(&c, Location::default());
            }
            &items[1..]
        }
        Some(_) => {
            out.finding(Finding::warning(
                Rule::Dialect,
                keys.moves
                    .first()
                    .or(keys.specials.first())
                    .copied()
                    .unwrap_or(top),
                "`moves[0]` holds a move; it is read as the first move",
            ));
            &items[..]
        }
        None => &items[..],
    };
    let mut walk = Walk {
        out,
        locations: keys.moves.into_iter(),
        specials: keys.specials.into_iter(),
        last: top,
    };
    walk.line(rest, 1);
}

impl<R: BufRead> Reader<R> {
    /// Reads the game into `v`; `None` once it was read.
    pub fn read_game<V: Visitor + ?Sized>(&mut self, v: &mut V) -> Option<V::Output> {
        let mut lines = self.lines.take()?;
        let encoding = lines.encoding();
        let mut out = Sink::new(v, 0);
        out.begin();
        let mut text = String::new();
        loop {
            match lines.next_line() {
                None => break,
                Some(Err(e)) => {
                    out.finding(io_finding(&e));
                    break;
                }
                Some(Ok(Ok((_, l)))) => {
                    text.push_str(l);
                    text.push('\n');
                }
                Some(Ok(Err((no, e)))) => {
                    out.finding(line_finding(no, &e, encoding));
                    text.push_str(lines.current_text());
                    text.push('\n');
                }
            }
        }
        if text.trim().is_empty() {
            out.finding(empty_finding());
        } else {
            read_jkf(&text, &mut out);
        }
        Some(out.finish())
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        self.read_game(&mut RecordBuilder::new())
    }
}
