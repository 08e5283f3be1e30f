//! The validator: a [`Visitor`] that plays every line of a game once, as
//! the reader reads it, against the rules, and reports each finding with its
//! location, ply, move and position.

use crate::read::resolve::{LineCursor, RawMove, Resolved};
use crate::read::{visitor, Finding, Flow, Game, MoveEvent, Rule, Severity, Visitor, CONTINUE};
use crate::record::key::{GameKey, KeyHasher};
use crate::record::{
    HeaderKey, Location, MoveTime, Outcome, Record, ResultClaim, Start, TerminalKind,
};
use crate::rules::color::Color;
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::position::{IllegalMove, Position};
use crate::rules::replay::{Declaration, EndReason, GameEnd, ImpasseRule, PathHistory};
use crate::rules::setup::{Setup, SetupError, Waivers};
use serde::Serialize;

/// Validation settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValidateOptions {
    /// Report false result claims as warnings instead of errors.
    pub lenient_claims: bool,
    /// The declaration rule; `None` = from the record (CSA `$JISHOGI`), else
    /// the 27-point rule.
    pub impasse_rule: Option<ImpasseRule>,
}

/// The result of a game as the validator sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// `sente_win`, `gote_win`, `draw`, `aborted` or `unknown`.
    pub outcome: Outcome,
    /// The winner, if any.
    pub winner: Option<Color>,
    /// Why, if known: one of [`REASONS`] (`resign`, `checkmate`,
    /// `repetition`, …; `other` for a terminal word kifu does not know).
    pub reason: Option<String>,
    /// The terminal word as written when kifu does not know it (`reason`
    /// is then `other`).
    pub terminal_text: Option<String>,
}

/// Every value `reason` takes (JSON `result.reason`, the stats `reason`
/// column): the terminal events of the formats and the ends by rule.
pub const REASONS: [&str; 21] = [
    "resign",
    "checkmate",
    "time-up",
    "illegal-move",
    "repetition",
    "perpetual-check",
    "impasse",
    "declaration",
    "declaration-draw",
    "max-moves",
    "try",
    "no-legal-moves",
    "king-capture",
    "abort",
    "sealed",
    "matta",
    "error",
    "no-mate",
    "default",
    "draw",
    "other",
];

/// The verdict on one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// 0-based game index in the file.
    pub index: usize,
    /// No error finding.
    pub ok: bool,
    /// Main-line moves replayed (up to the first illegal one).
    pub plies: u32,
    /// The position after the last replayed main-line move.
    pub final_sfen: String,
    /// The result.
    pub result: GameResult,
    /// Every finding, reader's and validator's, in source order.
    pub findings: Vec<Finding>,
    /// The game key: variant, start and main-line moves (see
    /// [`crate::select::key`]).
    pub game_key: GameKey,
    /// A statement of how the main line ended (its terminal, a `まで` or
    /// `[Result]` line) was judged false, or two of them contradict each
    /// other: there is a `claim-mismatch` finding about the main line (an
    /// error, or a warning with `lenient_claims`). `result` is then the
    /// record's word, not a result kifu established (see
    /// [`GameReport::established_result`]).
    pub claim_false: bool,
}

impl GameReport {
    /// The result kifu established: `result`, unless a statement of it
    /// was judged false ([`GameReport::claim_false`]); then none, and
    /// filters on the result (`--result`, `--reason`) take the game's
    /// result as `unknown`, without a reason.
    ///
    /// ```
    /// use kifu::read::Reader;
    /// use kifu::validate::{ValidateOptions, Validator};
    ///
    /// // `%TSUMI`, but sente is not mated: the record names gote the winner.
    /// let csa = "PI\n+\n+7776FU\n-3334FU\n%TSUMI\n";
    /// let mut reader = Reader::new(csa.as_bytes()).unwrap();
    /// let report = reader.read_game(&mut Validator::new(ValidateOptions::default())).unwrap();
    /// assert_eq!(report.result.outcome.name(), "gote_win");
    /// assert!(report.claim_false);
    /// assert!(report.established_result().is_none());
    /// ```
    pub fn established_result(&self) -> Option<&GameResult> {
        (!self.claim_false).then_some(&self.result)
    }
}

/// What a legal move did (see [`Validator::last_played`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// Who moved.
    pub color: Color,
    /// The moving role before the move.
    pub role: crate::rules::role::Role,
    /// The captured role, if any.
    pub captured: Option<crate::rules::role::Role>,
    /// Whether it gave check.
    pub check: bool,
}

fn claim_severity(opts: &ValidateOptions) -> Severity {
    if opts.lenient_claims {
        Severity::Warning
    } else {
        Severity::Error
    }
}

/// The setup problems `validate` treats as acceptable: missing kings (tsume
/// problems have no attacking king).
pub fn default_waivers() -> Waivers {
    Waivers::NONE.waive(SetupError::MissingKing(Color::Black))
}

/// What a start position gives that depends on its setup alone: most
/// games of a collection start from the same position, so the validator
/// keeps the facts of the last setup it saw (it is built once per worker
/// and serves every game the worker reads) and computes them again only
/// for another setup. The same checks run; they run once per distinct
/// setup in a row.
#[derive(Debug)]
struct StartFacts {
    setup: Setup,
    /// The position, unchecked (the same as the checked one when `errors`
    /// is empty).
    pos: Position,
    /// What [`Position::from_setup`] finds with [`default_waivers`].
    errors: Vec<SetupError>,
    /// [`Handicap::detect`] of the setup.
    detected: Option<Handicap>,
    /// The game key's start bytes.
    key: String,
}

