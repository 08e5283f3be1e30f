//! The event stream between a reader and what consumes it.
//!
//! A reader turns the text of a record into calls on a [`Visitor`], in
//! source order, and knows nothing of positions or legality:
//!
//! ```text
//! begin_game
//!   finding* header* start comment*
//!   ( movement time? comment*
//!   | begin_variation … end_variation
//!   | terminal time? comment*
//!   | claim | finding )*
//! end_game
//! ```
//!
//! - `start` comes once, before the first move, variation or terminal (a
//!   reader sends the default start when the text gives none).
//! - A `comment` belongs to what came last in the current line: the move,
//!   the terminal, or (before any move) the start or the variation.
//! - `time` belongs to the last move or terminal of the current line.
//! - `begin_variation(ply)` opens a line that replaces move `ply` (1-based in
//!   the game) of the line being read; lines nest, and `end_variation`
//!   closes the innermost. Readers close every variation they open.
//! - Every method but [`Visitor::end_game`] returns [`Flow`]:
//!   `Break` from `begin_variation` skips that variation (the reader sends
//!   nothing up to its `end_variation`, which is not sent either); `Break`
//!   from any other method skips the rest of the game, and the reader goes
//!   straight to `end_game`.
//!
//! Visitors that come with the library: [`crate::text::RecordBuilder`]
//! (builds [`crate::text::Game`]s), [`crate::validate::Validator`] and
//! [`crate::replay::Replay`] (the driver of every per-game analysis).

use super::resolve::RawMove;
pub use super::written::WrittenText;
use super::Finding;
use crate::record::{HeaderKey, Location, MoveTime, ResultClaim, Start, TerminalKind};
use std::ops::ControlFlow;

/// What a visitor tells the reader after an event: go on, or skip (see the
/// [module docs](self)).
pub type Flow = ControlFlow<()>;

/// Go on reading.
pub const CONTINUE: Flow = ControlFlow::Continue(());

/// Skip the rest of the game (or, from `begin_variation`, the variation).
pub const SKIP: Flow = ControlFlow::Break(());

/// A move as the reader found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEvent<'a> {
    /// The move, as syntax.
    pub raw: RawMove,
    /// The move as written (for diagnostics and [`crate::record::Node::written`]).
    pub written: WrittenText<'a>,
    /// Where it is.
    pub at: Location,
}

/// Receives the events of a game (see the [module docs](self) for their
/// order). Every method has a do-nothing default except
/// [`Visitor::end_game`].
///
/// ```
/// use kifu::read::{Flow, MoveEvent, Reader, Visitor, CONTINUE};
///
/// /// Counts main-line moves without building a record.
/// struct Count { depth: u32, moves: u32 }
/// impl Visitor for Count {
///     type Output = u32;
///     fn begin_game(&mut self, _index: usize) -> Flow {
///         self.moves = 0;
///         CONTINUE
///     }
///     fn begin_variation(&mut self, _ply: u32, _at: kifu::record::Location) -> Flow {
///         kifu::read::SKIP // not interested
///     }
///     fn movement(&mut self, _mv: &MoveEvent<'_>) -> Flow {
///         self.moves += 1;
///         CONTINUE
///     }
///     fn end_game(&mut self) -> u32 {
///         self.moves
///     }
/// }
///
/// let text = b"PI\n+\n+7776FU\n-3334FU\n/\nPI\n+\n+2726FU\n";
/// let mut reader = Reader::new(&text[..]).unwrap();
/// let mut count = Count { depth: 0, moves: 0 };
/// assert_eq!(reader.read_game(&mut count), Some(2));
/// assert_eq!(reader.read_game(&mut count), Some(1));
/// assert_eq!(reader.read_game(&mut count), None);
/// ```
pub trait Visitor {
    /// What the visitor makes of one game.
    type Output;

    /// A game begins (`index` is 0-based in the input).
    fn begin_game(&mut self, index: usize) -> Flow {
        let _ = index;
        CONTINUE
    }

    /// Something the reader found wrong, tolerated or could not read
    /// (rules `syntax`, `encoding`, `dialect`, `setup`, `empty`, `io`).
    fn finding(&mut self, finding: Finding) -> Flow {
        let _ = finding;
        CONTINUE
    }

    /// A header entry (value trimmed).
    fn header(&mut self, key: &HeaderKey, value: &str, at: Location) -> Flow {
        let _ = (key, value, at);
        CONTINUE
    }

    /// The start position.
    fn start(&mut self, start: &Start) -> Flow {
        let _ = start;
        CONTINUE
    }

