//! Choosing games: filters over players, event, dates, results, reasons,
//! handicaps, variants, lengths, opening moves and positions reached; the
//! game key that identifies a game whatever format it came in; copies of
//! the same game.
//!
//! A [`Selector`] is a [`Visitor`] wrapped around one that plays the game
//! through a [`Validator`] (a `Validator` itself, or a
//! [`crate::stats::StatsCollector`]): it forwards every event, reads the
//! header as it passes, and follows the main line through the validator
//! (one Zobrist key per ply for a position), so every move is still played
//! once. Its output is the inner visitor's, with a [`Verdict`].
//!
//! A game that fails to read (an error finding from the reader: `syntax`,
//! `encoding`, `io`, …) is flagged in [`Verdict::read_error`], matched or
//! not, so that no filter drops it silently.
//!
//! ```
//! use kifu::read::Reader;
//! use kifu::select::{Filter, PositionQuery, Selector};
//! use kifu::validate::{ValidateOptions, Validator};
//!
//! let mut f = Filter::default();
//! // After 2g2f 3c3d 7g7f, whichever order.
//! f.position = Some(PositionQuery::full(
//!     "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4",
//! ).unwrap());
//! let games = "PI\n+\n+2726FU\n-3334FU\n+7776FU\n/\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n/\nPI\n+\n+7776FU\n-8384FU\n";
//! let mut reader = Reader::new(games.as_bytes()).unwrap();
//! let mut sel = Selector::new(&f, Validator::new(ValidateOptions::default()));
//! let mut found = Vec::new();
//! while let Some(game) = reader.read_game(&mut sel) {
//!     found.push((game.verdict.matched, game.verdict.ply));
//! }
//! assert_eq!(found, [(true, Some(3)), (true, Some(3)), (false, None)]);
//! ```

mod date;
mod dup;
mod filter;
pub use crate::record::key;
mod text;

pub use date::{DateBound, DateSpan, Day};
pub use dup::{Dedupe, Duplicates, Group};
pub use filter::{
    handicap_id, parse_outcome, Filter, GameInfo, MovePrefix, PositionQuery, Reason, StartKind,
    REASONS, RESULTS,
};
pub use key::{GameKey, KeyHasher};
pub use text::{fold, fold_into, matched_part, Needle, MAX_MATCHED_CHARS};

use crate::read::{Finding, Flow, MoveEvent, Severity, Visitor, CONTINUE};
use crate::record::{HeaderKey, Location, MoveTime, Outcome, ResultClaim, Start, TerminalKind};
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::validate::{GameReport, Validator};

/// What a game came to, as a [`Selector`] needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary<'a> {
    /// Main-line plies replayed.
    pub plies: u32,
    /// No error finding.
    pub ok: bool,
    /// The result kifu established ([`GameReport::established_result`]):
    /// `Unknown` when a statement of it was judged false.
    pub outcome: Outcome,
    /// The end reason kifu established, if any (`None` when a statement
    /// of the result was judged false).
    pub reason: Option<&'a str>,
    /// The game key.
    pub key: GameKey,
}

impl Summary<'_> {
    /// What a validator's report says, with the result kifu established
    /// (a result whose statement was judged false is `Unknown`, without a
    /// reason).
    pub fn of(r: &GameReport) -> Summary<'_> {
        let established = r.established_result();
        Summary {
            plies: r.plies,
            ok: r.ok,
            outcome: established.map_or(Outcome::Unknown, |e| e.outcome),
            reason: established
                .and_then(|e| e.reason.as_deref())
                .filter(|s| !s.is_empty()),
            key: r.game_key,
        }
    }
}

/// A visitor that plays each game through a [`Validator`] it drives, so that
/// a [`Selector`] around it follows the moves without playing them again.
pub trait Replays: Visitor {
    /// The validator, in the state the last event left it.
    fn validator(&self) -> &Validator;
    /// What the game came to, from the visitor's output.
    fn summary(output: &Self::Output) -> Summary<'_>;
}

impl Replays for Validator {
    fn validator(&self) -> &Validator {
        self
    }

    fn summary(r: &GameReport) -> Summary<'_> {
        Summary::of(r)
    }
}

/// Whether a game is kept, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Every criterion of the filter holds.
    pub matched: bool,
    /// The reader reported an error in the game (it is never dropped
    /// silently: report it whether it matched or not).
    pub read_error: bool,
    /// The first ply (0 = the start) at which the main line stands in the
    /// position of [`Filter::position`], when it does.
    pub ply: Option<u32>,
    /// The header facts.
    pub info: GameInfo,
}

