//! Lint of the taxonomy `src/tags/taxonomy.tsv` (issue 29): the file's own
//! shape (unique ids, known kinds, parents that exist, no parent cycles,
//! rules that parse and compile) and an example game per entry, written
//! for this project, on which the entry is found.
//!
//! The examples are `fixtures/tags/examples.tsv` (see its README): one row
//! per example, `id`, `side` (`sente`, `gote`, or `game` for a style),
//! `ply` (the ply at which the entry must first be kept for that side, or
//! `-` for a style) and the USI moves from the even start. Every example
//! must be legal to its last move (kifu's validator finds no error), the
//! names [`tag_record`] gives the built record must be those found while
//! reading, and every entry of the taxonomy, helper entries (ids starting
//! with `_`) included, must have one. A helper is never reported, so its example is checked on a copy of the taxonomy in
//! which the helper is renamed to an ordinary id.
//!
//! The examples are read at run time: after editing them, rerun the test
//! binary without rebuilding. Every problem is listed before the test
//! fails, with what was found on the failing example.

use kifu::read::{read_all, Format, ReadOptions, Reader};
use kifu::replay::{Ended, Observer, Replay};
use kifu::tags::{tag_record, Found, GameTags, Kind, Pattern, Taxonomy};
use kifu::validate::{GameReport, ValidateOptions};
use kifu::{Color, Severity};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

const TAXONOMY: &str = include_str!("../src/tags/taxonomy.tsv");

fn examples_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tags/examples.tsv");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// One row of the taxonomy, as written.
struct Row {
    line: usize,
    id: String,
    kind: String,
    parent: String,
    rule: String,
}

/// The taxonomy's rows, read here without the library (so that the lint
/// does not trust the parser it checks).
fn rows(text: &str) -> Vec<Row> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let (_, header) = lines.next().expect("a header line");
    let names: Vec<&str> = header.split('\t').map(str::trim).collect();
    let col = |name: &str| {
        names
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("the header has no column `{name}`: {header}"))
    };
    for c in ["id", "ja", "en", "kind", "parent", "aliases", "rule"] {
        col(c);
    }
    let (id, kind, parent, rule) = (col("id"), col("kind"), col("parent"), col("rule"));
    lines
        .map(|(i, l)| {
            let cells: Vec<&str> = l.split('\t').collect();
            let cell = |c: usize| cells.get(c).map_or("", |s| s.trim()).to_string();
            Row {
                line: i + 1,
                id: cell(id),
                kind: cell(kind),
                parent: cell(parent),
                rule: cell(rule),
            }
        })
        .collect()
}

