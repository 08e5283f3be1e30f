//! Helpers shared by the KIF and KI2 tests.
#![allow(dead_code)]

use kifu::read::{lines_from_bytes, Format, Game, ReadOptions, Severity};
use kifu::record::{Line, Record};
use kifu::{Position, Variant};
use std::path::{Path, PathBuf};

/// Reads one game of `format` from bytes.
pub fn read(bytes: &[u8], format: Format) -> Game {
    let opts = ReadOptions::default();
    let lines = lines_from_bytes(bytes, &opts);
    match format {
        Format::Kif => kifu::kif::Reader::new(lines, &opts).next().unwrap(),
        Format::Ki2 => kifu::ki2::Reader::new(lines, &opts).next().unwrap(),
        _ => unreachable!(),
    }
}

/// Error findings as text.
pub fn errors(g: &Game) -> Vec<String> {
    g.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{}:{} {} {}", f.line, f.column, f.rule, f.message))
        .collect()
}

/// Replays a line and its variations with `Position::check`; returns the
/// first illegal move as `ply usi reason`.
pub fn replay_line(line: &Line, pos: Position, first_ply: u32, variant: Variant) -> Option<String> {
    let mut pos = pos;
    for (i, n) in line.moves.iter().enumerate() {
        for v in &n.variations {
            if let Some(e) = replay_line(v, pos, first_ply + i as u32, variant) {
                return Some(format!("{e} [in-variation]"));
            }
        }
        if let Err(e) = pos.check(n.mv) {
            return Some(format!(
                "ply {} {} {}",
                first_ply + i as u32,
                n.mv.usi(variant),
                e
            ));
        }
        if let Some(r) = n.role {
            if pos.moving_role(n.mv) != Some(r) {
                return Some(format!(
                    "ply {} {} piece-mismatch",
                    first_ply + i as u32,
                    n.mv.usi(variant)
                ));
            }
        }
        pos.play_unchecked(n.mv);
    }
    None
}

/// Replays the whole record.
pub fn replay(rec: &Record) -> Option<String> {
    let pos = Position::from_setup_unchecked(&rec.start.setup);
    replay_line(&rec.main, pos, 1, rec.variant())
}

/// Main-line USI moves.
pub fn usi(rec: &Record) -> Vec<String> {
    rec.main
        .moves
        .iter()
        .map(|n| n.mv.usi(rec.variant()).to_string())
        .collect()
}

/// The corpus directory, if present.
pub fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    p.join("index.csv").exists().then_some(p)
}

/// Every corpus file of `format` must agree with its expectation.
/// Corpus files where we knowingly disagree with the index, and why.
pub const KNOWN_DISAGREEMENTS: &[(&str, &str)] = &[
    (
        "iwate-shogikan/kif/20210207.kif",
        "damaged file: every kanji is U+FFFD (lossy re-encoding); tsshogi 'validated' it by reading 0 moves",
    ),
    (
        "iwate-shogikan/kif/22Jan07.KIF",
        "damaged file: every kanji is U+FFFD (lossy re-encoding); tsshogi 'validated' it by reading 0 moves",
    ),
    (
        "ragnarok/kif/Sample/Kif_VariationMiss.kif",
        "`100 ４三銀左(32)` carries a KI2 mark inside KIF; tsshogi rejects the line, we read it (dialect warning) and every move is legal",
    ),
];

pub fn corpus_check(format: Format) {
    let Some(dir) = corpus() else {
        println!("corpus not found at ../shared/corpus: skipping the corpus test");
        return;
    };
    let want = match format {
        Format::Kif => "KIF",
        _ => "KI2",
    };
    let index = std::fs::read_to_string(dir.join("index.csv")).unwrap();
    let (mut clean, mut warned, mut invalid_ok, mut total) = (0, 0, 0, 0);
    let mut disagreements = Vec::new();
    for row in index.lines().skip(1) {
        let cols: Vec<&str> = row.split(',').collect();
        if cols.len() < 6 || cols[1] != want {
            continue;
        }
        let path = cols[0];
        let expectation = cols[5..].join(",");
        let bytes = std::fs::read(dir.join(path)).unwrap();
        let known = KNOWN_DISAGREEMENTS.iter().find(|(p, _)| *p == path);
        total += 1;
        let g = read(&bytes, format);
        let errs = errors(&g);
        let illegal = replay(&g.record);
        let agrees = if expectation == "valid" {
            errs.is_empty() && illegal.is_none()
        } else {
            !errs.is_empty() || illegal.is_some()
        };
        if let Some((_, why)) = known {
            assert!(!agrees, "{path} is listed as a known disagreement but agrees now");
            println!("  known disagreement {path} ({expectation}): {why}; we found {errs:?} {illegal:?}");
            continue;
        }
        if expectation == "valid" {
            if errs.is_empty() && illegal.is_none() {
                if g.findings.is_empty() {
                    clean += 1;
                } else {
                    warned += 1;
                }
            } else {
                disagreements.push(format!(
                    "{path}: expected valid, got {:?} {:?}",
                    errs.iter().take(3).collect::<Vec<_>>(),
                    illegal
                ));
            }
        } else if expectation.starts_with("invalid") {
            if !errs.is_empty() || illegal.is_some() {
                invalid_ok += 1;
            } else {
                disagreements.push(format!("{path}: expected {expectation}, read clean"));
            }
        }
    }
    println!(
        "{want} corpus: {total} files; valid read clean {clean}, valid with warnings {warned}, invalid detected {invalid_ok}, disagreements {}",
        disagreements.len()
    );
    for d in &disagreements {
        println!("  {d}");
    }
    assert!(disagreements.is_empty(), "{} disagreements", disagreements.len());
}
