//! KI2 move lines in the shared line reader ([`crate::japanese::reader`]):
//! ▲/△ tokens, several to a line.

use super::grammar::{self, Body};
use crate::japanese;
use crate::japanese::reader::{Flavor, MoveLines, State};
use crate::record::Location;
use crate::text::sink::Sink;
use crate::text::{Finding, MoveEvent, RawMove, Rule, Visitor};

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
}