impl StartFacts {
    fn of(setup: &Setup) -> StartFacts {
        let pos = Position::from_setup_unchecked(setup);
        let errors = match Position::from_setup(setup.clone(), default_waivers()) {
            Ok(_) => Vec::new(),
            Err(e) => e.0,
        };
        StartFacts {
            setup: setup.clone(),
            pos,
            errors,
            detected: Handicap::detect(setup),
            key: crate::record::key::start_bytes(setup),
        }
    }
}

/// The facts of `setup`: those in `last` when it is the setup they were
/// found for, else found now and kept there.
fn start_facts<'a>(last: &'a mut Option<StartFacts>, setup: &Setup) -> &'a StartFacts {
    match last {
        Some(facts) if facts.setup == *setup => {}
        _ => *last = Some(StartFacts::of(setup)),
    }
    last.as_ref().expect("just filled")
}

/// One line as the validator sees it.
#[derive(Debug)]
struct VLine {
    /// The line is judged (a variation of a line that failed before its
    /// branch point is not).
    judged: bool,
    /// The first illegal move, if any.
    failed: Option<Failure>,
    /// The position after the last legal move, kept when the line failed.
    last_good: Option<Position>,
    /// The terminal event.
    terminal: Option<(TerminalKind, Location)>,
}

/// The first illegal move of a line.
#[derive(Clone, Copy, Debug)]
struct Failure {
    /// Its ply.
    ply: u32,
    /// Who played it.
    mover: Color,
    /// Its finding (an index into the validator's findings).
    finding: usize,
    /// Whether it is an illegal move a player can make (a record that
    /// names the wrong side, or a move no notation can pin down, is not).
    foul: bool,
    /// Moves written after it in the line.
    after: u32,
}

impl VLine {
    fn new(judged: bool) -> VLine {
        VLine {
            judged,
            failed: None,
            last_good: None,
            terminal: None,
        }
    }
}

/// Why a resolved move is not played legally.
#[derive(Debug)]
enum Rejection {
    /// A fourfold repetition ended the line before it.
    AfterEnd(GameEnd),
    /// It breaks a rule: (rule, message, whether it is a foul).
    Illegal((Rule, String, bool)),
}

/// What [`Validator::movement`] learnt of a move before resolving it.
#[derive(Clone, Copy, Debug)]
struct MoveContext {
    /// The move is on the main line.
    main: bool,
    /// Its ply.
    ply: u32,
    /// It belongs to the game key's moves.
    keyed: bool,
    /// Its line is judged.
    judged: bool,
    /// The side to move.
    mover: Color,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LastMain {
    Nothing,
    Move,
    Terminal,
}

/// Validates games as they are read: a [`Visitor`] whose output is a
/// [`GameReport`]. Every move of every line is resolved and played once.
/// [`validate`] runs it over a game already read.
///
/// ```
/// use kifu::read::Reader;
/// use kifu::validate::{ValidateOptions, Validator};
///
/// let csa = b"PI\n+\n+7776FU\n-3334FU\n+0055FU\n";
/// let mut reader = Reader::new(&csa[..]).unwrap();
/// let mut validator = Validator::new(ValidateOptions::default());
/// let report = reader.read_game(&mut validator).unwrap();
/// assert!(!report.ok);
/// assert_eq!(report.findings[0].rule.id(), "not-in-hand");
/// ```
#[derive(Debug)]
pub struct Validator {
    opts: ValidateOptions,
    index: usize,
    findings: Vec<Finding>,
    cursor: LineCursor,
    history: PathHistory,
    lines: Vec<VLine>,
    start: Start,
    white_bonus: u32,
    rule24: bool,
    claim: Option<ResultClaim>,
    /// A claim about the main line's end was judged false (see
    /// [`GameReport::claim_false`]).
    claim_false: bool,
    plies: u32,
    main_nodes: u32,
    /// The ply of the first illegal move the reader (record builder)
    /// reported before the moves: when the main line ends just before it,
    /// the line was cut there and the record holds fewer moves than its
    /// text.
    reader_cut: Option<u32>,
    last_main: LastMain,
    last_node_at: Location,
    totals: [Option<u64>; 2],
    last: Option<Played>,
    /// The cursor and history stand at the game's start position.
    started: bool,
    /// The game key's buffer: its start bytes, set at the start; the moves
    /// are added at the end of the game from the cursor's main line.
    key: KeyHasher,
    /// The main line's move that could not be resolved (it ends the key's
    /// move list), when there is one.
    unresolved: Option<String>,
    /// Write [`GameReport::final_sfen`].
    final_sfen: bool,
    /// Compute [`GameReport::game_key`].
    game_key: bool,
    /// The facts of the last start setup seen (kept from game to game).
    last_start: Option<StartFacts>,
}

impl Validator {
    /// A validator.
    pub fn new(opts: ValidateOptions) -> Validator {
        // One validator serves every game of a worker (a
        // [`crate::replay::Replay`] is built once per worker): its memory
        // is reused from game to game, never pooled behind its back.
        let (findings, cursor, history, lines, key) = (
            Vec::new(),
            LineCursor::default(),
            PathHistory::default(),
            vec![VLine::new(true)],
            KeyHasher::default(),
        );
        Validator {
            opts,
            index: 0,
            findings,
            cursor,
            history,
            lines,
            start: Start::default(),
            white_bonus: 0,
            rule24: false,
            claim: None,
            claim_false: false,
            plies: 0,
            main_nodes: 0,
            reader_cut: None,
            last_main: LastMain::Nothing,
            last_node_at: Location::default(),
            totals: [Some(0), Some(0)],
            last: None,
            started: false,
            key,
            unresolved: None,
            final_sfen: true,
            game_key: true,
            last_start: None,
        }
    }

