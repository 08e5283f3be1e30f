//! The PSN reader: it drives the token grammar (`super::grammar`) and the
//! move grammar (`super::notation::grammar`) over each line and turns tags,
//! move text, comments, variations, times and results into events, one game
//! at a time. A grammar's error becomes a finding once, here, with the
//! character column of the place it names. Syntax only: moves are resolved
//! by whoever needs them.

use super::grammar::{self, Token};
use super::notation;
use crate::record::{
    written, HeaderKey, Location, MoveTime, Outcome, ResultClaim, Start, TerminalKind, Written,
};
use crate::rules::color::Color;
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::sfen::{parse_sfen, SfenError};
use crate::rules::variant::Variant;
use crate::text::sink::Sink;
use crate::text::syntax::into_error;
use crate::text::{
    empty_finding, io_finding, line_finding, Finding, Game, LineReader, MoveEvent, RawMove,
    ReadOptions, RecordBuilder, Rule, Visitor,
};
use std::io::BufRead;

/// The value of the `[Termination]` tag that states a foul (PGN's
/// "rules infraction"; matched in any case).
pub(crate) const FOUL_TERMINATION: &str = "Rules infraction";

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
    /// `[Termination "Rules infraction"]`: its name, value and place.
    termination: Option<(String, String, Location)>,
    /// The side to move at the start.
    start_turn: Color,
    frames: Vec<Frame>,
    comment: Option<Comment>,
}

/// Counts characters up to byte offsets that only grow.
struct Cols<'a> {
    text: &'a str,
    /// The line is ASCII: a column is its byte offset plus one.
    ascii: bool,
    byte: usize,
    col: u32,
}

