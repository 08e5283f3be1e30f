//! KIF writer in the Kifu for Windows layout, plus the parts KI2 shares
//! (header, start position, summary lines).

use super::WriteOptions;
use crate::emit::{one_line, Dropped, Output, WriteError};
use crate::japanese::{self, display_width};
use crate::record::{Line, Record};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::text::Encoding;
use std::fmt::Write as _;

pub(crate) use crate::japanese::writer::{
    fouler, is_handicap, moving_role, positions, summary_line, terminal_word, write_comments,
    write_head,
};

/// Appends the KIF text of a move (`７六歩(77)`, `同　銀(31)`, `４五角打`)
/// in `pos`; `prev_to` is the previous move's destination (for 同) and
/// `said` the role the record names. Returns `false` (and appends nothing
/// useful) when no piece can be named.
pub fn push_move_text(
    pos: &Position,
    mv: Move,
    prev_to: Option<Square>,
    said: Option<Role>,
    text: &mut String,
) -> bool {
    let to = mv.to();
    if prev_to == Some(to) {
        text.push_str("同\u{3000}");
    } else {
        japanese::push_square(to, text);
    }
    let Some(role) = moving_role(pos, mv, said) else {
        return false;
    };
    text.push_str(japanese::role_name(role, pos.variant()));
    match mv {
        Move::Normal { from, promote, .. } => {
            if promote {
                text.push('成');
            }
            let _ = write!(text, "({}{})", from.file(), from.rank());
        }
        Move::Drop { .. } => text.push('打'),
    }
    true
}

/// The KIF text of a move; see [`push_move_text`].
pub fn move_text(pos: &Position, mv: Move, prev_to: Option<Square>) -> Option<String> {
    let mut s = String::new();
    push_move_text(pos, mv, prev_to, None, &mut s).then_some(s)
}

fn has_times(line: &Line) -> bool {
    line.moves.iter().any(|n| {
        n.time.spent_ms.is_some() || n.time.total_ms.is_some() || n.variations.iter().any(has_times)
    }) || line
        .terminal
        .as_ref()
        .is_some_and(|t| t.time.spent_ms.is_some() || t.time.total_ms.is_some())
}

struct KifWriter<'a> {
    rec: &'a Record,
    nl: &'a str,
    times: bool,
    out: String,
    dropped: Dropped,
}

fn push_time(out: &mut String, spent_ms: u64, total_ms: u64) {
    let s = spent_ms / 1000;
    let t = total_ms / 1000;
    let _ = write!(
        out,
        " ({:>2}:{:02}/{:02}:{:02}:{:02})",
        s / 60,
        s % 60,
        t / 3600,
        (t / 60) % 60,
        t % 60
    );
}