    /// Whether [`GameReport::final_sfen`] is written (yes by default). A
    /// caller that never reads it (a report of findings only) saves writing
    /// an SFEN per game; the field is then empty. Nothing else changes.
    pub fn with_final_sfen(mut self, yes: bool) -> Validator {
        self.final_sfen = yes;
        self
    }

    /// Whether [`GameReport::game_key`] is computed (yes by default). A
    /// caller that never reads it (a report without keys, no `--dedupe`)
    /// saves hashing the main line once per game; the field is then
    /// `GameKey(0)`. Nothing else changes.
    pub fn with_game_key(mut self, yes: bool) -> Validator {
        self.game_key = yes;
        self
    }

    /// The move the last event played legally (main line or variation),
    /// with what it did; `None` when the last move event was not played
    /// (illegal, skipped, or not a move).
    pub fn last_played(&self) -> Option<&Played> {
        self.last.as_ref()
    }

    /// Whether the line being read is the main line.
    pub fn in_main_line(&self) -> bool {
        self.lines.len() == 1
    }

    /// The position the next move of the current line is played in.
    pub fn position(&self) -> &Position {
        &self.cursor.top().pos
    }

    /// The position the next move of the current line is played in, the
    /// game placed first at its default start when the reader sent none
    /// (before the first move, [`Validator::position`] may not be there
    /// yet).
    pub fn next_position(&mut self) -> &Position {
        self.ensure_started();
        &self.cursor.top().pos
    }

    /// Places the cursor at the default start when the reader sent none
    /// (called on every event: the check is inlined, the work is not).
    #[inline]
    fn ensure_started(&mut self) {
        if !self.started {
            self.start_default();
        }
    }

    #[cold]
    fn start_default(&mut self) {
        self.started = true;
        let f = start_facts(&mut self.last_start, &self.start.setup);
        self.key.begin_bytes(f.key.as_bytes());
        let pos = f.pos;
        self.cursor.reset_to(pos, None);
        self.history.reset(pos.hash());
    }

    fn suffix(&self) -> &'static str {
        if self.lines.len() > 1 {
            " (in a variation)"
        } else {
            ""
        }
    }

    fn top(&mut self) -> &mut VLine {
        self.lines
            .last_mut()
            .expect("the main line is never closed")
    }

    /// The end of the current line by rule, if it is over.
    fn rule_end(&self, pos: &Position) -> Option<GameEnd> {
        if let Some(e) = self.history.repetition() {
            return Some(e);
        }
        crate::rules::replay::status_end(pos)
    }

    fn time_check(&mut self, t: MoveTime) {
        let side = ((self.main_nodes + 1) % 2) as usize;
        if let (Some(spent), Some(total)) = (t.spent_ms, t.total_ms) {
            if let Some(prev) = self.totals[side] {
                let expect = prev + spent;
                if total + 1000 < expect || total > expect + 1000 {
                    self.time_mismatch(total, prev, spent);
                    self.totals[side] = None; // report once per side
                    return;
                }
            }
            self.totals[side] = self.totals[side].map(|_| total);
        } else if t.total_ms.is_some() {
            self.totals[side] = t.total_ms;
        }
    }

    /// The `time` warning (rare: out of the per-move path).
    #[cold]
    #[inline(never)]
    fn time_mismatch(&mut self, total: u64, prev: u64, spent: u64) {
        self.findings.push(Finding::warning(
            Rule::Time,
            self.last_node_at,
            format!(
                "cumulative time {} does not equal the previous total {} plus this move's {}",
                fmt_ms(total),
                fmt_ms(prev),
                fmt_ms(spent)
            ),
        ));
    }

    /// A move the resolver could not place (rare: out of the per-move
    /// path): its finding, and the line stops at it.
    #[cold]
    #[inline(never)]
    fn unresolved_move(&mut self, ev: &MoveEvent<'_>, f: Option<Box<Finding>>, ctx: MoveContext) {
        let MoveContext {
            main,
            ply,
            keyed,
            judged,
            mover,
        } = ctx;
        let found = match f {
            Some(_) if !judged => None,
            Some(f) => {
                let rule = f.rule;
                self.findings.push(*f);
                Some((rule, self.findings.len() - 1))
            }
            // A built record's stop: its finding came with the
            // reader's findings.
            None if matches!(ev.raw, RawMove::Unplaced) => self
                .findings
                .iter()
                .rposition(|f| f.line == ev.at.line && f.column == ev.at.column && f.ply.is_some())
                .map(|i| (self.findings[i].rule, i)),
            None => None,
        };
        if let (true, Some((rule, finding))) = (judged, found) {
            if rule.is_illegal_move() {
                // The resolver found no move (KI2 `no-piece`, …):
                // the line stops at it like at any illegal move.
                if main {
                    self.main_nodes += 1;
                }
                let pos = self.cursor.top().pos;
                let line = self.top();
                line.failed = Some(Failure {
                    ply,
                    mover,
                    finding,
                    foul: rule != Rule::Ambiguous,
                    after: 0,
                });
                line.last_good = Some(pos);
            }
        }
        if keyed && self.unresolved.is_none() {
            self.unresolved = Some(ev.written.text().into_owned());
        }
    }

