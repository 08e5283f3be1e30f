//! The PSN reader: a line scanner that turns tags, move text, comments,
//! variations, times and results into events, one game at a time. Syntax
//! only: moves are resolved by whoever needs them.

use super::notation::PsnMove;
use crate::read::sink::Sink;
use crate::read::{
    empty_finding, io_finding, line_finding, Finding, Game, LineReader, MoveEvent, RawMove,
    ReadOptions, RecordBuilder, Rule, Visitor,
};
use crate::record::{
    written, HeaderKey, Location, MoveTime, Outcome, ResultClaim, Start, TerminalKind, Written,
};
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::sfen::{parse_sfen, SfenError};
use crate::rules::variant::Variant;
use std::io::BufRead;

/// Reads PSN / PSN2 games from a line stream.
pub struct Reader<R: BufRead> {
    lines: LineReader<R>,
    index: usize,
    yielded: bool,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader over decoded lines.
    pub fn new(lines: LineReader<R>, _opts: &ReadOptions) -> Reader<R> {
        Reader {
            lines,
            index: 0,
            yielded: false,
            done: false,
        }
    }
}

enum Control {
    Continue,
    /// The line belongs to the next game.
    EndBeforeLine,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FrameKind {
    Main,
    Paren,
    Block,
}

/// A line of moves as the text shows it.
#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: FrameKind,
    /// Ply number of the first move of this line (1 = first move of the game).
    start_ply: u32,
    /// Moves read in it.
    len: u32,
    /// Its terminal was read.
    terminal: bool,
    /// Nothing more of this line is read (an error in it, or no place to
    /// branch from).
    dead: bool,
    /// The variation was sent (`begin_variation`), so its end must be.
    live: bool,
    /// Where the frame was opened (for unclosed `(`).
    opened: Location,
    /// Variation nesting depth (0 = main line).
    depth: usize,
}

impl Frame {
    fn new(kind: FrameKind, start_ply: u32, opened: Location) -> Frame {
        Frame {
            kind,
            start_ply,
            len: 0,
            terminal: false,
            dead: false,
            live: false,
            opened,
            depth: 0,
        }
    }
}

/// An event waiting to be sent (events of a line are sent when the line is
/// done; findings wait until the game has content).
enum Ev {
    Finding(Finding),
    Header(HeaderKey, String, Location),
    Start(Box<Start>),
    Comment(String, Location),
    Move(RawMove, Written, Location),
    Time(MoveTime, Location),
    BeginVariation(u32, Location),
    EndVariation,
    Terminal(TerminalKind, Location),
    Claim(Box<ResultClaim>),
}

struct Comment {
    start: Location,
    entries: Vec<String>,
}

struct GameState {
    events: Vec<Ev>,
    content: bool,
    movetext: bool,
    result_seen: bool,
    started: bool,
    sfen_tag: Option<(String, Location)>,
    handicap_tag: Option<(String, Location)>,
    variant_tag: Option<(String, Location)>,
    variant: Variant,
    tag_claim: Option<ResultClaim>,
    token_claim: Option<ResultClaim>,
    frames: Vec<Frame>,
    comment: Option<Comment>,
}

/// Counts characters up to byte offsets that only grow.
struct Cols<'a> {
    text: &'a str,
    byte: usize,
    col: u32,
}

impl<'a> Cols<'a> {
    fn new(text: &'a str) -> Cols<'a> {
        Cols {
            text,
            byte: 0,
            col: 1,
        }
    }

    fn at(&mut self, off: usize) -> u32 {
        if off < self.byte {
            // Not expected; recount from the start.
            self.byte = 0;
            self.col = 1;
        }
        let end = off.min(self.text.len());
        if let Some(s) = self.text.get(self.byte..end) {
            self.col += s.chars().count() as u32;
            self.byte = end;
        }
        self.col
    }
}

fn is_delim(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b';')
}

