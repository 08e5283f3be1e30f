//! The validator: a [`Visitor`] that plays every line of a game once, as
//! the reader reads it, against the rules, and reports each finding with its
//! location, ply, move and position.

use crate::color::Color;
use crate::handicap::Handicap;
use crate::moves::Move;
use crate::position::{IllegalMove, Position};
use crate::read::resolve::{LineCursor, Resolved};
use crate::read::{visitor, Finding, Flow, Game, MoveEvent, Rule, Severity, Visitor, CONTINUE};
use crate::record::{
    HeaderKey, Location, MoveTime, Outcome, Record, ResultClaim, Start, TerminalKind,
};
use crate::replay::{Declaration, EndReason, GameEnd, ImpasseRule, PathHistory};
use crate::select::{GameKey, KeyHasher};
use crate::setup::{SetupError, Waivers};
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
    /// Why (`resign`, `checkmate`, `repetition`, …), if known.
    pub reason: Option<String>,
}

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
}

/// What a legal move did (see [`Validator::last_played`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// Who moved.
    pub color: Color,
    /// The moving role before the move.
    pub role: crate::role::Role,
    /// The captured role, if any.
    pub captured: Option<crate::role::Role>,
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

/// One line as the validator sees it.
#[derive(Debug)]
struct VLine {
    /// The line is judged (a variation of a line that failed before its
    /// branch point is not).
    judged: bool,
    /// The ply of the first illegal move, if any.
    failed: Option<u32>,
    /// The position after the last legal move, kept when the line failed.
    last_good: Option<Position>,
    /// The terminal event.
    terminal: Option<(TerminalKind, Location)>,
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
    plies: u32,
    main_nodes: u32,
    last_main: LastMain,
    last_node_at: Location,
    totals: [Option<u64>; 2],
    last: Option<Played>,
    /// The cursor and history stand at the game's start position.
    started: bool,
    /// The game key of the main line so far.
    key: KeyHasher,
}