    /// A move that breaks a rule or comes after a repetition ended the
    /// line (rare: out of the per-move path). Its finding; the line
    /// fails at it, and the cursor still plays it.
    #[cold]
    #[inline(never)]
    fn illegal_move(
        &mut self,
        ev: &MoveEvent<'_>,
        r: &Resolved,
        ply: u32,
        mover: Color,
        e: Rejection,
    ) {
        let pos = self.cursor.top().pos;
        let (rule, msg, foul) = match e {
            Rejection::AfterEnd(end) => (
                Rule::AfterEnd,
                format!(
                    "move after the game ended by {}{}",
                    end.reason.name(),
                    self.suffix()
                ),
                false,
            ),
            Rejection::Illegal((rule, msg, foul)) => match self.rule_end(&pos) {
                Some(end) if rule.is_illegal_move() => (
                    Rule::AfterEnd,
                    format!(
                        "move after the game ended by {} ({msg}){}",
                        end.reason.name(),
                        self.suffix()
                    ),
                    false,
                ),
                _ => (rule, format!("{msg}{}", self.suffix()), foul),
            },
        };
        let text = if ev.written.is_empty() {
            r.mv.usi(pos.variant()).to_string()
        } else {
            ev.written.text().into_owned()
        };
        let f = Finding::error(rule, ev.at, msg).at_move(ply, &text, pos.sfen());
        self.findings.push(f);
        let finding = self.findings.len() - 1;
        let line = self.top();
        line.failed = Some(Failure {
            ply,
            mover,
            finding,
            foul,
            after: 0,
        });
        line.last_good = Some(pos);
        self.cursor.play(r.mv);
    }

    /// Judges the terminal of the current line; returns the outcome it
    /// implies.
    #[allow(clippy::collapsible_match)]
    fn judge_line(&mut self, suffix: &str) -> Option<Verdict> {
        let line = self.lines.last().expect("main line");
        if let Some(fail) = line.failed {
            return self.judge_failed(fail, suffix);
        }
        let pos = line.last_good.unwrap_or(self.cursor.top().pos);
        let terminal = line.terminal.clone();
        let rule_end = self.rule_end(&pos);
        let sev = claim_severity(&self.opts);
        let mismatch = |loc: Location, msg: String, findings: &mut Vec<Finding>| {
            let mut f = Finding::error(Rule::ClaimMismatch, loc, format!("{msg}{suffix}"));
            f.severity = sev;
            f.sfen = Some(pos.sfen());
            findings.push(f);
        };
        let before = self.findings.len();
        let Some((kind, at)) = terminal else {
            return rule_end.map(|e| Verdict::new(e.outcome, e.reason.name()));
        };
        let rule = if self.opts.impasse_rule.is_some() {
            self.opts.impasse_rule.unwrap_or_default()
        } else if self.rule24 {
            ImpasseRule::Points24
        } else {
            ImpasseRule::Points27
        };
        match &kind {
            TerminalKind::Checkmate => {
                if !matches!(rule_end.map(|e| e.reason), Some(EndReason::Checkmate)) {
                    let why = match pos.legal_moves().first() {
                        Some(m) if pos.in_check() => format!(
                            "checkmate claimed, but the king has a legal reply ({})",
                            m.usi(pos.variant())
                        ),
                        Some(m) => format!(
                            "checkmate claimed, but {} is not in check and can move ({})",
                            pos.turn(),
                            m.usi(pos.variant())
                        ),
                        None => {
                            "checkmate claimed, but the side to move is not in check".to_string()
                        }
                    };
                    mismatch(at, why, &mut self.findings);
                }
            }
            TerminalKind::Repetition => {
                if self.history.repetition().is_none() {
                    mismatch(
                        at,
                        format!(
                            "repetition claimed, but the final position has occurred {} time(s), not 4",
                            self.history.occurrences(pos.hash())
                        ),
                        &mut self.findings,
                    );
                }
            }
            TerminalKind::DeclarationWin => {
                let d = pos.declaration(rule, self.white_bonus);
                if d != Declaration::Win {
                    let c = pos.declaration_count(self.white_bonus);
                    mismatch(
                        at,
                        format!(
                            "entering-king declaration claimed, but it fails the {}-point rule (king in camp: {}, pieces in camp: {}, points: {}, in check: {})",
                            if rule == ImpasseRule::Points24 { 24 } else { 27 },
                            c.king_in_camp,
                            c.pieces_in_camp,
                            c.points,
                            c.in_check
                        ),
                        &mut self.findings,
                    );
                }
            }
            _ => {}
        }
        // After a perpetual check the rules give the result (the checking
        // side loses): a terminal that states another (a draw, the
        // checking side's win) is false. `千日手` itself names only how
        // the game ended (judged in `judge_game`).
        if let Some(e) = rule_end.filter(|e| e.reason == EndReason::PerpetualCheck) {
            let o = kind.outcome(pos.turn());
            if kind != TerminalKind::Repetition
                && matches!(o, Outcome::SenteWin | Outcome::GoteWin | Outcome::Draw)
                && o != e.outcome
            {
                mismatch(
                    at,
                    format!(
                        "{} claimed ({}), but the last moves are a perpetual check: the checking side loses, {}",
                        kind.reason_id(),
                        o.name(),
                        e.outcome.name()
                    ),
                    &mut self.findings,
                );
            }
        }
        if self.lines.len() == 1 && self.findings.len() > before {
            self.claim_false = true;
        }
        // A terminal after a rule end: the rule's result stands (resigning in
        // a mated position is normal; a repetition is judged by the
        // variant's own rule).
        Some(match (&kind, rule_end) {
            (TerminalKind::Repetition, Some(e)) => Verdict::new(e.outcome, e.reason.name()),
            (TerminalKind::Resign | TerminalKind::Checkmate | TerminalKind::TimeUp, Some(e))
                if e.reason == EndReason::Checkmate =>
            {
                Verdict::of(&kind, e.outcome)
            }
            (kind, _) => Verdict::of(kind, kind.outcome(pos.turn())),
        })
    }

