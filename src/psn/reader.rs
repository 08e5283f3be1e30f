//! The PSN reader: a line scanner that turns tags, move text, comments,
//! variations, times and results into [`Game`]s, one per game in the stream.

use super::notation::{PsnMove, ResolveError};
use crate::handicap::Handicap;
use crate::moves::Move;
use crate::position::Position;
use crate::read::lines::LineError;
use crate::read::{Finding, Game, LineReader, ReadOptions, Rule};
use crate::record::{
    written, HeaderKey, Line, Location, MoveTime, Node, Outcome, Record, ResultClaim, Start,
    Terminal, TerminalKind,
};
use crate::sfen::{parse_sfen, SfenError};
use crate::variant::Variant;
use std::io::BufRead;

/// Reads PSN / PSN2 games from a line stream, one [`Game`] per game.
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Main,
    Paren,
    Block,
}

struct Frame {
    line: Line,
    kind: FrameKind,
    /// Position before the first move of this line.
    start: Position,
    /// Ply number of the first move of this line (1 = first move of the game).
    start_ply: u32,
    /// Position after the last move.
    pos: Position,
    /// Position before the last move.
    prev: Position,
    /// Index of the parent node this line is a variation of.
    attach: usize,
    /// An unresolvable move was met: ignore further moves of this line.
    dead: bool,
    /// Where the frame was opened (for unclosed `(`).
    opened: Location,
    /// Variation nesting depth (0 = main line).
    depth: usize,
    /// The position before move `k * CHECKPOINT_STRIDE` of the line, for
    /// every k: a `Variation:N` block replays at most a stride of moves,
    /// not the whole line (which would make many blocks quadratic).
    checkpoints: Vec<Position>,
}

/// Moves between two stored positions of a line.
const CHECKPOINT_STRIDE: usize = 64;

impl Frame {
    fn new(
        kind: FrameKind,
        pos: Position,
        start_ply: u32,
        attach: usize,
        opened: Location,
    ) -> Frame {
        Frame {
            line: Line::default(),
            kind,
            start: pos,
            start_ply,
            pos,
            prev: pos,
            attach,
            dead: false,
            opened,
            depth: 0,
            checkpoints: vec![pos],
        }
    }

    /// Appends a move to the line (`after`: the position it leads to).
    fn push_move(&mut self, node: Node, after: Position) {
        self.prev = self.pos;
        self.pos = after;
        self.line.moves.push(node);
        if self.line.moves.len().is_multiple_of(CHECKPOINT_STRIDE) {
            self.checkpoints.push(after);
        }
    }

    /// The position before move `i` of the line.
    fn position_before(&self, i: usize) -> Position {
        let k = (i / CHECKPOINT_STRIDE).min(self.checkpoints.len().saturating_sub(1));
        let mut pos = self.checkpoints.get(k).copied().unwrap_or(self.start);
        let from = (k * CHECKPOINT_STRIDE).min(i);
        for node in self.line.moves.get(from..i).unwrap_or_default() {
            pos.play_unchecked(node.mv);
        }
        pos
    }

    fn next_ply(&self) -> u32 {
        self.start_ply + self.line.moves.len() as u32
    }
}

struct Comment {
    start: Location,
    entries: Vec<String>,
}

