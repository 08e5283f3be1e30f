//! KI2 move lines in the shared line reader ([`crate::japanese::reader`]):
//! ▲/△ tokens, several to a line.

use super::fast::Ki2Vocab;
use super::grammar::{self, Body};
use crate::japanese;
use crate::japanese::reader::{Flavor, MoveLines, State};
use crate::record::Location;
use crate::text::sink::Sink;
use crate::text::{Finding, MoveEvent, RawMove, Rule, Visitor, WrittenText};

/// KI2 in the shared line reader.
pub(crate) struct Ki2;

impl MoveLines for Ki2 {
    const FLAVOR: Flavor = Flavor::Ki2;

    fn is_move_line(line: &str) -> bool {
        grammar::is_ki2_move_line(line)
    }

    fn move_line<V: Visitor + ?Sized>(st: &mut State, out: &mut Sink<V>, line_no: u32, line: &str) {
        st.content = true;
        st.start(out);
        if st.skipping {
            return;
        }
        // The plain line, read on its bytes.
        // The line's tokens go in the reader's vector (kept from line to
        // line); it is taken out while the tokens are sent.
        let mut toks = std::mem::take(&mut st.tokens);
        let fast = Ki2Vocab::utf8().line(line.as_bytes(), &mut toks);
        if fast {
            for t in &toks {
                if !take_token(st, out, line_no, t, line[t.start..t.end].into()) {
                    break;
                }
            }
        }
        st.tokens = toks;
        if fast {
            return;
        }
        let mut cols = crate::text::Columns::new(line);
        for tok in grammar::ki2_tokens(line) {
            let tok = match tok {
                Ok(tok) => tok,
                Err(e) => {
                    st.syntax(out, line_no, line, e);
                    st.stop();
                    return;
                }
            };
            let loc = Location::new(line_no, cols.at(tok.offset));
            let top = *st.top();
            if top.stopped {
                return;
            }
            if top.terminal {
                match tok.body {
                    Body::Terminal(w) => st.dialect(
                        out,
                        line_no,
                        loc.column,
                        format!("a second terminal `{w}` after the line ended is ignored"),
                    ),
                    Body::Move(mt) => {
                        // The resolver reports it (`after-end`); the line ends.
                        out.movement(&MoveEvent {
                            raw: RawMove::Japanese(mt, Some(tok.color)),
                            written: tok.written.into(),
                            at: loc,
                        });
                        st.stop();
                    }
                }
                return;
            }
            match tok.body {
                Body::Move(mt) => st.push_move(
                    out,
                    mt,
                    Some(tok.color),
                    tok.written,
                    None,
                    loc,
                    line_no,
                    line,
                    tok.offset,
                ),
                Body::Terminal(w) => match japanese::terminal_from_word(w) {
                    Some(k) => {
                        st.dialect(
                            out,
                            line_no,
                            loc.column,
                            format!("terminal word `{w}` written as a move"),
                        );
                        st.set_terminal(out, k, None, loc);
                    }
                    None => {
                        out.finding(Finding::error(
                            Rule::Syntax,
                            loc,
                            format!("expected a move, found `{w}`"),
                        ));
                        st.stop();
                        return;
                    }
                },
            }
        }
    }

    fn raw_line<V: Visitor + ?Sized>(
        st: &mut State,
        out: &mut Sink<V>,
        line_no: u32,
        bytes: &[u8],
    ) -> bool {
        // No check `State::line` makes before the move lines matches a
        // line that starts (after spaces) with a side mark, which a line
        // the fast path reads does.
        if st.skipping {
            return false;
        }
        let vocab = Ki2Vocab::sjis();
        let mut toks = std::mem::take(&mut st.tokens);
        if !vocab.line(bytes, &mut toks) {
            st.tokens = toks;
            return false;
        }
        st.content = true;
        st.start(out);
        // A move's text is kept as its bytes, decoded only when a finding
        // or a built record needs it.
        for t in &toks {
            let written = WrittenText::shift_jis(&bytes[t.start..t.end]);
            if !take_token(st, out, line_no, t, written) {
                break;
            }
        }
        st.tokens = toks;
        true
    }
}

/// Sends one move token the fast path read (`written`: its text);
/// `false` when the line takes no more moves.
fn take_token<V: Visitor + ?Sized>(
    st: &mut State,
    out: &mut Sink<V>,
    line_no: u32,
    t: &crate::text::notation::moves::MoveToken,
    written: WrittenText<'_>,
) -> bool {
    let loc = Location::new(line_no, t.col);
    let top = *st.top();
    if top.stopped {
        return false;
    }
    if top.terminal {
        // The resolver reports it (`after-end`); the line ends.
        out.movement(&MoveEvent {
            raw: RawMove::Japanese(t.mt, Some(t.color)),
            written,
            at: loc,
        });
        st.stop();
        return false;
    }
    // No finding of a KI2 move needs a column but the token's.
    // `line` and its offset serve only KIF's dialect columns.
    st.push_move(out, t.mt, Some(t.color), written, None, loc, line_no, "", 0);
    true
}
