//! Engine evaluations in comments, translated between dialects.
//!
//! Three comment forms carry an engine's score and principal variation
//! (PV) after a move; all give the score from sente's (black's) point of
//! view and start the PV with the expected reply:
//!
//! | dialect | comment text (after KIF `*`, CSA `'`, or a JKF/PSN comment) |
//! |---|---|
//! | CSA (floodgate, V3.0) | `** 30 -3334FU +2726FU` (an optional ` #nodes` is kept); the PV may be in USI (`** 130 7g7f 8c8d`, aobazero on floodgate), and a USI PV that starts with the move played (aobazero's does) is read from the reply |
//! | KIF, KI2 (ShogiHome research form) | `#評価値=30` and `#読み筋=△３四歩▲２六歩`; `*評価値=`/`*読み筋=` (player form) are read alike; `#詰み=先手勝ち:15手` is a mate score |
//! | JKF, PSN | the KIF form as comment text (`#評価値=30`), as JKF writers store KIF comments |
//!
//! [`extract`] reads them from a move's comments (the PV is resolved
//! against the position after the move: a PV that does not replay leaves
//! the comment as it is, counted in [`Dropped::as_comments`] when it is
//! not the target's own form); [`translate`] rewrites every evaluation of a
//! record in a target's dialect before it is written, so `kifu convert`
//! turns `'** 30 -3334FU` into `*#評価値=30` / `*#読み筋=△３四歩` and back.
//!
//! ```
//! use kifu::eval::{extract, Dialect, Score};
//! use kifu::Position;
//!
//! // After ▲７六歩: gote to move.
//! let pos = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2").unwrap();
//! let comments = vec!["** 45 -3334FU +2726FU".to_string(), "nice".to_string()];
//! let (e, used) = extract(&comments, &pos, None).unwrap();
//! assert_eq!(e.score, Score::Cp(45));
//! assert_eq!(e.usi_pv(pos.variant()), "3c3d 2g2f");
//! assert_eq!(used, vec![0]);
//! let kif = e.render(Dialect::Kif, &pos, None).unwrap();
//! assert_eq!(kif, vec!["#評価値=45", "#読み筋=△３四歩▲２六歩"]);
//! let (back, _) = extract(&kif, &pos, None).unwrap();
//! assert_eq!(back, e);
//! ```

use crate::csa::grammar::parse_move as parse_csa_move;
use crate::emit::Dropped;
use crate::ki2::grammar::{ki2_line, Body};
use crate::record::{Line, Record};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::text::resolve::RawMove;
use std::borrow::Cow;
use std::fmt;

/// The CSA score written for a mate (CSA has no mate form; ±30000 is the
/// value floodgate clients and ShogiHome use for a won or lost game).
pub const CSA_MATE_SCORE: i64 = 30000;

/// An engine's score, from sente's (black's) point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (positive: sente is better).
    Cp(i64),
    /// Mate in this many plies (positive: sente mates; negative: gote).
    Mate(i32),
}

impl fmt::Display for Score {
    /// `45`, `-120`, `mate 15`, `mate -7` (the `eval` column of `kifu stats
    /// --moves`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(n) => write!(f, "{n}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// An engine evaluation after a move: its score and its PV (starting
/// with the reply).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Evaluation {
    /// The score.
    pub score: Score,
    /// The principal variation, from the position after the move.
    pub pv: Vec<Move>,
    /// Nodes searched, when the comment gave them (CSA ` #nodes`).
    pub nodes: Option<u64>,
}

/// A comment dialect of evaluations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `** 30 -3334FU +2726FU`.
    Csa,
    /// `#評価値=30`, `#読み筋=△３四歩▲２六歩` (KIF, KI2, JKF, PSN).
    Kif,
}

impl Evaluation {
    /// The PV as USI moves separated by spaces.
    pub fn usi_pv(&self, variant: Variant) -> String {
        let v: Vec<String> = self.pv.iter().map(|m| m.usi(variant).to_string()).collect();
        v.join(" ")
    }