struct GameState {
    record: Record,
    findings: Vec<Finding>,
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
        let start = Position::new(Variant::Standard);
        GameState {
            record: Record::default(),
            findings: Vec::new(),
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
            frames: vec![Frame::new(
                FrameKind::Main,
                start,
                1,
                0,
                Location::default(),
            )],
            comment: None,
        }
    }

    fn error(&mut self, rule: Rule, loc: Location, msg: impl Into<String>) {
        self.findings.push(Finding::error(rule, loc, msg));
    }

    fn warn(&mut self, rule: Rule, loc: Location, msg: impl Into<String>) {
        self.findings.push(Finding::warning(rule, loc, msg));
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
                    self.record
                        .header
                        .push(HeaderKey::Other("Variant".into()), v);
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
                    self.record
                        .header
                        .push(HeaderKey::Other("Handicap".into()), name);
                }
            }
        }
        let start = start.unwrap_or_else(|| Start::variant(variant.unwrap_or(Variant::Standard)));
        self.variant = start.setup.variant;
        let pos = Position::from_setup_unchecked(&start.setup);
        self.record.start = start;
        let main = &mut self.frames[0];
        *main = Frame::new(FrameKind::Main, pos, 1, 0, Location::default());
        main.dead = bad_start;
    }

    fn top(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("the main frame is never popped")
    }

    fn add_comment(&mut self, text: String) {
        self.content = true;
        let n = self.frames.len();
        let (top, parents) = self.frames.split_last_mut().expect("main frame");
        if let Some(t) = top.line.terminal.as_mut() {
            t.comments.push(text);
        } else if let Some(node) = top.line.moves.last_mut() {
            node.comments.push(text);
        } else if n == 1 {
            self.record.initial_comments.push(text);
        } else if let Some(node) = parents
            .last_mut()
            .and_then(|p| p.line.moves.get_mut(top.attach))
        {
            node.comments.push(text);
        }
    }

    fn add_time(&mut self, t: MoveTime) {
        let top = self.top();
        if let Some(term) = top.line.terminal.as_mut() {
            term.time = t;
        } else if let Some(node) = top.line.moves.last_mut() {
            node.time = t;
        }
    }

    fn pop_frame(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        let f = self.frames.pop().expect("checked");
        if f.line.moves.is_empty() && f.line.terminal.is_none() {
            return;
        }
        if let Some(node) = self.top().line.moves.get_mut(f.attach) {
            node.variations.push(f.line);
        }
    }

    fn open_paren(&mut self, loc: Location) {
        self.begin();
        let top = self.top();
        let n = top.line.moves.len();
        if n == 0 {
            let dead = Frame {
                dead: true,
                ..Frame::new(FrameKind::Paren, top.pos, top.start_ply, usize::MAX, loc)
            };
            self.frames.push(dead);
            self.error(
                Rule::Syntax,
                loc,
                "expected a move before `(`: a variation is an alternative to the move before it",
            );
            return;
        }
        let mut f = Frame::new(
            FrameKind::Paren,
            top.prev,
            top.start_ply + n as u32 - 1,
            n - 1,
            loc,
        );
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
        let top = self.top();
        let idx = n.checked_sub(top.start_ply).map(|i| i as usize);
        match idx {
            Some(i) if i < top.line.moves.len() => {
                let pos = top.position_before(i);
                let mut f = Frame::new(FrameKind::Block, pos, n, i, loc);
                f.dead = top.dead;
                f.depth = top.depth + 1;
                self.push_variation(f);
            }
            _ => {
                let mut f = Frame::new(FrameKind::Block, top.pos, n, usize::MAX, loc);
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
        if top.line.terminal.is_some() {
            self.error(Rule::AfterEnd, loc, "a second terminal event in one line");
            return;
        }
        top.line.terminal = Some(Terminal {
            kind,
            time: MoveTime::default(),
            comments: Vec::new(),
            location: loc,
        });
    }

    fn add_move(
        &mut self,
        mv: Result<(Move, Option<crate::role::Role>), ResolveError>,
        tok: &str,
        loc: Location,
    ) {
        let top = self.frames.last_mut().expect("main frame");
        if top.dead {
            return;
        }
        let ply = top.next_ply();
        if top.line.terminal.is_some() {
            top.dead = true;
            let f = Finding::error(
                Rule::AfterEnd,
                loc,
                format!("move `{tok}` after the end of the line"),
            )
            .at_move(ply, tok, top.pos.sfen());
            self.findings.push(f);
            return;
        }
        match mv {
            Ok((mv, role)) => {
                let mut node = Node::new(mv, loc);
                node.role = role;
                node.written = written(tok);
                let mut after = top.pos;
                after.play_unchecked(mv);
                top.push_move(node, after);
            }
            Err(e) => {
                top.dead = true;
                let rule = match e {
                    ResolveError::Ambiguous(_) => Rule::Ambiguous,
                    ResolveError::NoPiece => Rule::NoPiece,
                    ResolveError::NotDroppable => Rule::NotInHand,
                    ResolveError::OffBoard => Rule::Syntax,
                };
                let f = Finding::error(rule, loc, format!("cannot play `{tok}`: {e}")).at_move(
                    ply,
                    tok,
                    top.pos.sfen(),
                );
                self.findings.push(f);
            }
        }
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
                        self.record
                            .header
                            .push(HeaderKey::Other(name.to_string()), value);
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
        let _ = loc;
        self.record.header.push(key, value);
    }

    fn finish(mut self, index: usize) -> Game {
        if let Some(c) = self.comment.take() {
            self.error(
                Rule::Syntax,
                c.start,
                "expected `}` to close this comment, found the end of the game",
            );
            for e in c.entries {
                self.add_comment(e);
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
        let main = self.frames.pop().expect("main frame");
        self.record.main = main.line;
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
        self.record.claim = claim;
        Game {
            index,
            record: self.record,
            findings: self.findings,
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
                        self.add_comment(e);
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
                                self.add_comment(body.to_string());
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
                        self.add_comment(body.to_string());
                    }
                    return Control::Continue;
                }
                b'(' => {
                    self.content = true;
                    if let Some((t, n)) = parse_time(&text[i..]) {
                        self.add_time(t);
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
        let pos = self.frames.last().expect("main").pos;
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
                let r = m.to_move(&pos, false).map(|mv| (mv, Some(m.role())));
                self.add_move(r, written, loc);
            }
            Err(e) => {
                let clean = tok.trim_end_matches(['!', '?']);
                if let Some(mv) = Move::from_usi(clean, variant) {
                    self.add_move(Ok((mv, None)), clean, loc);
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

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        if self.done {
            return None;
        }
        let mut g = GameState::new();
        loop {
            let ctl = match self.lines.next_line() {
                None => {
                    self.done = true;
                    break;
                }
                Some(Err(e)) => {
                    g.error(Rule::Io, Location::default(), format!("cannot read: {e}"));
                    g.content = true;
                    self.done = true;
                    break;
                }
                Some(Ok(Ok((no, text)))) => g.line(no, text),
                Some(Ok(Err((no, err)))) => {
                    let msg = match &err {
                        LineError::Encoding { bytes, .. } => {
                            format!("bytes {bytes:02X?} are not valid in the file's encoding")
                        }
                        LineError::TooLong => "the line is too long and was cut".to_string(),
                    };
                    let col = match err {
                        LineError::Encoding { column, .. } => column,
                        LineError::TooLong => 1,
                    };
                    g.error(Rule::Encoding, Location::new(no, col), msg);
                    g.content = true;
                    let text = self.lines.current_text();
                    g.line(no, text)
                }
            };
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
            let mut game = g.finish(self.index);
            game.findings.push(Finding::error(
                Rule::Empty,
                Location::default(),
                "no game in the file",
            ));
            return Some(game);
        }
        self.yielded = true;
        let game = g.finish(self.index);
        self.index += 1;
        Some(game)
    }
}
