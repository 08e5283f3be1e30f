//! What a per-game analysis implements: [`Observer`], called by the one
//! driver ([`super::Replay`]) with what it needs of the game.

use crate::read::{Finding, Flow, CONTINUE};
use crate::record::{HeaderKey, MoveTime, Start, TerminalKind};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::tags::{GameTags, Taxonomy};
use crate::validate::{GameReport, Played};

/// How a game ended, as every observer sees it at [`Observer::end`]: the
/// validator's report and, when the replay names games, the names.
#[derive(Clone, Copy, Debug)]
pub struct Ended<'a> {
    /// The validator's verdict on the game.
    pub report: &'a GameReport,
    /// The openings, castles and style found (run once per game by the
    /// replay, shared by every observer); `None` when the replay does not
    /// name games ([`super::Replay::with_names`]).
    pub tags: Option<&'a GameTags>,
    /// The taxonomy the names come from (with `tags`).
    pub taxonomy: Option<&'a Taxonomy>,
}

/// One per-game analysis, driven by a [`super::Replay`]: every method has a
/// do-nothing default but [`Observer::end`]. The replay plays every move
/// once; an observer is told what it needs and never owns the validator.
///
/// Calls for one game, in this order: `begin`, then `finding`s and
/// `header`s, `start` once (a default start when the record gives none),
/// then, in source order, `playing`/`played` (a legal main-line move),
/// `unplayed` (a main-line move that is not played legally), `time` (of
/// the main-line move just played), `comment`, `variation` and
/// `terminal`; last `end`. Moves of variations are played by the validator
/// but not shown. Any method but `end` may return [`crate::read::SKIP`]:
/// the replay then stops playing and showing the game (it still takes the
/// reader's findings, so that every read error is reported) and goes to
/// `end`.
///
/// Observers compose statically: a tuple of observers is an observer
/// whose output is the tuple of outputs (every member sees every call;
/// one `SKIP` stops them all), and `Option<O>` is one that may be absent.
pub trait Observer {
    /// What the observer makes of one game.
    type Output;

    /// A game begins (`index` is 0-based in the input): reset per-game
    /// state here.
    fn begin(&mut self, index: usize) -> Flow {
        let _ = index;
        CONTINUE
    }

    /// Something the reader found wrong, tolerated or could not read.
    fn finding(&mut self, finding: &Finding) -> Flow {
        let _ = finding;
        CONTINUE
    }

    /// A header entry (value trimmed).
    fn header(&mut self, key: &HeaderKey, value: &str) -> Flow {
        let _ = (key, value);
        CONTINUE
    }

    /// The start, and the position it gives.
    fn start(&mut self, start: &Start, pos: &Position) -> Flow {
        let _ = (start, pos);
        CONTINUE
    }

    /// A legal main-line move is about to be played in `before`.
    fn playing(&mut self, before: &Position, mv: Move) -> Flow {
        let _ = (before, mv);
        CONTINUE
    }

    /// A legal main-line move was played: what it did, and the position
    /// after it.
    fn played(&mut self, played: &Played, after: &Position) -> Flow {
        let _ = (played, after);
        CONTINUE
    }

    /// A main-line move was not played (illegal, not understood, or after
    /// the line stopped).
    fn unplayed(&mut self) -> Flow {
        CONTINUE
    }

    /// The time of the main-line move just played.
    fn time(&mut self, time: MoveTime) -> Flow {
        let _ = time;
        CONTINUE
    }

    /// A comment line; `main` when it belongs to the main line.
    fn comment(&mut self, text: &str, main: bool) -> Flow {
        let _ = (text, main);
        CONTINUE
    }

    /// A variation begins.
    fn variation(&mut self) -> Flow {
        CONTINUE
    }

    /// A line's terminal event; `main` for the main line's.
    fn terminal(&mut self, kind: &TerminalKind, main: bool) -> Flow {
        let _ = (kind, main);
        CONTINUE
    }

