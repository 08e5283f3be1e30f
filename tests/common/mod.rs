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

/// Every corpus file of `format` must agree with its expectation.
/// Corpus files marked valid in which the validator finds a real problem
/// (a false result claim in a tsume record; a server verdict the rules
/// contradict), and why.
pub const KNOWN_DISAGREEMENTS: &[(&str, &str)] = &[
    (
        "shogi-server/csa/not_sennichite.csa",
        "the 2008 server's 'summary:sennichite, but the final position occurred twice, not four times (shogi-server's own test: no #DRAW)",
    ),
    (
        "json-kifu-format/files/ki2/kobayashi_kinsho196702.ki2",
        "tsume: 詰 ignores a futile interposition (無駄合, B*8b)",
    ),
    (
        "shogi-kifu-converter/tests/kif/everyday_20211107.kif",
        "tsume: 詰み in a variation ignores a futile interposition (無駄合, R*2b)",
    ),
    (
        "shogi-kifu-converter/tests/kif/everyday_20211107.kifu",
        "tsume: 詰み in a variation ignores a futile interposition (無駄合, R*2b)",
    ),
];

/// Error findings of the validator (reader findings included), as text.
pub fn validation_errors(g: &Game) -> Vec<String> {
    kifu::validate::validate(g, &kifu::validate::ValidateOptions::default())
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{}:{} {} {}", f.line, f.column, f.rule, f.message))
        .collect()
}

