//! The replay validator: replays every line of a record against the rules
//! and reports each finding with its location, ply, move and position.

use crate::color::Color;
use crate::handicap::Handicap;
use crate::moves::Move;
use crate::position::{IllegalMove, Position};
use crate::read::{Finding, Game, Rule, Severity};
use crate::record::{Line, Location, Node, Outcome, Record, TerminalKind};
use crate::replay::{Declaration, EndReason, ImpasseRule, Replay};
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
    /// Main-line facts gathered during the replay (for statistics).
    pub replayed: Vec<PlyInfo>,
}

/// Facts about one replayed main-line move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyInfo {
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

struct Ctx<'a> {
    opts: &'a ValidateOptions,
    rule: ImpasseRule,
    white_bonus: u32,
    findings: Vec<Finding>,
    collect: bool,
    replayed: Vec<PlyInfo>,
}

/// The outcome of replaying one line.
struct LineEnd {
    replay: Replay,
    plies: u32,
    failed: bool,
    ended: Option<(Outcome, String)>,
}

/// Validates one game read by a reader.
pub fn validate(game: &Game, opts: &ValidateOptions) -> GameReport {
    validate_record(&game.record, game.index, &game.findings, opts, false)
}

/// Validates a game and also returns per-move facts of the main line.
pub fn validate_with_moves(game: &Game, opts: &ValidateOptions) -> GameReport {
    validate_record(&game.record, game.index, &game.findings, opts, true)
}

/// Validates a record; `reader_findings` are carried into the report.
pub fn validate_record(
    record: &Record,
    index: usize,
    reader_findings: &[Finding],
    opts: &ValidateOptions,
    collect: bool,
) -> GameReport {
    let rule = opts.impasse_rule.unwrap_or_else(|| impasse_rule_of(record));
    let white_bonus = record
        .start
        .handicap
        .or_else(|| Handicap::detect(&record.start.setup))
        .map_or(0, |h| h.removed_points());
    let mut ctx = Ctx {
        opts,
        rule,
        white_bonus,
        findings: reader_findings.to_vec(),

        collect,
        replayed: Vec::new(),
    };
    let start_loc = record.start.location.unwrap_or_default();
    let pos = match Position::from_setup(record.start.setup.clone(), default_waivers()) {
        Ok(p) => p,
        Err(errors) => {
            let p = Position::from_setup_unchecked(&record.start.setup);
            for e in errors.0 {
                let mut f = Finding::error(
                    Rule::Setup,
                    start_loc,
                    format!("impossible start position: {e}"),
                );
                f.sfen = Some(p.sfen());
                ctx.findings.push(f);
            }
            p
        }
    };
    let mut end = replay_line(&mut ctx, Replay::new(pos), &record.main, 0, true);
    let final_pos = *end.replay.position();
    let result = judge_terminal(&mut ctx, record, &mut end);
    ctx.findings.sort_by_key(|f| (f.line, f.column));
    let ok = !ctx.findings.iter().any(|f| f.severity == Severity::Error);
    GameReport {
        index,
        ok,
        plies: end.plies,
        final_sfen: final_pos.sfen(),
        result,
        findings: ctx.findings,
        replayed: ctx.replayed,
    }
}

fn impasse_rule_of(record: &Record) -> ImpasseRule {
    for (k, v) in &record.header.entries {
        if (k.name().eq_ignore_ascii_case("JISHOGI") || k.name() == "持将棋")
            && v.trim().starts_with("24")
        {
            return ImpasseRule::Points24;
        }
    }
    ImpasseRule::Points27
}

fn node_text(node: &Node, pos: &Position) -> String {
    if node.written.is_empty() {
        node.mv.usi(pos.variant()).to_string()
    } else {
        node.written.to_string()
    }
}