    /// Judges a line that failed at an illegal move. When the line ends on
    /// it and the record states its verdict (a foul terminal, or for the
    /// main line a `まで`/result line naming the other side the winner), the
    /// record is a faithful record of a foul: the finding becomes a `foul`
    /// warning, and the side that played the move loses.
    fn judge_failed(&mut self, fail: Failure, suffix: &str) -> Option<Verdict> {
        let main = self.lines.len() == 1;
        let line = self.lines.last().expect("main line");
        let terminal = line.terminal.clone().map(|(k, _)| k);
        let claim = if main { self.claim.clone() } else { None };
        if fail.after > 0 || !fail.foul {
            // Read as written: the terminal at the end of the text, unless
            // a stated result says otherwise (never overridden by a guess).
            let to_move = if fail.after.is_multiple_of(2) {
                !fail.mover
            } else {
                fail.mover
            };
            return terminal.map(|k| Verdict::of(&k, k.outcome(to_move)));
        }
        if terminal.is_none() && claim.is_none() {
            // The record just stops at the illegal move.
            return None;
        }
        let winner = !fail.mover;
        let mut why: Option<String> = None;
        if let Some(k) = &terminal {
            let ok = match k {
                TerminalKind::IllegalWin | TerminalKind::IllegalLoss => true,
                TerminalKind::IllegalAction(c) => *c == fail.mover,
                _ => false,
            };
            if !ok {
                why = Some(format!(
                    "its terminal ({}) is not a foul verdict against {}",
                    k.reason(),
                    fail.mover
                ));
            }
        }
        if let (None, Some(c)) = (&why, &claim) {
            let actual = self.main_nodes + self.start.setup.ply.saturating_sub(1);
            let foul_kind = matches!(
                c.kind,
                None | Some(
                    TerminalKind::IllegalWin
                        | TerminalKind::IllegalLoss
                        | TerminalKind::IllegalAction(_)
                )
            );
            if c.outcome.winner() != Some(winner) || !foul_kind {
                why = Some(format!(
                    "the result line `{}` does not name {winner} the winner by the foul",
                    c.text
                ));
            } else if c.plies.is_some_and(|n| n != actual) {
                why = Some(format!(
                    "the result line `{}` counts {} moves, not {actual}",
                    c.text,
                    c.plies.unwrap_or(0)
                ));
            }
        }
        if let Some(f) = self.findings.get_mut(fail.finding) {
            match why {
                None => {
                    f.message = format!(
                        "{} [{}]; the record ends the game on this foul: {} loses{suffix}",
                        f.message.trim_end_matches(suffix),
                        f.rule.id(),
                        fail.mover
                    );
                    f.rule = Rule::Foul;
                    f.severity = Severity::Warning;
                }
                Some(why) => {
                    f.message = format!(
                        "{}; the record ends the game on it, but {why}{suffix}",
                        f.message.trim_end_matches(suffix)
                    );
                    // The record's own word stands (a stated result is
                    // never overridden by kifu's reading of the foul).
                    return terminal.map(|k| Verdict::of(&k, k.outcome(winner)));
                }
            }
        }
        Some(Verdict::new(Outcome::win(winner), "illegal-move"))
    }

