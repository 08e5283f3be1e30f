//! Choosing games: filters over players, event, dates, results, reasons,
//! handicaps, variants, lengths, opening moves and positions reached; the
//! game key that identifies a game whatever format it came in; copies of
//! the same game.
//!
//! A [`Selector`] is an [`Observer`] of a [`crate::replay::Replay`]: it
//! reads the header as it passes and follows the main line the replay
//! plays (one Zobrist key per ply for a position), so every move is played
//! once whatever else observes the game; the names a filter asks for are
//! the replay's ([`crate::replay::Replay::with_names`]). Its output is a
//! [`Verdict`].
//!
//! A game that fails to read (an error finding from the reader: `syntax`,
//! `encoding`, `io`, …) is flagged in [`Verdict::read_error`], matched or
//! not, so that no filter drops it silently.
//!
//! ```
//! use kifu::read::Reader;
//! use kifu::replay::Replay;
//! use kifu::select::{Filter, PositionQuery, Selector};
//! use kifu::validate::ValidateOptions;
//!
//! let mut f = Filter::default();
//! // After 2g2f 3c3d 7g7f, whichever order.
//! f.position = Some(PositionQuery::full(
//!     "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4",
//! ).unwrap());
//! let games = "PI\n+\n+2726FU\n-3334FU\n+7776FU\n/\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n/\nPI\n+\n+7776FU\n-8384FU\n";
//! let mut reader = Reader::new(games.as_bytes()).unwrap();
//! let mut sel = Replay::new(ValidateOptions::default(), Selector::new(&f));
//! let mut found = Vec::new();
//! while let Some(game) = reader.read_game(&mut sel) {
//!     found.push((game.output.matched, game.output.ply));
//! }
//! assert_eq!(found, [(true, Some(3)), (true, Some(3)), (false, None)]);
//! ```

mod contained;
mod date;
mod dup;
mod filter;
mod pattern;
pub use crate::record::key;
mod text;

pub use contained::{Contained, ContainedGame, ContainedGroup, MainLine, MainMoves};
pub use date::{DateBound, DateSpan, Day};
pub use dup::{Dedupe, Duplicates, Group};
pub use filter::{
    handicap_id, parse_outcome, Filter, GameInfo, MovePrefix, PositionQuery, Reason, StartKind,
    REASONS, RESULTS,
};
pub use key::{GameKey, KeyHasher};
pub use pattern::{
    PatternFilter, PatternQuery, PatternQueryError, PatternSide, PlyRange, MAX_PATTERNS,
};
pub use text::{fold, fold_into, matched_part, Needle, MAX_MATCHED_CHARS};

use crate::read::{Finding, Flow, Severity, CONTINUE, SKIP};
use crate::record::{HeaderKey, Outcome, Start};
use crate::replay::{Ended, Observer};
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::validate::{GameReport, Played};

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
    /// The first ply by which every pattern of [`Filter::pattern`] held
    /// (each holds at some ply up to it), when the filter has patterns.
    pub pattern_ply: Option<u32>,
    /// The header facts.
    pub info: GameInfo,
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

/// Selects games as they are read (see the [module docs](self)): an
/// [`Observer`] whose output is the game's [`Verdict`].
#[derive(Debug)]
pub struct Selector<'f> {
    filter: &'f Filter,
    stop: bool,
    info: GameInfo,
    header: Header,
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
    pattern: pattern::PatternWatch,
}

impl<'f> Selector<'f> {
    /// A selector applying `filter`.
    pub fn new(filter: &'f Filter) -> Selector<'f> {
        Selector {
            filter,
            stop: false,
            info: GameInfo::default(),
            header: Header::Open,
            read_error: false,
            main_ply: 0,
            main_stopped: false,
            prefix_failed: false,
            prefix: None,
            ply: None,
            pattern: pattern::PatternWatch::default(),
        }
    }

    /// When the header and start already rule a game out, stop the game
    /// there (its moves are not played; the replay still takes the
    /// reader's findings, so that its read errors are all found): for
    /// callers that use the output of games that do not match only to
    /// report read errors.
    pub fn stop_rejected(mut self, yes: bool) -> Selector<'f> {
        self.stop = yes;
        self
    }

    /// Whether the filter needs the names of openings and castles (the
    /// replay must then name games: [`crate::replay::Replay::with_names`]).
    pub fn needs_names(&self) -> bool {
        !self.filter.tags.is_empty()
    }

