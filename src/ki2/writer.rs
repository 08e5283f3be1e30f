//! KI2 writer: ▲/△ moves with JSA relative marks, six to a line.

use super::notation::{can_promote, relative_mark};
use super::WriteOptions;
use crate::emit::{Dropped, Output, WriteError};
use crate::japanese::writer::{
    fouler, moving_role, positions, summary_line, write_comments, write_head,
};
use crate::japanese::{self, display_width};
use crate::record::{Line, Record};
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::text::Encoding;
use std::fmt::Write as _;

/// The KI2 text of `mv` in `pos` (`▲７六歩`, `△同　銀`, `▲５五金左上`,
/// `▲２二角成`, `▲４五角打`): 同 when `mv` lands on `prev_to`, the
/// relative mark [`relative_mark`] requires, 成/不成 whenever promotion is
/// possible. `said` is the role the record names (else the board's).
pub fn move_text(
    pos: &Position,
    mv: Move,
    prev_to: Option<Square>,
    said: Option<crate::rules::role::Role>,
    legal_only: bool,
) -> Option<String> {
    let mut s = String::with_capacity(24);
    s.push(match pos.turn() {
        Color::Black => '▲',
        Color::White => '△',
    });
    let to = mv.to();
    if prev_to == Some(to) {
        s.push_str("同\u{3000}");
    } else {
        japanese::push_square(to, &mut s);
    }
    let role = moving_role(pos, mv, said)?;
    s.push_str(japanese::role_name(role, pos.variant()));
    let _ = write!(s, "{}", relative_mark(pos, mv, legal_only));
    if can_promote(pos, mv) {
        s.push_str(if mv.is_promotion() { "成" } else { "不成" });
    } else if mv.is_promotion() {
        // Not promotable here: still say what the record says.
        s.push('成');
    }
    Some(s)
}

struct Ki2Writer<'a> {
    rec: &'a Record,
    nl: &'a str,
    legal_only: bool,
    out: String,
    dropped: Dropped,
}

impl Ki2Writer<'_> {
    fn line(
        &mut self,
        line: &Line,
        first: u32,
        pos: Position,
        prev_to: Option<Square>,
        is_main: bool,
    ) -> Result<(), WriteError> {
        let nl = self.nl;
        let poss = positions(line, pos);
        let mut prev = prev_to;
        let mut prevs = Vec::with_capacity(line.moves.len() + 1);
        let mut on_line = 0;
        for (i, node) in line.moves.iter().enumerate() {
            prevs.push(prev);
            let p = &poss[i];
            let text =
                move_text(p, node.mv, prev, node.role, self.legal_only).ok_or_else(|| {
                    WriteError::new(format!(
                        "move {}: no piece on its origin square to name",
                        first.saturating_add(i as u32)
                    ))
                })?;
            if on_line > 0 {
                // Pad the previous move to 12 columns.
                let last_start = self.out.rfind(['▲', '△']).unwrap_or(0);
                let w = display_width(&self.out[last_start..]);
                for _ in w..12 {
                    self.out.push(' ');
                }
            }
            self.out.push_str(&text);
            on_line += 1;
            if node.time.spent_ms.is_some() || node.time.total_ms.is_some() {
                self.dropped.times += 1;
            }
            if !node.comments.is_empty() || on_line == 6 || i + 1 == line.moves.len() {
                self.out.push_str(nl);
                on_line = 0;
                write_comments(&node.comments, nl, &mut self.out, &mut self.dropped.altered);
            }
            prev = Some(node.mv.to());
        }
        prevs.push(prev);
        let end = poss[line.moves.len()];
        let last = first.saturating_add(line.moves.len() as u32);
        if let Some(t) = &line.terminal {
            if !t.comments.is_empty() {
                self.dropped.comments += t.comments.len();
            }
            if t.time.spent_ms.is_some() {
                self.dropped.times += 1;
            }
        }
        // KI2 has no terminal lines: the `まで` line is the only record of
        // the end. The record's own result line is kept when it states the
        // line's terminal; otherwise the line is written from the terminal
        // (a checkmate stays 詰み, not a plain win) or from what a result
        // apart from the moves (PSN `[Result]`) states.
        let plies = last.saturating_sub(1);
        let to_move = end.turn();
        let foul_by = fouler(line, &poss);
        let verbatim = is_main
            && self
                .rec
                .claim
                .as_ref()
                .is_some_and(|c| c.text.starts_with("まで"));
        let derived = if is_main {
            crate::emit::main_terminal(self.rec)
        } else {
            line.terminal.as_ref().map(std::borrow::Cow::Borrowed)
        };
        let mut summary = summary_line(
            self.rec,
            is_main,
            plies,
            derived.as_deref(),
            to_move,
            foul_by,
            &mut self.dropped.altered,
        );
        let kept = verbatim
            && derived.as_deref().is_none_or(|t| {
                summary
                    .as_ref()
                    .is_some_and(|s| round_trips(s, t, to_move, foul_by))
            });
        if !kept {
            if let Some(t) = derived.as_deref() {
                summary = summary_line(self.rec, false, plies, Some(t), to_move, foul_by, &mut 0)
                    .map(|s| {
                        match s.strip_suffix("手で詰") {
                            // tsshogi's word (Kifu for Windows' `詰` reads alike).
                            Some(head) => format!("{head}手で詰み"),
                            None => s,
                        }
                    });
            }
            if is_main && !crate::emit::claim_carried(self.rec, derived.as_deref().map(|t| &t.kind))
            {
                self.dropped.results += 1;
            }
        }
        // The terminal the line ends with (its own, or for the main line
        // the one its result line states: floodgate's max_moves is written
        // `持将棋`, which reads back as an impasse) is counted when the
        // `まで` line does not give it back.
        if let Some(t) = derived.as_deref() {
            if !summary
                .as_ref()
                .is_some_and(|s| round_trips(s, t, to_move, foul_by))
            {
                self.dropped.terminals.add(t.kind.reason());
            }
        }
        if let Some(s) = summary {
            self.out.push_str(&s);
            self.out.push_str(nl);
        }
        for i in (0..line.moves.len()).rev() {
            for v in &line.moves[i].variations {
                if v.moves.is_empty() {
                    self.dropped.variations += 1;
                    continue;
                }
                let n = first.saturating_add(i as u32);
                let _ = write!(self.out, "{nl}変化：{n:>4}手{nl}");
                self.line(v, n, poss[i], prevs[i], false)?;
            }
        }
        Ok(())
    }
}

