//! Round trips across every pair of formats over the fixtures: the moves,
//! start position and terminal are identical; comments, times, variations
//! and headers are identical wherever both formats hold them (what a writer
//! cannot hold it must count in `Output.dropped`, never lose silently).
//! `tests/convert_corpus.rs` runs the same on the real records of the
//! shared corpus.

use kifu::convert::{ConvertOptions, Target};
use kifu::read::{self, Format, Game, ReadOptions, Severity};
use kifu::record::{Line, Record};
use std::path::Path;

pub mod common;

/// The valid games of every ok fixture (the real records of
/// `tests/corpus-expect/` are [`corpus_games`]).
fn fixtures() -> Vec<(String, Game)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut inputs: Vec<(String, Format, Vec<u8>)> = Vec::new();
    for fmt in FORMATS {
        let dir = root.join(fmt).join("ok");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let Some(format) = Format::from_path(&p) else {
                continue;
            };
            inputs.push((p.display().to_string(), format, std::fs::read(&p).unwrap()));
        }
    }
    valid_games(inputs)
}

/// The fixture folders (and `tests/corpus-expect/` folders), one per format.
const FORMATS: [&str; 6] = ["csa", "kif", "ki2", "psn", "jkf", "usi"];

/// The valid games of the real records of `tests/corpus-expect/`, read from
/// the shared corpus `dir` (`tests/convert_corpus.rs`).
pub fn corpus_games(dir: &Path) -> Vec<(String, Game)> {
    let mut inputs: Vec<(String, Format, Vec<u8>)> = Vec::new();
    for fmt in FORMATS {
        for e in common::corpus_expectations(dir, fmt) {
            if let (false, Some(format)) = (e.bad, Format::from_path(Path::new(&e.path))) {
                inputs.push((e.path, format, e.bytes));
            }
        }
    }
    valid_games(inputs)
}

/// The games of `inputs` (name, format, bytes) that read and validate clean.
fn valid_games(inputs: Vec<(String, Format, Vec<u8>)>) -> Vec<(String, Game)> {
    let mut out = Vec::new();
    for (name, format, bytes) in inputs {
        for g in read::read_all(&bytes, Some(format), &ReadOptions::default()) {
            if g.findings.iter().any(|f| f.severity == Severity::Error) {
                continue;
            }
            let report = kifu::validate::validate(&g, &Default::default());
            if !report.ok {
                continue;
            }
            out.push((format!("{name} game {}", g.index), g));
        }
    }
    out
}

fn format_of(t: Target) -> Format {
    match t {
        Target::Kif | Target::Kifu => Format::Kif,
        Target::Ki2 | Target::Ki2u => Format::Ki2,
        Target::Csa => Format::Csa,
        Target::Psn => Format::Psn,
        Target::Jkf => Format::Jkf,
        Target::Usi | Target::Sfen => Format::Usi,
    }
}

fn moves(line: &Line) -> Vec<kifu::Move> {
    line.moves.iter().map(|n| n.mv).collect()
}

fn comments(line: &Line) -> Vec<Vec<String>> {
    line.moves.iter().map(|n| n.comments.clone()).collect()
}

fn times(line: &Line) -> Vec<Option<u64>> {
    line.moves
        .iter()
        .map(|n| n.time.spent_ms.map(|t| t / 1000))
        .collect()
}