    fn judge_game(&mut self) -> GameResult {
        let derived = self.judge_line("");
        let main = &self.lines[0];
        let failed = main.failed;
        let has_terminal = main.terminal.is_some();
        let pos = main.last_good.unwrap_or(self.cursor.top().pos);
        let verdict = derived.unwrap_or(Verdict {
            outcome: Outcome::Unknown,
            reason: None,
            text: None,
        });
        let Some(claim) = self.claim.clone() else {
            return verdict.result();
        };
        // A foul the record states: its verdict (the result line was
        // checked with it).
        let foul = failed.is_some_and(|f| {
            self.findings
                .get(f.finding)
                .is_some_and(|x| x.rule == Rule::Foul)
        });
        if foul {
            return verdict.result();
        }
        let decided =
            |o: Outcome| matches!(o, Outcome::SenteWin | Outcome::GoteWin | Outcome::Draw);
        let actual = self.main_nodes + self.start.setup.ply.saturating_sub(1);
        let cut = self
            .reader_cut
            .is_some_and(|p| p == actual + 1 || p == self.main_nodes + 1);
        if failed.is_some() || cut {
            // An illegal move that is an error: the stated result, where
            // there is one, is the record's own word.
            if !decided(claim.outcome) && decided(verdict.outcome) {
                return verdict.result();
            }
            return GameResult {
                outcome: claim.outcome,
                winner: claim.outcome.winner(),
                reason: verdict
                    .reason
                    .or_else(|| claim.kind.as_ref().map(|k| k.reason_id().to_string())),
                terminal_text: verdict.text,
            };
        }
        let sev = claim_severity(&self.opts);
        let before = self.findings.len();
        let push = |msg: String, findings: &mut Vec<Finding>| {
            let mut f = Finding::error(Rule::ClaimMismatch, claim.location, msg);
            f.severity = sev;
            f.sfen = Some(pos.sfen());
            findings.push(f);
        };
        if let Some(n) = claim.plies {
            let actual = self.main_nodes + self.start.setup.ply.saturating_sub(1);
            if n != actual {
                push(
                    format!("the result line says {n} moves, but the record has {actual}"),
                    &mut self.findings,
                );
            }
        }
        // `千日手` names how the game ended, not who won: after a real
        // repetition the variant's rule gives the result (a draw, or in
        // minishogi a loss for sente; perpetual check loses). A line that
        // names a winner (floodgate's `oute_sennichite`) is checked.
        let repetition = claim.kind == Some(TerminalKind::Repetition)
            && claim.outcome == Outcome::Draw
            && matches!(
                verdict.reason.as_deref(),
                Some("repetition" | "perpetual-check")
            );
        if decided(verdict.outcome)
            && decided(claim.outcome)
            && claim.outcome != verdict.outcome
            && !repetition
        {
            push(
                format!(
                    "the result line says {}, but the game gives {}",
                    claim.outcome.name(),
                    verdict.outcome.name()
                ),
                &mut self.findings,
            );
        }
        if !has_terminal {
            let mate = matches!(
                self.rule_end(&pos).map(|e| e.reason),
                Some(EndReason::Checkmate)
            );
            if claim.kind == Some(TerminalKind::Checkmate) && !mate {
                push(
                    "the result line claims checkmate, but the final position is not mate"
                        .to_string(),
                    &mut self.findings,
                );
            }
            if claim.kind == Some(TerminalKind::Repetition) && self.history.repetition().is_none() {
                push(
                    format!(
                        "the result line claims a repetition, but the final position has occurred {} time(s), not 4",
                        self.history.occurrences(pos.hash())
                    ),
                    &mut self.findings,
                );
            }
        }
        if self.findings.len() > before {
            self.claim_false = true;
        }
        if repetition
            && verdict.reason.as_deref() == Some("perpetual-check")
            && claim.outcome != verdict.outcome
        {
            self.findings
                .push(perpetual_check_named_repetition(&claim, verdict.outcome));
        }
        if !decided(verdict.outcome) {
            return GameResult {
                outcome: claim.outcome,
                winner: claim.outcome.winner(),
                reason: verdict
                    .reason
                    .or_else(|| claim.kind.as_ref().map(|k| k.reason_id().to_string())),
                terminal_text: verdict.text,
            };
        }
        verdict.result()
    }
}

/// The `dialect` warning for a result line that names only a repetition
/// (`まで13手で千日手`, floodgate's `'summary:sennichite:…`) after a
/// perpetual check, which the checking side loses (連続王手の千日手): Shogi
/// Wars and older shogi-server versions write the same words for both
/// endings, so the line is not false, but the result is not the draw it
/// seems to say. The warning names the result the rules establish.
#[cold]
fn perpetual_check_named_repetition(claim: &ResultClaim, outcome: Outcome) -> Finding {
    let (winner, loser) = match outcome.winner() {
        Some(w) => (w.to_string(), (!w).to_string()),
        None => ("nobody".to_string(), "nobody".to_string()),
    };
    Finding::warning(
        Rule::Dialect,
        claim.location,
        format!(
            "`{}` names a repetition, but it is perpetual check by {loser} (連続王手の千日手): {loser} loses, the result is {} ({winner} wins)",
            claim.text,
            outcome.name()
        ),
    )
}

/// What a line's end gives: the outcome, the reason id and, for a terminal
/// word kifu does not know, its text.
#[derive(Clone, Debug)]
struct Verdict {
    outcome: Outcome,
    reason: Option<String>,
    text: Option<String>,
}

impl Verdict {
    fn new(outcome: Outcome, reason: &str) -> Verdict {
        Verdict {
            outcome,
            reason: Some(reason.to_string()),
            text: None,
        }
    }

    fn of(kind: &TerminalKind, outcome: Outcome) -> Verdict {
        Verdict {
            outcome,
            reason: Some(kind.reason_id().to_string()),
            text: kind.other_text().map(str::to_string),
        }
    }

    fn result(self) -> GameResult {
        GameResult {
            outcome: self.outcome,
            winner: self.outcome.winner(),
            reason: self.reason,
            terminal_text: self.text,
        }
    }
}