    /// The comment lines of this evaluation in `dialect`, after the move
    /// that led to `pos` (which landed on `last_to`). `None` when a PV move
    /// cannot be written there (it does not replay).
    pub fn render(
        &self,
        dialect: Dialect,
        pos: &Position,
        last_to: Option<Square>,
    ) -> Option<Vec<String>> {
        let mut pos = *pos;
        let mut prev = last_to;
        match dialect {
            Dialect::Csa => {
                let score = match self.score {
                    Score::Cp(n) => n,
                    Score::Mate(n) if n >= 0 => CSA_MATE_SCORE,
                    Score::Mate(_) => -CSA_MATE_SCORE,
                };
                let mut s = format!("** {score}");
                for &mv in &self.pv {
                    s.push(' ');
                    s.push_str(&csa_move(&pos, mv)?);
                    pos.play(mv).ok()?;
                }
                if let Some(n) = self.nodes {
                    s.push_str(&format!(" #{n}"));
                }
                Some(vec![s])
            }
            Dialect::Kif => {
                let mut out = vec![match self.score {
                    Score::Cp(n) => format!("#評価値={n}"),
                    Score::Mate(n) => format!(
                        "#詰み={}勝ち:{}手",
                        if n >= 0 { "先手" } else { "後手" },
                        n.unsigned_abs()
                    ),
                }];
                if !self.pv.is_empty() {
                    let mut s = String::from("#読み筋=");
                    for &mv in &self.pv {
                        let t = crate::ki2::writer::move_text(&pos, mv, prev, None, false)?;
                        s.push_str(&t.replace('\u{3000}', ""));
                        pos.play(mv).ok()?;
                        prev = Some(mv.to());
                    }
                    out.push(s);
                }
                if let Some(n) = self.nodes {
                    out.push(format!("#ノード数={n}"));
                }
                Some(out)
            }
        }
    }
}

fn csa_move(pos: &Position, mv: Move) -> Option<String> {
    let color = pos.turn();
    Some(match mv {
        Move::Normal { from, to, promote } => {
            let before = pos.piece_at(from)?.role;
            let after = if promote { before.promoted()? } else { before };
            format!(
                "{}{}{}{}{}{}",
                color.csa_char(),
                from.file(),
                from.rank(),
                to.file(),
                to.rank(),
                after.csa()
            )
        }
        Move::Drop { role, to } => format!(
            "{}00{}{}{}",
            color.csa_char(),
            to.file(),
            to.rank(),
            role.csa()
        ),
    })
}

/// Plays the PV moves resolved from `raws` in `pos`; `None` when one does
/// not replay.
fn replay_pv(raws: &[RawMove], pos: &Position, last_to: Option<Square>) -> Option<Vec<Move>> {
    let mut pos = *pos;
    let mut prev = last_to;
    let mut pv = Vec::with_capacity(raws.len());
    for raw in raws {
        let r = raw.to_move(&pos, prev).ok()?;
        if r.color.is_some_and(|c| c != pos.turn()) {
            return None;
        }
        pos.play(r.mv).ok()?;
        prev = Some(r.mv.to());
        pv.push(r.mv);
    }
    Some(pv)
}

/// A CSA evaluation comment (`** 30 -3334FU +2726FU #1234`), its PV in
/// CSA moves or in USI moves (`** 130 7g7f 8c8d`, as aobazero writes it on
/// floodgate). A USI PV that does not replay from `pos` but starts with
/// the move `played` (aobazero's start with the move the engine chose) is
/// read from the reply: every form's PV starts there.
fn parse_csa(text: &str, pos: &Position, played: Option<Move>) -> Option<Evaluation> {
    let rest = text.strip_prefix("**")?;
    let mut words = rest.split_ascii_whitespace();
    let score: i64 = words.next()?.parse().ok()?;
    let mut raws = Vec::new();
    let mut nodes = None;
    for w in words {
        if nodes.is_some() {
            return None;
        }
        if let Some(n) = w.strip_prefix('#') {
            nodes = Some(n.parse().ok()?);
            continue;
        }
        raws.push(match parse_csa_move(w) {
            Ok(m) => RawMove::Csa(m),
            Err(_) => RawMove::Usi(Move::from_usi(w, pos.variant())?),
        });
    }
    let last_to = played.map(|m| m.to());
    let pv = match replay_pv(&raws, pos, last_to) {
        Some(pv) => pv,
        None => match (raws.first(), played) {
            (Some(RawMove::Usi(first)), Some(p)) if *first == p => {
                replay_pv(&raws[1..], pos, last_to)?
            }
            _ => return None,
        },
    };
    Some(Evaluation {
        score: Score::Cp(score),
        pv,
        nodes,
    })
}

/// The value of a KIF-form key (`#評価値=…` or `*評価値=…`).
fn kif_value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(['#', '*'])?;
    rest.strip_prefix(key)?.strip_prefix('=').map(str::trim)
}

