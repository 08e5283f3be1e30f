//! The PSN tests that need the shared corpus (`../shared/corpus`): every
//! PSN file of it against its expectation and the real records of
//! `tests/corpus-expect/psn`. Runs on `tests/support/trials.rs`
//! (`harness = false`): without the corpus each is reported `ignored`,
//! with the reason. The helpers are those of `tests/psn.rs`, included as
//! a module.

#[allow(dead_code, unused_imports)]
#[path = "psn.rs"]
mod psn_tests;
#[path = "support/trials.rs"]
mod trials;

use kifu::Position;
use psn_tests::{check_ok_file, errors, first_error, main_usi, read, replay};
use trials::Skip;

fn main() {
    trials::main(trials![corpus_expectations, corpus]);
}

/// The expectations the real PSN records once held as fixtures, now read
/// from the shared corpus.
fn corpus_expectations() -> Result<(), Skip> {
    let entries = psn_tests::common::corpus_expectations(&trials::corpus()?, "psn");
    for e in &entries {
        let what = format!("{} ({})", e.name, e.path);
        if e.bad {
            assert_eq!(first_error(&what, &e.bytes), e.expect.trim(), "{what}");
        } else {
            check_ok_file(&what, &e.bytes, &e.expect);
        }
    }
    println!("psn: {} real files checked", entries.len());
    Ok(())
}

fn corpus() -> Result<(), Skip> {
    let root = trials::corpus()?;
    let index = std::fs::read_to_string(root.join("index.csv")).unwrap();
    let (mut clean, mut refused) = (0, 0);
    for row in index.lines().skip(1) {
        let cols: Vec<&str> = row.split(',').collect();
        if cols.len() < 6 || cols[1] != "PSN" {
            continue;
        }
        let path = root.join(cols[0]);
        let games = read(&std::fs::read(&path).unwrap());
        let mut problems = Vec::new();
        for g in &games {
            problems.extend(errors(g));
            let start = Position::from_setup_unchecked(&g.record.start.setup);
            if let Err(e) = replay(start, &g.record.main, cols[0]) {
                problems.push(e);
            }
        }
        if cols[5] == "valid" {
            assert!(problems.is_empty(), "{}: {problems:?}", cols[0]);
            clean += 1;
        } else {
            assert!(!problems.is_empty(), "{}: expected {}", cols[0], cols[5]);
            refused += 1;
        }
    }
    // python-shogi's expected USI moves for the Oyama–Nakahara game.
    let exp = root.join("python-shogi-ddugovic/psn/oyama-nakahara-1976-osho.expected.json");
    if let Ok(text) = std::fs::read_to_string(&exp) {
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let want: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let games = read(&std::fs::read(exp.with_extension("").with_extension("psn")).unwrap());
        assert_eq!(main_usi(&games[0].record), want.join(" "));
        assert_eq!(
            games[0].record.claim.as_ref().unwrap().outcome.name(),
            "sente_win"
        );
    }
    println!("PSN corpus: {clean} valid files read clean, {refused} invalid files refused");
    assert!(clean >= 13 && refused >= 6);
    Ok(())
}
