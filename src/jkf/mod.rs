//! JSON Kifu Format (na2hiro's JKF): reader and writer.
//!
//! The reader accepts normalised JKF and the minimal (parser-level) form
//! that omits `to` when `same` is set, `from` for KI2-style moves (resolved
//! by candidates and the `relative` mark) and `color` (taken from the
//! position). The writer emits normalised JKF that validates against the
//! published schema. See `docs/formats/jkf.md`.
//!
//! ```
//! use kifu::jkf;
//! use kifu::read::{lines_from_bytes, ReadOptions};
//!
//! let text = r#"{"header":{"先手":"A"},"moves":[{},{"move":{"to":{"x":7,"y":6},"piece":"FU"}}]}"#.as_bytes();
//! let opts = ReadOptions::default();
//! let game = jkf::Reader::new(lines_from_bytes(text, &opts), &opts).next().unwrap();
//! assert_eq!(game.record.main.moves[0].mv.to_string(), "7g7f");
//! let out = jkf::write(&game.record, &jkf::WriteOptions::default()).unwrap();
//! assert!(out.text.contains("\"from\""));
//! ```

pub mod relative;

use crate::color::Color;
use crate::hand::Hand;
use crate::handicap::Handicap;
use crate::moves::Move;
use crate::position::Position;
use crate::read::sink::Sink;
use crate::read::{
    empty_finding, io_finding, line_finding, Finding, Game, LineReader, MoveEvent, RawMove,
    ReadOptions, RecordBuilder, Rule, Visitor,
};
use crate::record::{HeaderKey, Line, Location, MoveTime, Node, Record, Start, TerminalKind};
use crate::role::{Piece, Role};
use crate::setup::Setup;
use crate::square::Square;
use crate::variant::Variant;
use crate::write::{Dropped, Output, WriteError};
use serde::de::{MapAccess, Visitor as SerdeVisitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::io::BufRead;

pub use relative::{filter_by_relative, relative_mark};

// ---------------------------------------------------------------------------
// JSON shapes (input: lenient)

/// Header entries in source order; non-string values are kept as JSON text.
struct HeaderIn(Vec<(String, String)>);

impl<'de> Deserialize<'de> for HeaderIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<HeaderIn, D::Error> {
        struct V;
        impl<'de> SerdeVisitor<'de> for V {
            type Value = HeaderIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of header strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HeaderIn, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = map.next_entry::<String, serde_json::Value>()? {
                    let s = match val {
                        serde_json::Value::String(s) => s,
                        serde_json::Value::Null => String::new(),
                        other => other.to_string(),
                    };
                    v.push((k, s));
                }
                Ok(HeaderIn(v))
            }
            fn visit_unit<E>(self) -> Result<HeaderIn, E> {
                Ok(HeaderIn(Vec::new()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
struct JkfIn {
    header: Option<HeaderIn>,
    initial: Option<InitialIn>,
    moves: Option<Vec<ItemIn>>,
}

/// A `color`: `0`/`1`, or the booleans of JKF before 1.0 (`true` = sente,
/// `false` = gote; Kifu for JS wrote them).
#[derive(Clone, Copy)]
struct ColorIn(u8);

impl<'de> Deserialize<'de> for ColorIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ColorIn, D::Error> {
        struct V;
        impl SerdeVisitor<'_> for V {
            type Value = ColorIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("0 or 1 (true or false before JKF 1.0)")
            }
            fn visit_bool<E>(self, b: bool) -> Result<ColorIn, E> {
                Ok(ColorIn(if b { 0 } else { 1 }))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<ColorIn, E> {
                u8::try_from(n)
                    .map(ColorIn)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<ColorIn, E> {
                u8::try_from(n)
                    .map(ColorIn)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(n), &self))
            }
        }
        d.deserialize_any(V)
    }
}

fn color_in(c: Option<ColorIn>) -> Option<u8> {
    c.map(|c| c.0)
}

#[derive(Deserialize)]
struct InitialIn {
    preset: Option<String>,
    data: Option<StateIn>,
}

#[derive(Deserialize)]
struct StateIn {
    color: Option<ColorIn>,
    board: Option<Vec<Vec<CellIn>>>,
    hands: Option<Vec<std::collections::BTreeMap<String, u32>>>,
}

#[derive(Deserialize, Default)]
struct CellIn {
    color: Option<ColorIn>,
    kind: Option<String>,
}

#[derive(Deserialize)]
struct ItemIn {
    comments: Option<Vec<String>>,
    comment: Option<String>,
    #[serde(rename = "move")]
    mv: Option<MoveIn>,
    time: Option<TimeIn>,
    special: Option<String>,
    forks: Option<Vec<Vec<ItemIn>>>,
}

#[derive(Deserialize)]
struct MoveIn {
    color: Option<ColorIn>,
    from: Option<PlaceIn>,
    to: Option<PlaceIn>,
    piece: Option<String>,
    same: Option<bool>,
    promote: Option<bool>,
    relative: Option<String>,
}

#[derive(Deserialize, Clone, Copy)]
struct PlaceIn {
    x: i64,
    y: i64,
}

#[derive(Deserialize)]
struct TimeIn {
    now: Option<ClockIn>,
    total: Option<ClockIn>,
}

#[derive(Deserialize)]
struct ClockIn {
    h: Option<u64>,
    m: Option<u64>,
    s: Option<u64>,
}

impl ClockIn {
    fn ms(&self) -> Option<u64> {
        let h = self.h.unwrap_or(0);
        let m = self.m.unwrap_or(0);
        let s = self.s.unwrap_or(0);
        h.checked_mul(60)?
            .checked_add(m)?
            .checked_mul(60)?
            .checked_add(s)?
            .checked_mul(1000)
    }
}

// ---------------------------------------------------------------------------
// Tables

/// JKF header keys are KIF's (`先手`, `棋戦`, …; `下手`/`上手` name the
/// players of handicap games). Other keys (`対局日` too) are kept verbatim,
/// so that a JKF file is written back with its own keys.
fn header_key(k: &str) -> HeaderKey {
    match k {
        "対局日" => HeaderKey::Other(k.to_string()),
        _ => crate::japanese::header_key(k),
    }
}

/// JKF specials are CSA's special names.
fn special_kind(s: &str) -> TerminalKind {
    crate::csa::kind_from_special(s)
}

/// The `special` a terminal is written as; `to_move` is the side to move.
fn special_name(kind: &TerminalKind, to_move: Color) -> Option<&'static str> {
    Some(match kind {
        TerminalKind::Resign => "TORYO",
        TerminalKind::Abort | TerminalKind::Sealed => "CHUDAN",
        TerminalKind::Repetition => "SENNICHITE",
        TerminalKind::TimeUp => "TIME_UP",
        TerminalKind::IllegalLoss => "ILLEGAL_MOVE",
        TerminalKind::IllegalAction(Color::Black) => "+ILLEGAL_ACTION",
        TerminalKind::IllegalAction(Color::White) => "-ILLEGAL_ACTION",
        // The previous move was the foul: the side not to move fouled.
        TerminalKind::IllegalWin => match to_move {
            Color::Black => "-ILLEGAL_ACTION",
            Color::White => "+ILLEGAL_ACTION",
        },
        TerminalKind::Impasse => "JISHOGI",
        TerminalKind::DeclarationWin => "KACHI",
        TerminalKind::DeclarationDraw => "HIKIWAKE",
        TerminalKind::Matta => "MATTA",
        TerminalKind::Checkmate => "TSUMI",
        TerminalKind::NoMate => "FUZUMI",
        TerminalKind::Error => "ERROR",
        _ => return None,
    })
}

fn color_of(c: u8) -> Option<Color> {
    match c {
        0 => Some(Color::Black),
        1 => Some(Color::White),
        _ => None,
    }
}

fn square_of(p: PlaceIn) -> Option<Square> {
    if (1..=9).contains(&p.x) && (1..=9).contains(&p.y) {
        Square::new(p.x as u8, p.y as u8)
    } else {
        None
    }
}

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

/// A JKF move as written: every field as the document gives it (the
/// resolver checks them against the position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JkfMove {
    /// `color` (0 = Black, 1 = White).
    pub color: Option<u8>,
    /// `from` as (x, y).
    pub from: Option<(i64, i64)>,
    /// `to` as (x, y).
    pub to: Option<(i64, i64)>,
    /// `piece` (a CSA code), cut to 8 bytes.
    pub piece: Option<arrayvec::ArrayString<8>>,
    /// `same`.
    pub same: Option<bool>,
    /// `promote`.
    pub promote: Option<bool>,
    /// `relative` (`L`, `RU`, `H`, …), cut to 8 bytes.
    pub relative: Option<arrayvec::ArrayString<8>>,
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

impl JkfMove {
    fn from_input(m: &MoveIn) -> JkfMove {
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

    /// The move as diagnostics show it (`76FU`).
    fn written(&self) -> String {
        format!(
            "{}{}",
            self.to.map_or(String::new(), |(x, y)| format!("{x}{y}")),
            self.piece.as_deref().unwrap_or("")
        )
    }

    /// Resolves the move in `pos` (`last_to` for `same`).
    pub fn to_move(
        &self,
        pos: &Position,
        last_to: Option<Square>,
    ) -> Result<crate::read::Resolved, (Rule, String)> {
        let square = |(x, y): (i64, i64)| square_of(PlaceIn { x, y });
        let role = match self.piece.as_deref().and_then(Role::from_csa) {
            Some(r) if r != Role::Giraffe && r != Role::Elephant => r,
            _ => {
                return Err((
                    Rule::Syntax,
                    format!(
                        "expected a piece (FU, KY, …, RY), found {}",
                        self.piece
                            .as_deref()
                            .map_or("nothing".into(), |p| format!("`{p}`"))
                    ),
                ))
            }
        };
        let color = match self.color {
            Some(c) => match color_of(c) {
                Some(c) => Some(c),
                None => return Err((Rule::Syntax, format!("expected color 0 or 1, found {c}"))),
            },
            None => None,
        };
        let to = match (self.to, self.same) {
            (Some(p), _) => square(p).ok_or_else(|| {
                (
                    Rule::Syntax,
                    format!(
                        "expected a square with x and y in 1..9, found ({}, {})",
                        p.0, p.1
                    ),
                )
            })?,
            (None, Some(true)) => {
                last_to.ok_or((Rule::Syntax, "`same` with no previous move".to_string()))?
            }
            (None, _) => return Err((Rule::Syntax, "a move without `to`".to_string())),
        };
        let promote = self.promote == Some(true);
        let mover = color.unwrap_or(pos.turn());
        let mv = match self.from {
            Some(p) => match square(p) {
                Some(from) => Move::Normal { from, to, promote },
                None => {
                    return Err((
                        Rule::Syntax,
                        format!(
                            "expected a square with x and y in 1..9, found ({}, {})",
                            p.0, p.1
                        ),
                    ))
                }
            },
            None => {
                let rel = self.relative.as_deref().unwrap_or("");
                let cands = if rel == "H" {
                    crate::bitboard::Bitboard::EMPTY
                } else {
                    let c = pos.pseudo_attackers(to, mover, role);
                    if rel.is_empty() {
                        c
                    } else {
                        filter_by_relative(c, to, mover, role, rel)
                    }
                };
                match (cands.single(), cands.count()) {
                    (Some(from), _) => Move::Normal { from, to, promote },
                    (None, 0) => {
                        if role.hand_index().is_some() {
                            Move::Drop { role, to }
                        } else {
                            return Err((Rule::NoPiece, format!("no {role} can move to {to}")));
                        }
                    }
                    (None, n) => {
                        return Err((
                            Rule::Ambiguous,
                            format!("{n} pieces can move to {to}; `from` or `relative` is needed"),
                        ))
                    }
                }
            }
        };
        Ok(crate::read::Resolved {
            mv,
            role: Some(role),
            color,
            by_legality: false,
        })
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
                let m = JkfMove::from_input(mi);
                let written = m.written();
                self.out.movement(&MoveEvent {
                    raw: RawMove::Jkf(m),
                    written: &written,
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

// ---------------------------------------------------------------------------
// Writer

/// Options of the JKF writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Indent the JSON (default true).
    pub pretty: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions { pretty: true }
    }
}

struct HeaderOut(Vec<(String, String)>);

impl Serialize for HeaderOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct JkfOut {
    header: HeaderOut,
    initial: InitialOut,
    moves: Vec<ItemOut>,
}

#[derive(Serialize)]
struct InitialOut {
    preset: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<StateOut>,
}

#[derive(Serialize)]
struct StateOut {
    color: u8,
    board: Vec<Vec<CellOut>>,
    hands: [HandOut; 2],
}

#[derive(Serialize)]
struct CellOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    color: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
}

#[derive(Serialize)]
#[allow(non_snake_case)]
struct HandOut {
    FU: u8,
    KY: u8,
    KE: u8,
    GI: u8,
    KI: u8,
    KA: u8,
    HI: u8,
}

#[derive(Serialize, Default)]
struct ItemOut {
    #[serde(skip_serializing_if = "Option::is_none", rename = "move")]
    mv: Option<MoveOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    special: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<TimeOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    comments: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forks: Option<Vec<Vec<ItemOut>>>,
}

#[derive(Serialize)]
struct PlaceOut {
    x: u8,
    y: u8,
}

#[derive(Serialize)]
struct MoveOut {
    color: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<PlaceOut>,
    to: PlaceOut,
    piece: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    same: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    promote: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    capture: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    relative: Option<&'static str>,
}

#[derive(Serialize)]
struct NowOut {
    m: u64,
    s: u64,
}

#[derive(Serialize)]
struct TotalOut {
    h: u64,
    m: u64,
    s: u64,
}

#[derive(Serialize)]
struct TimeOut {
    now: NowOut,
    total: TotalOut,
}

fn place(sq: Square) -> PlaceOut {
    PlaceOut {
        x: sq.file(),
        y: sq.rank(),
    }
}

struct Writer {
    dropped: Dropped,
}

impl Writer {
    /// `totals` are the running cumulative times per colour, used when a
    /// record has per-move times but no totals.
    fn line(
        &mut self,
        line: &Line,
        terminal: Option<&crate::record::Terminal>,
        mut pos: Position,
        mut last_to: Option<Square>,
        mut totals: [u64; 2],
    ) -> Vec<ItemOut> {
        let mut out = Vec::with_capacity(line.moves.len() + 1);
        for node in &line.moves {
            let mut item = ItemOut {
                mv: Some(self.mv(&pos, node, last_to)),
                ..ItemOut::default()
            };
            let mover = pos.turn().index();
            item.time = self.time(&node.time, &mut totals[mover]);
            if !node.comments.is_empty() {
                item.comments = Some(node.comments.clone());
            }
            if !node.variations.is_empty() {
                let forks = node
                    .variations
                    .iter()
                    .map(|v| self.line(v, v.terminal.as_ref(), pos, last_to, totals))
                    .collect();
                item.forks = Some(forks);
            }
            last_to = Some(node.mv.to());
            pos.play_unchecked(node.mv);
            out.push(item);
        }
        if let Some(t) = terminal {
            match special_name(&t.kind, pos.turn()) {
                Some(name) => {
                    if t.kind == TerminalKind::Sealed {
                        // JKF has no sealed move: written as CHUDAN.
                        self.dropped.terminals.add(t.kind.reason());
                    }
                    let mover = pos.turn().index();
                    out.push(ItemOut {
                        special: Some(name),
                        time: self.time(&t.time, &mut totals[mover]),
                        comments: (!t.comments.is_empty()).then(|| t.comments.clone()),
                        ..ItemOut::default()
                    });
                }
                None => {
                    self.dropped.terminals.add(t.kind.reason());
                    self.dropped.comments += t.comments.len();
                }
            }
        }
        out
    }

    fn time(&mut self, t: &MoveTime, total: &mut u64) -> Option<TimeOut> {
        let spent = match t.spent_ms {
            Some(s) => s,
            None => {
                if t.total_ms.is_some() {
                    self.dropped.times += 1;
                }
                return None;
            }
        };
        let tot = match t.total_ms {
            Some(x) => x,
            None => total.saturating_add(spent),
        };
        *total = tot;
        if spent % 1000 != 0 || tot % 1000 != 0 {
            // JKF times are whole seconds.
            self.dropped.times += 1;
        }
        let (s, tt) = (spent / 1000, tot / 1000);
        Some(TimeOut {
            now: NowOut {
                m: s / 60,
                s: s % 60,
            },
            total: TotalOut {
                h: tt / 3600,
                m: tt / 60 % 60,
                s: tt % 60,
            },
        })
    }

    fn mv(&mut self, pos: &Position, node: &Node, last_to: Option<Square>) -> MoveOut {
        let to = node.mv.to();
        let same = (last_to == Some(to)).then_some(true);
        match node.mv {
            Move::Drop { role, .. } => MoveOut {
                color: pos.turn().index() as u8,
                from: None,
                to: place(to),
                piece: role.csa(),
                same,
                promote: None,
                capture: None,
                relative: relative_mark(pos, node.mv),
            },
            Move::Normal { from, promote, .. } => {
                let piece = pos.piece_at(from);
                let color = piece.map_or(pos.turn(), |p| p.color);
                let role = piece.map(|p| p.role).or(node.role).unwrap_or(Role::King);
                let promote = if promote {
                    Some(true)
                } else if crate::psn::notation::could_promote(
                    Variant::Standard,
                    color,
                    role,
                    from,
                    to,
                ) {
                    Some(false)
                } else {
                    None
                };
                MoveOut {
                    color: color.index() as u8,
                    from: Some(place(from)),
                    to: place(to),
                    piece: role.csa(),
                    same,
                    promote,
                    capture: pos
                        .piece_at(to)
                        .filter(|p| p.role != Role::King)
                        .map(|p| p.role.csa()),
                    relative: relative_mark(pos, node.mv),
                }
            }
        }
    }
}

fn hand_out(h: &Hand) -> HandOut {
    HandOut {
        FU: h.count(Role::Pawn),
        KY: h.count(Role::Lance),
        KE: h.count(Role::Knight),
        GI: h.count(Role::Silver),
        KI: h.count(Role::Gold),
        KA: h.count(Role::Bishop),
        HI: h.count(Role::Rook),
    }
}

/// Writes a record as JKF. Only standard shogi fits (JKF boards are 9×9
/// with the standard pieces).
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    if record.variant() != Variant::Standard {
        return Err(WriteError::new(format!(
            "JKF holds standard shogi only, not {}",
            record.variant()
        )));
    }
    let mut w = Writer {
        dropped: Dropped::default(),
    };
    let handicap = crate::kif::writer::is_handicap(record);
    let mut header: Vec<(String, String)> = Vec::with_capacity(record.header.entries.len());
    for (k, v) in &record.header.entries {
        let name = crate::japanese::header_key_name(k, handicap);
        if name.is_empty() || header.iter().any(|(n, _)| n == name) {
            // A JSON object holds a key once.
            w.dropped.headers.add(name);
        } else {
            header.push((name.to_string(), v.clone()));
        }
    }
    // JKF has no result field apart from the terminal: a result line is
    // carried by the terminal it states.
    let terminal = crate::write::main_terminal(record);
    if !crate::write::claim_carried(record, terminal.as_deref().map(|t| &t.kind)) {
        w.dropped.results += 1;
    }
    let setup = &record.start.setup;
    let preset = record
        .start
        .handicap
        .or_else(|| Handicap::detect(setup))
        .filter(|h| {
            let s = h.setup();
            s.board == setup.board && s.hands == setup.hands && s.turn == setup.turn
        });
    let initial = match preset {
        Some(h) => InitialOut {
            preset: h.info().jkf,
            data: None,
        },
        None => InitialOut {
            preset: "OTHER",
            data: Some(StateOut {
                color: setup.turn.index() as u8,
                board: (1..=9u8)
                    .map(|x| {
                        (1..=9u8)
                            .map(|y| {
                                let p = Square::new(x, y).and_then(|sq| setup.piece_at(sq));
                                CellOut {
                                    color: p.map(|p| p.color.index() as u8),
                                    kind: p.map(|p| p.role.csa()),
                                }
                            })
                            .collect()
                    })
                    .collect(),
                hands: [hand_out(&setup.hands[0]), hand_out(&setup.hands[1])],
            }),
        },
    };
    let mut moves = vec![ItemOut {
        comments: (!record.initial_comments.is_empty()).then(|| record.initial_comments.clone()),
        ..ItemOut::default()
    }];
    let pos = Position::from_setup_unchecked(setup);
    moves.extend(w.line(&record.main, terminal.as_deref(), pos, None, [0, 0]));
    let doc = JkfOut {
        header: HeaderOut(header),
        initial,
        moves,
    };
    let mut text = if opts.pretty {
        serde_json::to_string_pretty(&doc)
    } else {
        serde_json::to_string(&doc)
    }
    .map_err(|e| WriteError::new(e.to_string()))?;
    text.push('\n');
    Ok(Output {
        text,
        dropped: w.dropped,
    })
}
