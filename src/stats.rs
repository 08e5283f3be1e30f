//! Statistics: one CSV row per game and per move, computed from a game and
//! its validation report (so invalid games still give a row up to the first
//! illegal move).

use crate::batch::FileMeta;
use crate::color::Color;
use crate::handicap::Handicap;
use crate::moves::Move;
use crate::position::Position;
use crate::read::{Game, Severity};
use crate::record::{HeaderKey, Node};
use crate::validate::GameReport;
use serde::Serialize;

/// Settings for the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsOptions {
    /// Plies in `opening_usi`.
    pub opening_plies: usize,
    /// Fill `sfen_before` in the moves table.
    pub sfen: bool,
    /// Build the moves table at all.
    pub moves: bool,
}

impl Default for StatsOptions {
    fn default() -> StatsOptions {
        StatsOptions {
            opening_plies: 16,
            sfen: false,
            moves: false,
        }
    }
}

/// One row of the games table. Field names are the CSV column names.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameRow {
    /// Input path as given.
    pub path: String,
    /// 0-based game index within the file.
    pub game: usize,
    /// Format read.
    pub format: String,
    /// Encoding detected.
    pub encoding: String,
    /// `standard`, `minishogi` or `doubutsu`.
    pub variant: String,
    /// Japanese handicap name (`平手`, `香落ち`, …) or `other`.
    pub handicap: String,
    /// Event.
    pub event: String,
    /// Site.
    pub site: String,
    /// Start date/time in ISO 8601 when parsable.
    pub start_time: String,
    /// Start date/time as written, when it could not be parsed.
    pub start_time_raw: String,
    /// Sente's player.
    pub sente: String,
    /// Gote's player.
    pub gote: String,
    /// Time control as written.
    pub time_control: String,
    /// Main-line plies replayed.
    pub plies: u32,
    /// `sente_win`, `gote_win`, `draw`, `aborted` or `unknown`.
    pub result: String,
    /// Termination reason (`resign`, `checkmate`, …).
    pub reason: String,
    /// No error finding.
    pub valid: bool,
    /// Rule id of the first error.
    pub first_error_rule: String,
    /// Ply of the first error, if it concerns a move.
    pub first_error_ply: Option<u32>,
    /// Captures by sente.
    pub sente_captures: u32,
    /// Captures by gote.
    pub gote_captures: u32,
    /// Drops by sente.
    pub sente_drops: u32,
    /// Drops by gote.
    pub gote_drops: u32,
    /// Promotions by sente.
    pub sente_promotions: u32,
    /// Promotions by gote.
    pub gote_promotions: u32,
    /// Checks given by sente.
    pub sente_checks: u32,
    /// Checks given by gote.
    pub gote_checks: u32,
    /// Sente's total time in seconds, where times exist.
    pub sente_time_s: Option<f64>,
    /// Gote's total time in seconds, where times exist.
    pub gote_time_s: Option<f64>,
    /// The first plies in USI, space-separated.
    pub opening_usi: String,
    /// Position after the last replayed move.
    pub final_sfen: String,
    /// Number of variations.
    pub variations: usize,
    /// Number of comments.
    pub comments: usize,
    /// How much of `start_time` the record gave: `year`, `month`, `day`,
    /// `hour`, `minute` or `second` (empty without a parsed date).
    pub start_time_precision: String,
}

/// One row of the moves table.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MoveRow {
    /// Input path.
    pub path: String,
    /// Game index.
    pub game: usize,
    /// 1-based ply.
    pub ply: u32,
    /// `sente` or `gote`.
    pub side: String,
    /// USI move.
    pub usi: String,
    /// International notation.
    pub psn: String,
    /// Japanese (KIF) notation.
    pub kif: String,
    /// Moving piece before the move (SFEN letter, `+` for promoted).
    pub piece: String,
    /// Origin square (USI), empty for drops.
    pub from: String,
    /// Destination square (USI).
    pub to: String,
    /// Captured piece (SFEN letter), empty if none.
    pub capture: String,
    /// Whether the move promotes.
    pub promote: bool,
    /// Whether it is a drop.
    pub drop: bool,
    /// Whether it gives check.
    pub check: bool,
    /// Time spent, seconds.
    pub time_s: Option<f64>,
    /// Mover's cumulative time, seconds.
    pub cumulative_s: Option<f64>,
    /// The position before the move (with `--sfen`).
    pub sfen_before: String,
}

