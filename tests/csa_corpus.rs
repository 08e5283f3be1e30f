//! The CSA tests that need the shared corpus (`../shared/corpus`): every
//! CSA file of it against its expectation, the real records of
//! `tests/corpus-expect/csa` and their round trips. Runs on
//! `tests/support/trials.rs` (`harness = false`): without the corpus each
//! is reported `ignored`, with the reason. The helpers are those of
//! `tests/csa.rs`, included as a module.

#[allow(dead_code, unused_imports)]
#[path = "csa.rs"]
mod csa_tests;
#[path = "support/trials.rs"]
mod trials;

use csa_tests::{check_games, first_error, read_bytes, read_path, replay};
use kifu::csa::CsaVersion;
use kifu::read::Severity;
use trials::Skip;

fn main() {
    trials::main(trials![
        corpus_expectations,
        corpus_records_round_trip_v22,
        corpus_records_round_trip_v30,
        corpus,
    ]);
}

/// The expectations the real CSA records once held as fixtures, now read
/// from the shared corpus.
fn corpus_expectations() -> Result<(), Skip> {
    let entries = csa_tests::common::corpus_expectations(&trials::corpus()?, "csa");
    for e in &entries {
        let games = read_bytes(&e.bytes);
        let name = format!("{} ({})", e.name, e.path);
        if e.bad {
            assert_eq!(first_error(&name, &games), e.expect.trim(), "{name}");
        } else {
            check_games(&name, &games, &e.expect);
        }
    }
    println!("csa: {} real files checked", entries.len());
    Ok(())
}

/// The real files of `tests/corpus-expect/csa/` that read clean:
/// (name, bytes).
fn corpus_inputs() -> Result<Vec<(String, Vec<u8>)>, Skip> {
    Ok(
        csa_tests::common::corpus_expectations(&trials::corpus()?, "csa")
            .into_iter()
            .filter(|e| !e.bad)
            .map(|e| (e.path, e.bytes))
            .collect(),
    )
}

/// `round_trip_v22` on the real records.
fn corpus_records_round_trip_v22() -> Result<(), Skip> {
    csa_tests::round_trip(CsaVersion::V22, corpus_inputs()?);
    Ok(())
}

/// `round_trip_v30` on the real records.
fn corpus_records_round_trip_v30() -> Result<(), Skip> {
    csa_tests::round_trip(CsaVersion::V30, corpus_inputs()?);
    Ok(())
}

fn corpus() -> Result<(), Skip> {
    let root = trials::corpus()?;
    let text = std::fs::read_to_string(root.join("index.csv")).unwrap();
    let (mut clean, mut with_findings, mut games_total) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        if cols.len() < 6 || cols[1] != "CSA" {
            continue;
        }
        let path = root.join(cols[0]);
        let expectation = cols[5..].join(",");
        let games = read_path(&path);
        games_total += games.len();
        if games.iter().any(|g| !g.findings.is_empty()) {
            with_findings += 1;
            let rules: Vec<String> = games
                .iter()
                .flat_map(|g| {
                    g.findings
                        .iter()
                        .map(|f| format!("{}:{}:{} {}", g.index, f.line, f.column, f.rule))
                })
                .collect();
            println!("{}: findings {}", cols[0], rules.join(", "));
        } else {
            clean += 1;
        }
        let problem = games.iter().find_map(|g| {
            let report = kifu::validate::validate(g, &Default::default());
            if let Some(f) = report
                .findings
                .iter()
                .find(|f| f.severity == Severity::Error)
            {
                return Some(format!(
                    "game {}: {}:{} {} {}",
                    g.index, f.line, f.column, f.rule, f.message
                ));
            }
            replay(&g.record)
                .err()
                .map(|m| format!("game {}: {m}", g.index))
        });
        let want_games: usize = cols[3].parse().unwrap_or(0);
        if want_games != games.len() {
            disagreements.push(format!(
                "{}: {} games, index says {want_games}",
                cols[0],
                games.len()
            ));
        }
        let known = csa_tests::common::KNOWN_DISAGREEMENTS
            .iter()
            .find(|(p, _)| *p == cols[0]);
        match (expectation.as_str(), problem) {
            ("valid", Some(p)) => match known {
                Some((_, why)) => println!("{}: known disagreement ({why}): {p}", cols[0]),
                None => disagreements.push(format!("{}: valid but {p}", cols[0])),
            },
            ("valid", None) if known.is_some() => disagreements.push(format!(
                "{} is listed as a known disagreement but agrees now",
                cols[0]
            )),
            (e, None) if e.starts_with("invalid") => {
                disagreements.push(format!("{}: {e} but read clean", cols[0]))
            }
            (e, Some(p)) if e.starts_with("invalid") => {
                println!("{}: {e}: found {p}", cols[0])
            }
            _ => {}
        }
    }
    println!(
        "CSA corpus: {} files clean, {} with findings, {} games",
        clean, with_findings, games_total
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    Ok(())
}