impl Validator {
    /// A validator.
    pub fn new(opts: ValidateOptions) -> Validator {
        Validator {
            opts,
            index: 0,
            findings: Vec::new(),
            cursor: LineCursor::default(),
            history: PathHistory::default(),
            lines: vec![VLine::new(true)],
            start: Start::default(),
            white_bonus: 0,
            rule24: false,
            claim: None,
            plies: 0,
            main_nodes: 0,
            last_main: LastMain::Nothing,
            last_node_at: Location::default(),
            totals: [Some(0), Some(0)],
            last: None,
            started: false,
            key: KeyHasher::default(),
        }
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

    /// Places the cursor at the default start when the reader sent none.
    fn ensure_started(&mut self) {
        if !self.started {
            self.started = true;
            self.cursor.reset(&self.start.setup, None);
            self.history
                .reset(Position::from_setup_unchecked(&self.start.setup).hash());
            self.key.begin(&self.start.setup);
        }
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
        crate::replay::status_end(pos)
    }

    fn time_check(&mut self, t: MoveTime) {
        let side = ((self.main_nodes + 1) % 2) as usize;
        if let (Some(spent), Some(total)) = (t.spent_ms, t.total_ms) {
            if let Some(prev) = self.totals[side] {
                let expect = prev + spent;
                if total + 1000 < expect || total > expect + 1000 {
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
                    self.totals[side] = None; // report once per side
                    return;
                }
            }
            self.totals[side] = self.totals[side].map(|_| total);
        } else if t.total_ms.is_some() {
            self.totals[side] = t.total_ms;
        }
    }

    /// Judges the terminal of the current line; returns the outcome it
    /// implies.
    #[allow(clippy::collapsible_match)]
    fn judge_line(&mut self, suffix: &str) -> Option<(Outcome, String)> {
        let line = self.lines.last().expect("main line");
        let failed = line.failed.is_some();
        let pos = line.last_good.unwrap_or(self.cursor.top().pos);
        let terminal = line.terminal.clone();
        let rule_end = if failed { None } else { self.rule_end(&pos) };
        let sev = claim_severity(&self.opts);
        let mismatch = |loc: Location, msg: String, findings: &mut Vec<Finding>| {
            let mut f = Finding::error(Rule::ClaimMismatch, loc, format!("{msg}{suffix}"));
            f.severity = sev;
            f.sfen = Some(pos.sfen());
            findings.push(f);
        };
        let Some((kind, at)) = terminal else {
            return rule_end.map(|e| (e.outcome, e.reason.name().to_string()));
        };
        if failed {
            return Some((kind.outcome(pos.turn()), kind.reason().to_string()));
        }
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
        // A terminal after a rule end: the rule's result stands (resigning in
        // a mated position is normal).
        let outcome = match (&kind, rule_end) {
            (TerminalKind::Repetition, Some(e)) => e.outcome,
            (TerminalKind::Resign | TerminalKind::Checkmate | TerminalKind::TimeUp, Some(e))
                if e.reason == EndReason::Checkmate =>
            {
                e.outcome
            }
            (kind, _) => kind.outcome(pos.turn()),
        };
        let reason = match (&kind, rule_end) {
            (TerminalKind::Repetition, Some(e)) => e.reason.name().to_string(),
            (kind, _) => kind.reason().to_string(),
        };
        Some((outcome, reason))
    }

    fn judge_game(&mut self) -> GameResult {
        let derived = self.judge_line("");
        let (outcome, reason) = match derived {
            Some((o, r)) => (o, Some(r)),
            None => (Outcome::Unknown, None),
        };
        let main = &self.lines[0];
        let failed = main.failed.is_some();
        let has_terminal = main.terminal.is_some();
        let pos = main.last_good.unwrap_or(self.cursor.top().pos);
        if let Some(claim) = self.claim.clone() {
            let sev = claim_severity(&self.opts);
            let push = |msg: String, findings: &mut Vec<Finding>| {
                let mut f = Finding::error(Rule::ClaimMismatch, claim.location, msg);
                f.severity = sev;
                f.sfen = Some(pos.sfen());
                findings.push(f);
            };
            if let Some(n) = claim.plies {
                let actual = self.main_nodes + self.start.setup.ply.saturating_sub(1);
                if !failed && n != actual {
                    push(
                        format!("the result line says {n} moves, but the record has {actual}"),
                        &mut self.findings,
                    );
                }
            }
            let decided = matches!(
                outcome,
                Outcome::SenteWin | Outcome::GoteWin | Outcome::Draw
            );
            let claimed = matches!(
                claim.outcome,
                Outcome::SenteWin | Outcome::GoteWin | Outcome::Draw
            );
            if !failed && decided && claimed && claim.outcome != outcome {
                push(
                    format!(
                        "the result line says {}, but the game gives {}",
                        claim.outcome.name(),
                        outcome.name()
                    ),
                    &mut self.findings,
                );
            }
            if !failed && !has_terminal {
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
            }
            if !decided {
                return GameResult {
                    outcome: claim.outcome,
                    winner: claim.outcome.winner(),
                    reason: reason.or_else(|| claim.kind.as_ref().map(|k| k.reason().to_string())),
                };
            }
        }
        GameResult {
            outcome,
            winner: outcome.winner(),
            reason,
        }
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
        self.plies = 0;
        self.main_nodes = 0;
        self.last_main = LastMain::Nothing;
        self.last_node_at = Location::default();
        self.totals = [Some(0), Some(0)];
        self.last = None;
        CONTINUE
    }

    fn finding(&mut self, finding: Finding) -> Flow {
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
        let pos = match Position::from_setup(start.setup.clone(), default_waivers()) {
            Ok(p) => p,
            Err(errors) => {
                let p = Position::from_setup_unchecked(&start.setup);
                for e in errors.0 {
                    let mut f =
                        Finding::error(Rule::Setup, loc, format!("impossible start position: {e}"));
                    f.sfen = Some(p.sfen());
                    self.findings.push(f);
                }
                p
            }
        };
        self.white_bonus = start
            .handicap
            .or_else(|| Handicap::detect(&start.setup))
            .map_or(0, |h| h.removed_points());
        self.cursor.reset(&start.setup, None);
        self.history.reset(pos.hash());
        self.key.begin(&start.setup);
        CONTINUE
    }

    fn movement(&mut self, ev: &MoveEvent<'_>) -> Flow {
        self.ensure_started();
        self.last = None;
        if self.cursor.top().stopped {
            return CONTINUE;
        }
        let main = self.lines.len() == 1;
        let ply = self.cursor.top().next_ply();
        // Moves after the main line's terminal are not part of the game.
        let keyed = main && !self.cursor.top().terminal;
        let r = match self.cursor.resolve(&ev.raw, ev.written, ev.at) {
            Ok((r, warning)) => {
                if self.top().judged {
                    self.findings.extend(warning);
                }
                r
            }
            Err(f) => {
                if self.top().judged {
                    self.findings.extend(f.map(|f| *f));
                }
                if keyed {
                    self.key.push_unresolved(ev.written);
                }
                return CONTINUE;
            }
        };
        if keyed {
            self.key.push(r.mv, self.start.setup.variant);
        }
        if main {
            self.main_nodes += 1;
            self.last_main = LastMain::Move;
            self.last_node_at = ev.at;
        }
        let line = self.lines.last().expect("main line");
        if !line.judged || line.failed.is_some() {
            // Not judged: only followed, so that variations find their start.
            self.cursor.play(r.mv);
            return CONTINUE;
        }
        let pos = &self.cursor.top().pos;
        let verdict = if let Some(end) = self.history.repetition() {
            Err((
                Rule::AfterEnd,
                format!(
                    "move after the game ended by {}{}",
                    end.reason.name(),
                    self.suffix()
                ),
            ))
        } else {
            match check_node(pos, &r) {
                Ok(()) => Ok(()),
                Err((rule, msg)) => Err(match self.rule_end(pos) {
                    Some(end) if rule.is_illegal_move() => (
                        Rule::AfterEnd,
                        format!(
                            "move after the game ended by {} ({msg}){}",
                            end.reason.name(),
                            self.suffix()
                        ),
                    ),
                    _ => (rule, format!("{msg}{}", self.suffix())),
                }),
            }
        };
        if let Err((rule, msg)) = verdict {
            let pos = *pos;
            let text = if ev.written.is_empty() {
                r.mv.usi(pos.variant()).to_string()
            } else {
                ev.written.to_string()
            };
            let f = Finding::error(rule, ev.at, msg).at_move(ply, &text, pos.sfen());
            self.findings.push(f);
            let line = self.top();
            line.failed = Some(ply);
            line.last_good = Some(pos);
            self.cursor.play(r.mv);
            return CONTINUE;
        }
        let role = pos.moving_role(r.mv).unwrap_or(crate::role::Role::Pawn);
        let captured = pos.captured(r.mv).map(|p| p.role);
        let mover = pos.turn();
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
            && parent.failed.is_none_or(|f| ply <= f)
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
        if line.judged && line.failed.is_none() {
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
        if top.stopped || top.terminal {
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
        let result = self.judge_game();
        let mut findings = std::mem::take(&mut self.findings);
        findings.sort_by_key(|f| (f.line, f.column));
        let ok = !findings.iter().any(|f| f.severity == Severity::Error);
        GameReport {
            index: self.index,
            ok,
            plies: self.plies,
            final_sfen: final_pos.sfen(),
            result,
            findings,
            game_key: self.key.finish(),
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

/// Checks a resolved move against the position; `Err` is (rule, message).
fn check_node(pos: &Position, r: &Resolved) -> Result<(), (Rule, String)> {
    let turn = pos.turn();
    if let Some(c) = r.color {
        if c != turn {
            return Err((
                Rule::PieceMismatch,
                format!("the record says {c} moves, but it is {turn}'s turn"),
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
                ));
            }
        }
    }
    pos.check(r.mv)
        .map_err(|e| (Rule::from(e), describe(pos, r.mv, e)))
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
