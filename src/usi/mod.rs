//! SFEN/USI records: one game per line, as USI `position` commands
//! (`position startpos moves 7g7f 3c3d`, `position sfen <SFEN> moves …`),
//! the same without the `position` word, or bare SFEN lines (zero-move
//! games). See `docs/formats/usi.md`.
//!
//! ```
//! use kifu::usi;
//! use kifu::read::{lines_from_bytes, ReadOptions};
//!
//! let text = b"position startpos moves 7g7f 3c3d\n# a comment\nstartpos moves 2g2f\n";
//! let opts = ReadOptions::default();
//! let games: Vec<_> = usi::Reader::new(lines_from_bytes(text, &opts), &opts).collect();
//! assert_eq!(games.len(), 2);
//! assert_eq!(games[1].index, 1);
//! let out = usi::write(&games[0].record, &usi::WriteOptions::default()).unwrap();
//! assert_eq!(out.text, "position startpos moves 7g7f 3c3d\n");
//! ```

use crate::read::sink::Sink;
use crate::read::{
    empty_finding, io_finding, line_finding, Finding, Game, LineReader, MoveEvent, RawMove,
    ReadOptions, RecordBuilder, Rule, Visitor,
};
use crate::record::{Line, Location, Record, Start, TerminalKind};
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::sfen::{parse_sfen, write_sfen, SfenError};
use crate::write::{Output, WriteError};
use std::io::BufRead;

/// Reads one game per non-blank, non-comment line.
pub struct Reader<R: BufRead> {
    lines: LineReader<R>,
    index: usize,
    yielded: bool,
    done: bool,
    /// Warnings about skipped lines, sent with the next game.
    pending: Vec<Finding>,
}

impl<R: BufRead> Reader<R> {
    /// A reader over decoded lines.
    pub fn new(lines: LineReader<R>, _opts: &ReadOptions) -> Reader<R> {
        Reader {
            lines,
            index: 0,
            yielded: false,
            done: false,
            pending: Vec::new(),
        }
    }

    /// Reads the next game into `v`; `None` at the end of the input.
    pub fn read_game<V: Visitor + ?Sized>(&mut self, v: &mut V) -> Option<V::Output> {
        let encoding = self.lines.encoding();
        while !self.done {
            match self.lines.next_line() {
                None => self.done = true,
                Some(Err(e)) => {
                    self.done = true;
                    let mut out = self.begin(v);
                    out.finding(io_finding(&e));
                    return Some(self.end(out));
                }
                Some(Ok(Ok((no, text)))) => {
                    if text.trim_start().starts_with('%') {
                        self.pending.push(Finding::warning(
                            Rule::Dialect,
                            Location::new(no, 1),
                            "skipped a `%` comment line",
                        ));
                        continue;
                    }
                    if text.trim().is_empty() || text.trim_start().starts_with('#') {
                        continue;
                    }
                    let mut out = Sink::new(v, self.index);
                    for f in self.pending.drain(..) {
                        out.finding(f);
                    }
                    read_line(&mut out, no, text);
                    return Some(self.end(out));
                }
                Some(Ok(Err((no, e)))) => {
                    let mut out = Sink::new(v, self.index);
                    for f in self.pending.drain(..) {
                        out.finding(f);
                    }
                    out.finding(line_finding(no, &e, encoding));
                    let text = self.lines.current_text();
                    if !(text.trim().is_empty() || text.trim_start().starts_with('#')) {
                        read_line(&mut out, no, text);
                    }
                    return Some(self.end(out));
                }
            }
        }
        if !self.yielded {
            let mut out = self.begin(v);
            out.finding(empty_finding());
            return Some(self.end(out));
        }
        None
    }

    fn begin<'v, V: Visitor + ?Sized>(&mut self, v: &'v mut V) -> Sink<'v, V> {
        let mut out = Sink::new(v, self.index);
        for f in self.pending.drain(..) {
            out.finding(f);
        }
        out
    }

    fn end<V: Visitor + ?Sized>(&mut self, out: Sink<V>) -> V::Output {
        self.yielded = true;
        self.index += 1;
        out.finish()
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        self.read_game(&mut RecordBuilder::new())
    }
}