/// Converts a date as records write it (`2024/01/02 10:00:00`,
/// `1999/07/15(木) 19:07:12`, `平成30年1月2日`, …) to the one ISO 8601
/// form of the tables, `2024-01-02T10:00:00` (see [`crate::date`]).
pub fn iso_date(raw: &str) -> Option<String> {
    crate::date::iso(raw)
}

fn secs(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

/// Builds the games-table row of a game.
pub fn game_row(meta: &FileMeta, game: &Game, report: &GameReport, opts: &StatsOptions) -> GameRow {
    let rec = &game.record;
    let h = |k: HeaderKey| rec.header.get(&k).unwrap_or("").to_string();
    let raw_time = h(HeaderKey::StartTime);
    let (start_time, start_time_raw, start_time_precision) = match crate::date::parse(&raw_time) {
        Some(t) => (t.iso(), String::new(), t.precision().name().to_string()),
        None => (String::new(), raw_time, String::new()),
    };
    let handicap = match rec.variant() {
        crate::variant::Variant::Standard => rec
            .start
            .handicap
            .or_else(|| Handicap::detect(&rec.start.setup))
            .map_or_else(|| "other".to_string(), |h| h.info().japanese.to_string()),
        v => v.name().to_string(),
    };
    let first_error = report
        .findings
        .iter()
        .find(|f| f.severity == Severity::Error);
    let mut row = GameRow {
        path: meta.display.clone(),
        game: game.index,
        format: meta.format.map_or("", |f| f.name()).to_string(),
        encoding: meta.encoding.map_or("", |e| e.name()).to_string(),
        variant: rec.variant().name().to_string(),
        handicap,
        event: h(HeaderKey::Event),
        site: h(HeaderKey::Site),
        start_time,
        start_time_raw,
        start_time_precision,
        sente: h(HeaderKey::Sente),
        gote: h(HeaderKey::Gote),
        time_control: h(HeaderKey::TimeControl),
        plies: report.plies,
        result: report.result.outcome.name().to_string(),
        reason: report.result.reason.clone().unwrap_or_default(),
        valid: report.ok,
        first_error_rule: first_error.map_or(String::new(), |f| f.rule.id().to_string()),
        first_error_ply: first_error.and_then(|f| f.ply),
        final_sfen: report.final_sfen.clone(),
        variations: rec.variation_count(),
        comments: rec.comment_count(),
        ..GameRow::default()
    };
    let v = rec.variant();
    let mut opening = String::new();
    for (i, p) in report.replayed.iter().enumerate() {
        let (caps, drops, proms, checks) = match p.color {
            Color::Black => (
                &mut row.sente_captures,
                &mut row.sente_drops,
                &mut row.sente_promotions,
                &mut row.sente_checks,
            ),
            Color::White => (
                &mut row.gote_captures,
                &mut row.gote_drops,
                &mut row.gote_promotions,
                &mut row.gote_checks,
            ),
        };
        *caps += p.captured.is_some() as u32;
        *drops += p.mv.is_drop() as u32;
        *proms += p.mv.is_promotion() as u32;
        *checks += p.check as u32;
        if i < opts.opening_plies {
            if !opening.is_empty() {
                opening.push(' ');
            }
            opening.push_str(&p.mv.usi(v).to_string());
        }
    }
    row.opening_usi = opening;
    let nodes = &rec.main.moves[..(report.plies as usize).min(rec.main.moves.len())];
    let mut totals = [None::<u64>, None::<u64>];
    for (i, node) in nodes.iter().enumerate() {
        let c = report.replayed.get(i).map_or(Color::Black, |p| p.color);
        let t = &mut totals[c.index()];
        if let Some(s) = node.time.spent_ms {
            *t = Some(t.unwrap_or(0) + s);
        } else if let Some(total) = node.time.total_ms {
            *t = Some(total);
        }
    }
    row.sente_time_s = totals[0].map(secs);
    row.gote_time_s = totals[1].map(secs);
    row
}

/// Notation functions the moves table uses for its `psn` and `kif` columns.
pub struct Notation {
    /// International notation of a legal move in a position.
    pub psn: fn(&Position, Move) -> String,
    /// Japanese notation of a legal move; the second square is the previous
    /// move's destination (for 同).
    pub kif: fn(&Position, Move, Option<crate::square::Square>) -> String,
}

/// Builds the moves-table rows of a game (main line, replayed moves only).
pub fn move_rows(
    meta: &FileMeta,
    game: &Game,
    report: &GameReport,
    opts: &StatsOptions,
    notation: &Notation,
) -> Vec<MoveRow> {
    let rec = &game.record;
    let v = rec.variant();
    let mut pos = Position::from_setup_unchecked(&rec.start.setup);
    let mut rows = Vec::with_capacity(report.replayed.len());
    let mut cumulative = [0u64, 0u64];
    let mut prev_to = None;
    let nodes: &[Node] = &rec.main.moves;
    for (i, p) in report.replayed.iter().enumerate() {
        let node = nodes.get(i);
        let side = p.color;
        let time = node.and_then(|n| n.time.spent_ms);
        let cum = match (node.and_then(|n| n.time.total_ms), time) {
            (Some(t), _) => {
                cumulative[side.index()] = t;
                Some(t)
            }
            (None, Some(s)) => {
                cumulative[side.index()] += s;
                Some(cumulative[side.index()])
            }
            _ => None,
        };
        let piece = crate::role::Piece::new(side, p.role)
            .sfen(v)
            .to_ascii_uppercase();
        rows.push(MoveRow {
            path: meta.display.clone(),
            game: game.index,
            ply: i as u32 + 1,
            side: side.name().to_string(),
            usi: p.mv.usi(v).to_string(),
            psn: (notation.psn)(&pos, p.mv),
            kif: (notation.kif)(&pos, p.mv, prev_to),
            piece,
            from: p.mv.from().map_or(String::new(), |s| s.to_string()),
            to: p.mv.to().to_string(),
            capture: p.captured.map_or(String::new(), |r| r.sfen(v).to_string()),
            promote: p.mv.is_promotion(),
            drop: p.mv.is_drop(),
            check: p.check,
            time_s: time.map(secs),
            cumulative_s: cum.map(secs),
            sfen_before: if opts.sfen { pos.sfen() } else { String::new() },
        });
        prev_to = Some(p.mv.to());
        pos.play_unchecked(p.mv);
    }
    rows
}

/// Distinct openings counted exactly; past this many, the table keeps the
/// frequent ones (Misra–Gries) and says by how much counts may be low.
pub const OPENING_SLOTS: usize = 4096;

/// Distinct termination reasons and handicaps kept; further ones are
/// counted under `other`.
pub const LABEL_SLOTS: usize = 64;

/// Totals over many games, for `kifu stats --summary`, in memory that does
/// not grow with the number of games: a histogram of plies (exact mean,
/// median, minimum and maximum; one counter per distinct game length),
/// at most [`LABEL_SLOTS`] reasons and handicaps, and at most
/// [`OPENING_SLOTS`] openings.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    games: u64,
    invalid: u64,
    plies: std::collections::BTreeMap<u32, u64>,
    plies_sum: u128,
    results: std::collections::BTreeMap<String, u64>,
    by_handicap: std::collections::BTreeMap<String, [u64; 4]>,
    reasons: std::collections::BTreeMap<String, u64>,
    openings: std::collections::HashMap<String, u64>,
    /// Openings counted (games with at least 8 plies).
    openings_seen: u64,
    /// How much every opening count was lowered to make room (Misra–Gries).
    openings_lowered: u64,
}