/// The output of a [`Selector`]: the inner visitor's, and the verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Selected<T> {
    /// What the inner visitor made of the game.
    pub output: T,
    /// Whether the filter keeps it.
    pub verdict: Verdict,
}

/// Where the header part of the filter stands in the current game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Header {
    /// Header entries may still come.
    Open,
    /// Decided: the header and start allow a match.
    Passed,
    /// Decided: no match possible.
    Failed,
}

/// Selects games as they are read (see the [module docs](self)): wraps a
/// visitor that [`Replays`] the game and adds a [`Verdict`] to its output.
#[derive(Debug)]
pub struct Selector<'f, V> {
    filter: &'f Filter,
    inner: V,
    drain: bool,
    info: GameInfo,
    header: Header,
    /// Rejected by the header: events other than findings are not passed on.
    draining: bool,
    read_error: bool,
    /// Legal main-line moves followed so far.
    main_ply: u32,
    /// The main line met a move that was not played legally: it is not
    /// followed further.
    main_stopped: bool,
    /// The main line departed from `filter.moves`.
    prefix_failed: bool,
    prefix: Option<&'f [Move]>,
    ply: Option<u32>,
    start: Option<Start>,
    /// Names the game when the filter asks for names.
    tagger: Option<crate::tags::Tagger<'static>>,
}

impl<'f, V: Replays> Selector<'f, V> {
    /// A selector applying `filter` around `inner`.
    pub fn new(filter: &'f Filter, inner: V) -> Selector<'f, V> {
        Selector {
            filter,
            inner,
            drain: false,
            info: GameInfo::default(),
            header: Header::Open,
            draining: false,
            read_error: false,
            main_ply: 0,
            main_stopped: false,
            prefix_failed: false,
            prefix: None,
            ply: None,
            start: None,
            tagger: (!filter.tags.is_empty())
                .then(|| crate::tags::Tagger::new(crate::tags::Taxonomy::builtin())),
        }
    }

    /// When the header and start already rule a game out, pass nothing but
    /// the reader's findings to the inner visitor for the rest of it (its
    /// moves are not played): for callers that use the inner output of
    /// games that do not match only to report read errors. The reader
    /// still reads the whole game, so its errors are all found.
    pub fn drain_rejected(mut self, yes: bool) -> Selector<'f, V> {
        self.drain = yes;
        self
    }

    /// The inner visitor.
    pub fn inner(&self) -> &V {
        &self.inner
    }

    /// The inner visitor, to change its settings between games.
    pub fn inner_mut(&mut self) -> &mut V {
        &mut self.inner
    }

    /// Decides the header part of the filter once the header is complete
    /// (at the start position, or the first event after it).
    fn decide_header(&mut self) {
        if self.header != Header::Open {
            return;
        }
        let start = self.start.take().unwrap_or_default();
        self.info.variant = start.setup.variant;
        self.info.handicap = start.handicap.or_else(|| Handicap::detect(&start.setup));
        let ok = self.filter.header_matches(&self.info);
        self.header = if ok { Header::Passed } else { Header::Failed };
        if !ok {
            self.draining = self.drain;
            return;
        }
        if let Some(m) = &self.filter.moves {
            self.prefix = m.moves(start.setup.variant);
            self.prefix_failed = self.prefix.is_none();
        }
        if let Some(q) = &self.filter.position {
            if q.matches(&Position::from_setup_unchecked(&start.setup)) {
                self.ply = Some(0);
            }
        }
        if let Some(t) = &mut self.tagger {
            t.begin(&start.setup, self.info.handicap);
        }
    }

    /// Whether the main line must still be followed.
    fn following(&self) -> bool {
        self.header == Header::Passed
            && !self.main_stopped
            && ((self.filter.position.is_some() && self.ply.is_none())
                || self
                    .prefix
                    .is_some_and(|p| !self.prefix_failed && (self.main_ply as usize) < p.len())
                || self.tagger.as_ref().is_some_and(|t| t.wants_moves()))
    }

    /// Follows a main-line move the inner visitor just received.
    fn follow(&mut self) {
        let v = self.inner.validator();
        if !v.in_main_line() {
            return;
        }
        let Some(played) = v.last_played() else {
            self.main_stopped = true;
            return;
        };
        let mv = played.mv;
        self.main_ply += 1;
        if let Some(t) = &mut self.tagger {
            t.played(v.position(), mv, played.role, played.captured);
        }
        if let Some(p) = self.prefix {
            if let Some(want) = p.get(self.main_ply as usize - 1) {
                if *want != mv {
                    self.prefix_failed = true;
                }
            }
        }
        if self.ply.is_none() {
            if let Some(q) = &self.filter.position {
                if q.matches(self.inner.validator().position()) {
                    self.ply = Some(self.main_ply);
                }
            }
        }
    }

