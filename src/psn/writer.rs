//! The PSN writer: tags, minimal international notation, comments,
//! variations, terminal words and the result.

use super::notation::PsnMove;
use super::reader::FOUL_TERMINATION;
use crate::emit::{extra_breaks, one_line, text_lines, Dropped, Output, WriteError};
use crate::record::{HeaderKey, Line, MoveTime, Outcome, Record, Terminal, TerminalKind};
use crate::rules::handicap::Handicap;
use crate::rules::position::Position;
use crate::rules::sfen::write_sfen;
use crate::rules::variant::Variant;
use std::fmt::Write as _;

/// How move times are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PsnTimes {
    /// As a comment after the move: `{time 00:03 / 00:00:03}` (any PSN
    /// reader keeps it, but as a comment).
    Comments,
    /// Shogidokoro's `(00:03 / 00:00:03)` after the move (read back as a
    /// time by this reader and by Shogidokoro; other PSN readers may take
    /// it for a variation).
    #[default]
    Shogidokoro,
    /// Not written.
    None,
}

/// Options of the PSN writer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// How move times are written.
    pub times: PsnTimes,
    /// Disambiguate only against pieces whose move to the destination is
    /// legal (pins respected) instead of against every piece that attacks
    /// it (the default, as tsshogi and shogiops do).
    pub legal_candidates_only: bool,
}

/// The word a terminal event is written with, if PSN has one. A foul has
/// none: Shogidokoro's words have none (MyShogi writes no word), and PSN2's
/// `RepetitionWin` names one foul only (perpetual check), so a foul that
/// ends the main line is written as the result and a
/// `[Termination "Rules infraction"]` tag (see [`foul_of`]).
pub(crate) fn terminal_word(kind: &TerminalKind) -> Option<&'static str> {
    Some(match kind {
        TerminalKind::Resign => "Resigns",
        TerminalKind::Abort => "Interrupt",
        TerminalKind::Checkmate => "Mate",
        TerminalKind::Repetition => "Sennichite",
        TerminalKind::Impasse => "Jishogi",
        TerminalKind::TimeUp => "Timeup",
        TerminalKind::MaxMoves => "MaxMovesDraw",
        TerminalKind::DeclarationWin => "DeclarationWin",
        TerminalKind::Try => "TryRuleWin",
        _ => return None,
    })
}

fn tag_name(key: &HeaderKey) -> Option<&str> {
    Some(match key {
        HeaderKey::Sente => "Sente",
        HeaderKey::Gote => "Gote",
        HeaderKey::Event => "Event",
        HeaderKey::Site => "Site",
        HeaderKey::StartTime => "Date",
        HeaderKey::EndTime => "EndDate",
        HeaderKey::TimeControl => "TimeControl",
        HeaderKey::Opening => "Opening",
        HeaderKey::Title => "Title",
        HeaderKey::Other(k) => {
            let reserved = ["result", "sfen", "handicap", "variant"];
            if k.is_empty()
                || k.chars().any(|c| {
                    c.is_whitespace()
                        || crate::emit::is_line_separator(c)
                        || matches!(c, '"' | '[' | ']' | '{' | '}')
                })
                || reserved.contains(&k.to_ascii_lowercase().as_str())
            {
                return None;
            }
            k
        }
    })
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if crate::emit::is_line_separator(c) => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

fn result_text(o: Outcome) -> &'static str {
    match o {
        Outcome::SenteWin => "1-0",
        Outcome::GoteWin => "0-1",
        Outcome::Draw => "1/2-1/2",
        Outcome::Aborted | Outcome::Unknown => "*",
    }
}

/// Comments as PSN holds them: one simple comment inline (`{…}`), or as a
/// `;` line comment when it holds a `}` (PSN has no escape inside braces,
/// and a `;` comment runs to the end of its line); otherwise a `{`…`}`
/// block with a line per comment line, where a `}` (which would end the
/// block) becomes `｝`, counted in `altered`.
fn push_comments(out: &mut String, comments: &[String], altered: &mut usize) {
    if comments.is_empty() {
        return;
    }
    let simple = comments.len() == 1 && {
        let c = &comments[0];
        !c.is_empty()
            && c.trim() == c
            && !c.contains(crate::emit::is_line_separator)
            && !c.starts_with('{')
    };
    if simple {
        let c = &comments[0];
        if c.contains('}') {
            let _ = writeln!(out, ";{c}");
        } else {
            let _ = writeln!(out, "{{{c}}}");
        }
        return;
    }
    out.push_str("{\n");
    for c in comments {
        if c.contains('}') || extra_breaks(c) {
            *altered += 1;
        }
        for l in text_lines(c) {
            out.push_str(&l.replace('}', "\u{FF5D}"));
            out.push('\n');
        }
    }
    out.push_str("}\n");
}