#[test]
fn ids_are_unique_and_well_formed() {
    let rows = rows(TAXONOMY);
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bad = Vec::new();
    for r in &rows {
        if r.id.is_empty()
            || !r
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            bad.push(format!("line {}: bad id `{}`", r.line, r.id));
        }
        if let Some(first) = seen.insert(&r.id, r.line) {
            bad.push(format!(
                "line {}: id `{}` already on line {first}",
                r.line, r.id
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(seen.len() > 100, "only {} entries", seen.len());
}

#[test]
fn kinds_are_known() {
    for r in &rows(TAXONOMY) {
        assert!(
            ["opening", "castle", "style"].contains(&r.kind.as_str()),
            "line {}: `{}` has kind `{}`",
            r.line,
            r.id,
            r.kind
        );
    }
}

#[test]
fn parents_exist_share_the_kind_and_make_no_cycle() {
    let rows = rows(TAXONOMY);
    let by_id: BTreeMap<&str, &Row> = rows.iter().map(|r| (r.id.as_str(), r)).collect();
    for r in &rows {
        let mut at = r;
        let mut path = vec![r.id.as_str()];
        while !at.parent.is_empty() {
            let Some(p) = by_id.get(at.parent.as_str()) else {
                panic!(
                    "line {}: `{}` has parent `{}`, which is no entry",
                    at.line, at.id, at.parent
                );
            };
            assert_eq!(
                p.kind, at.kind,
                "line {}: `{}` ({}) has parent `{}` ({})",
                at.line, at.id, at.kind, p.id, p.kind
            );
            assert!(
                !path.contains(&p.id.as_str()),
                "parent cycle: {} -> {}",
                path.join(" -> "),
                p.id
            );
            path.push(&p.id);
            at = p;
        }
    }
}

#[test]
fn rules_parse_and_the_file_compiles() {
    for r in &rows(TAXONOMY) {
        // An umbrella (`= a b !c`) lists entries; the parser checks them.
        if r.rule.starts_with('=') {
            continue;
        }
        if let Err(e) = Pattern::parse(&r.rule) {
            panic!("line {}: `{}`: {e}: {}", r.line, r.id, r.rule);
        }
    }
    // Compiling checks what parsing alone does not (`has=` names an entry
    // above, a `line=` is legal, a style looks at names only).
    let tax = Taxonomy::parse(TAXONOMY).unwrap_or_else(|e| panic!("taxonomy.tsv:{e}"));
    assert_eq!(tax.entries().len(), rows(TAXONOMY).len());
}

/// One example: where it is, the entry, the side and ply where it must be
/// found, the moves.
#[derive(Clone)]
struct Example {
    line: usize,
    id: String,
    side: Option<Color>,
    ply: Option<u32>,
    moves: String,
}

fn examples() -> Vec<Example> {
    let text = examples_text();
    let mut out = Vec::new();
    let mut header = true;
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        if std::mem::take(&mut header) {
            assert_eq!(
                l.split('\t').collect::<Vec<_>>(),
                ["id", "side", "ply", "moves"],
                "examples.tsv: header"
            );
            continue;
        }
        let c: Vec<&str> = l.split('\t').collect();
        assert_eq!(c.len(), 4, "examples.tsv:{}: 4 cells expected", i + 1);
        let side = match c[1] {
            "sente" => Some(Color::Black),
            "gote" => Some(Color::White),
            "game" => None,
            s => panic!("examples.tsv:{}: side `{s}` (sente, gote, game)", i + 1),
        };
        let ply = match c[2] {
            "-" => None,
            n => Some(
                n.parse()
                    .unwrap_or_else(|_| panic!("examples.tsv:{}: ply `{n}`", i + 1)),
            ),
        };
        out.push(Example {
            line: i + 1,
            id: c[0].to_string(),
            side,
            ply,
            moves: c[3].trim().to_string(),
        });
    }
    out
}

/// The taxonomy with every helper entry renamed `helper…` (an ordinary
/// id), so that it is reported.
fn revealed() -> Taxonomy {
    let helpers: Vec<String> = rows(TAXONOMY)
        .into_iter()
        .filter(|r| r.id.starts_with('_'))
        .map(|r| r.id)
        .collect();
    let mut text = String::new();
    for l in TAXONOMY.lines() {
        let mut l = l.to_string();
        for h in &helpers {
            if l.starts_with(&format!("{h}\t")) {
                l = format!("helper{l}");
            }
            for pre in ["has=", "opp="] {
                l = l.replace(&format!("{pre}{h}"), &format!("{pre}helper{h}"));
            }
        }
        text.push_str(&l);
        text.push('\n');
    }
    Taxonomy::parse(&text).unwrap_or_else(|e| panic!("the revealed taxonomy:{e}"))
}

/// A game played through a replay that names it.
struct Tagged {
    tags: GameTags,
    report: GameReport,
}

/// Keeps the replay's names.
struct Names;

impl Observer for Names {
    type Output = GameTags;
    fn end(&mut self, ended: &Ended<'_>) -> GameTags {
        ended.tags.cloned().unwrap_or_default()
    }
}

/// The USI line of an example's moves and their count: from the even
/// start, or from the position a cell starting with `sfen` gives
/// (`sfen BOARD TURN HAND N moves …`: a handicap start).
fn usi_line(moves: &str) -> (String, u32) {
    match moves.strip_prefix("sfen ") {
        Some(rest) => {
            let (pos, list) = rest.split_once(" moves ").unwrap_or((rest, ""));
            let n = list.split_whitespace().count() as u32;
            (format!("position sfen {pos} moves {list}\n"), n)
        }
        None => (
            format!("position startpos moves {moves}\n"),
            moves.split_whitespace().count() as u32,
        ),
    }
}

fn play(tax: &'static Taxonomy, moves: &str) -> Tagged {
    let (usi, _) = usi_line(moves);
    let mut reader = Reader::new(usi.as_bytes()).expect("a reader");
    let mut replay = Replay::new(ValidateOptions::default(), Names)
        .with_names(Some(tax))
        .with_validator(|v| v.with_final_sfen(false).with_game_key(false));
    let g = reader.read_game(&mut replay).expect("a game");
    Tagged {
        tags: g.output,
        report: g.report,
    }
}

fn listing(tax: &Taxonomy, found: &[Found]) -> String {
    found
        .iter()
        .map(|f| format!("{}@{}", tax.get(f.tag).id, f.ply))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What is wrong with one example, if anything.
fn check(tax: &'static Taxonomy, ex: &Example) -> Option<String> {
    let id = if ex.id.starts_with('_') {
        format!("helper{}", ex.id)
    } else {
        ex.id.clone()
    };
    let Some(tag) = tax.by_id(&id) else {
        return Some(format!("`{}` is no entry of the taxonomy", ex.id));
    };
    let kind = tax.get(tag).kind;
    let (usi, n) = usi_line(&ex.moves);
    let got = play(tax, &ex.moves);
    let errors: Vec<String> = got
        .report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{} {} ply {:?} {:?}", f.rule.id(), f.message, f.ply, f.mv))
        .collect();
    if !errors.is_empty() || got.report.plies != n {
        return Some(format!(
            "not legal ({} of {n} moves played): {}",
            got.report.plies,
            errors.join("; ")
        ));
    }
    // The names of a built record are those found while reading.
    let games = read_all(usi.as_bytes(), Some(Format::Usi), &ReadOptions::default());
    if games.first().map(|g| tag_record(&g.record, tax)) != Some(got.tags.clone()) {
        return Some("tag_record names the built record otherwise".into());
    }
    let mut all = String::new();
    for c in Color::ALL {
        let s = got.tags.side(c);
        let _ = write!(
            all,
            "\n    {c:?}: openings [{}] castles [{}]",
            listing(tax, &s.openings),
            listing(tax, &s.castles)
        );
    }
    let _ = write!(
        all,
        "\n    style: {:?}",
        got.tags.style.map(|s| tax.get(s).id.clone())
    );
    match (kind, ex.side) {
        (Kind::Style, None) => {
            if got.tags.style != Some(tag) {
                return Some(format!("style `{}` not found:{all}", ex.id));
            }
        }
        (Kind::Style, Some(_)) | (_, None) => {
            return Some(format!(
                "side `game` is for styles only, `{}` is a {kind}",
                ex.id
            ));
        }
        (_, Some(side)) => {
            // An umbrella is found when the side falls under it (at the
            // first ply of a name under it; none when the style puts it
            // there).
            let found = if tax.get(tag).is_umbrella() {
                got.tags
                    .side(side)
                    .implied(tax, got.tags.style)
                    .into_iter()
                    .find(|(u, _)| *u == tag)
                    .map(|(_, ply)| ply)
            } else {
                got.tags
                    .side(side)
                    .of(kind)
                    .iter()
                    .find(|f| f.tag == tag)
                    .map(|f| Some(f.ply))
            };
            match (found, ex.ply) {
                (None, _) => {
                    return Some(format!("`{}` not found for {side:?}:{all}", ex.id));
                }
                (Some(f), ply) if f != ply && ply.is_some() || f.is_some() && ply.is_none() => {
                    let at =
                        |p: Option<u32>| p.map_or("- (the style)".to_string(), |p| p.to_string());
                    return Some(format!(
                        "`{}` found for {side:?} at ply {}, not {}:{all}",
                        ex.id,
                        at(f),
                        at(ply)
                    ));
                }
                _ => {}
            }
        }
    }
    None
}

#[test]
fn every_entry_has_an_example_on_which_it_is_found() {
    let builtin = Taxonomy::builtin();
    // Replays name from a taxonomy that lives as long as the program.
    let revealed: &'static Taxonomy = Box::leak(Box::new(revealed()));
    let examples = examples();
    let mut problems = Vec::new();
    let mut covered = BTreeSet::new();
    for ex in &examples {
        let tax = if ex.id.starts_with('_') {
            revealed
        } else {
            builtin
        };
        match check(tax, ex) {
            Some(p) => problems.push(format!("examples.tsv:{}: {}: {p}", ex.line, ex.id)),
            None => {
                covered.insert(ex.id.as_str());
            }
        }
    }
    let missing: Vec<&str> = builtin
        .entries()
        .iter()
        .map(|e| e.id.as_str())
        .filter(|id| !examples.iter().any(|ex| ex.id == *id))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "{} entries have no example: {}",
            missing.len(),
            missing.join(" ")
        ));
    }
    eprintln!(
        "{} of {} entries found on their examples",
        covered.len(),
        builtin.entries().len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A USI square or move turned around (the board rotated 180°): `7g7f`
/// becomes `3c3d`, `P*5e` stays `P*5e`, `8h2b+` becomes `2b8h+`.
fn turn(mv: &str) -> String {
    let sq = |s: &str| {
        let b = s.as_bytes();
        format!(
            "{}{}",
            (b'0' + 10 - (b[0] - b'0')) as char,
            (b'a' + b'i' - b[1]) as char
        )
    };
    if mv.as_bytes().get(1) == Some(&b'*') {
        format!("{}{}", &mv[..2], sq(&mv[2..4]))
    } else {
        format!("{}{}{}", sq(&mv[..2]), sq(&mv[2..4]), &mv[4..])
    }
}

/// Whether the rule of `id`, or of an entry it refers to, names a side or
/// an exact ply.
fn one_sided(tax: &Taxonomy, id: &str) -> bool {
    let text = &tax.get(tax.by_id(id).expect("an entry")).rule;
    if let Some(list) = text.strip_prefix('=') {
        // An umbrella: one-sided when a member it is found by is.
        return list
            .split_whitespace()
            .filter(|w| !w.starts_with('!'))
            .all(|m| one_sided(tax, m));
    }
    let rule = Pattern::parse(text).expect("a rule");
    text.contains("side=")
        || text.contains("ply=")
        || rule.references().into_iter().any(|r| one_sided(tax, r))
}

/// Every sente example, turned around, names gote: sente opens with one
/// tempo move (a lance step its game leaves alone), then plays gote's
/// moves turned around while gote plays the example's sente moves turned
/// around, so the entry must be found for gote one ply later. Entries
/// whose rule names its side (`side=`) or an exact ply (`ply=`), or refers
/// to one that does, are left out: they are not meant to hold for the
/// other side.
#[test]
fn sente_examples_turned_around_name_gote() {
    let tax = Taxonomy::builtin();
    let mut problems = Vec::new();
    let mut checked = 0;
    for ex in examples().iter().filter(|e| e.side == Some(Color::Black)) {
        // A handicap example (`sfen …`) has no even-start twin.
        if ex.id.starts_with('_') || one_sided(tax, &ex.id) || ex.moves.starts_with("sfen ") {
            continue;
        }
        let turned: Vec<String> = ex.moves.split_whitespace().map(turn).collect();
        let Some(tempo) = ["1i1h", "9i9h"].into_iter().find(|t| {
            !turned
                .iter()
                .any(|m| m.contains(&t[..2]) || m.contains(&t[2..]))
        }) else {
            problems.push(format!("examples.tsv:{}: no tempo move", ex.line));
            continue;
        };
        let mirrored = Example {
            side: Some(Color::White),
            ply: ex.ply.map(|p| p + 1),
            moves: format!("{tempo} {}", turned.join(" ")),
            ..ex.clone()
        };
        checked += 1;
        if let Some(p) = check(tax, &mirrored) {
            problems.push(format!(
                "examples.tsv:{}: {} turned around ({}): {p}",
                ex.line, ex.id, mirrored.moves
            ));
        }
    }
    eprintln!("{checked} sente examples turned around");
    assert!(checked > 100, "only {checked} examples turned around");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check above can fail: an example whose entry is not there, or an
/// illegal one, is a problem.
#[test]
fn a_wrong_example_is_caught() {
    let tax = Taxonomy::builtin();
    let ex = |id: &str, moves: &str| Example {
        line: 0,
        id: id.into(),
        side: Some(Color::Black),
        ply: Some(3),
        moves: moves.into(),
    };
    // Sente's rook goes to 6八 at ply 3: a Fourth File Rook, not a Third.
    assert!(check(tax, &ex("fourth_file_rook", "7g7f 3c3d 2h6h")).is_none());
    assert!(check(tax, &ex("third_file_rook", "7g7f 3c3d 2h6h")).is_some());
    // Found at ply 3, not 5.
    let late = Example {
        ply: Some(5),
        ..ex("fourth_file_rook", "7g7f 3c3d 2h6h 8c8d 6g6f")
    };
    assert!(check(tax, &late).unwrap().contains("at ply 3"));
    // A rook on 2八 cannot reach 5六.
    assert!(check(tax, &ex("central_rook", "7g7f 3c3d 2h5f"))
        .unwrap()
        .contains("not legal"));
}