fn parse_kif_pv(text: &str, pos: &Position, last_to: Option<Square>) -> Option<Vec<Move>> {
    let (tokens, err) = ki2_line(text);
    if err.is_some() {
        return None;
    }
    let mut raws = Vec::with_capacity(tokens.len());
    for t in tokens {
        match t.body {
            Body::Move(m) => raws.push(RawMove::Japanese(m, Some(t.color))),
            _ => return None,
        }
    }
    replay_pv(&raws, pos, last_to)
}

/// A whole number, saturated at the bounds of `i64` when it has more
/// digits than they hold (an evaluation of 10^20 is a very large score,
/// not a missing one). `None` for anything that is not a whole number.
fn saturating_i64(s: &str) -> Option<i64> {
    use std::num::IntErrorKind;
    match s.parse::<i64>() {
        Ok(n) => Some(n),
        Err(e) => match e.kind() {
            IntErrorKind::PosOverflow => Some(i64::MAX),
            IntErrorKind::NegOverflow => Some(i64::MIN),
            _ => None,
        },
    }
}

fn parse_mate(v: &str) -> Option<Score> {
    // 先手勝ち:15手 (a length beyond `i32` saturates: a mate is a mate).
    let (side, n) = v.split_once(':')?;
    let n = saturating_i64(n.trim().strip_suffix('手')?.trim())?;
    // Symmetric, so that negating it never overflows.
    let n = n.clamp(-i64::from(i32::MAX), i64::from(i32::MAX)) as i32;
    match side.trim() {
        "先手勝ち" | "下手勝ち" => Some(Score::Mate(n)),
        "後手勝ち" | "上手勝ち" => Some(Score::Mate(-n)),
        _ => None,
    }
}

/// The score of one evaluation comment, read without its PV (which is not
/// replayed, so a comment whose PV does not replay still gives its score,
/// as training-data tools read floodgate's `'**` lines): CSA `** 30 …`,
/// KIF `#評価値=30` / `*評価値=30`, `#詰み=先手勝ち:15手`. `None` for any
/// other comment. A score with more digits than `i64` holds saturates at
/// its bounds (it is a very large score, which exporters clamp or filter,
/// not a missing one).
///
/// ```
/// use kifu::eval::{score_of, Score};
///
/// assert_eq!(score_of("** -120 +2726FU"), Some(Score::Cp(-120)));
/// assert_eq!(score_of("#評価値=45"), Some(Score::Cp(45)));
/// assert_eq!(score_of("#詰み=後手勝ち:7手"), Some(Score::Mate(-7)));
/// assert_eq!(score_of("** 99999999999999999999"), Some(Score::Cp(i64::MAX)));
/// assert_eq!(score_of("good move"), None);
/// ```
pub fn score_of(text: &str) -> Option<Score> {
    if let Some(rest) = text.strip_prefix("**") {
        return saturating_i64(rest.split_ascii_whitespace().next()?).map(Score::Cp);
    }
    if let Some(v) = kif_value(text, "評価値") {
        return saturating_i64(v).map(Score::Cp);
    }
    kif_value(text, "詰み").and_then(parse_mate)
}

/// The evaluation among a move's `comments` and the indices of the
/// comment lines that hold it; `pos` is the position after the move,
/// `played` the move (its destination is what 同 refers to in a KIF PV; a
/// USI PV that repeats it starts after it). `None` when no comment is an
/// evaluation whose PV replays (such comments stay text).
pub fn extract(
    comments: &[String],
    pos: &Position,
    played: Option<Move>,
) -> Option<(Evaluation, Vec<usize>)> {
    let last_to = played.map(|m| m.to());
    // CSA form: one line.
    for (i, c) in comments.iter().enumerate() {
        if c.starts_with("**") {
            if let Some(e) = parse_csa(c, pos, played) {
                return Some((e, vec![i]));
            }
        }
    }
    // KIF form: a score line, then optional PV and node lines.
    let mut score = None;
    let mut pv = None;
    let mut nodes = None;
    let mut used = Vec::new();
    for (i, c) in comments.iter().enumerate() {
        if score.is_none() {
            if let Some(v) = kif_value(c, "評価値") {
                if let Ok(n) = v.parse::<i64>() {
                    score = Some(Score::Cp(n));
                    used.push(i);
                    continue;
                }
            }
            if let Some(s) = kif_value(c, "詰み").and_then(parse_mate) {
                score = Some(s);
                used.push(i);
                continue;
            }
        }
        if pv.is_none() {
            if let Some(v) = kif_value(c, "読み筋") {
                match parse_kif_pv(v, pos, last_to) {
                    Some(p) => {
                        pv = Some(p);
                        used.push(i);
                    }
                    // A PV that does not replay: the comments stay text.
                    None => return None,
                }
                continue;
            }
        }
        if nodes.is_none() {
            if let Some(n) = kif_value(c, "ノード数").and_then(|v| v.parse().ok()) {
                nodes = Some(n);
                used.push(i);
            }
        }
    }
    let score = score?;
    Some((
        Evaluation {
            score,
            pv: pv.unwrap_or_default(),
            nodes,
        },
        used,
    ))
}