fn clock(ms: u64, hours: bool) -> String {
    let s = ms / 1000;
    if hours {
        format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

struct W<'a> {
    out: String,
    opts: &'a WriteOptions,
    variant: Variant,
    dropped: Dropped,
}

impl W<'_> {
    /// Writes `1.P-7f` plus its time, returns nothing; comments follow.
    fn ply_line(&mut self, text: &str, time: &MoveTime) {
        let start = self.out.len();
        self.out.push_str(text);
        let mut comment = None;
        if let Some(spent) = time.spent_ms {
            if self.opts.times == PsnTimes::Shogidokoro
                && (spent % 1000 != 0 || time.total_ms.is_some_and(|t| t % 1000 != 0))
            {
                // Written in whole seconds.
                self.dropped.times += 1;
            }
            let t = match time.total_ms {
                Some(total) => format!("{} / {}", clock(spent, false), clock(total, true)),
                None => clock(spent, false),
            };
            match self.opts.times {
                PsnTimes::Shogidokoro => {
                    let width = self.out.len() - start;
                    for _ in width..18 {
                        self.out.push(' ');
                    }
                    if width >= 18 {
                        self.out.push(' ');
                    }
                    let _ = write!(self.out, "({t})");
                }
                PsnTimes::Comments => comment = Some(format!("{{time {t}}}")),
                PsnTimes::None => self.dropped.times += 1,
            }
        } else if time.total_ms.is_some() {
            self.dropped.times += 1;
        }
        self.out.push('\n');
        if let Some(c) = comment {
            self.out.push_str(&c);
            self.out.push('\n');
        }
    }

    fn line(
        &mut self,
        mut pos: Position,
        line: &Line,
        terminal: Option<&crate::record::Terminal>,
        mut ply: u32,
    ) {
        for node in &line.moves {
            let psn =
                PsnMove::from_move_with(&pos, node.mv, node.role, self.opts.legal_candidates_only);
            let text = format!("{ply}.{}", psn.display(self.variant));
            self.ply_line(&text, &node.time);
            push_comments(&mut self.out, &node.comments, &mut self.dropped.altered);
            for var in &node.variations {
                self.out.push_str("(\n");
                self.line(pos, var, var.terminal.as_ref(), ply);
                self.out.push_str(")\n");
            }
            pos.play_unchecked(node.mv);
            ply += 1;
        }
        if let Some(t) = terminal {
            match terminal_word(&t.kind) {
                Some(word) => {
                    let text = format!("{ply}.{word}");
                    self.ply_line(&text, &t.time);
                    push_comments(&mut self.out, &t.comments, &mut self.dropped.altered);
                }
                None => {
                    self.dropped.terminals.add(t.kind.reason());
                    self.dropped.comments += t.comments.len();
                }
            }
        }
    }
}

/// The result a record states or its main line implies.
fn outcome_of(record: &Record) -> Outcome {
    if let Some(c) = &record.claim {
        return c.outcome;
    }
    match &record.main.terminal {
        Some(t) => {
            let mut pos = Position::from_setup_unchecked(&record.start.setup);
            for n in &record.main.moves {
                pos.play_unchecked(n.mv);
            }
            t.kind.outcome(pos.turn())
        }
        None => Outcome::Unknown,
    }
}

/// Whether the main line's terminal `t` is a foul that the result written
/// (`outcome`) and a `[Termination "Rules infraction"]` tag state again: a
/// reader takes the winner from the result and, with the side to move at
/// the end of the main line, gets `illegal-win` or `illegal-loss` back.
fn foul_of(record: &Record, t: &Terminal, outcome: Outcome) -> bool {
    let (to_move, _) = crate::emit::main_end(record);
    matches!(
        t.kind,
        TerminalKind::IllegalWin | TerminalKind::IllegalLoss | TerminalKind::IllegalAction(_)
    ) && outcome.winner().is_some()
        && t.kind.outcome(to_move) == outcome
}

