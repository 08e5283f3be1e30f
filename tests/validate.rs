//! One fixture per rule id (fixtures/validate/NAME.ext with NAME.err giving
//! the exact first error `LINE:COL rule PLY`, or `ok`), through the same
//! reader + validator path as `kifu validate`.

use kifu::read::{self, ReadOptions, Severity};
use kifu::validate::{validate, ValidateOptions};
use std::path::Path;

fn first_error(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let format = kifu::read::Format::from_path(path);
    let games = read::read_all(&bytes, format, &ReadOptions::default());
    assert!(!games.is_empty(), "{}: no game", path.display());
    for g in &games {
        let report = validate(g, &ValidateOptions::default());
        if let Some(f) = report
            .findings
            .iter()
            .find(|f| f.severity == Severity::Error)
        {
            // A finding about a move carries the move and the position.
            if let Some(ply) = f.ply {
                assert!(
                    f.mv.is_some() && f.sfen.is_some(),
                    "{}: {f:?}",
                    path.display()
                );
                return format!("{}:{} {} {ply}", f.line, f.column, f.rule);
            }
            return format!("{}:{} {} -", f.line, f.column, f.rule);
        }
    }
    "ok".to_string()
}

#[test]
fn every_rule_has_a_fixture_with_its_exact_finding() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate");
    let mut seen = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().is_some_and(|e| e == "err") {
            continue;
        }
        let expect_path = path.with_extension("err");
        let expect = std::fs::read_to_string(&expect_path)
            .unwrap_or_else(|_| panic!("{} has no .err file", path.display()));
        let expect = expect.trim();
        let got = first_error(&path);
        if let Some(rule) = expect.split(' ').nth(1) {
            seen.insert(rule.to_string());
        }
        if got != expect {
            failures.push(format!(
                "{}: expected `{expect}`, got `{got}`",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for rule in [
        "syntax",
        "encoding",
        "no-piece",
        "piece-mismatch",
        "illegal-movement",
        "occupied",
        "not-in-hand",
        "must-promote",
        "dead-drop",
        "nifu",
        "uchifuzume",
        "self-check",
        "illegal-promotion",
        "after-end",
        "claim-mismatch",
        "setup",
        "empty",
    ] {
        assert!(seen.contains(rule), "no fixture for rule {rule}");
    }
}