/// The key under which `label` is counted in a table of at most
/// [`LABEL_SLOTS`] entries.
fn bounded_key<'a, V>(map: &std::collections::BTreeMap<String, V>, label: &'a str) -> &'a str {
    if map.contains_key(label) || map.len() < LABEL_SLOTS - 1 {
        label
    } else {
        "other"
    }
}

impl Summary {
    /// Adds one game.
    pub fn add(&mut self, row: &GameRow) {
        self.games += 1;
        self.invalid += !row.valid as u64;
        *self.plies.entry(row.plies).or_default() += 1;
        self.plies_sum += u128::from(row.plies);
        let result = bounded_key(&self.results, &row.result).to_string();
        *self.results.entry(result).or_default() += 1;
        let handicap = bounded_key(&self.by_handicap, &row.handicap).to_string();
        let h = self.by_handicap.entry(handicap).or_default();
        h[match row.result.as_str() {
            "sente_win" => 0,
            "gote_win" => 1,
            "draw" => 2,
            _ => 3,
        }] += 1;
        let reason = if row.reason.is_empty() {
            "unknown"
        } else {
            &row.reason
        };
        let reason = bounded_key(&self.reasons, reason).to_string();
        *self.reasons.entry(reason).or_default() += 1;
        // Openings by their first 8 plies.
        let prefix: Vec<&str> = row.opening_usi.split(' ').take(8).collect();
        if prefix.len() == 8 {
            self.add_opening(prefix.join(" "));
        }
    }