/// The dialect a format writes evaluations in; `None` for formats without
/// comments (USI, SFEN).
pub fn dialect_of(format: crate::read::Format) -> Option<Dialect> {
    use crate::read::Format;
    match format {
        Format::Csa => Some(Dialect::Csa),
        Format::Kif | Format::Ki2 | Format::Jkf | Format::Psn => Some(Dialect::Kif),
        _ => None,
    }
}

/// `record` with every evaluation comment of another dialect rewritten in
/// `dialect` (one already in `dialect` is kept as written; the record
/// itself when there is nothing to rewrite). An evaluation in another
/// dialect whose PV does not replay or cannot be written there keeps its
/// comment as it was and is counted in `dropped.as_comments` (`engine
/// evaluation`); a mate score written as ±30000 in CSA is counted in
/// `dropped.evaluations` (only the winner is kept).
pub fn translate<'a>(
    record: &'a Record,
    dialect: Dialect,
    dropped: &mut Dropped,
) -> Cow<'a, Record> {
    if !has_candidates(&record.main) {
        return Cow::Borrowed(record);
    }
    let mut rec = record.clone();
    let pos = Position::from_setup_unchecked(&rec.start.setup);
    translate_line(&mut rec.main, pos, None, dialect, dropped, 0);
    Cow::Owned(rec)
}

fn has_candidates(line: &Line) -> bool {
    line.moves.iter().any(|n| {
        n.comments.iter().any(|c| is_candidate(c)) || n.variations.iter().any(has_candidates)
    })
}

fn is_candidate(c: &str) -> bool {
    c.starts_with("**")
        || kif_value(c, "評価値").is_some()
        || kif_value(c, "詰み").is_some()
        || kif_value(c, "読み筋").is_some()
}

fn translate_line(
    line: &mut Line,
    mut pos: Position,
    mut last_to: Option<Square>,
    dialect: Dialect,
    dropped: &mut Dropped,
    depth: usize,
) {
    const KEPT: &str = "engine evaluation";
    if depth > crate::record::MAX_VARIATION_DEPTH {
        return;
    }
    for node in &mut line.moves {
        for v in &mut node.variations {
            translate_line(v, pos, last_to, dialect, dropped, depth + 1);
        }
        pos.play_unchecked(node.mv);
        last_to = Some(node.mv.to());
        if !node.comments.iter().any(|c| is_candidate(c)) {
            continue;
        }
        let Some((e, used)) = extract(&node.comments, &pos, Some(node.mv)) else {
            // Kept as text, untranslated: worth saying when it is not the
            // target's own form.
            let foreign = node.comments.iter().any(|c| match dialect {
                Dialect::Kif => c.starts_with("**"),
                Dialect::Csa => !c.starts_with("**") && is_candidate(c),
            });
            if foreign {
                dropped.as_comments.add(KEPT);
            }
            continue;
        };
        // Already in the target's form: kept as written.
        let csa_form = used.len() == 1 && node.comments[used[0]].starts_with("**");
        if csa_form == (dialect == Dialect::Csa) {
            continue;
        }
        match e.render(dialect, &pos, last_to) {
            Some(lines) => {
                if dialect == Dialect::Csa && matches!(e.score, Score::Mate(_)) {
                    // Written as ±30000: only approximately kept.
                    dropped.evaluations += 1;
                }
                let rest: Vec<String> = node
                    .comments
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !used.contains(i))
                    .map(|(_, c)| c.clone())
                    .collect();
                node.comments = lines.into_iter().chain(rest).collect();
            }
            None => dropped.as_comments.add(KEPT),
        }
    }
}

/// The evaluations of a line's moves (index by index), as [`extract`]
/// finds them; for `kifu stats --moves`.
pub fn of_line(line: &Line, start: &Position) -> Vec<Option<Evaluation>> {
    let mut pos = *start;
    line.moves
        .iter()
        .map(|n| {
            pos.play_unchecked(n.mv);
            extract(&n.comments, &pos, Some(n.mv)).map(|(e, _)| e)
        })
        .collect()
}