    fn verdict(&self, s: Summary<'_>) -> bool {
        let f = self.filter;
        if self.header != Header::Passed {
            return false;
        }
        if f.valid.is_some_and(|want| want != s.ok)
            || (!f.result.is_empty() && !f.result.contains(&s.outcome))
            || (!f.reason.is_empty()
                && !s
                    .reason
                    .is_some_and(|r| f.reason.iter().any(|x| x.name() == r)))
            || f.min_plies.is_some_and(|n| s.plies < n)
            || f.max_plies.is_some_and(|n| s.plies > n)
            || (f.position.is_some() && self.ply.is_none())
        {
            return false;
        }
        if let Some(t) = &self.tagger {
            let names = t.finish();
            if !f.tags.iter().all(|set| names.any_in(set)) {
                return false;
            }
        }
        match (&f.moves, self.prefix) {
            (None, _) => true,
            (Some(_), Some(p)) => !self.prefix_failed && self.main_ply as usize >= p.len(),
            (Some(_), None) => false,
        }
    }
}

impl<V: Replays> Visitor for Selector<'_, V> {
    type Output = Selected<V::Output>;

    fn begin_game(&mut self, index: usize) -> Flow {
        self.info.sente.clear();
        self.info.gote.clear();
        self.info.event.clear();
        self.info.start_time.clear();
        self.header = Header::Open;
        self.draining = false;
        self.read_error = false;
        self.main_ply = 0;
        self.main_stopped = false;
        self.prefix_failed = false;
        self.prefix = None;
        self.ply = None;
        self.start = None;
        self.inner.begin_game(index)
    }

    fn finding(&mut self, finding: Finding) -> Flow {
        // Two statements of the result that contradict each other are a
        // false claim (the reader compares them), not text that fails to
        // read.
        if finding.severity == Severity::Error && finding.rule != crate::read::Rule::ClaimMismatch {
            self.read_error = true;
        }
        self.inner.finding(finding)
    }

    fn header(&mut self, key: &HeaderKey, value: &str, at: Location) -> Flow {
        let slot = match key {
            HeaderKey::Sente => Some(&mut self.info.sente),
            HeaderKey::Gote => Some(&mut self.info.gote),
            HeaderKey::Event => Some(&mut self.info.event),
            HeaderKey::StartTime => Some(&mut self.info.start_time),
            _ => None,
        };
        // The first entry of a key counts, as `Header::get` has it.
        if let Some(s) = slot.filter(|s| s.is_empty()) {
            s.push_str(value);
        }
        if self.draining {
            return CONTINUE;
        }
        self.inner.header(key, value, at)
    }

    fn start(&mut self, start: &Start) -> Flow {
        if self.header == Header::Open {
            self.start = Some(start.clone());
        }
        let flow = self.inner.start(start);
        self.decide_header();
        flow
    }

    fn comment(&mut self, text: &str, at: Location) -> Flow {
        if self.draining {
            return CONTINUE;
        }
        self.inner.comment(text, at)
    }

    fn movement(&mut self, mv: &MoveEvent<'_>) -> Flow {
        self.decide_header();
        if self.draining {
            return CONTINUE;
        }
        let flow = self.inner.movement(mv);
        if self.following() {
            self.follow();
        }
        flow
    }

    fn time(&mut self, time: MoveTime, at: Location) -> Flow {
        if self.draining {
            return CONTINUE;
        }
        self.inner.time(time, at)
    }

    fn begin_variation(&mut self, ply: u32, at: Location) -> Flow {
        self.decide_header();
        if self.draining {
            return CONTINUE;
        }
        self.inner.begin_variation(ply, at)
    }

    fn end_variation(&mut self) -> Flow {
        if self.draining {
            return CONTINUE;
        }
        self.inner.end_variation()
    }

    fn terminal(&mut self, kind: &TerminalKind, at: Location) -> Flow {
        self.decide_header();
        if self.draining {
            return CONTINUE;
        }
        self.inner.terminal(kind, at)
    }

    fn claim(&mut self, claim: &ResultClaim) -> Flow {
        if self.draining {
            return CONTINUE;
        }
        self.inner.claim(claim)
    }

    fn end_game(&mut self) -> Selected<V::Output> {
        self.decide_header();
        let output = self.inner.end_game();
        let matched = self.verdict(V::summary(&output));
        let info = std::mem::take(&mut self.info);
        Selected {
            output,
            verdict: Verdict {
                matched,
                read_error: self.read_error,
                ply: if matched { self.ply } else { None },
                info,
            },
        }
    }
}
