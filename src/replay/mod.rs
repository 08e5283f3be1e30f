//! One replay, many observers: the driver every per-game analysis runs in.
//!
//! A [`Replay`] is the one [`Visitor`] that plays a game: it owns a
//! [`Validator`] (every move of every line resolved and played once,
//! findings, result, game key) and, when asked, a [`Tagger`] (the names
//! of openings and castles, found once per game). It hands an
//! [`Observer`] what it needs as the game is read: header entries, the
//! start, each legal main-line move with the position before it and after
//! it (references into the validator: nothing is copied), the times and
//! comments of the main line, and at the end the validator's report and
//! the names. Observers do not own the validator and do not forward
//! events; they compose statically (a tuple of observers is an observer),
//! so the calls inline. A replay is built once per worker and reset by
//! each game ([`Visitor::begin_game`]).
//!
//! The anchor is ripgrep's `grep-searcher`: one `Searcher` drives the
//! search and reports to a `Sink` that receives results rather than owning
//! the searcher.
//!
//! ```
//! use kifu::read::{Flow, Reader, CONTINUE};
//! use kifu::replay::{Ended, Observer, Replay};
//! use kifu::rules::Position;
//! use kifu::validate::{Played, ValidateOptions};
//!
//! /// Counts the captures of the main line.
//! #[derive(Default)]
//! struct Captures(u32);
//!
//! impl Observer for Captures {
//!     type Output = u32;
//!     fn begin(&mut self, _index: usize) -> Flow {
//!         self.0 = 0;
//!         CONTINUE
//!     }
//!     fn played(&mut self, p: &Played, _after: &Position) -> Flow {
//!         self.0 += p.captured.is_some() as u32;
//!         CONTINUE
//!     }
//!     fn end(&mut self, _ended: &Ended<'_>) -> u32 {
//!         self.0
//!     }
//! }
//!
//! let csa = b"PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n";
//! let mut replay = Replay::new(ValidateOptions::default(), Captures::default());
//! let game = Reader::new(&csa[..]).unwrap().read_game(&mut replay).unwrap();
//! assert_eq!((game.report.plies, game.output), (4, 2));
//! ```

mod observer;

pub use observer::{Ended, Names, Observer};

use crate::read::{Finding, Flow, MoveEvent, Visitor, CONTINUE};
use crate::record::{HeaderKey, Location, MoveTime, ResultClaim, Start, TerminalKind};
use crate::tags::{GameTags, Tagger, Taxonomy};
use crate::validate::{GameReport, ValidateOptions, Validator};

/// What a [`Replay`] makes of one game: the validator's report and the
/// observer's output.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed<T> {
    /// The validator's verdict (findings, result, plies, game key).
    pub report: GameReport,
    /// What the observer made of the game.
    pub output: T,
}

/// The driver (see the [module docs](self)): a [`Visitor`] whose output
/// for each game is a [`Replayed`].
#[derive(Debug)]
pub struct Replay<O> {
    validator: Validator,
    observer: O,
    /// Names the games, when asked (shared by every observer).
    tagger: Option<Tagger<'static>>,
    /// The last game's names (memory reused from game to game).
    tags: GameTags,
    /// Main-line moves shown to the tagger at most
    /// ([`Replay::with_names_until`]).
    name_plies: u32,
    /// Main-line moves played in this game.
    main_plies: u32,
    /// An observer stopped the game: only the reader's findings go on.
    stopped: bool,
    /// The observers were given the start.
    started: bool,
    /// The last event was a main-line move played: its time goes to the
    /// observers.
    timed: bool,
}

impl<O: Observer> Replay<O> {
    /// A replay judging with `opts` and showing the games to `observer`.
    pub fn new(opts: ValidateOptions, observer: O) -> Replay<O> {
        Replay {
            validator: Validator::new(opts),
            observer,
            tagger: None,
            tags: GameTags::default(),
            name_plies: u32::MAX,
            main_plies: 0,
            stopped: false,
            started: false,
            timed: false,
        }
    }

    /// Names each game's openings and castles from `taxonomy` (none with
    /// `None`, the default): the names reach every observer in
    /// [`Ended::tags`].
    pub fn with_names(mut self, taxonomy: Option<&'static Taxonomy>) -> Replay<O> {
        self.tagger = taxonomy.map(Tagger::new);
        self
    }

    /// Names only from the first `plies` main-line moves (default: all):
    /// a name found at ply `plies` or earlier is found as without the
    /// limit (a name's first ply depends on the moves up to it only);
    /// later ones, and the style, which looks at the whole game, are not.
    /// For an observer that uses the names of the first plies only (the
    /// opening tree), and only when no one else needs the rest.
    pub fn with_names_until(mut self, plies: u32) -> Replay<O> {
        self.name_plies = plies;
        self
    }

    /// Changes the validator's settings ([`Validator::with_final_sfen`],
    /// [`Validator::with_game_key`]).
    pub fn with_validator(mut self, f: impl FnOnce(Validator) -> Validator) -> Replay<O> {
        self.validator = f(self.validator);
        self
    }

    /// The observer.
    pub fn observer(&self) -> &O {
        &self.observer
    }

    /// The observer, to change its settings between games.
    pub fn observer_mut(&mut self) -> &mut O {
        &mut self.observer
    }

    /// Whether the replay names games.
    pub fn names(&self) -> bool {
        self.tagger.is_some()
    }

