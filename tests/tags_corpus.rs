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
use kifu::record::{HeaderKey, Record};
use kifu::tags::{tag_record, GameTags, Kind, TagId, Taxonomy};
use kifu::Color;
use kifu::Handicap;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;

#[path = "support/trials.rs"]
mod trials;
use trials::Skip;

fn main() {
    trials::main(trials![
        peer_expectations_are_met,
        header_labels_are_reproduced
    ]);
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

/// The taxonomy the test checks: `KIFU_TAGS_TAXONOMY`'s file, else the
/// built-in one.
fn taxonomy() -> &'static Taxonomy {
    match std::env::var_os("KIFU_TAGS_TAXONOMY") {
        Some(p) => {
            let text = std::fs::read_to_string(&p).expect("KIFU_TAGS_TAXONOMY file");
            let tax = Taxonomy::parse(&text)
                .unwrap_or_else(|e| panic!("{}:{e}", Path::new(&p).display()));
            Box::leak(Box::new(tax))
        }
        None => Taxonomy::builtin(),
    }
}

fn peer_expectations_are_met() -> Result<(), Skip> {
    let corpus = trials::corpus()?;
    let dir = corpus.join("pyshogi-db");
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("_peer_expectations_tags.json")).expect("the JSON"),
    )
    .expect("valid JSON");
    let tax = taxonomy();
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
    // Issue 29 asked for 90% and 85%; the figures reached since (568 and
    // 528 of 594 sides) are kept: a change of the taxonomy may not lower
    // the agreement with the peer.
    let targets = [95.5, 88.8];
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

// ---- Labels other programs and sites wrote (issue 38) ----

/// Who a header label is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Whose {
    /// The game (`戦型`, `$OPENING`, `[Opening]`).
    Game,
    /// One side (`先手の戦型`, `下手の囲い`, …: 下手 is sente, 上手 gote).
    Side(Color),
}

/// The labels of one record's header: who, the header's kind (castle or
/// opening), the label as written.
fn header_labels(record: &Record) -> Vec<(Whose, Kind, String)> {
    let mut out = Vec::new();
    for (key, value) in &record.header.entries {
        let (mut whose, kind) = match key {
            HeaderKey::Opening => (Whose::Game, Kind::Opening),
            HeaderKey::Other(k) => {
                let side = match k.get(..6) {
                    Some("先手" | "下手") => Color::Black,
                    Some("後手" | "上手") => Color::White,
                    _ => continue,
                };
                match k.get(6..) {
                    Some("の戦型") => (Whose::Side(side), Kind::Opening),
                    Some("の囲い") => (Whose::Side(side), Kind::Castle),
                    _ => continue,
                }
            }
            _ => continue,
        };
        for label in value.split([',', '、', '，']) {
            let mut label = label.trim();
            // `先手三間飛車`: the game's label naming a side.
            for (prefix, side) in [("先手", Color::Black), ("後手", Color::White)] {
                if whose == Whose::Game {
                    if let Some(rest) = label.strip_prefix(prefix) {
                        label = rest;
                        whose = Whose::Side(side);
                    }
                }
            }
            if !label.is_empty() {
                out.push((whose, kind, label.to_string()));
            }
        }
    }
    out
}

/// The entry a label names, if kifu's taxonomy has one: the label as
/// written, then with the spelling variants of the same name folded
/// (full-width digits, okurigana left out: `振飛車`, `向飛車`; a family's
/// `その他`, "other", is the family). An opening header is looked up among
/// openings, then styles, then castles; a castle header among castles.
fn label_entry(tax: &Taxonomy, kind: Kind, label: &str) -> Option<TagId> {
    let mut folded: String = label
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            _ => c,
        })
        .collect();
    for (from, to) in [("振飛車", "振り飛車"), ("向飛車", "向かい飛車")] {
        folded = folded.replace(from, to);
    }
    if let Some(rest) = folded.strip_suffix("その他") {
        folded = rest.to_string();
    }
    let kinds: &[Kind] = match kind {
        Kind::Castle => &[Kind::Castle],
        _ => &[Kind::Opening, Kind::Style, Kind::Castle],
    };
    kinds
        .iter()
        .find_map(|&k| tax.find(k, label).or_else(|| tax.find(k, &folded)))
}

/// The root of an entry's family (its top ancestor).
fn family(tax: &Taxonomy, id: TagId) -> TagId {
    let mut id = id;
    while let Some(p) = tax.get(id).parent {
        id = p;
    }
    id
}

