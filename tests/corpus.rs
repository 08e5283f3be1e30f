//! The whole reference corpus (`../shared/corpus`, present in CI) through
//! the same path the CLI uses: every file whose expectation is `valid` must
//! replay with no error, every `invalid:…` file must be refused. Real
//! findings in files marked valid (e.g. a false result claim) are listed,
//! with the reason, in `tests/corpus-known.tsv`; anything else fails.
//! Reported `ignored` (with the reason) when the corpus is absent: this
//! binary runs on `tests/support/trials.rs` (`harness = false`).

#![allow(clippy::collapsible_match, clippy::match_like_matches_macro)]

use kifu::read::{self, Format, ReadOptions, Severity};
use kifu::validate::{validate, ValidateOptions};
use std::collections::BTreeMap;
use std::path::Path;

#[path = "support/trials.rs"]
mod trials;
use trials::Skip;

fn main() {
    trials::main(trials![corpus_expectations_hold]);
}

fn format_of(name: &str) -> Option<Format> {
    match name {
        "KIF" => Some(Format::Kif),
        "KI2" => Some(Format::Ki2),
        "CSA" => Some(Format::Csa),
        "PSN" => Some(Format::Psn),
        "JKF" => Some(Format::Jkf),
        "SFEN" => Some(Format::Usi),
        _ => None,
    }
}

fn corpus_expectations_hold() -> Result<(), Skip> {
    let dir = trials::corpus()?;
    let known_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus-known.tsv"),
    )
    .unwrap_or_default();
    // path \t rule \t reason
    let known: BTreeMap<String, String> = known_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut it = l.split('\t');
            Some((it.next()?.to_string(), it.next()?.to_string()))
        })
        .collect();
    let mut rdr = csv::Reader::from_path(dir.join("index.csv")).expect("index.csv");
    let mut stats: BTreeMap<String, [u32; 3]> = BTreeMap::new(); // ok, refused, wrong
    let mut wrong = Vec::new();
    let mut paths_differ = Vec::new();
    let opts = ValidateOptions::default();
    for rec in rdr.records() {
        let rec = rec.expect("row");
        let (path, fmt, expectation) = (&rec[0], &rec[1], rec[5].trim());
        let Some(format) = format_of(fmt) else {
            continue;
        };
        let bytes = std::fs::read(dir.join(path)).expect("corpus file");
        let games = read::read_all(&bytes, Some(format), &ReadOptions::default());
        let mut errors: Vec<String> = Vec::new();
        let mut built = Vec::new();
        for g in &games {
            let report = validate(g, &opts);
            built.push(report.clone());
            for f in report
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
            {
                errors.push(format!(
                    "game {} {}:{} {} {}",
                    g.index, f.line, f.column, f.rule, f.message
                ));
            }
        }
        // The library's two paths agree on real records: the built
        // record validated (above) and the events streamed into a
        // `Validator`, as `kifu validate` does.
        if let Ok(mut reader) =
            read::Reader::with_options(&bytes[..], Some(format), &ReadOptions::default())
        {
            let mut streamed = Vec::new();
            while let Some(r) = reader.read_game(&mut kifu::validate::Validator::new(opts)) {
                streamed.push(r);
            }
            if streamed != built {
                paths_differ.push(path.to_string());
            }
        }
        let refused = !errors.is_empty() || games.is_empty();
        let entry = stats.entry(fmt.to_string()).or_default();
        let ok = match expectation {
            "valid" => {
                if refused {
                    let rules: Vec<&str> = errors
                        .iter()
                        .map(|e| e.split(' ').nth(3).unwrap_or(""))
                        .collect();
                    match known.get(path) {
                        Some(rule) if rules.iter().all(|r| r == rule) => true,
                        _ => false,
                    }
                } else {
                    true
                }
            }
            // A file labelled invalid that we read and replay cleanly is a
            // disagreement only if it is not listed as `accepted` with a reason.
            e if e.starts_with("invalid") => {
                refused || known.get(path).is_some_and(|r| r == "accepted")
            }
            _ => true,
        };
        if ok {
            entry[if refused { 1 } else { 0 }] += 1;
        } else {
            entry[2] += 1;
            wrong.push(format!(
                "{path} [{expectation}]: {}",
                if errors.is_empty() {
                    "accepted".to_string()
                } else {
                    errors.join("; ")
                }
            ));
        }
    }
    for (fmt, [ok, refused, bad]) in &stats {
        eprintln!("corpus {fmt}: {ok} clean, {refused} refused as expected, {bad} wrong");
    }
    assert!(
        paths_differ.is_empty(),
        "streaming and built records disagree on {} files: {}",
        paths_differ.len(),
        paths_differ.join(", ")
    );
    assert!(
        wrong.is_empty(),
        "{} corpus files disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    Ok(())
}