/// A terminal word of Shogidokoro or PSN2 (case-insensitive).
pub(crate) fn terminal_word(tok: &str) -> Option<TerminalKind> {
    let t = tok.to_ascii_lowercase();
    Some(match t.as_str() {
        "resigns" | "resign" => TerminalKind::Resign,
        "interrupt" => TerminalKind::Abort,
        "mate" => TerminalKind::Checkmate,
        "sennichite" | "repetitiondraw" => TerminalKind::Repetition,
        "jishogi" => TerminalKind::Impasse,
        "timeup" => TerminalKind::TimeUp,
        "repetitionwin" => TerminalKind::IllegalWin,
        "maxmovesdraw" => TerminalKind::MaxMoves,
        "declarationwin" => TerminalKind::DeclarationWin,
        "tryrulewin" => TerminalKind::Try,
        _ => return None,
    })
}

fn result_outcome(tok: &str) -> Option<Option<Outcome>> {
    match tok {
        "1-0" => Some(Some(Outcome::SenteWin)),
        "0-1" => Some(Some(Outcome::GoteWin)),
        "1/2-1/2" | "½-½" => Some(Some(Outcome::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// Parses `m:ss`, `mm:ss` or `h:mm:ss` into milliseconds.
fn parse_clock(s: &str) -> Option<u64> {
    let s = s.trim();
    let mut total: u64 = 0;
    let mut parts = 0;
    for p in s.split(':') {
        if p.is_empty() || p.len() > 6 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        total = total.checked_mul(60)?.checked_add(p.parse::<u64>().ok()?)?;
        parts += 1;
    }
    if !(2..=3).contains(&parts) {
        return None;
    }
    total.checked_mul(1000)
}

/// A time in parentheses at the start of `s`: `(00:03 / 00:00:03)` or
/// `(00:00:03)`; returns the time and the bytes used.
fn parse_time(s: &str) -> Option<(MoveTime, usize)> {
    let rest = s.strip_prefix('(')?;
    let close = rest.find(')')?;
    let inner = &rest[..close];
    let mut parts = inner.split('/');
    let spent = parse_clock(parts.next()?)?;
    let total = match parts.next() {
        Some(p) => Some(parse_clock(p)?),
        None => None,
    };
    if parts.next().is_some() {
        return None;
    }
    Some((
        MoveTime {
            spent_ms: Some(spent),
            total_ms: total,
        },
        close + 2,
    ))
}

impl GameState {
    fn new() -> GameState {
        GameState {
            events: Vec::new(),
            content: false,
            movetext: false,
            result_seen: false,
            started: false,
            sfen_tag: None,
            handicap_tag: None,
            variant_tag: None,
            variant: Variant::Standard,
            tag_claim: None,
            token_claim: None,
            frames: vec![Frame::new(FrameKind::Main, 1, Location::default())],
            comment: None,
        }
    }

    fn error(&mut self, rule: Rule, loc: Location, msg: impl Into<String>) {
        self.events
            .push(Ev::Finding(Finding::error(rule, loc, msg)));
    }

    fn warn(&mut self, rule: Rule, loc: Location, msg: impl Into<String>) {
        self.events
            .push(Ev::Finding(Finding::warning(rule, loc, msg)));
    }

    /// Sends the events waiting (findings alone wait for content).
    fn flush<V: Visitor + ?Sized>(&mut self, out: &mut Sink<V>) {
        if !self.content {
            return;
        }
        for ev in self.events.drain(..) {
            match ev {
                Ev::Finding(f) => out.finding(f),
                Ev::Header(k, v, at) => out.header(&k, &v, at),
                Ev::Start(st) => out.start(&st),
                Ev::Comment(c, at) => out.comment(&c, at),
                Ev::Move(raw, w, at) => out.movement(&MoveEvent {
                    raw,
                    written: &w,
                    at,
                }),
                Ev::Time(t, at) => out.time(t, at),
                Ev::BeginVariation(ply, at) => out.begin_variation(ply, at),
                Ev::EndVariation => out.end_variation(),
                Ev::Terminal(k, at) => out.terminal(&k, at),
                Ev::Claim(c) => out.claim(&c),
            }
        }
    }

    /// Applies the start-position tags once the move text begins.
    fn begin(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        let mut variant = None;
        if let Some((v, loc)) = self.variant_tag.take() {
            match v.trim().parse::<Variant>() {
                Ok(v) => variant = Some(v),
                Err(_) => {
                    self.warn(
                        Rule::Dialect,
                        loc,
                        format!("unknown variant `{v}`, read as standard shogi"),
                    );
                    self.events
                        .push(Ev::Header(HeaderKey::Other("Variant".into()), v, loc));
                }
            }
        }
        let mut bad_start = false;
        let mut start = None;
        if let Some((sfen, loc)) = self.sfen_tag.take() {
            let text = if sfen.split_whitespace().count() == 1 {
                format!("{} b - 1", sfen.trim())
            } else {
                sfen.clone()
            };
            match parse_sfen(&text, variant) {
                Ok(setup) => {
                    if let Some(v) = variant {
                        if v != setup.variant {
                            self.warn(
                                Rule::Dialect,
                                loc,
                                "the SFEN board does not fit the [Variant] tag; the board wins",
                            );
                        }
                    }
                    start = Some(Start {
                        handicap: Handicap::detect(&setup),
                        setup,
                        location: Some(loc),
                    });
                }
                Err(SfenError::Syntax { column, message }) => {
                    bad_start = true;
                    let loc = Location::new(loc.line, loc.column + column as u32 - 1);
                    self.error(Rule::Syntax, loc, format!("bad [SFEN] tag: {message}"));
                }
                Err(SfenError::Setup(e)) => {
                    bad_start = true;
                    self.error(Rule::Setup, loc, format!("impossible [SFEN] position: {e}"));
                }
            }
        }
        if let Some((name, loc)) = self.handicap_tag.take() {
            match Handicap::from_name(&name) {
                Some(h) if start.is_none() && !bad_start => {
                    start = Some(Start {
                        location: Some(loc),
                        ..Start::handicap(h)
                    })
                }
                Some(_) => {}
                None => {
                    if start.is_none() {
                        bad_start = true;
                        self.error(
                            Rule::Setup,
                            loc,
                            format!("unknown handicap `{name}` and no [SFEN] tag"),
                        );
                    }
                    self.events
                        .push(Ev::Header(HeaderKey::Other("Handicap".into()), name, loc));
                }
            }
        }
        let start = start.unwrap_or_else(|| Start::variant(variant.unwrap_or(Variant::Standard)));
        self.variant = start.setup.variant;
        self.events.push(Ev::Start(Box::new(start)));
        let main = &mut self.frames[0];
        *main = Frame::new(FrameKind::Main, 1, Location::default());
        main.dead = bad_start;
    }

    fn top(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("the main frame is never popped")
    }

    fn add_comment(&mut self, text: String, at: Location) {
        self.content = true;
        self.events.push(Ev::Comment(text, at));
    }

    fn add_time(&mut self, t: MoveTime, at: Location) {
        self.events.push(Ev::Time(t, at));
    }

    fn pop_frame(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        let f = self.frames.pop().expect("checked");
        if f.live {
            self.events.push(Ev::EndVariation);
        }
    }

    fn open_paren(&mut self, loc: Location) {
        self.begin();
        let top = *self.top();
        if top.len == 0 {
            let mut dead = Frame::new(FrameKind::Paren, top.start_ply, loc);
            dead.dead = true;
            self.frames.push(dead);
            self.error(
                Rule::Syntax,
                loc,
                "expected a move before `(`: a variation is an alternative to the move before it",
            );
            return;
        }
        let mut f = Frame::new(FrameKind::Paren, top.start_ply + top.len - 1, loc);
        f.dead = top.dead;
        f.depth = top.depth + 1;
        self.push_variation(f);
    }

    /// Pushes a variation frame; one nested deeper than
    /// [`crate::record::MAX_VARIATION_DEPTH`] is reported and its moves are
    /// left out, so every walk of the tree stays within a bounded stack.
    fn push_variation(&mut self, mut f: Frame) {
        if f.depth > crate::record::MAX_VARIATION_DEPTH && !f.dead {
            f.dead = true;
            self.error(
                Rule::Syntax,
                f.opened,
                format!(
                    "variations nested deeper than {} levels are not read",
                    crate::record::MAX_VARIATION_DEPTH
                ),
            );
        }
        if !f.dead {
            f.live = true;
            self.events.push(Ev::BeginVariation(f.start_ply, f.opened));
        }
        self.frames.push(f);
    }

    fn close_paren(&mut self, loc: Location) {
        match self.frames.last() {
            Some(f) if f.kind == FrameKind::Paren => self.pop_frame(),
            _ => self.error(Rule::Syntax, loc, "unmatched `)`"),
        }
    }

    /// `Variation:N` (Shogidokoro): an alternative to move N of the line
    /// being read or of one of its parents.
    fn variation_block(&mut self, n: u32, loc: Location) {
        self.begin();
        while self.frames.len() > 1 {
            let top = self.frames.last().expect("len > 1");
            if top.kind == FrameKind::Block && top.start_ply >= n {
                self.pop_frame();
            } else {
                break;
            }
        }
        let top = *self.top();
        match n.checked_sub(top.start_ply) {
            Some(i) if i < top.len => {
                let mut f = Frame::new(FrameKind::Block, n, loc);
                f.dead = top.dead;
                f.depth = top.depth + 1;
                self.push_variation(f);
            }
            _ => {
                let mut f = Frame::new(FrameKind::Block, n, loc);
                f.dead = true;
                self.frames.push(f);
                self.error(
                    Rule::Syntax,
                    loc,
                    format!("`Variation:{n}` does not branch from a move of the line before it"),
                );
            }
        }
    }

    fn add_terminal(&mut self, kind: TerminalKind, loc: Location) {
        self.begin();
        let top = self.top();
        if top.dead {
            return;
        }
        if top.terminal {
            self.error(Rule::AfterEnd, loc, "a second terminal event in one line");
            return;
        }
        top.terminal = true;
        self.events.push(Ev::Terminal(kind, loc));
    }

    fn add_move(&mut self, raw: RawMove, tok: &str, loc: Location) {
        let top = self.top();
        if top.dead {
            return;
        }
        if top.terminal {
            // The resolver reports it (`after-end`); the line ends.
            top.dead = true;
        } else {
            top.len += 1;
        }
        self.events.push(Ev::Move(raw, written(tok), loc));
    }

    fn set_claim(&mut self, tok: &str, outcome: Option<Outcome>, loc: Location, from_tag: bool) {
        let claim = outcome.map(|outcome| ResultClaim {
            outcome,
            plies: None,
            kind: None,
            text: tok.to_string(),
            location: loc,
        });
        if from_tag {
            self.tag_claim = claim;
        } else {
            self.token_claim = claim;
        }
    }

    fn tag(&mut self, name: &str, value: String, loc: Location, value_loc: Location) {
        self.content = true;
        let key = match name.to_ascii_lowercase().as_str() {
            "sente" | "black" => HeaderKey::Sente,
            "gote" | "white" => HeaderKey::Gote,
            "date" => HeaderKey::StartTime,
            "enddate" => HeaderKey::EndTime,
            "event" => HeaderKey::Event,
            "site" => HeaderKey::Site,
            "timecontrol" => HeaderKey::TimeControl,
            "opening" => HeaderKey::Opening,
            "title" => HeaderKey::Title,
            "result" => {
                match result_outcome(value.trim()) {
                    Some(o) => self.set_claim(value.trim(), o, value_loc, true),
                    None => {
                        self.warn(
                            Rule::Dialect,
                            value_loc,
                            format!("unknown result `{value}`, kept as a header"),
                        );
                        self.events.push(Ev::Header(
                            HeaderKey::Other(name.to_string()),
                            value,
                            loc,
                        ));
                    }
                }
                return;
            }
            "sfen" => {
                self.sfen_tag = Some((value, value_loc));
                return;
            }
            "handicap" => {
                self.handicap_tag = Some((value, value_loc));
                return;
            }
            "variant" => {
                self.variant_tag = Some((value, value_loc));
                return;
            }
            _ => HeaderKey::Other(name.to_string()),
        };
        self.events.push(Ev::Header(key, value, loc));
    }

    /// Ends the game: closes what is open and states the result.
    fn finish(&mut self) {
        if let Some(c) = self.comment.take() {
            self.error(
                Rule::Syntax,
                c.start,
                "expected `}` to close this comment, found the end of the game",
            );
            for e in c.entries {
                self.add_comment(e, c.start);
            }
        }
        self.begin();
        while self.frames.len() > 1 {
            let f = self.frames.last().expect("len > 1");
            if f.kind == FrameKind::Paren {
                let loc = f.opened;
                self.error(Rule::Syntax, loc, "expected `)` to close this variation");
            }
            self.pop_frame();
        }
        let claim = match (self.tag_claim.take(), self.token_claim.take()) {
            (Some(t), Some(k)) => {
                if t.outcome != k.outcome {
                    self.warn(
                        Rule::Dialect,
                        k.location,
                        format!(
                            "the result `{}` after the moves disagrees with [Result \"{}\"]",
                            k.text, t.text
                        ),
                    );
                }
                Some(t)
            }
            (t, k) => t.or(k),
        };
        if let Some(c) = claim {
            self.events.push(Ev::Claim(Box::new(c)));
        }
    }

    /// Scans one line. Returns whether the line belongs to the next game.
    fn line(&mut self, no: u32, text: &str) -> Control {
        let b = text.as_bytes();
        let mut cols = Cols::new(text);
        let mut i = 0;
        // Inside a multi-line comment.
        if let Some(c) = self.comment.as_mut() {
            match text.find('}') {
                Some(end) => {
                    let seg = &text[..end];
                    if !seg.trim().is_empty() {
                        c.entries.push(seg.to_string());
                    }
                    let c = self.comment.take().expect("some");
                    for e in c.entries {
                        self.add_comment(e, c.start);
                    }
                    i = end + 1;
                }
                None => {
                    c.entries.push(text.to_string());
                    return Control::Continue;
                }
            }
        } else {
            let t = text.trim_start();
            if t.is_empty() {
                return Control::Continue;
            }
            if t.starts_with('[') {
                if self.movetext || self.result_seen {
                    return Control::EndBeforeLine;
                }
                match self.tags(no, text, &mut cols) {
                    Some(rest) => i = rest,
                    None => return Control::Continue,
                }
            } else if self.result_seen && !t.starts_with('{') && !t.starts_with(';') {
                return Control::EndBeforeLine;
            } else if t.len() >= 10 && t.as_bytes()[..10].eq_ignore_ascii_case(b"variation:") {
                let lead = text.len() - t.len();
                let num = t[10..].trim();
                let loc = Location::new(no, cols.at(lead));
                self.content = true;
                self.movetext = true;
                match num.parse::<u32>() {
                    Ok(n) if n >= 1 => self.variation_block(n, loc),
                    _ => self.error(
                        Rule::Syntax,
                        loc,
                        format!("expected a move number after `Variation:`, found `{num}`"),
                    ),
                }
                return Control::Continue;
            }
        }
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let loc = Location::new(no, cols.at(i));
            match c {
                b'{' => {
                    self.content = true;
                    match text[i + 1..].find('}') {
                        Some(end) => {
                            let body = text[i + 1..i + 1 + end].trim();
                            if !body.is_empty() {
                                self.add_comment(body.to_string(), loc);
                            }
                            i += end + 2;
                        }
                        None => {
                            let seg = &text[i + 1..];
                            let mut entries = Vec::new();
                            if !seg.trim().is_empty() {
                                entries.push(seg.to_string());
                            }
                            self.comment = Some(Comment {
                                start: loc,
                                entries,
                            });
                            return Control::Continue;
                        }
                    }
                }
                b'}' => {
                    self.error(Rule::Syntax, loc, "unmatched `}`");
                    i += 1;
                }
                b';' => {
                    let body = text[i + 1..].trim();
                    if !body.is_empty() {
                        self.add_comment(body.to_string(), loc);
                    }
                    return Control::Continue;
                }
                b'(' => {
                    self.content = true;
                    if let Some((t, n)) = parse_time(&text[i..]) {
                        self.add_time(t, loc);
                        i += n;
                    } else {
                        self.movetext = true;
                        self.open_paren(loc);
                        i += 1;
                    }
                }
                b')' => {
                    self.close_paren(loc);
                    i += 1;
                }
                b'$' => {
                    // NAG: `$2`.
                    i += 1;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                _ => {
                    let start = i;
                    while i < b.len() && !is_delim(b[i]) {
                        i += 1;
                    }
                    // `i` may stop inside a multibyte char only at ASCII
                    // delimiters, which are char boundaries.
                    let tok = &text[start..i];
                    self.token(tok, start, no, &mut cols);
                }
            }
        }
        Control::Continue
    }

    /// Parses tag pairs at the start of a line; returns the byte offset of
    /// anything after them, or `None` when the line is done.
    fn tags(&mut self, no: u32, text: &str, cols: &mut Cols) -> Option<usize> {
        let b = text.as_bytes();
        let mut i = 0;
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= b.len() {
                return None;
            }
            if b[i] != b'[' {
                return Some(i);
            }
            let open = Location::new(no, cols.at(i));
            i += 1;
            let name_start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'"' && b[i] != b']' {
                i += 1;
            }
            let name = &text[name_start..i];
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if name.is_empty() || b.get(i) != Some(&b'"') {
                let loc = Location::new(no, cols.at(i.min(b.len())));
                let found = text[i.min(b.len())..]
                    .chars()
                    .next()
                    .map_or("the end of the line".to_string(), |c| format!("`{c}`"));
                self.error(
                    Rule::Syntax,
                    if name.is_empty() {
                        Location::new(no, cols.at(name_start))
                    } else {
                        loc
                    },
                    if name.is_empty() {
                        "expected a tag name after `[`".to_string()
                    } else {
                        format!("expected `\"` to start the value of tag `{name}`, found {found}")
                    },
                );
                let _ = open;
                return None;
            }
            i += 1;
            let value_loc = Location::new(no, cols.at(i));
            let mut value = String::new();
            let mut closed = false;
            while i < b.len() {
                match b[i] {
                    b'\\' if matches!(b.get(i + 1), Some(b'"' | b'\\')) => {
                        value.push(b[i + 1] as char);
                        i += 2;
                    }
                    b'"' => {
                        closed = true;
                        i += 1;
                        break;
                    }
                    _ => {
                        let ch = text[i..].chars().next().expect("in bounds");
                        value.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            if !closed {
                let loc = Location::new(no, cols.at(b.len()));
                self.error(
                    Rule::Syntax,
                    loc,
                    format!("expected `\"` to close the value of tag `{name}`, found the end of the line"),
                );
                return None;
            }
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if b.get(i) != Some(&b']') {
                let loc = Location::new(no, cols.at(i));
                self.error(
                    Rule::Syntax,
                    loc,
                    format!("expected `]` to close tag `{name}`"),
                );
                return None;
            }
            i += 1;
            let name = name.to_string();
            self.tag(&name, value, open, value_loc);
        }
    }

    fn token(&mut self, tok: &str, start: usize, no: u32, cols: &mut Cols) {
        self.content = true;
        let loc = Location::new(no, cols.at(start));
        if let Some(o) = result_outcome(tok) {
            self.begin();
            self.movetext = true;
            self.set_claim(tok, o, loc, false);
            self.result_seen = true;
            return;
        }
        if self.result_seen {
            self.error(
                Rule::Syntax,
                loc,
                format!("expected the next game after the result, found `{tok}`"),
            );
            return;
        }
        // Move numbers: `12.`, `12...`, `12.P7g-7f`.
        let digits = tok.bytes().take_while(|b| b.is_ascii_digit()).count();
        let mut tok = tok;
        let mut start = start;
        if digits > 0 && tok.as_bytes().get(digits) == Some(&b'.') {
            let dots = tok[digits..].bytes().take_while(|&b| b == b'.').count();
            tok = &tok[digits + dots..];
            start += digits + dots;
            if tok.is_empty() {
                return;
            }
        }
        let loc = Location::new(no, cols.at(start));
        self.movetext = true;
        self.begin();
        if let Some(kind) = terminal_word(tok) {
            self.add_terminal(kind, loc);
            return;
        }
        if tok == "--" || tok == "0000" || tok.eq_ignore_ascii_case("pass") {
            self.error(
                Rule::Syntax,
                loc,
                format!("expected a move, found the null move `{tok}`"),
            );
            self.top().dead = true;
            return;
        }
        let variant = self.variant;
        match PsnMove::parse_prefix(tok, variant) {
            Ok((m, n)) => {
                let rest = &tok[n..];
                if !rest.is_empty() && !rest.bytes().all(|b| b == b'!' || b == b'?') {
                    if rest.bytes().all(|b| b.is_ascii_punctuation()) {
                        let l = Location::new(no, cols.at(start + n));
                        self.warn(
                            Rule::Dialect,
                            l,
                            format!("ignored the annotation `{rest}` after the move"),
                        );
                    } else {
                        let l = Location::new(no, cols.at(start + n));
                        self.error(Rule::Syntax, l, format!("expected a move, found `{tok}`"));
                        self.top().dead = true;
                        return;
                    }
                }
                let written = &tok[..n];
                self.add_move(RawMove::Psn(m), written, loc);
            }
            Err(e) => {
                let clean = tok.trim_end_matches(['!', '?']);
                if let Some(mv) = Move::from_usi(clean, variant) {
                    self.add_move(RawMove::Usi(mv), clean, loc);
                    return;
                }
                let l = Location::new(no, cols.at(start + e.offset.min(tok.len())));
                self.error(
                    Rule::Syntax,
                    l,
                    format!("expected a move, found `{tok}` ({e})"),
                );
                self.top().dead = true;
            }
        }
    }
}

impl<R: BufRead> Reader<R> {
    /// Reads the next game into `v`; `None` at the end of the input.
    pub fn read_game<V: Visitor + ?Sized>(&mut self, v: &mut V) -> Option<V::Output> {
        if self.done {
            return None;
        }
        let encoding = self.lines.encoding();
        let mut out = Sink::new(v, self.index);
        let mut g = GameState::new();
        loop {
            let ctl = match self.lines.next_line() {
                None => {
                    self.done = true;
                    break;
                }
                Some(Err(e)) => {
                    g.events.push(Ev::Finding(io_finding(&e)));
                    g.content = true;
                    self.done = true;
                    break;
                }
                Some(Ok(Ok((no, text)))) => g.line(no, text),
                Some(Ok(Err((no, err)))) => {
                    g.events.push(Ev::Finding(line_finding(no, &err, encoding)));
                    g.content = true;
                    let text = self.lines.current_text();
                    g.line(no, text)
                }
            };
            g.flush(&mut out);
            if let Control::EndBeforeLine = ctl {
                self.lines.unread();
                break;
            }
        }
        if !g.content {
            if self.yielded {
                return None;
            }
            self.yielded = true;
            g.content = true;
            g.finish();
            g.events.push(Ev::Finding(empty_finding()));
            g.flush(&mut out);
            return Some(out.finish());
        }
        self.yielded = true;
        g.finish();
        g.flush(&mut out);
        self.index += 1;
        Some(out.finish())
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        self.read_game(&mut RecordBuilder::new())
    }
}