/// `dir` is the shared corpus (`trials::corpus()` in the binaries that may
/// skip without it).
pub fn corpus_check(dir: &Path, format: Format) {
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
        let errs = validation_errors(&g);
        let illegal = replay(&g.record);
        let agrees = if expectation == "valid" {
            errs.is_empty() && illegal.is_none()
        } else {
            !errs.is_empty() || illegal.is_some()
        };
        if let Some((_, why)) = known {
            assert!(
                !agrees,
                "{path} is listed as a known disagreement but agrees now"
            );
            println!(
                "  known disagreement {path} ({expectation}): {why}; we found {errs:?} {illegal:?}"
            );
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
    assert!(
        disagreements.is_empty(),
        "{} disagreements",
        disagreements.len()
    );
}

/// Compares a record with the JKF JSON a peer parser produced for the same
/// file: moves (from, to, piece, promote, colour), comments, times, forks,
/// terminals. Returns the differences.
pub fn compare_jkf(rec: &Record, jkf: &serde_json::Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let moves = jkf["moves"].as_array().cloned().unwrap_or_default();
    let init: Vec<String> = moves
        .first()
        .and_then(|m| m["comments"].as_array())
        .map(|a| {
            a.iter()
                .map(|c| c.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    if init != rec.initial_comments {
        diffs.push(format!(
            "initial comments {:?} vs {:?}",
            rec.initial_comments, init
        ));
    }
    let pos = Position::from_setup_unchecked(&rec.start.setup);
    compare_line(
        &rec.main,
        &moves[1.min(moves.len())..],
        pos,
        "main",
        &mut diffs,
    );
    diffs
}

fn special_reason(s: &str) -> &'static str {
    match s {
        "TORYO" => "resign",
        "CHUDAN" => "abort",
        "SENNICHITE" => "repetition",
        "JISHOGI" => "impasse",
        "TSUMI" => "checkmate",
        "FUZUMI" => "no-mate",
        "TIME_UP" => "time-up",
        "ILLEGAL_MOVE" | "+ILLEGAL_ACTION" | "-ILLEGAL_ACTION" => "illegal-move",
        "KACHI" => "declaration",
        "HIKIWAKE" => "declaration-draw",
        "MAX_MOVES" => "max-moves",
        "MATTA" => "matta",
        "ERROR" => "error",
        _ => "?",
    }
}

fn ms(t: &serde_json::Value) -> Option<u64> {
    if t.is_null() {
        return None;
    }
    let g = |k: &str| t[k].as_u64().unwrap_or(0);
    Some(((g("h") * 60 + g("m")) * 60 + g("s")) * 1000)
}

fn compare_line(
    line: &Line,
    jmoves: &[serde_json::Value],
    mut pos: Position,
    at: &str,
    diffs: &mut Vec<String>,
) {
    let mut i = 0;
    for (k, jm) in jmoves.iter().enumerate() {
        let here = format!("{at}/{k}");
        if let Some(special) = jm["special"].as_str() {
            match &line.terminal {
                Some(t) => {
                    // JKF writes both 千日手 and 反則 endings with CSA codes;
                    // compare reasons.
                    if t.kind.reason() != special_reason(special)
                        && !(special == "CHUDAN" && t.kind.reason() == "sealed")
                    {
                        diffs.push(format!("{here}: terminal {:?} vs {special}", t.kind));
                    }
                    let jc: Vec<String> = jm["comments"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .map(|c| c.as_str().unwrap_or("").to_string())
                                .collect()
                        })
                        .unwrap_or_default();
                    if jc != t.comments {
                        diffs.push(format!(
                            "{here}: terminal comments {:?} vs {:?}",
                            t.comments, jc
                        ));
                    }
                }
                None => diffs.push(format!("{here}: no terminal, JKF has {special}")),
            }
            continue;
        }
        let Some(node) = line.moves.get(i) else {
            diffs.push(format!(
                "{here}: JKF has more moves ({} vs {})",
                jmoves.len(),
                line.moves.len()
            ));
            return;
        };
        i += 1;
        let m = &jm["move"];
        let to = m["to"]["x"].as_u64().unwrap_or(0) * 10 + m["to"]["y"].as_u64().unwrap_or(0);
        let our_to = node.mv.to();
        if to != (our_to.file() as u64) * 10 + our_to.rank() as u64 {
            diffs.push(format!("{here}: to {} vs {to}", our_to));
        }
        let from = m["from"]["x"]
            .as_u64()
            .map(|x| x * 10 + m["from"]["y"].as_u64().unwrap_or(0));
        let our_from = node
            .mv
            .from()
            .map(|f| f.file() as u64 * 10 + f.rank() as u64);
        if from != our_from {
            diffs.push(format!("{here}: from {our_from:?} vs {from:?}"));
        }
        let piece = m["piece"].as_str().unwrap_or("");
        let role = pos.moving_role(node.mv).map(|r| r.csa()).unwrap_or("");
        if piece != role {
            diffs.push(format!("{here}: piece {role} vs {piece}"));
        }
        if m["promote"].as_bool().unwrap_or(false) != node.mv.is_promotion() {
            diffs.push(format!(
                "{here}: promote {} vs {}",
                node.mv.is_promotion(),
                m["promote"]
            ));
        }
        if let Some(c) = m["color"].as_u64() {
            if c as usize != pos.turn().index() {
                diffs.push(format!("{here}: colour {:?} vs {c}", pos.turn()));
            }
        }
        let jc: Vec<String> = jm["comments"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|c| c.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default();
        if jc != node.comments {
            diffs.push(format!("{here}: comments {:?} vs {:?}", node.comments, jc));
        }
        let jt = &jm["time"];
        if !jt.is_null() {
            let (now, total) = (ms(&jt["now"]), ms(&jt["total"]));
            if now != node.time.spent_ms || total != node.time.total_ms {
                diffs.push(format!("{here}: time {:?} vs {now:?}/{total:?}", node.time));
            }
        }
        let forks = jm["forks"].as_array().cloned().unwrap_or_default();
        if forks.len() != node.variations.len() {
            diffs.push(format!(
                "{here}: {} variations vs {} forks",
                node.variations.len(),
                forks.len()
            ));
        }
        for (j, (f, v)) in forks.iter().zip(&node.variations).enumerate() {
            let fm = f.as_array().cloned().unwrap_or_default();
            compare_line(v, &fm, pos, &format!("{here}.{j}"), diffs);
        }
        pos.play_unchecked(node.mv);
    }
    if i < line.moves.len() {
        diffs.push(format!(
            "{at}: we have more moves ({} vs {i})",
            line.moves.len()
        ));
    }
}

/// Runs [`compare_jkf`] over every peer JSON of `format` in the corpus
/// `dir`.
pub fn jkf_expected_check(dir: &Path, format: Format) {
    let sub = if format == Format::Kif { "kif" } else { "ki2" };
    let mut pairs = Vec::new();
    for e in std::fs::read_dir(dir.join("json-kifu-format/expected").join(sub)).unwrap() {
        let p = e.unwrap().path();
        let name = p
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .trim_end_matches(".json")
            .to_string();
        pairs.push((dir.join("json-kifu-format/files").join(sub).join(&name), p));
    }
    for e in std::fs::read_dir(dir.join("shogi-kifu-converter/tests").join(sub)).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            continue;
        }
        let json = p.with_extension("json");
        if json.exists() {
            pairs.push((p, json));
        }
    }
    pairs.sort();
    let mut failed = Vec::new();
    let mut checked = 0;
    for (src, json) in &pairs {
        let name = src.strip_prefix(dir).unwrap().display().to_string();
        if KNOWN_JKF_DIFFERENCES.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let bytes = std::fs::read(src).unwrap();
        let g = read(&bytes, format);
        let jkf: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
        let d = compare_jkf(&g.record, &jkf);
        checked += 1;
        if !d.is_empty() {
            failed.push(format!(
                "{name}: {}",
                d.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
            ));
        }
    }
    println!("{sub}: compared {checked} files with their peer JKF");
    for f in &failed {
        println!("  {f}");
    }
    assert!(
        failed.is_empty(),
        "{} files differ from their peer JKF",
        failed.len()
    );
}

/// Peer JSON files we knowingly read differently, and why.
pub const KNOWN_JKF_DIFFERENCES: &[(&str, &str)] = &[
    (
        "json-kifu-format/files/kif/fork-test.kif",
        "duplicate move number 5 in a 変化 block: JKF renumbers it as 6, we report a syntax error",
    ),
    (
        "json-kifu-format/files/ki2/20091203.ki2",
        "`*放送日：2010/02/13` is a `*` comment line (spec §1.7); the JKF PEG reads it as a header key `*放送日`",
    ),
];

/// The whole move tree as text: `7g7f 3c3d (8c8d 2g2f) …`, terminals as
/// `#reason`.
pub fn tree(rec: &Record) -> String {
    fn go(line: &Line, v: Variant, out: &mut String) {
        for n in &line.moves {
            out.push_str(&n.mv.usi(v).to_string());
            out.push(' ');
            for var in &n.variations {
                out.push('(');
                go(var, v, out);
                out.push_str(") ");
            }
        }
        if let Some(t) = &line.terminal {
            out.push('#');
            out.push_str(t.kind.reason());
        }
    }
    let mut s = String::new();
    go(&rec.main, rec.variant(), &mut s);
    s
}

/// Checks an ok fixture against its `.expect` file; returns problems.
pub fn check_expect(g: &Game, expect: &str) -> Vec<String> {
    let mut p = Vec::new();
    let rec = &g.record;
    for line in expect.lines() {
        if line.starts_with('#') {
            continue;
        }
        let (k, v) = line.split_once(' ').unwrap_or((line, ""));
        match k {
            "plies" => {
                let n: usize = v.parse().unwrap();
                if rec.main.moves.len() != n {
                    p.push(format!("plies {} expected {n}", rec.main.moves.len()));
                }
            }
            "usi" => {
                let got = usi(rec).join(" ");
                if got != v {
                    p.push(format!("usi differs:\n got {got}\nwant {v}"));
                }
            }
            "terminal" => {
                let got = rec
                    .main
                    .terminal
                    .as_ref()
                    .map(|t| t.kind.reason().to_string());
                if got.as_deref() != Some(v) {
                    p.push(format!("terminal {got:?} expected {v}"));
                }
            }
            "comments" => {
                let n: usize = v.parse().unwrap();
                if rec.comment_count() != n {
                    p.push(format!("comments {} expected {n}", rec.comment_count()));
                }
            }
            "variations" => {
                let n: usize = v.parse().unwrap();
                if rec.variation_count() != n {
                    p.push(format!("variations {} expected {n}", rec.variation_count()));
                }
            }
            _ => p.push(format!("unknown expect key {k}")),
        }
    }
    p
}

/// The fixture files of `fmt`/`kind` (`ok` or `bad`), sorted.
pub fn fixtures(fmt: &str, kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(fmt)
        .join(kind);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let e = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            e != "expect" && e != "err"
        })
        .collect();
    v.sort();
    v
}