/// Writes one game as PSN.
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    let variant = record.variant();
    let mut w = W {
        out: String::new(),
        opts,
        variant,
        dropped: Dropped::default(),
    };
    let outcome = outcome_of(record);
    let result = result_text(outcome);
    // `[Result]` holds a result line's outcome; a terminal it states
    // (`まで5手で中断`) is written as the terminal word.
    let terminal = match &record.claim {
        Some(c) if c.kind.is_some() => crate::emit::main_terminal(record),
        _ => record
            .main
            .terminal
            .as_ref()
            .map(std::borrow::Cow::Borrowed),
    };
    // A foul ending the main line: no word, the tag (its time and comments
    // have no place and are counted).
    let foul = terminal
        .as_deref()
        .filter(|t| foul_of(record, t, outcome))
        .map(|t| {
            let (to_move, _) = crate::emit::main_end(record);
            let read_back = if outcome.winner() == Some(to_move) {
                TerminalKind::IllegalWin
            } else {
                TerminalKind::IllegalLoss
            };
            if t.time.spent_ms.is_some() || t.time.total_ms.is_some() {
                w.dropped.times += 1;
            }
            w.dropped.comments += t.comments.len();
            read_back
        });
    for (k, v) in &record.header.entries {
        if crate::emit::restates_start(k, v, record) {
            continue; // the start is written as tags below
        }
        if foul.is_some()
            && matches!(k, HeaderKey::Other(n) if n.eq_ignore_ascii_case("termination"))
        {
            // The foul's own tag below takes its place.
            if !v.trim().eq_ignore_ascii_case(FOUL_TERMINATION) {
                w.dropped.headers.add(k.name());
            }
            continue;
        }
        match tag_name(k) {
            Some(name) => push_tag(&mut w.out, name, &one_line(v, &mut w.dropped.altered)),
            None => w.dropped.headers.add(k.name()),
        }
    }
    let setup = &record.start.setup;
    if variant != Variant::Standard {
        push_tag(&mut w.out, "Variant", variant.name());
    }
    let standard = match variant {
        Variant::Standard => record
            .start
            .handicap
            .or_else(|| Handicap::detect(setup))
            .filter(|h| h.setup() == *setup)
            .map(Some),
        _ => {
            let s = crate::record::Start::variant(variant).setup;
            (s == *setup).then_some(None)
        }
    };
    match standard {
        Some(Some(h)) if h != Handicap::Even => push_tag(&mut w.out, "Handicap", h.info().english),
        Some(_) => {}
        None => push_tag(&mut w.out, "SFEN", &write_sfen(setup)),
    }
    push_tag(&mut w.out, "Result", result);
    if foul.is_some() {
        push_tag(&mut w.out, "Termination", FOUL_TERMINATION);
    }
    w.out.push('\n');
    push_comments(&mut w.out, &record.initial_comments, &mut w.dropped.altered);
    let pos = Position::from_setup_unchecked(setup);
    let main_terminal = if foul.is_some() {
        None
    } else {
        terminal.as_deref()
    };
    w.line(pos, &record.main, main_terminal, 1);
    // `[Result]` holds the outcome; the reason and the number of moves
    // travel as the terminal word (or the foul's tag) and the moves.
    if let Some(c) = &record.claim {
        let (_, plies) = crate::emit::main_end(record);
        let written = foul.as_ref().or(terminal
            .as_deref()
            .filter(|t| terminal_word(&t.kind).is_some())
            .map(|t| &t.kind));
        let kind_kept = match (&c.kind, written) {
            (None, _) => true,
            (Some(k), Some(w)) => crate::emit::same_kind(k, w, crate::emit::main_end(record).0),
            (Some(_), None) => false,
        };
        if c.plies.is_some_and(|n| n != plies) || !kind_kept {
            w.dropped.results += 1;
        }
    }
    w.out.push_str(result);
    w.out.push('\n');
    Ok(Output {
        text: w.out,
        dropped: w.dropped,
    })
}

/// Writes several games, separated by blank lines.
pub fn write_games(records: &[Record], opts: &WriteOptions) -> Result<Output, WriteError> {
    let mut out = Output::default();
    for (i, r) in records.iter().enumerate() {
        let o = write(r, opts)?;
        if i > 0 {
            out.text.push('\n');
        }
        out.text.push_str(&o.text);
        out.dropped.add(&o.dropped);
    }
    Ok(out)
}
