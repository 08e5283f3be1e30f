//! kifu's opening and castle names against another classifier's
//! expectations: `../shared/corpus/pyshogi-db/_peer_expectations_tags.json`
//! (pyshogi-db's castle and opening sets for 297 Shogi Wars games, and 80
//! snippets with the ply at which a name must first appear). kifu's ids
//! are mapped to pyshogi-db's names by the `peer` column of the taxonomy.
//!
//! Targets (issue 29): exact castle sets on at least 90% of sides, exact
//! opening sets on at least 85%, precision and recall of at least 95% on
//! the four most common names of each kind, snippets found at the asserted
//! ply at least 95% of the time. The figures are printed; a failure prints
//! every side that differs.
//!
//! `KIFU_TAGS_TAXONOMY=path/to/taxonomy.tsv` checks another taxonomy file
//! (an edited `src/tags/taxonomy.tsv`) without rebuilding;
//! `KIFU_TAGS_VERBOSE=1` prints the differences even when the targets are
//! met. Reported `ignored` when the corpus is absent (`harness = false`,
//! tests/support/trials.rs).

use kifu::read::{read_all, Format, ReadOptions};
use kifu::tags::{tag_record, GameTags, Kind, Taxonomy};
use kifu::Color;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;

#[path = "support/trials.rs"]
mod trials;
use trials::Skip;

fn main() {
    trials::main(trials![peer_expectations_are_met]);
}

const KINDS: [(Kind, &str); 2] = [(Kind::Castle, "castles"), (Kind::Opening, "openings")];

/// Peer name → first ply, for one side and kind.
fn peer_names(tax: &Taxonomy, tags: &GameTags, side: Color, kind: Kind) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    for f in tags.side(side).of(kind) {
        for p in &tax.get(f.tag).peer {
            let e = out.entry(p.clone()).or_insert(f.ply);
            *e = (*e).min(f.ply);
        }
    }
    out
}

fn ours(tax: &Taxonomy, tags: &GameTags, side: Color, kind: Kind) -> String {
    tags.side(side)
        .of(kind)
        .iter()
        .map(|f| format!("{}@{}", tax.get(f.tag).id, f.ply))
        .collect::<Vec<_>>()
        .join(" ")
}

fn tag_file(path: &Path, tax: &Taxonomy) -> GameTags {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let games = read_all(&bytes, Some(Format::Kif), &ReadOptions::default());
    let game = games
        .first()
        .unwrap_or_else(|| panic!("{}: no game", path.display()));
    tag_record(&game.record, tax)
}

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 {
        100.0
    } else {
        100.0 * n as f64 / d as f64
    }
}