    /// A comment (one line of it).
    fn comment(&mut self, text: &str, at: Location) -> Flow {
        let _ = (text, at);
        CONTINUE
    }

    /// A move.
    fn movement(&mut self, mv: &MoveEvent<'_>) -> Flow {
        let _ = mv;
        CONTINUE
    }

    /// The time of the last move or terminal.
    fn time(&mut self, time: MoveTime, at: Location) -> Flow {
        let _ = (time, at);
        CONTINUE
    }

    /// A line that replaces move `ply` of the current line begins.
    fn begin_variation(&mut self, ply: u32, at: Location) -> Flow {
        let _ = (ply, at);
        CONTINUE
    }

    /// The innermost variation ends.
    fn end_variation(&mut self) -> Flow {
        CONTINUE
    }

    /// The event that ends the current line (resignation, …).
    fn terminal(&mut self, kind: &TerminalKind, at: Location) -> Flow {
        let _ = (kind, at);
        CONTINUE
    }

    /// A result stated apart from the moves (KIF `まで` line, PSN `[Result]`).
    fn claim(&mut self, claim: &ResultClaim) -> Flow {
        let _ = claim;
        CONTINUE
    }

    /// The game ends.
    fn end_game(&mut self) -> Self::Output;
}

/// Sends the events of an already built game (its reader findings, then
/// the record) to a visitor, honouring skips. This is how a [`Game`] is
/// validated, and how formats read in one piece reach visitors.
///
/// [`Game`]: crate::text::Game
pub fn visit_game<V: Visitor + ?Sized>(game: &crate::text::Game, v: &mut V) -> V::Output {
    visit_parts(game.index, &game.findings, &game.record, v)
}

/// Like [`visit_game`], from the parts of a game.
pub fn visit_parts<V: Visitor + ?Sized>(
    index: usize,
    findings: &[Finding],
    record: &crate::record::Record,
    v: &mut V,
) -> V::Output {
    let _ = emit_game(index, findings, record, v);
    v.end_game()
}

fn emit_game<V: Visitor + ?Sized>(
    index: usize,
    findings: &[Finding],
    rec: &crate::record::Record,
    v: &mut V,
) -> Flow {
    use crate::record::Line;
    fn line<V: Visitor + ?Sized>(l: &Line, first_ply: u32, v: &mut V) -> Flow {
        for (i, node) in l.moves.iter().enumerate() {
            let ev = MoveEvent {
                raw: RawMove::Resolved {
                    mv: node.mv,
                    role: node.role,
                    color: node.color,
                },
                written: node.written.as_str().into(),
                at: node.location,
            };
            v.movement(&ev)?;
            if node.time != MoveTime::default() {
                v.time(node.time, node.location)?;
            }
            for c in &node.comments {
                v.comment(c, Location::default())?;
            }
            for var in &node.variations {
                let ply = first_ply + i as u32;
                if v.begin_variation(ply, Location::default()).is_continue() {
                    line(var, ply, v)?;
                    v.end_variation()?;
                }
            }
        }
        // The move the reader could not place, and the moves written after
        // it, on either side of the terminal as the text had them.
        let stop = |v: &mut V| -> Flow {
            if let Some(s) = &l.stop {
                let ev = MoveEvent {
                    raw: RawMove::Unplaced,
                    written: s.written.as_str().into(),
                    at: s.location,
                };
                for _ in 0..=s.after {
                    v.movement(&ev)?;
                }
            }
            CONTINUE
        };
        if l.stop.as_ref().is_some_and(|s| !s.after_terminal) {
            stop(v)?;
        }
        if let Some(t) = &l.terminal {
            v.terminal(&t.kind, t.location)?;
            if t.time != MoveTime::default() {
                v.time(t.time, t.location)?;
            }
            for c in &t.comments {
                v.comment(c, Location::default())?;
            }
        }
        if l.stop.as_ref().is_some_and(|s| s.after_terminal) {
            stop(v)?;
        }
        CONTINUE
    }
    v.begin_game(index)?;
    for f in findings {
        v.finding(f.clone())?;
    }
    for (k, val) in &rec.header.entries {
        v.header(k, val, Location::default())?;
    }
    v.start(&rec.start)?;
    for c in &rec.initial_comments {
        v.comment(c, Location::default())?;
    }
    line(&rec.main, 1, v)?;
    if let Some(c) = &rec.claim {
        v.claim(c)?;
    }
    CONTINUE
}