    /// Decides the header part of the filter once the header is complete
    /// (at the start): `SKIP` when it rules the game out and rejected
    /// games stop.
    fn decide_header(&mut self, start: &Start, pos: &Position) -> Flow {
        self.info.variant = start.setup.variant;
        self.info.handicap = start.handicap.or_else(|| Handicap::detect(&start.setup));
        // A pattern reads standard-shogi squares: a variant game never
        // matches one.
        let ok = self.filter.header_matches(&self.info)
            && (!self.has_patterns() || start.setup.variant == crate::rules::Variant::Standard);
        self.header = if ok { Header::Passed } else { Header::Failed };
        if !ok {
            return if self.stop { SKIP } else { CONTINUE };
        }
        if let Some(m) = &self.filter.moves {
            self.prefix = m.moves(start.setup.variant);
            self.prefix_failed = self.prefix.is_none();
        }
        if let Some(q) = &self.filter.position {
            if q.matches(pos) {
                self.ply = Some(0);
            }
        }
        if self.has_patterns() {
            self.pattern.look(&self.filter.pattern, pos, 0, None);
            if self.stop && self.pattern.hopeless(&self.filter.pattern, 0) {
                self.header = Header::Failed;
                return SKIP;
            }
        }
        CONTINUE
    }

    fn has_patterns(&self) -> bool {
        !self.filter.pattern.patterns.is_empty()
    }

    /// Whether the main line must still be followed.
    #[inline]
    fn following(&self) -> bool {
        self.header == Header::Passed
            && !self.main_stopped
            && ((self.filter.position.is_some() && self.ply.is_none())
                || (self.has_patterns() && self.pattern.ply.is_none())
                || self
                    .prefix
                    .is_some_and(|p| !self.prefix_failed && (self.main_ply as usize) < p.len()))
    }

    /// Follows a legal main-line move: `SKIP` when the patterns can no
    /// longer hold and rejected games stop.
    fn follow(&mut self, played: &Played, after: &Position) -> Flow {
        let mv = played.mv;
        self.main_ply += 1;
        if let Some(p) = self.prefix {
            if let Some(want) = p.get(self.main_ply as usize - 1) {
                if *want != mv {
                    self.prefix_failed = true;
                }
            }
        }
        if self.ply.is_none() {
            if let Some(q) = &self.filter.position {
                if q.matches(after) {
                    self.ply = Some(self.main_ply);
                }
            }
        }
        if self.has_patterns() && self.pattern.ply.is_none() {
            let f = &self.filter.pattern;
            self.pattern.look(
                f,
                after,
                self.main_ply,
                Some((mv, played.role, played.captured)),
            );
            if self.stop && self.pattern.hopeless(f, self.main_ply) {
                // The answer is known: no match. Only read errors are
                // still wanted.
                self.header = Header::Failed;
                return SKIP;
            }
        }
        CONTINUE
    }

    fn verdict(&self, s: Summary<'_>, tags: Option<&crate::tags::GameTags>) -> bool {
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
            || (!f.pattern.patterns.is_empty() && self.pattern.ply.is_none())
            || !self.info.players.rated_within(f.min_rating, f.max_rating)
        {
            return false;
        }
        if !f.tags.is_empty() {
            let Some(names) = tags else {
                return false;
            };
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

impl Observer for Selector<'_> {
    type Output = Verdict;

    fn begin(&mut self, _index: usize) -> Flow {
        self.info.sente.clear();
        self.info.gote.clear();
        self.info.event.clear();
        self.info.start_time.clear();
        self.info.players.clear();
        self.header = Header::Open;
        self.read_error = false;
        self.main_ply = 0;
        self.main_stopped = false;
        self.prefix_failed = false;
        self.prefix = None;
        self.ply = None;
        self.pattern.reset();
        CONTINUE
    }

    fn finding(&mut self, finding: &Finding) -> Flow {
        // Two statements of the result that contradict each other are a
        // false claim (the reader compares them), not text that fails to
        // read.
        if finding.severity == Severity::Error && finding.rule != crate::read::Rule::ClaimMismatch {
            self.read_error = true;
        }
        CONTINUE
    }

    fn header(&mut self, key: &HeaderKey, value: &str) -> Flow {
        self.info.players.header(key, value);
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
        CONTINUE
    }

    fn start(&mut self, start: &Start, pos: &Position) -> Flow {
        self.decide_header(start, pos)
    }

    #[inline]
    fn played(&mut self, played: &Played, after: &Position) -> Flow {
        if self.following() {
            return self.follow(played, after);
        }
        CONTINUE
    }

    fn unplayed(&mut self) -> Flow {
        self.main_stopped = true;
        CONTINUE
    }

    fn comment(&mut self, text: &str, main: bool) -> Flow {
        if main {
            self.info.players.comment(text);
        }
        CONTINUE
    }

    fn end(&mut self, ended: &Ended<'_>) -> Verdict {
        let matched = self.verdict(Summary::of(ended.report), ended.tags);
        let info = std::mem::take(&mut self.info);
        Verdict {
            matched,
            read_error: self.read_error,
            ply: if matched { self.ply } else { None },
            pattern_ply: if matched { self.pattern.ply } else { None },
            info,
        }
    }
}
