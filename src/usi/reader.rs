//! The SFEN/USI reader: one game per line, read with the line grammar
//! ([`super::grammar`]) into events for a [`Visitor`].

use super::grammar::{self, StartSpec, Token};
use crate::record::{Location, Start, TerminalKind};
use crate::rules::handicap::Handicap;
use crate::rules::sfen::{parse_sfen, SfenError};
use crate::text::sink::Sink;
use crate::text::{
    empty_finding, io_finding, line_finding, Columns, Finding, Game, LineReader, MoveEvent,
    RawMove, ReadOptions, RecordBuilder, Rule, Visitor,
};
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

/// `s` from its first non-blank character.
fn skip_blanks(s: &str) -> &str {
    grammar::blanks(s).map_or(s, |(rest, _)| rest)
}

/// Sends the game of one line (not blank, not a comment).
fn read_line<V: Visitor + ?Sized>(out: &mut Sink<V>, no: u32, text: &str) {
    let mut cols = Columns::new(text);
    // The location of the rest of the line `rest` (a suffix of `text`).
    let mut at = |rest: &str| Location::new(no, cols.at(text.len() - rest.len()));
    let syntax = |loc: Location, msg: String| Finding::error(Rule::Syntax, loc, msg);
    let (rest, (from, spec)) = match grammar::start(text) {
        Ok(v) => v,
        Err(e) => {
            let e = crate::text::syntax::into_error(e, text);
            out.finding(syntax(at(e.at), grammar::message(&e)));
            return;
        }
    };
    let start_at = at(from);
    let (start, bare) = match spec {
        StartSpec::Startpos => (
            Start {
                location: Some(start_at),
                ..Start::handicap(Handicap::Even)
            },
            false,
        ),
        StartSpec::Sfen { text: sfen, bare } => match parse_sfen(sfen, None) {
            Ok(setup) => (
                Start {
                    handicap: Handicap::detect(&setup),
                    setup,
                    location: Some(start_at),
                },
                bare,
            ),
            Err(SfenError::Syntax { column, message }) => {
                let loc = Location::new(no, start_at.column + column as u32 - 1);
                out.finding(syntax(loc, format!("bad SFEN: {message}")));
                return;
            }
            Err(SfenError::Setup(e)) => {
                out.finding(Finding::error(
                    Rule::Setup,
                    start_at,
                    format!("impossible position: {e}"),
                ));
                return;
            }
        },
    };
    out.start(&start);
    let word = skip_blanks(rest);
    if word.is_empty() {
        return;
    }
    let mut rest = match grammar::moves_keyword(word) {
        Ok((rest, ())) => rest,
        Err(_) if bare => {
            out.finding(Finding::warning(
                Rule::Dialect,
                at(word),
                format!("ignored `{}` after the SFEN", word.trim_end()),
            ));
            return;
        }
        Err(e) => {
            let e = crate::text::syntax::into_error(e, word);
            out.finding(syntax(at(e.at), grammar::message(&e)));
            return;
        }
    };
    let variant = start.setup.variant;
    let mut ply = 0u32;
    let mut ended: Option<&str> = None;
    loop {
        let next = skip_blanks(rest);
        if next.is_empty() {
            return;
        }
        let loc = at(next);
        let written = next.split(char::is_whitespace).next().unwrap_or(next);
        ply += 1;
        let parsed = grammar::token(next);
        let mv = match &parsed {
            Ok((_, Token::Move(m))) => m.to_move(variant),
            _ => None,
        };
        if let Some(end) = ended {
            // After the terminal word: a move goes to the resolver
            // (`after-end`, as in every format); anything else ends the
            // line here.
            match mv {
                Some(mv) => out.movement(&MoveEvent {
                    raw: RawMove::Usi(mv),
                    written: written.into(),
                    at: loc,
                }),
                None => {
                    if let Err(e) = grammar::line_end(next) {
                        let e = crate::text::syntax::into_error(e, next);
                        let found = grammar::found_word(e.at);
                        let msg = format!("expected {} after `{end}`, found {found}", e.expected);
                        out.finding(syntax(loc, msg));
                    }
                }
            }
            return;
        }
        match (parsed, mv) {
            (Ok((r, _)), Some(mv)) => {
                out.movement(&MoveEvent {
                    raw: RawMove::Usi(mv),
                    written: written.into(),
                    at: loc,
                });
                rest = r;
            }
            (Ok((r, Token::Terminal(kind))), _) => {
                if let TerminalKind::Other(_) = kind {
                    out.finding(Finding::warning(
                        Rule::Dialect,
                        loc,
                        format!("`{written}` does not say who won; kept as written"),
                    ));
                }
                out.terminal(&kind, loc);
                ended = Some(written);
                rest = r;
            }
            (parsed, _) => {
                // Not a move, or a drop of a piece the variant cannot hold.
                let e = match parsed {
                    Err(e) => crate::text::syntax::into_error(e, next),
                    Ok(_) => crate::text::syntax::SyntaxError::new(next, "a USI move"),
                };
                let mut f = syntax(loc, grammar::message(&e));
                f.ply = Some(ply);
                f.mv = Some(written.to_string());
                out.finding(f);
                return;
            }
        }
    }
}