/// Problems of an ok record (`name`, `bytes`) against its `.expect` text.
pub fn check_ok(name: &str, bytes: &[u8], expect: &str, format: Format) -> Vec<String> {
    let mut problems = Vec::new();
    let g = read(bytes, format);
    let errs = errors(&g);
    if !errs.is_empty() {
        problems.push(format!("{name}: errors {errs:?}"));
    }
    if let Some(e) = replay(&g.record) {
        problems.push(format!("{name}: illegal {e}"));
    }
    for q in check_expect(&g, expect) {
        problems.push(format!("{name}: {q}"));
    }
    problems
}

/// Problems of a bad record against its `.err` text (first line: the rule id,
/// or `illegal` for a move the replay refuses; optional `at LINE:COL`).
pub fn check_bad(name: &str, bytes: &[u8], err: &str, format: Format) -> Vec<String> {
    let mut problems = Vec::new();
    let g = read(bytes, format);
    let rule = err.lines().next().unwrap_or("");
    let illegal = replay(&g.record);
    let found = match rule {
        "illegal" => illegal.is_some(),
        r => g
            .findings
            .iter()
            .any(|f| f.rule.id() == r && f.severity == Severity::Error),
    };
    if !found {
        problems.push(format!(
            "{name}: expected {rule}, got {:?} {illegal:?}",
            errors(&g)
        ));
    }
    if let Some(at) = err.lines().find_map(|l| l.strip_prefix("at ")) {
        if !g
            .findings
            .iter()
            .any(|f| format!("{}:{}", f.line, f.column) == at)
        {
            problems.push(format!("{name}: no finding at {at}: {:?}", errors(&g)));
        }
    }
    problems
}

