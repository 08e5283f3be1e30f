//! KIF move lines in the shared line reader ([`crate::japanese::reader`]):
//! move number, move or terminal word, time, branch mark.

use super::grammar::{self, Body};
use crate::japanese;
use crate::japanese::reader::{Flavor, MoveLines, State};
use crate::record::{self, Location, TerminalKind};
use crate::text::sink::Sink;
use crate::text::syntax::column;
use crate::text::{Finding, MoveEvent, RawMove, Rule, Visitor, WrittenText};

/// KIF in the shared line reader.
pub(crate) struct Kif;

impl MoveLines for Kif {
    const FLAVOR: Flavor = Flavor::Kif;

    fn is_move_line(line: &str) -> bool {
        grammar::is_move_line(line)
    }

    fn move_line<V: Visitor + ?Sized>(st: &mut State, out: &mut Sink<V>, line_no: u32, line: &str) {
        st.content = true;
        st.start(out);
        let pending = st.pending_variation.take();
        let ml = match grammar::kif_line(line) {
            Ok(m) => m,
            Err(e) => {
                if !st.skipping {
                    st.syntax(out, line_no, line, e);
                    st.stop();
                }
                return;
            }
        };
        let col = column(line, ml.body_offset);
        take_line(st, out, line_no, line, ml, ml.written.into(), col, pending);
    }

    fn text_line<V: Visitor + ?Sized>(
        st: &mut State,
        out: &mut Sink<V>,
        line_no: u32,
        line: &str,
    ) -> bool {
        // As in `raw_line`: a line that starts with a move number, inside
        // the moves, goes straight to `move_line`, which reads it so.
        if !st.started || st.skipping || st.pending_variation.is_some() {
            return false;
        }
        match grammar::kif_line_utf8(line) {
            Some((ml, col)) => {
                st.content = true;
                take_line(st, out, line_no, line, ml, ml.written.into(), col, None);
                true
            }
            None => false,
        }
    }

    fn raw_line<V: Visitor + ?Sized>(
        st: &mut State,
        out: &mut Sink<V>,
        line_no: u32,
        bytes: &[u8],
    ) -> bool {
        // Only inside the moves, with nothing pending: the checks
        // `State::line` makes before the move lines cannot match a line
        // that starts with a move number then.
        if !st.started || st.skipping || st.pending_variation.is_some() {
            return false;
        }
        match grammar::kif_line_sjis(bytes) {
            Some((ml, written, col)) => {
                st.content = true;
                // No finding of this line needs a column inside the line
                // but the move text's (the line has no trailing text, and
                // column 1 is the move number's): the move text is kept
                // undecoded, and decoded only if a finding or a stored
                // record needs it.
                take_line(
                    st,
                    out,
                    line_no,
                    "",
                    ml,
                    WrittenText::shift_jis(written),
                    col,
                    None,
                );
                true
            }
            None => false,
        }
    }
}

/// Reads a parsed KIF move line into the state; `written` is its move
/// text, `col` the move text's column, `pending` a bare `変化：` waiting
/// for this line's number.
#[allow(clippy::too_many_arguments)]
#[inline]
fn take_line<V: Visitor + ?Sized>(
    st: &mut State,
    out: &mut Sink<V>,
    line_no: u32,
    line: &str,
    ml: grammar::KifLine<'_>,
    written: WrittenText<'_>,
    col: u32,
    pending: Option<Location>,
) {
    {
        if let Some(at) = pending {
            st.dialect(
                out,
                at.line,
                at.column,
                format!(
                    "`変化：` without a move number; the block's first move ({}) gives it",
                    ml.number
                ),
            );
            st.variation(out, ml.number, at);
        }
        if st.skipping {
            return;
        }
        if let Some(off) = ml.trailing {
            st.dialect(
                out,
                line_no,
                column(line, off),
                format!(
                    "ignored text after the move: `{}`",
                    record::written(&line[off..])
                ),
            );
        }
        let loc = Location::new(line_no, col);
        let top = *st.top();
        if top.stopped {
            return;
        }
        let is_main = st.lines.len() == 1;
        let len = top.len + u32::from(top.terminal);
        let expected = top.start as u64 + len as u64;
        if ml.number as u64 != expected {
            if is_main && len == 0 && !st.base_fixed && ml.number >= 1 {
                // A record that starts from a diagram without 手数＝N.
                st.base = ml.number - 1;
                st.base_fixed = true;
                st.top().start = ml.number;
            } else if !is_main && len == 0 {
                st.dialect(
                    out,
                    line_no,
                    column(line, 0),
                    format!(
                        "the first move of `変化：{expected}手` is numbered {}; the 変化 number is used",
                        ml.number
                    ),
                );
            } else {
                out.finding(Finding::error(
                    Rule::Syntax,
                    Location::new(line_no, column(line, 0)),
                    format!("expected move number {expected}, found {}", ml.number),
                ));
                st.stop();
                return;
            }
        }
        st.base_fixed = true;
        if top.terminal {
            match ml.body {
                Body::Terminal(w) => st.dialect(
                    out,
                    line_no,
                    loc.column,
                    format!("a second terminal `{w}` after the line ended is ignored"),
                ),
                Body::Move(mt) => {
                    // The resolver reports it (`after-end`); the line ends.
                    out.movement(&MoveEvent {
                        raw: RawMove::Japanese(mt, ml.mark),
                        written,
                        at: loc,
                    });
                    st.stop();
                }
            }
            return;
        }
        match ml.body {
            Body::Move(mt) => st.push_move(
                out,
                mt,
                ml.mark,
                written,
                ml.time,
                loc,
                line_no,
                line,
                ml.body_offset,
            ),
            Body::Terminal(w) => {
                let side_named = japanese::side_terminal(w).and_then(|(side, word)| {
                    japanese::terminal_from_word(word).map(|k| (side, word, k))
                });
                if let Some((side, word, k)) = side_named {
                    let to_move = st.to_move();
                    let kind = match japanese::side_terminal_kind(side, k, to_move) {
                        Some(k) => {
                            st.dialect(
                                out,
                                line_no,
                                loc.column,
                                format!(
                                    "the side is named before the terminal word `{word}` (Shogi Club 24)"
                                ),
                            );
                            k
                        }
                        None => {
                            st.dialect(
                                out,
                                line_no,
                                loc.column,
                                format!(
                                    "`{w}` names {side}, but {to_move} is to move; the terminal is kept as written"
                                ),
                            );
                            TerminalKind::Other(w.to_string())
                        }
                    };
                    st.set_terminal(out, kind, ml.time, loc);
                    return;
                }
                let kind = match japanese::terminal_from_word(w) {
                    Some(k) => k,
                    None if w.contains('\u{fffd}') => {
                        out.finding(Finding::error(
                            Rule::Syntax,
                            loc,
                            "the move text is U+FFFD replacement characters: the file was damaged by a lossy re-encoding",
                        ));
                        st.stop();
                        return;
                    }
                    None if japanese::terminal_from_english(w).is_some() => {
                        st.dialect(
                            out,
                            line_no,
                            loc.column,
                            format!("English terminal word `{w}` (81Dojo)"),
                        );
                        japanese::terminal_from_english(w).unwrap_or(TerminalKind::Abort)
                    }
                    None => {
                        st.dialect(
                            out,
                            line_no,
                            loc.column,
                            format!("unknown terminal word `{w}` kept as it is"),
                        );
                        TerminalKind::Other(w.to_string())
                    }
                };
                st.set_terminal(out, kind, ml.time, loc);
            }
        }
    }
}