impl Validator {
    /// [`Visitor::movement`], with `before` called just before a legal
    /// main-line move is played, on the position it is played in (what
    /// [`crate::replay::Replay`] shows observers).
    #[inline]
    pub(crate) fn movement_hooked(
        &mut self,
        ev: &MoveEvent<'_>,
        before: impl FnOnce(&Position, Move),
    ) -> Flow {
        self.ensure_started();
        self.last = None;
        if self.cursor.top().stopped {
            // A move written after the line's first illegal move: counted,
            // never judged (one illegal move, one finding).
            if let Some(f) = self.top().failed.as_mut() {
                f.after += 1;
            }
            return CONTINUE;
        }
        let main = self.lines.len() == 1;
        let ply = self.cursor.top().next_ply();
        // Moves after the main line's terminal are not part of the game.
        let keyed = main && !self.cursor.top().terminal;
        let failed = self.lines.last().is_some_and(|l| l.failed.is_some());
        let judged = self.lines.last().is_some_and(|l| l.judged) && !failed;
        if failed {
            if let Some(f) = self.top().failed.as_mut() {
                f.after += 1;
            }
        }
        let mover = self.cursor.top().pos.turn();
        let r = match self.cursor.resolve(&ev.raw, ev.written, ev.at) {
            Ok((r, warning)) => {
                if let (true, Some(w)) = (judged, warning) {
                    self.findings.push(*w);
                }
                r
            }
            Err(f) => {
                let ctx = MoveContext {
                    main,
                    ply,
                    keyed,
                    judged,
                    mover,
                };
                self.unresolved_move(ev, f, ctx);
                return CONTINUE;
            }
        };
        if main {
            self.main_nodes += 1;
            self.last_main = LastMain::Move;
            self.last_node_at = ev.at;
        }
        if !judged {
            // Not judged: only followed, so that variations find their start.
            self.cursor.play(r.mv);
            return CONTINUE;
        }
        let pos = &self.cursor.top().pos;
        let verdict = match self.history.repetition() {
            Some(end) => Err(Rejection::AfterEnd(end)),
            None => check_node(pos, &r).map_err(Rejection::Illegal),
        };
        if let Err(e) = verdict {
            self.illegal_move(ev, &r, ply, mover, e);
            return CONTINUE;
        }
        let role = pos
            .moving_role(r.mv)
            .unwrap_or(crate::rules::role::Role::Pawn);
        let captured = pos.captured(r.mv).map(|p| p.role);
        if main {
            before(pos, r.mv);
        }
        self.cursor.play(r.mv);
        let after = &self.cursor.top().pos;
        let check = after.in_check();
        self.history.push(after, check);
        let info = Played {
            mv: r.mv,
            color: mover,
            role,
            captured,
            check,
        };
        if main {
            self.plies += 1;
        }
        self.last = Some(info);
        CONTINUE
    }
}

impl Visitor for Validator {
    type Output = GameReport;

    fn begin_game(&mut self, index: usize) -> Flow {
        self.index = index;
        self.findings.clear();
        self.lines.clear();
        self.lines.push(VLine::new(true));
        self.start = Start::default();
        self.started = false;
        self.white_bonus = 0;
        self.rule24 = false;
        self.claim = None;
        self.claim_false = false;
        self.plies = 0;
        self.main_nodes = 0;
        self.reader_cut = None;
        self.last_main = LastMain::Nothing;
        self.last_node_at = Location::default();
        self.totals = [Some(0), Some(0)];
        self.last = None;
        self.unresolved = None;
        CONTINUE
    }

    fn finding(&mut self, finding: Finding) -> Flow {
        // A built record: the resolver's finding comes before the moves,
        // and the main line was cut there.
        if finding.severity == Severity::Error
            && finding.rule.is_illegal_move()
            && finding.ply.is_some()
            && self.main_nodes == 0
            && self.reader_cut.is_none()
        {
            self.reader_cut = finding.ply;
        }
        let mut finding = finding;
        if finding.rule == Rule::ClaimMismatch {
            // Two statements of the result that contradict each other (the
            // reader compares them): a false claim like the validator's.
            finding.severity = claim_severity(&self.opts);
            self.claim_false = true;
        }
        self.findings.push(finding);
        CONTINUE
    }

    fn header(&mut self, key: &HeaderKey, value: &str, _at: Location) -> Flow {
        if (key.name().eq_ignore_ascii_case("JISHOGI") || key.name() == "持将棋")
            && value.trim().starts_with("24")
        {
            self.rule24 = true;
        }
        CONTINUE
    }

    fn start(&mut self, start: &Start) -> Flow {
        self.started = true;
        self.start = start.clone();
        let loc = start.location.unwrap_or_default();
        let f = start_facts(&mut self.last_start, &start.setup);
        for e in &f.errors {
            let mut x = Finding::error(Rule::Setup, loc, format!("impossible start position: {e}"));
            x.sfen = Some(f.pos.sfen());
            self.findings.push(x);
        }
        self.key.begin_bytes(f.key.as_bytes());
        let (pos, detected) = (f.pos, f.detected);
        self.white_bonus = start
            .handicap
            .or(detected)
            .map_or(0, |h| h.removed_points());
        self.cursor.reset_to(pos, None);
        self.history.reset(pos.hash());
        CONTINUE
    }

    fn movement(&mut self, ev: &MoveEvent<'_>) -> Flow {
        self.movement_hooked(ev, |_, _| {})
    }

    fn time(&mut self, time: MoveTime, _at: Location) -> Flow {
        self.ensure_started();
        if self.lines.len() == 1 && self.last_main == LastMain::Move && !self.cursor.top().stopped {
            self.time_check(time);
            self.last_main = LastMain::Nothing;
        }
        CONTINUE
    }