/// Every file of the corpus whose header labels a game's opening or a
/// side's opening or castle (`戦型`, `$OPENING`, `[Opening]`, `先手の戦型`,
/// `後手の囲い`, `上手の…`, `下手の…`), read with kifu's own readers.
/// (a) Of the labels whose entry kifu's taxonomy has, the share kifu
/// reproduces: the entry or one of its descendants found for that side
/// (for the game's label: either side, or the game's style). (b) Of the
/// even games of at least 20 plies whose `戦型` label kifu covers, the
/// share where a name found (either side's, or the style) is in the
/// label's family (its top ancestor's subtree).
fn header_labels_are_reproduced() -> Result<(), Skip> {
    let corpus = trials::corpus()?;
    let tax = taxonomy();
    let index = std::fs::read_to_string(corpus.join("index.csv")).expect("index.csv");
    let (mut files, mut labels, mut covered, mut found) = (0usize, 0usize, 0usize, 0usize);
    let (mut games, mut families) = (0usize, 0usize);
    let mut uncovered: BTreeMap<String, usize> = BTreeMap::new();
    // Misses grouped by the label's entry.
    let mut misses: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in index.lines().skip(1) {
        let mut cols = line.split(',');
        let (Some(path), Some(format)) = (cols.next(), cols.next()) else {
            continue;
        };
        if format.starts_with("expected") {
            continue;
        }
        let Ok(bytes) = std::fs::read(corpus.join(path)) else {
            continue;
        };
        let mut labelled = false;
        // The reader the file's extension names (as the CLI reads it: a
        // KI2 file read as KIF has no moves).
        let format = Format::from_path(Path::new(path));
        for game in read_all(&bytes, format, &ReadOptions::default()) {
            let record = &game.record;
            let header = header_labels(record);
            if header.is_empty() {
                continue;
            }
            labelled = true;
            let tags = tag_record(record, tax);
            let even = record.start.handicap == Some(Handicap::Even)
                && record.main.moves.len() >= MIN_PLIES;
            let names = |whose: Whose| -> Vec<TagId> {
                let sides: &[Color] = match whose {
                    Whose::Game => &Color::ALL,
                    Whose::Side(Color::Black) => &[Color::Black],
                    Whose::Side(Color::White) => &[Color::White],
                };
                let mut v: Vec<TagId> = sides
                    .iter()
                    .flat_map(|&c| {
                        let s = tags.side(c);
                        s.openings.iter().chain(&s.castles).map(|f| f.tag)
                    })
                    .collect();
                v.extend(tags.style);
                v
            };
            let listing = || {
                let mut s = String::new();
                for c in Color::ALL {
                    let side = tags.side(c);
                    let ids: Vec<String> = side
                        .openings
                        .iter()
                        .chain(&side.castles)
                        .map(|f| format!("{}@{}", tax.get(f.tag).id, f.ply))
                        .collect();
                    let _ = write!(s, "{c}: {} ", ids.join(" "));
                }
                let _ = write!(s, "plies {} ", record.main.moves.len());
                if let Some(st) = tags.style {
                    let _ = write!(s, "style: {}", tax.get(st).id);
                }
                s
            };
            let mut game_family = None;
            // A record of fewer than MIN_PLIES moves shows no shape: its
            // labels (a format sample's `YAGURA` on two moves) are not
            // covered, whatever they name.
            let short = record.main.moves.len() < MIN_PLIES;
            for (whose, kind, label) in header {
                labels += 1;
                let Some(id) = label_entry(tax, kind, &label).filter(|_| !short) else {
                    let key = if short {
                        format!("{label} (short)")
                    } else {
                        label
                    };
                    *uncovered.entry(key).or_default() += 1;
                    continue;
                };
                covered += 1;
                let got = names(whose);
                // What a filter by the label selects: the entry and its
                // descendants, or for an umbrella (居飛車, 穴熊, …) its members.
                if got.iter().any(|t| tax.selects(id).contains(t.0)) {
                    found += 1;
                } else {
                    misses
                        .entry(tax.get(id).id.clone())
                        .or_default()
                        .push(format!("{path} {whose:?} {label}: {}", listing()));
                }
                if whose == Whose::Game && kind == Kind::Opening && even {
                    let root = family(tax, id);
                    let hit = names(Whose::Game).iter().any(|t| {
                        family(tax, *t) == root
                            || (tax.get(id).is_umbrella() && tax.selects(id).contains(t.0))
                    });
                    game_family = Some(game_family.unwrap_or(false) || hit);
                }
            }
            if let Some(hit) = game_family {
                games += 1;
                families += usize::from(hit);
                if !hit {
                    misses
                        .entry("(family)".to_string())
                        .or_default()
                        .push(format!("{path}: {}", listing()));
                }
            }
        }
        files += usize::from(labelled);
    }
    let (a, b) = (pct(found, covered), pct(families, games));
    println!(
        "header labels: {files} files, {labels} labels, {covered} covered by the taxonomy\n\
         (a) labels reproduced: {found}/{covered} ({a:.1}%, target {LABELS_TARGET}%)\n\
         (b) 戦型 family of even games of 20 plies or more: {families}/{games} ({b:.1}%, target {FAMILY_TARGET}%)"
    );
    println!("labels not covered: {uncovered:?}");
    for (class, list) in &misses {
        println!("missed {class} ({}):", list.len());
        for m in list {
            println!("  {m}");
        }
    }
    assert!(files > 0, "no labelled file in the corpus");
    assert!(
        a >= LABELS_TARGET,
        "labels reproduced {a:.1}% < {LABELS_TARGET}%"
    );
    assert!(b >= FAMILY_TARGET, "戦型 family {b:.1}% < {FAMILY_TARGET}%");
    Ok(())
}

/// The fewest moves a record needs for its labels to be covered (the
/// same bound as the 戦型 family's even games).
const MIN_PLIES: usize = 20;
/// The share of covered header labels kifu must reproduce (95.2%
/// reached, 178/187: the target; docs/tags.md lists the misses
/// left by class).
const LABELS_TARGET: f64 = 95.0;
/// The share of even games whose 戦型 family kifu must match (100%
/// reached, 95/95; asserted at 98.5%: one miss of 95 passes, two fail; the issue's
/// target is 95%).
const FAMILY_TARGET: f64 = 98.5;