/// Splits a line into tokens with their 1-based character columns.
fn tokens(text: &str) -> Vec<(u32, usize, &str)> {
    let mut col = 0u32;
    let mut in_tok: Option<(u32, usize)> = None;
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        col += 1;
        if c.is_whitespace() {
            if let Some((tc, ts)) = in_tok.take() {
                out.push((tc, ts, &text[ts..i]));
            }
        } else if in_tok.is_none() {
            in_tok = Some((col, i));
        }
    }
    if let Some((tc, ts)) = in_tok {
        out.push((tc, ts, &text[ts..]));
    }
    out
}

/// Sends the game of one line (not blank, not a comment).
fn read_line<V: Visitor + ?Sized>(out: &mut Sink<V>, no: u32, text: &str) {
    let toks = tokens(text);
    let mut i = 0;
    if toks.first().map(|t| t.2) == Some("position") {
        i += 1;
    }
    let err = |col: u32, msg: String| Finding::error(Rule::Syntax, Location::new(no, col), msg);
    let found = |i: usize| -> String {
        toks.get(i)
            .map_or("the end of the line".to_string(), |t| format!("`{}`", t.2))
    };
    let end_col = text.chars().count() as u32 + 1;
    let col_of = |i: usize| toks.get(i).map_or(end_col, |t| t.0);
    let mut bare = false;
    let start = match toks.get(i).map(|t| t.2) {
        Some("startpos") => {
            i += 1;
            Start {
                location: Some(Location::new(no, col_of(i - 1))),
                ..Start::handicap(Handicap::Even)
            }
        }
        Some(tok) if tok == "sfen" || tok.contains('/') => {
            if tok == "sfen" {
                i += 1;
            } else {
                bare = true;
            }
            // Board, side, hand and an optional move number.
            let first = i;
            let mut last = (i + 3).min(toks.len());
            if let Some(t) = toks.get(last) {
                if t.2.bytes().all(|b| b.is_ascii_digit()) {
                    last += 1;
                }
            }
            let (bcol, bstart) = match toks.get(first) {
                Some(t) => (t.0, t.1),
                None => {
                    out.finding(err(
                        end_col,
                        "expected an SFEN, found the end of the line".into(),
                    ));
                    return;
                }
            };
            let bend = toks.get(last - 1).map_or(text.len(), |t| t.1 + t.2.len());
            let sfen_text = &text[bstart..bend];
            i = last;
            match parse_sfen(sfen_text, None) {
                Ok(setup) => Start {
                    handicap: Handicap::detect(&setup),
                    setup,
                    location: Some(Location::new(no, bcol)),
                },
                Err(SfenError::Syntax { column, message }) => {
                    out.finding(err(
                        bcol + column as u32 - 1,
                        format!("bad SFEN: {message}"),
                    ));
                    return;
                }
                Err(SfenError::Setup(e)) => {
                    out.finding(Finding::error(
                        Rule::Setup,
                        Location::new(no, bcol),
                        format!("impossible position: {e}"),
                    ));
                    return;
                }
            }
        }
        _ => {
            out.finding(err(
                col_of(i),
                format!(
                    "expected `position`, `startpos`, `sfen` or an SFEN, found {}",
                    found(i)
                ),
            ));
            return;
        }
    };
    out.start(&start);
    match toks.get(i).map(|t| t.2) {
        None => {}
        Some("moves") => {
            i += 1;
            let variant = start.setup.variant;
            let mut ended: Option<&str> = None;
            for (ply, &(col, _, tok)) in toks[i..].iter().enumerate() {
                let at = Location::new(no, col);
                if let Some(end) = ended {
                    // After the terminal token: a move goes to the resolver
                    // (`after-end`, as in every format); anything else ends
                    // the line here.
                    if let Some(mv) = Move::from_usi(tok, variant) {
                        out.movement(&MoveEvent {
                            raw: RawMove::Usi(mv),
                            written: tok,
                            at,
                        });
                    } else {
                        out.finding(err(
                            col,
                            format!("expected the end of the line after `{end}`, found `{tok}`"),
                        ));
                    }
                    break;
                }
                match Move::from_usi(tok, variant) {
                    Some(mv) => out.movement(&MoveEvent {
                        raw: RawMove::Usi(mv),
                        written: tok,
                        at,
                    }),
                    None if crate::japanese::terminal_from_usi(tok).is_some() => {
                        let kind =
                            crate::japanese::terminal_from_usi(tok).unwrap_or(TerminalKind::Abort);
                        if let TerminalKind::Other(_) = kind {
                            out.finding(Finding::warning(
                                Rule::Dialect,
                                at,
                                format!("`{tok}` does not say who won; kept as written"),
                            ));
                        }
                        out.terminal(&kind, at);
                        ended = Some(tok);
                    }
                    None => {
                        let mut f = err(col, format!("expected a USI move, found `{tok}`"));
                        f.ply = Some(ply as u32 + 1);
                        f.mv = Some(tok.to_string());
                        out.finding(f);
                        break;
                    }
                }
            }
        }
        Some(_) if bare => {
            let rest = &text[toks[i].1..];
            out.finding(Finding::warning(
                Rule::Dialect,
                Location::new(no, col_of(i)),
                format!("ignored `{}` after the SFEN", rest.trim_end()),
            ));
        }
        Some(_) => out.finding(err(
            col_of(i),
            format!("expected `moves`, found {}", found(i)),
        )),
    }
}