    fn begin_variation(&mut self, ply: u32, at: Location) -> Flow {
        self.ensure_started();
        self.last = None;
        let parent = self.lines.last().expect("main line");
        let judged = parent.judged
            && parent.failed.is_none_or(|f| ply <= f.ply)
            && self.lines.len() <= crate::record::MAX_VARIATION_DEPTH;
        let parent_judged = parent.judged;
        if let Err(f) = self.cursor.begin_variation(ply, at) {
            if parent_judged {
                self.findings.push(*f);
            }
        }
        self.history.open_variation(ply);
        self.lines
            .push(VLine::new(judged && !self.cursor.top().stopped));
        CONTINUE
    }

    fn end_variation(&mut self) -> Flow {
        self.last = None;
        if self.lines.len() < 2 {
            return CONTINUE;
        }
        let line = self.lines.last().expect("checked");
        if line.judged {
            let _ = self.judge_line(" (in a variation)");
        }
        self.lines.pop();
        self.cursor.end_variation();
        self.history.close_variation();
        CONTINUE
    }

    fn terminal(&mut self, kind: &TerminalKind, at: Location) -> Flow {
        self.ensure_started();
        self.last = None;
        let top = self.cursor.top_mut();
        if top.terminal {
            return CONTINUE;
        }
        if top.stopped {
            // The line stopped at an illegal move the resolver found: its
            // terminal still tells how the record ends it.
            let line = self.top();
            if line.failed.is_some() && line.terminal.is_none() {
                line.terminal = Some((kind.clone(), at));
            }
            return CONTINUE;
        }
        top.terminal = true;
        if self.lines.len() == 1 {
            self.last_main = LastMain::Terminal;
        }
        self.top().terminal = Some((kind.clone(), at));
        CONTINUE
    }

    fn claim(&mut self, claim: &ResultClaim) -> Flow {
        self.claim = Some(claim.clone());
        CONTINUE
    }

    fn end_game(&mut self) -> GameReport {
        self.ensure_started();
        while self.lines.len() > 1 {
            let _ = self.end_variation();
        }
        let final_pos = self.lines[0].last_good.unwrap_or(self.cursor.top().pos);
        // The key's moves: every move the main line resolved (played by the
        // cursor, legal or not) up to its terminal, then the first one it
        // could not resolve.
        let game_key = if self.game_key {
            self.key
                .push_moves(self.cursor.main_moves(), self.start.setup.variant);
            if let Some(w) = &self.unresolved {
                self.key.push_unresolved(w);
            }
            self.key.finish()
        } else {
            GameKey(0)
        };
        let result = self.judge_game();
        let mut findings = std::mem::take(&mut self.findings);
        findings.sort_by_key(|f| (f.line, f.column));
        let ok = !findings.iter().any(|f| f.severity == Severity::Error);
        GameReport {
            index: self.index,
            ok,
            plies: self.plies,
            final_sfen: if self.final_sfen {
                final_pos.sfen()
            } else {
                String::new()
            },
            result,
            findings,
            game_key,
            claim_false: self.claim_false,
        }
    }
}

/// Validates one game read by a reader.
pub fn validate(game: &Game, opts: &ValidateOptions) -> GameReport {
    visitor::visit_game(game, &mut Validator::new(*opts))
}

/// Validates a record; `reader_findings` are carried into the report.
pub fn validate_record(
    record: &Record,
    index: usize,
    reader_findings: &[Finding],
    opts: &ValidateOptions,
) -> GameReport {
    let mut v = Validator::new(*opts);
    visitor::visit_parts(index, reader_findings, record, &mut v)
}

/// Checks a resolved move against the position; `Err` is (rule, message,
/// whether it is a move a player can make over the board: a record that
/// names another side or piece than the board has is a defect of the
/// record, not a foul).
fn check_node(pos: &Position, r: &Resolved) -> Result<(), (Rule, String, bool)> {
    let turn = pos.turn();
    if let Some(c) = r.color {
        if c != turn {
            return Err((
                Rule::PieceMismatch,
                format!("the record says {c} moves, but it is {turn}'s turn"),
                false,
            ));
        }
    }
    if let (Move::Normal { from, .. }, Some(role)) = (r.mv, r.role) {
        if let Some(p) = pos.piece_at(from) {
            if p.color == turn && p.role != role {
                return Err((
                    Rule::PieceMismatch,
                    format!(
                        "the record moves a {} from {from}, but a {} stands there",
                        role, p.role
                    ),
                    false,
                ));
            }
        }
    }
    pos.check(r.mv)
        .map_err(|e| (Rule::from(e), describe(pos, r.mv, e), true))
}

fn describe(pos: &Position, m: Move, e: IllegalMove) -> String {
    let v = pos.variant();
    let base = format!("illegal move {}: {e}", m.usi(v));
    match (e, m) {
        (IllegalMove::NoPiece, Move::Normal { from, .. }) => match pos.piece_at(from) {
            None => format!("{base}; {from} is empty"),
            Some(p) => format!("{base}; the piece on {from} is {}'s {}", p.color, p.role),
        },
        (IllegalMove::Occupied, _) => format!("{base}; {} holds a piece", m.to()),
        (IllegalMove::NotInHand, Move::Drop { role, .. }) => {
            format!("{base}; {} has no {role} in hand", pos.turn())
        }
        _ => base,
    }
}

fn fmt_ms(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}