    /// The game ends.
    fn end(&mut self, ended: &Ended<'_>) -> Self::Output;
}

/// `SKIP` when either flow is.
#[inline(always)]
fn both(a: Flow, b: Flow) -> Flow {
    if a.is_break() || b.is_break() {
        crate::read::SKIP
    } else {
        CONTINUE
    }
}

/// Nothing to observe: the replay's output is the report alone.
impl Observer for () {
    type Output = ();
    #[inline(always)]
    fn end(&mut self, _: &Ended<'_>) {}
}

/// Keeps the names the replay found, spelled out
/// ([`crate::tags::NamesView`]; `None` when the replay names nothing).
#[derive(Clone, Copy, Debug, Default)]
pub struct Names;

impl Observer for Names {
    type Output = Option<crate::tags::NamesView>;
    fn end(&mut self, ended: &Ended<'_>) -> Self::Output {
        match (ended.tags, ended.taxonomy) {
            (Some(tags), Some(tax)) => Some(crate::tags::NamesView::new(tags, tax)),
            _ => None,
        }
    }
}

/// An observer that may be absent (its output is then `None`).
impl<O: Observer> Observer for Option<O> {
    type Output = Option<O::Output>;
    #[inline(always)]
    fn begin(&mut self, index: usize) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.begin(index))
    }
    #[inline(always)]
    fn finding(&mut self, finding: &Finding) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.finding(finding))
    }
    #[inline(always)]
    fn header(&mut self, key: &HeaderKey, value: &str) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.header(key, value))
    }
    #[inline(always)]
    fn start(&mut self, start: &Start, pos: &Position) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.start(start, pos))
    }
    #[inline(always)]
    fn playing(&mut self, before: &Position, mv: Move) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.playing(before, mv))
    }
    #[inline(always)]
    fn played(&mut self, played: &Played, after: &Position) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.played(played, after))
    }
    #[inline(always)]
    fn unplayed(&mut self) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.unplayed())
    }
    #[inline(always)]
    fn time(&mut self, time: MoveTime) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.time(time))
    }
    #[inline(always)]
    fn comment(&mut self, text: &str, main: bool) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.comment(text, main))
    }
    #[inline(always)]
    fn variation(&mut self) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.variation())
    }
    #[inline(always)]
    fn terminal(&mut self, kind: &TerminalKind, main: bool) -> Flow {
        self.as_mut().map_or(CONTINUE, |o| o.terminal(kind, main))
    }
    #[inline(always)]
    fn end(&mut self, ended: &Ended<'_>) -> Option<O::Output> {
        self.as_mut().map(|o| o.end(ended))
    }
}

/// Observers side by side: every call goes to each, in order.
macro_rules! tuple_observer {
    ($($name:ident $i:tt),+) => {
        impl<$($name: Observer),+> Observer for ($($name,)+) {
            type Output = ($($name::Output,)+);
            #[inline(always)]
            fn begin(&mut self, index: usize) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.begin(index));)+
                f
            }
            #[inline(always)]
            fn finding(&mut self, finding: &Finding) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.finding(finding));)+
                f
            }
            #[inline(always)]
            fn header(&mut self, key: &HeaderKey, value: &str) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.header(key, value));)+
                f
            }
            #[inline(always)]
            fn start(&mut self, start: &Start, pos: &Position) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.start(start, pos));)+
                f
            }
            #[inline(always)]
            fn playing(&mut self, before: &Position, mv: Move) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.playing(before, mv));)+
                f
            }
            #[inline(always)]
            fn played(&mut self, played: &Played, after: &Position) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.played(played, after));)+
                f
            }
            #[inline(always)]
            fn unplayed(&mut self) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.unplayed());)+
                f
            }
            #[inline(always)]
            fn time(&mut self, time: MoveTime) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.time(time));)+
                f
            }
            #[inline(always)]
            fn comment(&mut self, text: &str, main: bool) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.comment(text, main));)+
                f
            }
            #[inline(always)]
            fn variation(&mut self) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.variation());)+
                f
            }
            #[inline(always)]
            fn terminal(&mut self, kind: &TerminalKind, main: bool) -> Flow {
                let mut f = CONTINUE;
                $(f = both(f, self.$i.terminal(kind, main));)+
                f
            }
            #[inline(always)]
            fn end(&mut self, ended: &Ended<'_>) -> Self::Output {
                ($(self.$i.end(ended),)+)
            }
        }
    };
}

tuple_observer!(A 0, B 1);
tuple_observer!(A 0, B 1, C 2);
tuple_observer!(A 0, B 1, C 2, D 3);
