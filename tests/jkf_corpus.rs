//! The JKF tests that need the shared corpus (`../shared/corpus`): the JKF
//! files of it and json-kifu-format's expected files, the real records of
//! `tests/corpus-expect/jkf`, and what kifu writes checked against the
//! published JKF schema the corpus keeps. Runs on `tests/support/trials.rs`
//! (`harness = false`): without the corpus each is reported `ignored`,
//! with the reason. The helpers are those of `tests/jkf.rs`, included as a
//! module.

#[allow(dead_code, unused_imports)]
#[path = "jkf.rs"]
mod jkf_tests;
#[path = "support/trials.rs"]
mod trials;

use jkf_tests::{
    check_expect, errors, load_corpus_schema, read, replay, round_trip_bytes, round_trip_file,
    schema_check, write_value,
};
use kifu::Position;
use trials::Skip;

fn main() {
    trials::main(trials![
        written_jkf_meets_the_published_schema,
        corpus_expectations,
        corpus,
    ]);
}

/// What the fixtures and the minimal JKF of `tests/jkf.rs` write meets the
/// published schema (that file checks the structural rules only).
fn written_jkf_meets_the_published_schema() -> Result<(), Skip> {
    load_corpus_schema(&trials::corpus()?);
    jkf_tests::round_trip_fixtures();
    let v = write_value(&read(jkf_tests::MINIMAL_JKF.as_bytes()).record);
    schema_check(&v).unwrap();
    Ok(())
}

/// The real JKF files that were fixtures: they still round-trip exactly and
/// meet their expectations, read from the shared corpus.
fn corpus_expectations() -> Result<(), Skip> {
    let dir = trials::corpus()?;
    load_corpus_schema(&dir);
    let entries = jkf_tests::common::corpus_expectations(&dir, "jkf");
    let mut failures = Vec::new();
    for e in &entries {
        let what = format!("{} ({})", e.name, e.path);
        if let Err(err) = round_trip_bytes(&e.bytes) {
            failures.push(format!("{what}: {err}"));
        }
        check_expect(&what, &e.bytes, &e.expect);
    }
    println!("jkf: {} real files checked", entries.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}

fn corpus() -> Result<(), Skip> {
    let root = trials::corpus()?;
    load_corpus_schema(&root);
    let index = std::fs::read_to_string(root.join("index.csv")).unwrap();
    let mut clean = 0;
    let mut expected_ok = 0;
    let mut expected_bad = Vec::new();
    for row in index.lines().skip(1) {
        let cols: Vec<&str> = row.split(',').collect();
        if cols.len() < 6 {
            continue;
        }
        let path = root.join(cols[0]);
        match cols[1] {
            "JKF" => {
                if let Err(e) = round_trip_file(&path) {
                    println!("  (JKF source, not required) {}: {e}", cols[0]);
                }
                let g = read(&std::fs::read(&path).unwrap());
                let mut problems = errors(&g);
                if let Err(e) = replay(
                    Position::from_setup_unchecked(&g.record.start.setup),
                    &g.record.main,
                ) {
                    problems.push(e);
                }
                let v = write_value(&g.record);
                if let Err(e) = schema_check(&v) {
                    problems.push(format!("schema: {e}"));
                }
                assert_eq!(
                    cols[5] == "valid",
                    problems.is_empty(),
                    "{}: {problems:?}",
                    cols[0]
                );
                clean += 1;
            }
            "expected-JKF" => match round_trip_file(&path) {
                Ok(()) => expected_ok += 1,
                Err(e) => expected_bad.push(format!("{}: {e}", cols[0])),
            },
            _ => {}
        }
    }
    println!(
        "JKF corpus: {clean} JKF files read clean; {expected_ok} expected-JKF files round-trip exactly, {} differ",
        expected_bad.len()
    );
    for b in &expected_bad {
        println!("  {b}");
    }
    assert!(expected_bad.is_empty(), "{}", expected_bad.join("\n"));
    Ok(())
}