    /// Misra–Gries: an opening not in a full table lowers every count by
    /// one (dropping those at zero) instead of taking a slot, so the table
    /// never holds more than [`OPENING_SLOTS`] entries and an opening seen
    /// more than `seen / OPENING_SLOTS` times is always in it.
    fn add_opening(&mut self, key: String) {
        self.openings_seen += 1;
        if let Some(n) = self.openings.get_mut(&key) {
            *n += 1;
        } else if self.openings.len() < OPENING_SLOTS {
            self.openings.insert(key, 1);
        } else {
            self.openings_lowered += 1;
            self.openings.retain(|_, n| {
                *n -= 1;
                *n > 0
            });
        }
    }

    /// The `k`-th smallest game length (0-based).
    fn nth_plies(&self, k: u64) -> u32 {
        let mut seen = 0u64;
        for (&p, &n) in &self.plies {
            seen += n;
            if seen > k {
                return p;
            }
        }
        0
    }

    /// The summary as text: rates, lengths, a histogram, reasons, openings.
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let pct = |n: u64, d: u64| {
            if d == 0 {
                0.0
            } else {
                100.0 * n as f64 / d as f64
            }
        };
        let _ = writeln!(s, "games: {} ({} invalid)", self.games, self.invalid);
        let _ = writeln!(s, "results:");
        for (k, n) in &self.results {
            let _ = writeln!(s, "  {k:<10} {n:>8}  {:5.1}%", pct(*n, self.games));
        }
        let _ = writeln!(
            s,
            "by handicap:        games  sente%   gote%   draw%  other%"
        );
        for (h, c) in &self.by_handicap {
            let t: u64 = c.iter().sum();
            let _ = writeln!(
                s,
                "  {} {:>6}  {:5.1}   {:5.1}   {:5.1}   {:5.1}",
                pad(h, 16),
                t,
                pct(c[0], t),
                pct(c[1], t),
                pct(c[2], t),
                pct(c[3], t)
            );
        }
        if self.games > 0 {
            let n = self.games;
            let mean = self.plies_sum as f64 / n as f64;
            let median = if n % 2 == 1 {
                self.nth_plies(n / 2) as f64
            } else {
                (self.nth_plies(n / 2 - 1) as f64 + self.nth_plies(n / 2) as f64) / 2.0
            };
            let min = self.plies.keys().next().copied().unwrap_or(0);
            let max = self.plies.keys().next_back().copied().unwrap_or(0);
            let _ = writeln!(
                s,
                "plies: mean {mean:.1}, median {median:.1}, min {min}, max {max}"
            );
            let bucket = 20u32;
            let mut hist = std::collections::BTreeMap::<u32, u64>::new();
            for (&p, &c) in &self.plies {
                *hist.entry(p / bucket * bucket).or_default() += c;
            }
            let max = hist.values().copied().max().unwrap_or(1).max(1);
            let _ = writeln!(s, "length histogram:");
            for (b, n) in &hist {
                let bar = "#".repeat(((n * 50).div_ceil(max)) as usize);
                let _ = writeln!(
                    s,
                    "  {:>4}-{:<4} {:>7} {bar}",
                    b,
                    b.saturating_add(bucket - 1),
                    n
                );
            }
        }
        let _ = writeln!(s, "termination:");
        let mut reasons: Vec<_> = self.reasons.iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (r, n) in reasons {
            let _ = writeln!(s, "  {r:<16} {n:>8}  {:5.1}%", pct(*n, self.games));
        }
        let mut openings: Vec<_> = self.openings.iter().collect();
        openings.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        if !openings.is_empty() {
            if self.openings_lowered == 0 {
                let _ = writeln!(s, "most common openings (first 8 plies):");
            } else {
                let _ = writeln!(
                    s,
                    "most common openings (first 8 plies; more than {OPENING_SLOTS} distinct, so counts may be low by up to {}):",
                    self.openings_lowered
                );
            }
            for (o, n) in openings.into_iter().take(10) {
                let _ = writeln!(s, "  {n:>7}  {o}");
            }
        }
        s
    }
}