impl KifWriter<'_> {
    fn pad(&mut self, text_width: usize) {
        for _ in text_width..12 {
            self.out.push(' ');
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn line(
        &mut self,
        line: &Line,
        first: u32,
        pos: Position,
        prev_to: Option<Square>,
        totals: [u64; 2],
        first_has_sibling: bool,
        is_main: bool,
    ) -> Result<(), WriteError> {
        let nl = self.nl;
        let poss = positions(line, pos);
        let mut tots = Vec::with_capacity(line.moves.len() + 1);
        let mut totals = totals;
        let mut prev = prev_to;
        let mut prevs = Vec::with_capacity(line.moves.len() + 1);
        let variant = self.rec.variant();
        let mut text = String::new();
        for (i, node) in line.moves.iter().enumerate() {
            tots.push(totals);
            prevs.push(prev);
            let p = &poss[i];
            let number = first.saturating_add(i as u32);
            text.clear();
            if !push_move_text(p, node.mv, prev, node.role, &mut text) {
                return Err(WriteError::new(format!(
                    "move {number} ({}): no piece on its origin square to name",
                    node.mv.usi(variant)
                )));
            }
            let _ = write!(self.out, "{number:>4} {text}");
            let branch = !node.variations.is_empty() || (i == 0 && first_has_sibling);
            let mover = p.turn().index();
            if self.times {
                let spent = node.time.spent_ms.unwrap_or(0);
                let total = node
                    .time
                    .total_ms
                    .unwrap_or(totals[mover].saturating_add(spent));
                if spent % 1000 != 0 || total % 1000 != 0 {
                    self.dropped.times += 1;
                }
                totals[mover] = total;
                self.pad(display_width(&text));
                push_time(&mut self.out, spent, total);
                if branch {
                    self.out.push('+');
                }
            } else if branch {
                self.pad(display_width(&text));
                self.out.push_str(" +");
            }
            self.out.push_str(nl);
            write_comments(&node.comments, nl, &mut self.out, &mut self.dropped.altered);
            prev = Some(node.mv.to());
        }
        tots.push(totals);
        prevs.push(prev);
        let end = poss[line.moves.len()];
        let last = first.saturating_add(line.moves.len() as u32);
        if let Some(t) = &line.terminal {
            let (word, approx) = terminal_word(&t.kind, end.turn());
            let _ = write!(self.out, "{last:>4} {word}");
            if self.times {
                let spent = t.time.spent_ms.unwrap_or(0);
                let mover = end.turn().index();
                let total = t
                    .time
                    .total_ms
                    .unwrap_or(totals[mover].saturating_add(spent));
                self.pad(display_width(word));
                push_time(&mut self.out, spent, total);
            }
            self.out.push_str(nl);
            write_comments(&t.comments, nl, &mut self.out, &mut self.dropped.altered);
            if approx {
                self.dropped.terminals.add(t.kind.reason());
                let reason = one_line(t.kind.reason(), &mut self.dropped.altered);
                let _ = write!(self.out, "*kifu: {reason}{nl}");
            }
        }
        // The main line's result line is kept as written; else it is
        // written from the terminal, or from what a result apart from the
        // moves (PSN `[Result]`) states.
        let derived = if is_main {
            crate::emit::main_terminal(self.rec)
        } else {
            line.terminal.as_ref().map(std::borrow::Cow::Borrowed)
        };
        let summary = summary_line(
            self.rec,
            is_main,
            last.saturating_sub(1),
            derived.as_deref(),
            end.turn(),
            fouler(line, &poss),
            &mut self.dropped.altered,
        );
        let verbatim = is_main
            && self
                .rec
                .claim
                .as_ref()
                .is_some_and(|c| c.text.starts_with("まで"));
        if is_main
            && !verbatim
            && !crate::emit::claim_carried(self.rec, derived.as_deref().map(|t| &t.kind))
        {
            self.dropped.results += 1;
        }
        if let Some(s) = summary {
            self.out.push_str(&s);
            self.out.push_str(nl);
        }
        // Variation blocks: deepest branch point first, each followed by
        // its own branches (Kifu for Windows order).
        for i in (0..line.moves.len()).rev() {
            let vars = &line.moves[i].variations;
            for (k, v) in vars.iter().enumerate() {
                if v.moves.is_empty() {
                    self.dropped.variations += 1;
                    continue;
                }
                let n = first.saturating_add(i as u32);
                let _ = write!(self.out, "{nl}変化：{n}手{nl}");
                self.line(v, n, poss[i], prevs[i], tots[i], k + 1 < vars.len(), false)?;
            }
        }
        Ok(())
    }
}

/// Writes a record as KIF in the Kifu for Windows layout (see
/// `docs/formats/kif.md`).
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    let nl = if opts.crlf { "\r\n" } else { "\n" };
    let mut w = KifWriter {
        rec: record,
        nl,
        times: has_times(&record.main),
        out: String::new(),
        dropped: Dropped::default(),
    };
    let enc = match opts.encoding {
        Encoding::ShiftJis => "Shift_JIS",
        _ => "UTF-8",
    };
    let _ = write!(w.out, "#KIF version=2.0 encoding={enc}{nl}");
    let mut dropped = Dropped::default();
    write_head(record, nl, &mut w.out, &mut dropped);
    w.dropped.add(&dropped);
    let _ = write!(w.out, "手数----指手---------消費時間--{nl}");
    write_comments(
        &record.initial_comments,
        nl,
        &mut w.out,
        &mut w.dropped.altered,
    );
    let pos = Position::from_setup_unchecked(&record.start.setup);
    let first = record.start.setup.ply.max(1);
    w.line(&record.main, first, pos, None, [0, 0], false, true)?;
    Ok(Output {
        text: w.out,
        dropped: w.dropped,
    })
}
