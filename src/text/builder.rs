//! [`RecordBuilder`]: the visitor that builds [`Game`]s. The only code that
//! grows the variation tree of a [`Record`].

use super::resolve::LineCursor;
use super::visitor::{Flow, MoveEvent, Visitor, CONTINUE};
use super::{Finding, Game};
use crate::record::{
    HeaderKey, Line, Location, MoveTime, Node, Record, ResultClaim, Start, Stop, Terminal,
    TerminalKind,
};

/// A variation being built.
#[derive(Debug)]
struct OpenLine {
    line: Line,
    /// Index, in the parent line, of the move this line replaces.
    branch: usize,
    /// Comments read before the line's first move.
    pending: Vec<String>,
}

/// Builds a [`Game`] (record and reader findings) from the events of a
/// reader; what [`crate::read::Reader::games`] uses. Moves are resolved
/// against their position ([`crate::text::RawMove::to_move`]) but not judged:
/// a record may hold illegal moves, for the validator to find.
#[derive(Debug, Default)]
pub struct RecordBuilder {
    index: usize,
    record: Record,
    findings: Vec<Finding>,
    cursor: LineCursor,
    open: Vec<OpenLine>,
    /// The cursor stands at the game's start position.
    started: bool,
}

impl RecordBuilder {
    /// A builder.
    pub fn new() -> RecordBuilder {
        RecordBuilder::default()
    }

    /// Places the cursor at the default start when the reader sent none.
    fn ensure_started(&mut self) {
        if !self.started {
            self.started = true;
            self.cursor.reset(&self.record.start.setup, None);
        }
    }

    fn line(&mut self) -> &mut Line {
        match self.open.last_mut() {
            Some(o) => &mut o.line,
            None => &mut self.record.main,
        }
    }
}

/// Appends to a list that is usually short (a move's comments, its
/// variations): the first entry gets room for itself only, so that a
/// record of many one-comment moves or one-move variations holds no spare
/// room for three more in each.
fn push_few<T>(list: &mut Vec<T>, item: T) {
    if list.capacity() == 0 {
        list.reserve_exact(1);
    }
    list.push(item);
}

impl Visitor for RecordBuilder {
    type Output = Game;

    fn begin_game(&mut self, index: usize) -> Flow {
        self.index = index;
        self.record = Record::default();
        self.findings.clear();
        self.open.clear();
        self.started = false;
        CONTINUE
    }

    fn finding(&mut self, finding: Finding) -> Flow {
        self.findings.push(finding);
        CONTINUE
    }

    fn header(&mut self, key: &HeaderKey, value: &str, _at: Location) -> Flow {
        self.record.header.push(key.clone(), value);
        CONTINUE
    }

    fn start(&mut self, start: &Start) -> Flow {
        self.record.start = start.clone();
        self.cursor.reset(&start.setup, None);
        self.started = true;
        CONTINUE
    }

    fn comment(&mut self, text: &str, _at: Location) -> Flow {
        let text = text.to_string();
        let is_main = self.open.is_empty();
        let line = self.line();
        if let Some(t) = line.terminal.as_mut() {
            push_few(&mut t.comments, text);
        } else if let Some(n) = line.moves.last_mut() {
            push_few(&mut n.comments, text);
        } else if is_main {
            self.record.initial_comments.push(text);
        } else if let Some(o) = self.open.last_mut() {
            o.pending.push(text);
        }
        CONTINUE
    }

    fn movement(&mut self, ev: &MoveEvent<'_>) -> Flow {
        self.ensure_started();
        if self.cursor.top().stopped {
            if let Some(s) = self.line().stop.as_mut() {
                s.after += 1;
            }
            return CONTINUE;
        }
        match self.cursor.resolve(&ev.raw, ev.written, ev.at) {
            Ok((r, warning)) => {
                self.findings.extend(warning.map(|f| *f));
                self.cursor.play(r.mv);
                let mut node = Node::new(r.mv, ev.at);
                node.role = r.role;
                node.color = r.color;
                node.written = ev.written.to_written();
                if let Some(o) = self.open.last_mut() {
                    node.comments = std::mem::take(&mut o.pending);
                }
                self.line().moves.push(node);
            }
            Err(f) => {
                self.findings.extend(f.map(|f| *f));
                let top = self.cursor.top();
                if top.stopped {
                    let after_terminal = top.terminal;
                    self.line().stop = Some(Stop {
                        written: ev.written.text().into_owned(),
                        location: ev.at,
                        after: 0,
                        after_terminal,
                    });
                }
            }
        }
        CONTINUE
    }

    fn time(&mut self, time: MoveTime, _at: Location) -> Flow {
        self.ensure_started();
        if self.cursor.top().stopped {
            return CONTINUE;
        }
        let line = self.line();
        if let Some(t) = line.terminal.as_mut() {
            t.time = time;
        } else if let Some(n) = line.moves.last_mut() {
            n.time = time;
        }
        CONTINUE
    }

    fn begin_variation(&mut self, ply: u32, at: Location) -> Flow {
        self.ensure_started();
        let start = self.cursor.top().start_ply;
        if let Err(f) = self.cursor.begin_variation(ply, at) {
            self.findings.push(*f);
        }
        self.open.push(OpenLine {
            line: Line::default(),
            branch: ply.saturating_sub(start) as usize,
            pending: Vec::new(),
        });
        CONTINUE
    }

    fn end_variation(&mut self) -> Flow {
        let Some(mut o) = self.open.pop() else {
            return CONTINUE;
        };
        // A closed variation grows no more: no spare room is kept.
        o.line.moves.shrink_to_fit();
        self.cursor.end_variation();
        let parent = self.line();
        if let Some(node) = parent.moves.get_mut(o.branch) {
            if !o.line.moves.is_empty() || o.line.terminal.is_some() || o.line.stop.is_some() {
                push_few(&mut node.variations, o.line);
            }
            node.comments.extend(o.pending);
        }
        CONTINUE
    }

    fn terminal(&mut self, kind: &TerminalKind, at: Location) -> Flow {
        self.ensure_started();
        let top = self.cursor.top_mut();
        if top.terminal {
            return CONTINUE;
        }
        // A line stopped at a move the resolver could not place still keeps
        // its terminal: it tells how the record ends the game, as the
        // streaming validator reads it.
        top.terminal = true;
        let comments = match self.open.last_mut() {
            Some(o) => std::mem::take(&mut o.pending),
            None => Vec::new(),
        };
        self.line().terminal = Some(Terminal {
            kind: kind.clone(),
            time: MoveTime::default(),
            comments,
            location: at,
        });
        CONTINUE
    }

    fn claim(&mut self, claim: &ResultClaim) -> Flow {
        self.record.claim = Some(claim.clone());
        CONTINUE
    }

    fn end_game(&mut self) -> Game {
        while !self.open.is_empty() {
            let _ = self.end_variation();
        }
        Game {
            index: self.index,
            record: std::mem::take(&mut self.record),
            findings: std::mem::take(&mut self.findings),
        }
    }
}