/// Whether the KI2 reader gets `t` back from the summary `s`.
fn round_trips(
    s: &str,
    t: &crate::record::Terminal,
    to_move: Color,
    foul_by: Option<Color>,
) -> bool {
    use crate::record::TerminalKind;
    // After a recorded foul, any foul verdict means its player lost.
    let stated = match (&t.kind, foul_by) {
        (
            TerminalKind::IllegalLoss | TerminalKind::IllegalWin | TerminalKind::IllegalAction(_),
            Some(f),
        ) => TerminalKind::IllegalAction(f),
        (k, _) => k.clone(),
    };
    let Some(sum) = japanese::parse_summary(s) else {
        return false;
    };
    let kind = match sum.kind {
        Some(k) => k,
        None => match sum.outcome.winner() {
            Some(w) if w != to_move => crate::record::TerminalKind::Resign,
            _ => return false,
        },
    };
    // Alike when they give the same result for the same reason (a foul
    // by the side to move reads back as 反則負け, not `±ILLEGAL_ACTION`).
    kind == t.kind
        || (kind.reason_id() == stated.reason_id()
            && kind.outcome(to_move) == stated.outcome(to_move))
}

/// Writes a record as KI2 (see `docs/formats/ki2.md`).
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    let nl = if opts.crlf { "\r\n" } else { "\n" };
    let mut w = Ki2Writer {
        rec: record,
        nl,
        legal_only: opts.legal_candidates_only,
        out: String::new(),
        dropped: Dropped::default(),
    };
    if let Some(e) = opts.encoding {
        let enc = match e {
            Encoding::ShiftJis => "Shift_JIS",
            _ => "UTF-8",
        };
        let _ = write!(w.out, "#KI2 version=2.0 encoding={enc}{nl}");
    }
    let mut dropped = Dropped::default();
    write_head(record, nl, &mut w.out, &mut dropped);
    w.dropped.add(&dropped);
    write_comments(
        &record.initial_comments,
        nl,
        &mut w.out,
        &mut w.dropped.altered,
    );
    let pos = Position::from_setup_unchecked(&record.start.setup);
    let first = record.start.setup.ply.max(1);
    w.line(&record.main, first, pos, None, true)?;
    Ok(Output {
        text: w.out,
        dropped: w.dropped,
    })
}