    /// Stops the game when an observer asked to.
    #[inline(always)]
    fn check(&mut self, flow: Flow) {
        if flow.is_break() {
            self.stopped = true;
        }
    }

    /// Gives the observers the start, a default one when the record gave
    /// none before its first move or its end.
    #[inline]
    fn ensure_started(&mut self) {
        if !self.started {
            self.start_default();
        }
    }

    #[cold]
    fn start_default(&mut self) {
        self.started = true;
        let start = Start::default();
        if let Some(t) = self.tagger.as_mut() {
            t.begin(&start.setup, start.handicap);
        }
        let flow = self.observer.start(&start, self.validator.next_position());
        self.check(flow);
    }
}

impl<O: Observer> Visitor for Replay<O> {
    type Output = Replayed<O::Output>;

    fn begin_game(&mut self, index: usize) -> Flow {
        self.stopped = false;
        self.started = false;
        self.timed = false;
        self.main_plies = 0;
        if let Some(t) = self.tagger.as_mut() {
            t.begin_even();
        }
        let _ = self.validator.begin_game(index);
        let flow = self.observer.begin(index);
        self.check(flow);
        CONTINUE
    }

    fn finding(&mut self, finding: Finding) -> Flow {
        // Even in a stopped game: every read error is reported.
        let flow = self.observer.finding(&finding);
        self.check(flow);
        self.validator.finding(finding)
    }

    fn header(&mut self, key: &HeaderKey, value: &str, at: Location) -> Flow {
        if self.stopped {
            return CONTINUE;
        }
        let _ = self.validator.header(key, value, at);
        let flow = self.observer.header(key, value);
        self.check(flow);
        CONTINUE
    }

    fn start(&mut self, start: &Start) -> Flow {
        if self.stopped || self.started {
            return CONTINUE;
        }
        self.started = true;
        if let Some(t) = self.tagger.as_mut() {
            t.begin(&start.setup, start.handicap);
        }
        let _ = self.validator.start(start);
        let flow = self.observer.start(start, self.validator.position());
        self.check(flow);
        CONTINUE
    }

    fn comment(&mut self, text: &str, at: Location) -> Flow {
        if self.stopped {
            return CONTINUE;
        }
        let main = self.validator.in_main_line();
        let flow = self.observer.comment(text, main);
        self.check(flow);
        self.validator.comment(text, at)
    }

    #[inline]
    fn movement(&mut self, mv: &MoveEvent<'_>) -> Flow {
        self.ensure_started();
        self.timed = false;
        if self.stopped {
            return CONTINUE;
        }
        if !self.validator.in_main_line() {
            return self.validator.movement(mv);
        }
        let mut flow = CONTINUE;
        let observer = &mut self.observer;
        let _ = self
            .validator
            .movement_hooked(mv, |before, m| flow = observer.playing(before, m));
        self.check(flow);
        let flow = match self.validator.last_played() {
            Some(p) => {
                let after = self.validator.position();
                self.main_plies += 1;
                if let Some(t) = self.tagger.as_mut() {
                    if t.wants_moves() && self.main_plies <= self.name_plies {
                        t.played(after, p.mv, p.role, p.captured);
                    }
                }
                self.timed = true;
                self.observer.played(p, after)
            }
            None => self.observer.unplayed(),
        };
        self.check(flow);
        CONTINUE
    }

    fn time(&mut self, time: MoveTime, at: Location) -> Flow {
        if self.stopped {
            return CONTINUE;
        }
        if std::mem::take(&mut self.timed) {
            let flow = self.observer.time(time);
            self.check(flow);
        }
        self.validator.time(time, at)
    }

    fn begin_variation(&mut self, ply: u32, at: Location) -> Flow {
        self.ensure_started();
        self.timed = false;
        if self.stopped {
            return CONTINUE;
        }
        let flow = self.observer.variation();
        self.check(flow);
        self.validator.begin_variation(ply, at)
    }

    fn end_variation(&mut self) -> Flow {
        if self.stopped {
            return CONTINUE;
        }
        self.validator.end_variation()
    }

    fn terminal(&mut self, kind: &TerminalKind, at: Location) -> Flow {
        self.ensure_started();
        self.timed = false;
        if self.stopped {
            return CONTINUE;
        }
        let main = self.validator.in_main_line();
        let flow = self.observer.terminal(kind, main);
        self.check(flow);
        self.validator.terminal(kind, at)
    }

    fn claim(&mut self, claim: &ResultClaim) -> Flow {
        if self.stopped {
            return CONTINUE;
        }
        self.validator.claim(claim)
    }

    fn end_game(&mut self) -> Replayed<O::Output> {
        self.ensure_started();
        let report = self.validator.end_game();
        let tags = match &self.tagger {
            Some(t) => {
                t.finish_into(&mut self.tags);
                Some(&self.tags)
            }
            None => None,
        };
        let output = self.observer.end(&Ended {
            report: &report,
            tags,
            taxonomy: self.tagger.as_ref().map(|t| t.taxonomy()),
        });
        Replayed { report, output }
    }
}

/// Replays a game already read (see [`crate::read::visit_game`]).
pub fn replay_game<O: Observer>(
    game: &crate::text::Game,
    replay: &mut Replay<O>,
) -> Replayed<O::Output> {
    crate::read::visit_game(game, replay)
}