/// Reads every ok fixture, checks its expectation; every bad one must fail.
pub fn fixture_check(fmt: &str, format: Format) {
    let mut problems = Vec::new();
    let oks = fixtures(fmt, "ok");
    assert!(!oks.is_empty());
    for p in &oks {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let exp_path = PathBuf::from(format!("{}.expect", p.display()));
        let expect =
            std::fs::read_to_string(&exp_path).unwrap_or_else(|_| panic!("{name} has no .expect"));
        problems.extend(check_ok(&name, &std::fs::read(p).unwrap(), &expect, format));
    }
    for p in fixtures(fmt, "bad") {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let err = std::fs::read_to_string(format!("{}.err", p.display()))
            .unwrap_or_else(|_| panic!("{name} has no .err"));
        problems.extend(check_bad(&name, &std::fs::read(&p).unwrap(), &err, format));
    }
    for p in &problems {
        println!("{p}");
    }
    assert!(problems.is_empty(), "{} fixture problems", problems.len());
}

/// Runs the real-file expectations of `tests/corpus-expect/<fmt>/` through
/// [`check_ok`] / [`check_bad`], on the records of the corpus `dir`.
pub fn corpus_expect_check(dir: &Path, fmt: &str, format: Format) {
    let entries = corpus_expectations(dir, fmt);
    let mut problems = Vec::new();
    for e in &entries {
        problems.extend(if e.bad {
            check_bad(&e.name, &e.bytes, &e.expect, format)
        } else {
            check_ok(&e.name, &e.bytes, &e.expect, format)
        });
    }
    println!(
        "{fmt}: {} real files checked against tests/corpus-expect",
        entries.len()
    );
    for p in &problems {
        println!("{p}");
    }
    assert!(problems.is_empty(), "{} real-file problems", problems.len());
}

/// One file of `tests/corpus-expect/<fmt>/`: the expectations a real record
/// of the shared corpus must meet (they were fixtures before the repository
/// stopped holding copies of other projects' files).
pub struct CorpusExpect {
    /// The expectation file's name.
    pub name: String,
    /// Path of the record inside the corpus (`path` line).
    pub path: String,
    /// The record's bytes; only its first N lines when a `lines N` line says so.
    pub bytes: Vec<u8>,
    /// The expectation text without its `path` and `lines` lines.
    pub expect: String,
    /// A `.err` file (the record must be refused) rather than a `.expect`.
    pub bad: bool,
}

/// Every entry of `tests/corpus-expect/<fmt>/`, sorted by name, with its
/// record read from the corpus `root`.
pub fn corpus_expectations(root: &Path, fmt: &str) -> Vec<CorpusExpect> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus-expect")
        .join(fmt);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut path = None;
        let mut lines = None;
        let mut expect = String::new();
        for l in text.lines() {
            if let Some(p) = l.strip_prefix("path ") {
                path = Some(p.to_string());
            } else if let Some(n) = l.strip_prefix("lines ") {
                lines = Some(n.parse::<usize>().unwrap());
            } else {
                expect.push_str(l);
                expect.push('\n');
            }
        }
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let path = path.unwrap_or_else(|| panic!("{name}: no `path` line"));
        let full = root.join(&path);
        let mut bytes =
            std::fs::read(&full).unwrap_or_else(|e| panic!("{name}: {}: {e}", full.display()));
        if let Some(n) = lines {
            let cut = bytes
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .nth(n - 1)
                .map_or(bytes.len(), |(i, _)| i + 1);
            bytes.truncate(cut);
        }
        out.push(CorpusExpect {
            bad: name.ends_with(".err"),
            name,
            path,
            bytes,
            expect,
        });
    }
    out
}

/// Every ok fixture of both formats, read (the real records of
/// `tests/corpus-expect/{kif,ki2}/` are [`corpus_records`]).
pub fn all_fixture_records() -> Vec<(String, Record)> {
    let mut v = Vec::new();
    for (fmt, format) in [("kif", Format::Kif), ("ki2", Format::Ki2)] {
        for p in fixtures(fmt, "ok") {
            let g = read(&std::fs::read(&p).unwrap(), format);
            v.push((
                p.file_name().unwrap().to_string_lossy().to_string(),
                g.record,
            ));
        }
    }
    v
}

/// The real records of `tests/corpus-expect/{kif,ki2}/` that must read
/// clean, read from the corpus `dir`.
pub fn corpus_records(dir: &Path) -> Vec<(String, Record)> {
    let mut v = Vec::new();
    for (fmt, format) in [("kif", Format::Kif), ("ki2", Format::Ki2)] {
        for e in corpus_expectations(dir, fmt) {
            if !e.bad {
                v.push((e.path, read(&e.bytes, format).record));
            }
        }
    }
    v
}