fn compare(
    label: &str,
    a: &Record,
    b: &Record,
    t: Target,
    dropped: &kifu::write::Dropped,
    failures: &mut Vec<String>,
) {
    let sa = &a.start.setup;
    let sb = &b.start.setup;
    if (sa.board, sa.hands, sa.turn, sa.variant) != (sb.board, sb.hands, sb.turn, sb.variant) {
        failures.push(format!("{label} -> {t}: start position differs"));
        return;
    }
    if moves(&a.main) != moves(&b.main) {
        failures.push(format!(
            "{label} -> {t}: main line differs ({} vs {} moves)",
            a.main.moves.len(),
            b.main.moves.len()
        ));
        return;
    }
    let holds_terminal = !matches!(t, Target::Usi | Target::Sfen);
    if holds_terminal && dropped.terminals.is_empty() {
        // A result apart from the moves (a `まで` line, `[Result]`) may
        // come back as the terminal it states.
        let derived = kifu::write::main_terminal(a).map(|t| t.kind.clone());
        let ka = match (&a.main.terminal, &b.main.terminal) {
            (None, Some(_)) => derived.as_ref(),
            _ => a.main.terminal.as_ref().map(|x| &x.kind),
        };
        let kb = b.main.terminal.as_ref().map(|x| &x.kind);
        // A foul may be written from either side's point of view
        // (反則勝ち vs %-ILLEGAL_ACTION): the outcome must be the same.
        let turn = kifu::Position::from_setup_unchecked(&b.start.setup).turn();
        let plies = b.main.moves.len();
        let to_move = if plies.is_multiple_of(2) { turn } else { !turn };
        let same_outcome = match (ka, kb) {
            (Some(x), Some(y)) => {
                x.reason() == y.reason() && x.outcome(to_move) == y.outcome(to_move)
            }
            _ => false,
        };
        if ka != kb && !same_outcome {
            failures.push(format!("{label} -> {t}: terminal {ka:?} became {kb:?}"));
        }
    }
    // Engine evaluations are rewritten in the target's form: compare them
    // as evaluations, and the comments with every evaluation in one form.
    if dropped.evaluations == 0 && dropped.comments == 0 && t != Target::Usi {
        let start = kifu::Position::from_setup_unchecked(&a.start.setup);
        if kifu::eval::of_line(&a.main, &start) != kifu::eval::of_line(&b.main, &start) {
            failures.push(format!(
                "{label} -> {t}: engine evaluations differ without being counted as dropped"
            ));
        }
    }
    // The other comments must be the same, evaluation lines left aside
    // (they move to the front when rewritten in another form).
    let plain = |c: Vec<Vec<String>>| -> Vec<Vec<String>> {
        let eval_line = |l: &String| {
            l.starts_with("**")
                || ["評価値=", "読み筋=", "詰み=", "ノード数="]
                    .iter()
                    .any(|p| l.strip_prefix(['#', '*']).is_some_and(|r| r.starts_with(p)))
        };
        c.into_iter()
            .map(|v| v.into_iter().filter(|l| !eval_line(l)).collect())
            .collect()
    };
    // A time control the target cannot state comes back as a comment of
    // the start (`time control: …`), counted as kept as a comment; one it
    // states comes back as the same time control.
    let key = kifu::record::HeaderKey::TimeControl;
    let kept_tc = dropped.as_comments.contains("time control");
    let b_initial: Vec<String> = b
        .initial_comments
        .iter()
        .filter(|c| !(kept_tc && c.starts_with("time control: ")))
        .cloned()
        .collect();
    if let (Some(va), false) = (a.header.get(&key), kept_tc) {
        let (ta, tb) = (
            kifu::record::TimeControl::parse(va),
            b.header
                .get(&key)
                .and_then(kifu::record::TimeControl::parse),
        );
        if ta.is_some() && t != Target::Usi && ta != tb {
            failures.push(format!(
                "{label} -> {t}: time control {va:?} became {:?}",
                b.header.get(&key)
            ));
        }
    }
    if kept_tc
        && !b
            .initial_comments
            .iter()
            .any(|c| c.starts_with("time control: "))
    {
        failures.push(format!(
            "{label} -> {t}: a time control counted as kept as a comment is not there"
        ));
    }
    if dropped.comments == 0
        && t != Target::Usi
        && (plain(comments(&a.main)) != plain(comments(&b.main)) || a.initial_comments != b_initial)
    {
        {
            failures.push(format!(
                "{label} -> {t}: comments differ without being counted as dropped"
            ));
        }
    }
    if dropped.times == 0
        && !matches!(t, Target::Usi | Target::Ki2 | Target::Ki2u)
        && times(&a.main) != times(&b.main)
    {
        failures.push(format!(
            "{label} -> {t}: times differ without being counted as dropped"
        ));
    }
    if dropped.variations == 0 && a.variation_count() != b.variation_count() {
        failures.push(format!(
            "{label} -> {t}: {} variations became {} without being counted as dropped",
            a.variation_count(),
            b.variation_count()
        ));
    }
}

#[test]
fn every_fixture_through_every_format() {
    let games = fixtures();
    assert!(games.len() >= 50, "only {} fixture games", games.len());
    through_every_format(&games);
}

/// Writes each of `games` in every format, reads it back and compares.
pub fn through_every_format(games: &[(String, Game)]) {
    let targets = [
        Target::Kifu,
        Target::Kif,
        Target::Ki2u,
        Target::Csa,
        Target::Psn,
        Target::Jkf,
        Target::Usi,
    ];
    let mut failures = Vec::new();
    let mut pairs = 0;
    for (label, g) in games {
        for t in targets {
            let opts = ConvertOptions::default();
            let out = match t.write_one(&g.record, &opts) {
                Ok(o) => o,
                Err(e) => {
                    // Only variants a format cannot hold may be refused.
                    if g.record.variant() == kifu::Variant::Standard {
                        failures.push(format!("{label} -> {t}: write failed: {e}"));
                    }
                    continue;
                }
            };
            let bytes = match kifu::convert::encode_output(&out.text, t.default_encoding()) {
                Ok(b) => b,
                Err(e) => {
                    // Shift_JIS cannot hold every character: the error names it.
                    assert!(e.to_string().contains("cannot be written"), "{e}");
                    continue;
                }
            };
            let back = read::read_all(&bytes, Some(format_of(t)), &ReadOptions::default());
            let Some(b) = back.first() else {
                failures.push(format!("{label} -> {t}: nothing read back"));
                continue;
            };
            if let Some(f) = b.findings.iter().find(|f| f.severity == Severity::Error) {
                failures.push(format!(
                    "{label} -> {t}: reading back: {}:{} {} {}",
                    f.line, f.column, f.rule, f.message
                ));
                continue;
            }
            compare(label, &g.record, &b.record, t, &out.dropped, &mut failures);
            pairs += 1;
        }
    }
    eprintln!("{pairs} conversions checked over {} games", games.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