/// Checks a node against the position; `Err` is (rule, message).
fn check_node(pos: &Position, node: &Node) -> Result<(), (Rule, String)> {
    let turn = pos.turn();
    if let Some(c) = node.color {
        if c != turn {
            return Err((
                Rule::PieceMismatch,
                format!("the record says {c} moves, but it is {turn}'s turn"),
            ));
        }
    }
    if let (Move::Normal { from, .. }, Some(role)) = (node.mv, node.role) {
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
    pos.check(node.mv)
        .map_err(|e| (Rule::from(e), describe(pos, node.mv, e)))
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

fn replay_line(
    ctx: &mut Ctx<'_>,
    mut replay: Replay,
    line: &Line,
    depth: u32,
    main: bool,
) -> LineEnd {
    let mut plies = 0;
    let mut failed = false;
    let base_ply = replay.plies();
    let suffix = if main { "" } else { " (in a variation)" };
    for (i, node) in line.moves.iter().enumerate() {
        let pos = replay.position();
        let ply = base_ply + i as u32 + 1;
        // Variations branch from the position before this node.
        if !node.variations.is_empty() && (depth as usize) < crate::record::MAX_VARIATION_DEPTH {
            for var in &node.variations {
                let saved = std::mem::take(&mut ctx.replayed);
                let collect = ctx.collect;
                ctx.collect = false;
                let _ = replay_line(ctx, replay.clone(), var, depth + 1, false);
                ctx.collect = collect;
                ctx.replayed = saved;
            }
        }
        if let Some(end) = replay.repetition() {
            let f = Finding::error(
                Rule::AfterEnd,
                node.location,
                format!("move after the game ended by {}{suffix}", end.reason.name()),
            )
            .at_move(ply, &node_text(node, pos), pos.sfen());
            ctx.findings.push(f);
            failed = true;
            break;
        }
        if let Err((rule, msg)) = check_node(pos, node) {
            // A move in a position where the game was already over.
            let (rule, msg) = match replay.end() {
                Some(end) if rule.is_illegal_move() => (
                    Rule::AfterEnd,
                    format!("move after the game ended by {} ({msg})", end.reason.name()),
                ),
                _ => (rule, msg),
            };
            let pos = replay.position();
            let f = Finding::error(rule, node.location, format!("{msg}{suffix}")).at_move(
                ply,
                &node_text(node, pos),
                pos.sfen(),
            );
            ctx.findings.push(f);
            failed = true;
            break;
        }
        let role = pos.moving_role(node.mv).unwrap_or(crate::role::Role::Pawn);
        let captured = pos.captured(node.mv).map(|p| p.role);
        let mover = pos.turn();
        replay.play_unchecked(node.mv);
        plies += 1;
        if main && ctx.collect {
            ctx.replayed.push(PlyInfo {
                mv: node.mv,
                color: mover,
                role,
                captured,
                check: replay.last_gave_check(),
            });
        }
    }
    if main || !failed {
        check_times(ctx, line, main);
    }
    let mut end = LineEnd {
        replay,
        plies,
        failed,
        ended: None,
    };
    if !main && !failed {
        // Terminal claims inside variations are checked like the main line's.
        let _ = judge_line_terminal(ctx, line, &mut end, suffix);
    }
    end
}

fn check_times(ctx: &mut Ctx<'_>, line: &Line, main: bool) {
    if !main {
        return;
    }
    let mut totals: [Option<u64>; 2] = [Some(0), Some(0)];
    for (i, node) in line.moves.iter().enumerate() {
        let side = i % 2;
        if let (Some(spent), Some(total)) = (node.time.spent_ms, node.time.total_ms) {
            if let Some(prev) = totals[side] {
                let expect = prev + spent;
                if total + 1000 < expect || total > expect + 1000 {
                    ctx.findings.push(Finding::warning(
                        Rule::Time,
                        node.location,
                        format!(
                            "cumulative time {} does not equal the previous total {} plus this move's {}",
                            fmt_ms(total),
                            fmt_ms(prev),
                            fmt_ms(spent)
                        ),
                    ));
                    totals[side] = None; // report once per side
                    continue;
                }
            }
            totals[side] = totals[side].map(|_| total);
        } else if node.time.total_ms.is_some() {
            totals[side] = node.time.total_ms;
        }
    }
}

fn fmt_ms(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Checks the terminal event of a line; returns the outcome it implies.
#[allow(clippy::collapsible_match)]
fn judge_line_terminal(
    ctx: &mut Ctx<'_>,
    line: &Line,
    end: &mut LineEnd,
    suffix: &str,
) -> Option<(Outcome, String)> {
    let pos = *end.replay.position();
    let rule_end = if end.failed { None } else { end.replay.end() };
    let sev = claim_severity(ctx.opts);
    let mismatch = |loc: Location, msg: String, findings: &mut Vec<Finding>| {
        let mut f = Finding::error(Rule::ClaimMismatch, loc, format!("{msg}{suffix}"));
        f.severity = sev;
        f.sfen = Some(pos.sfen());
        findings.push(f);
    };
    let Some(t) = &line.terminal else {
        return rule_end.map(|e| (e.outcome, e.reason.name().to_string()));
    };
    if end.failed {
        return Some((t.kind.outcome(pos.turn()), t.kind.reason().to_string()));
    }
    match &t.kind {
        TerminalKind::Checkmate => {
            if !matches!(rule_end.map(|e| e.reason), Some(EndReason::Checkmate)) {
                let why = match pos.legal_moves().first() {
                    Some(m) if pos.in_check() => {
                        format!(
                            "checkmate claimed, but the king has a legal reply ({})",
                            m.usi(pos.variant())
                        )
                    }
                    Some(m) => format!(
                        "checkmate claimed, but {} is not in check and can move ({})",
                        pos.turn(),
                        m.usi(pos.variant())
                    ),
                    None => "checkmate claimed, but the side to move is not in check".to_string(),
                };
                mismatch(t.location, why, &mut ctx.findings);
            }
        }
        TerminalKind::Repetition => {
            if end.replay.repetition().is_none() {
                mismatch(
                    t.location,
                    format!(
                        "repetition claimed, but the final position has occurred {} time(s), not 4",
                        end.replay.occurrences()
                    ),
                    &mut ctx.findings,
                );
            }
        }
        TerminalKind::DeclarationWin => {
            let d = pos.declaration(ctx.rule, ctx.white_bonus);
            if d != Declaration::Win {
                let c = pos.declaration_count(ctx.white_bonus);
                mismatch(
                    t.location,
                    format!(
                        "entering-king declaration claimed, but it fails the {}-point rule (king in camp: {}, pieces in camp: {}, points: {}, in check: {})",
                        if ctx.rule == ImpasseRule::Points24 { 24 } else { 27 },
                        c.king_in_camp,
                        c.pieces_in_camp,
                        c.points,
                        c.in_check
                    ),
                    &mut ctx.findings,
                );
            }
        }
        _ => {}
    }
    // A terminal after a rule end: the rule's result stands (resigning in a
    // mated position is normal).
    let outcome = match (&t.kind, rule_end) {
        (TerminalKind::Repetition, Some(e)) => e.outcome,
        (TerminalKind::Resign | TerminalKind::Checkmate | TerminalKind::TimeUp, Some(e))
            if e.reason == EndReason::Checkmate =>
        {
            e.outcome
        }
        (kind, _) => kind.outcome(pos.turn()),
    };
    let reason = match (&t.kind, rule_end) {
        (TerminalKind::Repetition, Some(e)) => e.reason.name().to_string(),
        (kind, _) => kind.reason().to_string(),
    };
    end.ended = Some((outcome, reason.clone()));
    Some((outcome, reason))
}

fn judge_terminal(ctx: &mut Ctx<'_>, record: &Record, end: &mut LineEnd) -> GameResult {
    let derived = judge_line_terminal(ctx, &record.main, end, "");
    let (outcome, reason) = match derived {
        Some((o, r)) => (o, Some(r)),
        None => (Outcome::Unknown, None),
    };
    if let Some(claim) = &record.claim {
        let sev = claim_severity(ctx.opts);
        let pos = *end.replay.position();
        let mut push = |msg: String| {
            let mut f = Finding::error(Rule::ClaimMismatch, claim.location, msg);
            f.severity = sev;
            f.sfen = Some(pos.sfen());
            ctx.findings.push(f);
        };
        if let Some(n) = claim.plies {
            let actual = record.main.moves.len() as u32 + record.start.setup.ply.saturating_sub(1);
            if !end.failed && n != actual {
                push(format!(
                    "the result line says {n} moves, but the record has {actual}"
                ));
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
        if !end.failed && decided && claimed && claim.outcome != outcome {
            push(format!(
                "the result line says {}, but the game gives {}",
                claim.outcome.name(),
                outcome.name()
            ));
        }
        if !end.failed && record.main.terminal.is_none() {
            if let (Some(TerminalKind::Checkmate), false) = (
                &claim.kind,
                matches!(
                    end.replay.end().map(|e| e.reason),
                    Some(EndReason::Checkmate)
                ),
            ) {
                push(
                    "the result line claims checkmate, but the final position is not mate"
                        .to_string(),
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