/// Pads `s` with spaces to `width` terminal columns (CJK characters count 2).
fn pad(s: &str, width: usize) -> String {
    let w: usize = s
        .chars()
        .map(|c| if (c as u32) >= 0x1100 { 2 } else { 1 })
        .sum();
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

#[cfg(test)]
mod tests {
    use super::{iso_date, GameRow, Summary, LABEL_SLOTS, OPENING_SLOTS};

    fn row(plies: u32, reason: &str, opening: &str) -> GameRow {
        GameRow {
            plies,
            result: "sente_win".into(),
            reason: reason.into(),
            handicap: "平手".into(),
            valid: true,
            opening_usi: opening.into(),
            ..GameRow::default()
        }
    }

    #[test]
    fn summary_medians_are_exact_and_tables_bounded() {
        let mut s = Summary::default();
        for p in [10, 3, 7, 7, 100, 1] {
            s.add(&row(p, "resign", ""));
        }
        let text = s.render();
        assert!(
            text.contains("plies: mean 21.3, median 7.0, min 1, max 100"),
            "{text}"
        );
        // Many distinct reasons and openings: the tables stay bounded and
        // the frequent opening is still found with its exact count.
        let mut s = Summary::default();
        let common = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b";
        for i in 0..3 * OPENING_SLOTS {
            let opening = format!("1a1b 2a2b 3a3b 4a4b 5a5b 6a6b 7a7b {i}");
            s.add(&row(50, &format!("reason {i}"), &opening));
            if i % 2 == 0 {
                s.add(&row(50, "resign", common));
            }
        }
        assert!(s.openings.len() <= OPENING_SLOTS);
        assert!(s.reasons.len() <= LABEL_SLOTS);
        assert_eq!(s.plies.len(), 1);
        let text = s.render();
        assert!(text.contains(common), "{text}");
        assert!(text.contains("counts may be low"), "{text}");
        assert!(text.contains("  other "), "{text}");
    }

    #[test]
    fn dates_as_records_write_them() {
        assert_eq!(
            iso_date("2024/01/02 10:00:00").as_deref(),
            Some("2024-01-02T10:00:00")
        );
        assert_eq!(
            iso_date("1999/07/15(木) 19:07:12").as_deref(),
            Some("1999-07-15T19:07:12")
        );
        assert_eq!(
            iso_date("2024-01-02").as_deref(),
            Some("2024-01-02T00:00:00")
        );
        assert_eq!(
            iso_date("2024.01.02").as_deref(),
            Some("2024-01-02T00:00:00")
        );
        assert_eq!(iso_date("19970822").as_deref(), Some("1997-08-22T00:00:00"));
        assert_eq!(
            iso_date("２０２２/０７/２９").as_deref(),
            Some("2022-07-29T00:00:00")
        );
        assert_eq!(
            iso_date("2003/05/03 10:30").as_deref(),
            Some("2003-05-03T10:30:00")
        );
        assert_eq!(iso_date("yesterday"), None);
        assert_eq!(iso_date("2024/13/02"), None);
        assert_eq!(iso_date("2023/02/30"), None);
        assert_eq!(iso_date(""), None);
    }
}