impl<'a> Cols<'a> {
    fn new(text: &'a str) -> Cols<'a> {
        Cols {
            text,
            ascii: text.is_ascii(),
            byte: 0,
            col: 1,
        }
    }

    fn at(&mut self, off: usize) -> u32 {
        if self.ascii {
            return off.min(self.text.len()) as u32 + 1;
        }
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
            termination: None,
            start_turn: Color::Black,
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
                    written: w.as_str().into(),
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
        self.start_turn = start.setup.turn;
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
                match grammar::result(value.trim()) {
                    Ok((_, o)) => self.set_claim(value.trim(), o, value_loc, true),
                    Err(_) => {
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
            // A foul, as kifu's writer states it (PGN's tag): the terminal
            // of the main line, decided at the end of the game.
            "termination" if value.trim().eq_ignore_ascii_case(FOUL_TERMINATION) => {
                self.termination = Some((name.to_string(), value, loc));
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
                // Two statements of the result: a contradiction is a
                // finding (`claim-mismatch`); the tag stands.
                if let Some(f) = crate::text::claims::second_claim(&t, &k) {
                    self.events.push(Ev::Finding(f));
                }
                Some(t)
            }
            (t, k) => t.or(k),
        };
        if let Some((name, value, loc)) = self.termination.take() {
            self.foul(claim.as_ref(), name, value, loc);
        }
        if let Some(c) = claim {
            self.events.push(Ev::Claim(Box::new(c)));
        }
    }

    /// `[Termination "Rules infraction"]` with a winner in the result and
    /// a main line without a terminal of its own: the main line ends in a
    /// foul, a win for the side to move after it (`illegal-win`: the last
    /// move was the foul) or for the other side (`illegal-loss`). Otherwise
    /// the tag is kept as a header, as any other tag.
    fn foul(&mut self, claim: Option<&ResultClaim>, name: String, value: String, loc: Location) {
        let main = self.frames[0];
        let to_move = if main.len.is_multiple_of(2) {
            self.start_turn
        } else {
            !self.start_turn
        };
        match claim.and_then(|c| c.outcome.winner()) {
            Some(winner) if !main.terminal && !main.dead => {
                let kind = if winner == to_move {
                    TerminalKind::IllegalWin
                } else {
                    TerminalKind::IllegalLoss
                };
                self.frames[0].terminal = true;
                self.events.push(Ev::Terminal(kind, loc));
            }
            _ => self
                .events
                .push(Ev::Header(HeaderKey::Other(name), value, loc)),
        }
    }

    /// Scans one line. Returns whether the line belongs to the next game.
    fn line(&mut self, no: u32, text: &str) -> Control {
        let mut cols = Cols::new(text);
        let mut rest = text;
        if let Some(c) = self.comment.as_mut() {
            // Inside a comment begun on an earlier line.
            // `comment_rest` cannot fail: its last branch takes the line.
            let (after, (seg, closed)) = grammar::comment_rest(text).unwrap_or(("", (text, false)));
            if !closed {
                c.entries.push(seg.to_string());
                return Control::Continue;
            }
            if !seg.trim().is_empty() {
                c.entries.push(seg.to_string());
            }
            let c = self.comment.take().expect("some");
            for e in c.entries {
                self.add_comment(e, c.start);
            }
            rest = after;
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
                    Some(after) => rest = after,
                    None => return Control::Continue,
                }
            } else if self.result_seen && !t.starts_with('{') && !t.starts_with(';') {
                return Control::EndBeforeLine;
            } else if grammar::may_be_variation_line(t) {
                match grammar::variation_line(t) {
                    Ok((_, n)) => {
                        let loc = Location::new(no, cols.at(text.len() - t.len()));
                        self.content = true;
                        self.movetext = true;
                        self.variation_block(n, loc);
                        return Control::Continue;
                    }
                    Err(nom::Err::Failure(e)) => {
                        // `Variation:` and no number: reported at the keyword.
                        let loc = Location::new(no, cols.at(text.len() - t.len()));
                        self.content = true;
                        self.movetext = true;
                        self.error(
                            Rule::Syntax,
                            loc,
                            format!("expected {}, found `{}`", e.expected, e.at.trim_end()),
                        );
                        return Control::Continue;
                    }
                    // Not a `Variation:` line: move text.
                    Err(_) => {}
                }
            }
        }
        loop {
            // `space` cannot fail (it takes zero or more).
            rest = grammar::space(rest).map_or(rest, |(r, _)| r);
            if rest.is_empty() {
                return Control::Continue;
            }
            let at = text.len() - rest.len();
            let loc = Location::new(no, cols.at(at));
            let (after, tok) = match grammar::token(rest) {
                Ok(ok) => ok,
                Err(e) => {
                    // Not reached: a word takes any character but a
                    // delimiter, and every delimiter is a token.
                    let e = into_error(e, rest);
                    let loc = Location::new(no, cols.at(text.len() - e.at.len()));
                    self.error(Rule::Syntax, loc, e.message("the end of the line"));
                    return Control::Continue;
                }
            };
            rest = after;
            match tok {
                Token::Comment(body) => {
                    self.content = true;
                    let body = body.trim();
                    if !body.is_empty() {
                        self.add_comment(body.to_string(), loc);
                    }
                }
                Token::OpenComment(seg) => {
                    self.content = true;
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
                Token::StrayBrace => self.error(Rule::Syntax, loc, "unmatched `}`"),
                Token::LineComment(body) => {
                    let body = body.trim();
                    if !body.is_empty() {
                        self.add_comment(body.to_string(), loc);
                    }
                    return Control::Continue;
                }
                Token::Time(t) => {
                    self.content = true;
                    self.add_time(t, loc);
                }
                Token::Open => {
                    self.content = true;
                    self.movetext = true;
                    self.open_paren(loc);
                }
                Token::Close => self.close_paren(loc),
                Token::Nag(_) => {}
                Token::Word(w) => self.word(w, at, no, &mut cols),
            }
        }
    }

    /// Reads the tag pairs at the start of a line; returns what follows
    /// them, or `None` when the line is done.
    fn tags<'t>(&mut self, no: u32, text: &'t str, cols: &mut Cols) -> Option<&'t str> {
        let mut rest = text;
        loop {
            rest = grammar::space(rest).map_or(rest, |(r, _)| r);
            if rest.is_empty() {
                return None;
            }
            if !rest.starts_with('[') {
                return Some(rest);
            }
            let open = Location::new(no, cols.at(text.len() - rest.len()));
            let (after, name) = match grammar::tag_open(rest) {
                Ok(ok) => ok,
                Err(e) => {
                    let e = into_error(e, rest);
                    let loc = Location::new(no, cols.at(text.len() - e.at.len()));
                    self.error(Rule::Syntax, loc, e.message("the end of the line"));
                    return None;
                }
            };
            let body_at = text.len() - after.len();
            match grammar::tag_body(after) {
                Ok((after, (value_at, value))) => {
                    let value_loc = Location::new(no, cols.at(body_at + value_at));
                    rest = after;
                    self.tag(name, value, open, value_loc);
                }
                Err(e) => {
                    let e = into_error(e, after);
                    let loc = Location::new(no, cols.at(text.len() - e.at.len()));
                    self.error(
                        Rule::Syntax,
                        loc,
                        format!(
                            "expected {} `{name}`, found {}",
                            e.expected,
                            e.at.chars()
                                .next()
                                .map_or("the end of the line".into(), |c| format!("`{c}`"))
                        ),
                    );
                    return None;
                }
            }
        }
    }

    /// A word of move text starting at byte `start` of the line.
    fn word(&mut self, tok: &str, start: usize, no: u32, cols: &mut Cols) {
        self.content = true;
        let loc = Location::new(no, cols.at(start));
        if let Some(Ok((_, o))) = grammar::may_be_result(tok).then(|| grammar::result(tok)) {
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
        let (tok, start) = match grammar::move_number(tok) {
            Ok(("", _)) => return,
            Ok((rest, _)) => (rest, start + tok.len() - rest.len()),
            Err(_) => (tok, start),
        };
        let loc = Location::new(no, cols.at(start));
        self.movetext = true;
        self.begin();
        let variant = self.variant;
        match notation::grammar::psn_move(variant)(tok) {
            Ok((rest, m)) => {
                let n = tok.len() - rest.len();
                match grammar::annotation(rest) {
                    Ok(_) if rest.bytes().all(|b| b == b'!' || b == b'?') => {}
                    Ok(_) => {
                        let l = Location::new(no, cols.at(start + n));
                        self.warn(
                            Rule::Dialect,
                            l,
                            format!("ignored the annotation `{rest}` after the move"),
                        );
                    }
                    Err(e) => {
                        let e = into_error(e, rest);
                        let l = Location::new(no, cols.at(start + tok.len() - e.at.len()));
                        self.error(
                            Rule::Syntax,
                            l,
                            format!("expected {}, found `{tok}`", e.expected),
                        );
                        self.top().dead = true;
                        return;
                    }
                }
                self.add_move(RawMove::Psn(m), &tok[..n], loc);
            }
            Err(e) => {
                // Terminal words and null moves are tried after the move
                // (most words are moves): no terminal word or null move
                // reads as a move, since none has `-`, `x`, `*` or a digit
                // after its first letter.
                if let Ok((_, kind)) = grammar::terminal(tok) {
                    self.add_terminal(kind, loc);
                    return;
                }
                if grammar::null_move(tok).is_ok() {
                    self.error(
                        Rule::Syntax,
                        loc,
                        format!("expected a move, found the null move `{tok}`"),
                    );
                    self.top().dead = true;
                    return;
                }
                // PSN2 writes USI moves.
                let clean = tok.trim_end_matches(['!', '?']);
                if let Some(mv) = Move::from_usi(clean, variant) {
                    self.add_move(RawMove::Usi(mv), clean, loc);
                    return;
                }
                let e = into_error(e, tok);
                let l = Location::new(no, cols.at(start + tok.len() - e.at.len()));
                self.error(
                    Rule::Syntax,
                    l,
                    format!(
                        "expected a move, found `{tok}` ({})",
                        notation::describe(&e)
                    ),
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
