//! The SFEN/USI tests that need the shared corpus (`../shared/corpus`): every
//! SFEN/USI file of it against its expectation and the real records of
//! `tests/corpus-expect/usi`. Runs on `tests/support/trials.rs`
//! (`harness = false`): without the corpus each is reported `ignored`,
//! with the reason. The helpers are those of `tests/usi.rs`, included as
//! a module.

#[path = "support/trials.rs"]
mod trials;
#[allow(dead_code, unused_imports)]
#[path = "usi.rs"]
mod usi_tests;

use trials::Skip;
use usi_tests::{check_ok_file, errors, read, replay};

fn main() {
    trials::main(trials![corpus_expectations, corpus]);
}

/// The expectations the real SFEN files once held as fixtures (their first
/// lines), now read from the shared corpus.
fn corpus_expectations() -> Result<(), Skip> {
    let entries = usi_tests::common::corpus_expectations(&trials::corpus()?, "usi");
    for e in &entries {
        check_ok_file(&format!("{} ({})", e.name, e.path), &e.bytes, &e.expect);
    }
    println!("usi: {} real files checked", entries.len());
    Ok(())
}

fn corpus() -> Result<(), Skip> {
    let root = trials::corpus()?;
    let index = std::fs::read_to_string(root.join("index.csv")).unwrap();
    let (mut files, mut games_n) = (0, 0);
    for row in index.lines().skip(1) {
        let cols: Vec<&str> = row.split(',').collect();
        if cols.len() < 6 || cols[1] != "SFEN" {
            continue;
        }
        let games = read(&std::fs::read(root.join(cols[0])).unwrap());
        let expected: usize = cols[3].parse().unwrap();
        let mut problems = Vec::new();
        for g in &games {
            problems.extend(errors(g));
            if let Err(e) = replay(&g.record) {
                problems.push(format!("game {}: {e}", g.index));
            }
        }
        if cols[5] == "valid" {
            assert!(
                problems.is_empty(),
                "{}: {:?}",
                cols[0],
                &problems[..problems.len().min(5)]
            );
            assert_eq!(games.len(), expected, "{}: games", cols[0]);
        } else {
            assert!(!problems.is_empty(), "{}", cols[0]);
        }
        files += 1;
        games_n += games.len();
    }
    println!("SFEN corpus: {files} files, {games_n} games read clean");
    Ok(())
}