/// Options of the SFEN/USI writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Start lines with the `position` word (default true).
    pub position_prefix: bool,
    /// Write only the final position of the main line as a bare SFEN line
    /// (`--to sfen`).
    pub sfen_only: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            position_prefix: true,
            sfen_only: false,
        }
    }
}

fn count_times(line: &Line) -> usize {
    line.moves
        .iter()
        .filter(|n| n.time.spent_ms.is_some() || n.time.total_ms.is_some())
        .count()
        + line.terminal.as_ref().map_or(0, |t| {
            usize::from(t.time.spent_ms.is_some() || t.time.total_ms.is_some())
        })
}

fn write_into(record: &Record, opts: &WriteOptions, out: &mut Output) {
    let setup = &record.start.setup;
    let d = &mut out.dropped;
    // A `position` line holds the start and the main line's moves only.
    d.variations += record.variation_count();
    d.comments += record.comment_count();
    d.times += count_times(&record.main);
    for (k, v) in &record.header.entries {
        if !crate::write::restates_start(k, v, record) {
            d.headers.add(k.name());
        }
    }
    d.results += usize::from(record.claim.is_some());
    if let Some(t) = &record.main.terminal {
        d.terminals.add(t.kind.reason());
    }
    let variant = record.variant();
    if opts.sfen_only {
        let mut pos = Position::from_setup_unchecked(setup);
        for n in &record.main.moves {
            pos.play_unchecked(n.mv);
        }
        out.text.push_str(&pos.sfen());
        out.text.push('\n');
        return;
    }
    if opts.position_prefix {
        out.text.push_str("position ");
    }
    if *setup == Handicap::Even.setup() {
        out.text.push_str("startpos");
    } else {
        out.text.push_str("sfen ");
        out.text.push_str(&write_sfen(setup));
    }
    if !record.main.moves.is_empty() {
        out.text.push_str(" moves");
        for n in &record.main.moves {
            out.text.push(' ');
            out.text.push_str(&n.mv.usi(variant).to_string());
        }
    }
    out.text.push('\n');
}

/// Writes one game as one line.
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    let mut out = Output::default();
    write_into(record, opts, &mut out);
    Ok(out)
}

/// Writes one line per game.
pub fn write_games(records: &[Record], opts: &WriteOptions) -> Result<Output, WriteError> {
    let mut out = Output::default();
    for r in records {
        write_into(r, opts, &mut out);
    }
    Ok(out)
}