fn peer_expectations_are_met() -> Result<(), Skip> {
    let corpus = trials::corpus()?;
    let dir = corpus.join("pyshogi-db");
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("_peer_expectations_tags.json")).expect("the JSON"),
    )
    .expect("valid JSON");
    let owned;
    let tax: &Taxonomy = match std::env::var_os("KIFU_TAGS_TAXONOMY") {
        Some(p) => {
            let text = std::fs::read_to_string(&p).expect("KIFU_TAGS_TAXONOMY file");
            owned = Taxonomy::parse(&text)
                .unwrap_or_else(|e| panic!("{}:{e}", Path::new(&p).display()));
            &owned
        }
        None => Taxonomy::builtin(),
    };
    let mut report = String::new();
    let mut diffs = String::new();
    let mut failures = Vec::new();
    // Exact sets per side.
    let games = json["games"].as_object().expect("games");
    let mut exact = [0usize; 2];
    let mut sides = 0usize;
    // Per kind and peer name: true positives, false positives, false negatives.
    let mut counts: [BTreeMap<String, [usize; 3]>; 2] = Default::default();
    for (file, g) in games {
        let tags = tag_file(&dir.join(file), tax);
        for side in Color::ALL {
            sides += 1;
            for (k, (kind, key)) in KINDS.iter().enumerate() {
                let want: BTreeSet<String> = g[*key][side.name()]
                    .as_array()
                    .expect("a list")
                    .iter()
                    .map(|v| v.as_str().expect("a name").to_string())
                    .collect();
                let got = peer_names(tax, &tags, side, *kind);
                let got_set: BTreeSet<String> = got.keys().cloned().collect();
                for n in want.union(&got_set) {
                    let c = counts[k].entry(n.clone()).or_default();
                    match (want.contains(n), got_set.contains(n)) {
                        (true, true) => c[0] += 1,
                        (false, true) => c[1] += 1,
                        (true, false) => c[2] += 1,
                        _ => {}
                    }
                }
                if std::env::var_os("KIFU_TAGS_DUMP").is_some() {
                    println!(
                        "DUMP\t{file}\t{side}\t{key}\t{}\t{}\t{}",
                        want.iter().cloned().collect::<Vec<_>>().join(" "),
                        got.iter()
                            .map(|(n, p)| format!("{n}@{p}"))
                            .collect::<Vec<_>>()
                            .join(" "),
                        ours(tax, &tags, side, *kind)
                    );
                }
                if want == got_set {
                    exact[k] += 1;
                } else {
                    let _ = writeln!(
                        diffs,
                        "{file} {side} {key}: expected {:?}, found {:?} (ours: {})",
                        want,
                        got_set,
                        ours(tax, &tags, side, *kind)
                    );
                }
            }
        }
    }
    let targets = [90.0, 85.0];
    for (k, (_, key)) in KINDS.iter().enumerate() {
        let p = pct(exact[k], sides);
        let _ = writeln!(
            report,
            "{key}: exact sets on {}/{sides} sides ({p:.1}%, target {}%)",
            exact[k], targets[k]
        );
        if p < targets[k] {
            failures.push(format!("{key} exact sets {p:.1}% < {}%", targets[k]));
        }
        // The four most common names in the expectations.
        let mut common: Vec<(&String, usize)> =
            counts[k].iter().map(|(n, c)| (n, c[0] + c[2])).collect();
        common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for (name, _) in common.iter().take(4) {
            let [tp, fp, fn_] = counts[k][*name];
            let (prec, rec) = (pct(tp, tp + fp), pct(tp, tp + fn_));
            let _ = writeln!(
                report,
                "  {name}: precision {prec:.1}% recall {rec:.1}% (tp {tp}, fp {fp}, fn {fn_})"
            );
            if prec < 95.0 || rec < 95.0 {
                failures.push(format!(
                    "{key} {name}: precision {prec:.1}%, recall {rec:.1}% (target 95%)"
                ));
            }
        }
        let _ = writeln!(report, "  confusion (name: tp fp fn):");
        for (name, [tp, fp, fn_]) in &counts[k] {
            if fp + fn_ > 0 {
                let _ = writeln!(report, "    {name}: {tp} {fp} {fn_}");
            }
        }
    }
    // Snippets: the name first found at the asserted ply, for the side
    // that played it.
    let snippets = json["snippets"].as_object().expect("snippets");
    let (mut asserted, mut at_ply) = (0usize, 0usize);
    for (file, s) in snippets {
        let tags = tag_file(&dir.join(file), tax);
        let side = if s["side"].as_str() == Some("sente") {
            Color::Black
        } else {
            Color::White
        };
        let mut checks = vec![(
            s["label"].as_str().unwrap_or_default().to_string(),
            s["ply"].as_u64().unwrap_or(0),
        )];
        for a in s["also_asserted"].as_array().into_iter().flatten() {
            checks.push((
                a["label"].as_str().unwrap_or_default().to_string(),
                a["ply"].as_u64().unwrap_or(0),
            ));
        }
        for (label, ply) in checks {
            asserted += 1;
            let k = if json["labels"]["castles"].get(&label).is_some() {
                Kind::Castle
            } else {
                Kind::Opening
            };
            let got = peer_names(tax, &tags, side, k);
            if got.get(&label).map(|p| u64::from(*p)) == Some(ply) {
                at_ply += 1;
            } else {
                let _ = writeln!(
                    diffs,
                    "{file} {side}: {label} expected at ply {ply}, found {:?} (ours: {})",
                    got.get(&label),
                    ours(tax, &tags, side, k)
                );
            }
        }
    }
    let p = pct(at_ply, asserted);
    let _ = writeln!(
        report,
        "snippets: {at_ply}/{asserted} names at the asserted ply ({p:.1}%, target 95%)"
    );
    if p < 95.0 {
        failures.push(format!("snippets {p:.1}% < 95%"));
    }
    println!("{report}");
    if !failures.is_empty() || std::env::var_os("KIFU_TAGS_VERBOSE").is_some() {
        println!("differences:\n{diffs}");
    }
    assert!(
        failures.is_empty(),
        "targets missed: {}",
        failures.join("; ")
    );
    Ok(())
}
