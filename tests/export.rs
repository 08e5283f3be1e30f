//! `kifu export` as a user runs it: outputs through the planner, input
//! order at any -j, the index, --split, --dedupe, the preset, refusals and
//! exit codes. Byte identity with cshogi is tests/export_cshogi.rs; the
//! layouts' unit vectors are in src/export/.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("export")
        .args(args)
        .output()
        .expect("kifu runs")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn index(p: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const GAMES: &str = "N+A\nN-B\n'black_rate:A+1:3600\n'white_rate:B+2:3700\nPI\n+\n\
+7776FU\n'** 30\n-3334FU\n'** 40\n+8822UM\n'** 500\n-3122GI\n'** 420\n%TORYO\n\
/\nPI\n+\n+2726FU\n-8384FU\n+2625FU\n%CHUDAN\n\
/\nPI\n+\n+7776FU\n'** 30\n-3334FU\n'** 40\n+8822UM\n'** 500\n-3122GI\n'** 420\n%TORYO\n";

fn games(dir: &Path) -> PathBuf {
    let p = dir.join("games.csa");
    std::fs::write(&p, GAMES).unwrap();
    p
}

#[test]
fn the_same_bytes_and_index_at_any_jobs() {
    let d = tempfile::tempdir().unwrap();
    let mut outs = Vec::new();
    for j in ["-j1", "-j2", "-j4"] {
        let o = d.path().join(format!("out{j}.psv"));
        let ix = d.path().join(format!("out{j}.jsonl"));
        let r = kifu(&[
            s(&fixtures()),
            "--to",
            "psv",
            j,
            "-o",
            s(&o),
            "--index",
            s(&ix),
        ]);
        assert_eq!(r.status.code(), Some(1), "fixtures hold invalid games");
        let ix: String = std::fs::read_to_string(&ix)
            .unwrap()
            .replace(&format!("out{j}"), "out");
        outs.push((std::fs::read(&o).unwrap(), ix));
    }
    assert!(outs[0].0.len() > 40 * 1000, "{} bytes", outs[0].0.len());
    assert!(outs.iter().all(|o| *o == outs[0]));
}

#[test]
fn the_index_says_where_each_game_went() {
    let d = tempfile::tempdir().unwrap();
    let input = games(d.path());
    let o = d.path().join("g.hcpe");
    let ix = d.path().join("g.jsonl");
    let r = kifu(&[s(&input), "--to", "hcpe", "-o", s(&o), "--index", s(&ix)]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let v = index(&ix);
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["status"], "kept");
    assert_eq!(v[0]["first_record"], 0);
    assert_eq!(v[0]["records"], 4);
    assert_eq!(v[0]["result"], "gote_win");
    assert_eq!(v[0]["game_key"].as_str().unwrap().len(), 32);
    assert_eq!(v[1]["status"], "skipped");
    assert_eq!(v[1]["reason"], "no-result");
    assert_eq!(v[2]["first_record"], 4);
    assert_eq!(v[2]["offset"], 4 * 38);
    assert_eq!(std::fs::read(&o).unwrap().len(), 8 * 38);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("2 games written") && err.contains("1 skipped (no-result 1)"),
        "{err}"
    );
}

#[test]
fn dedupe_position_and_game() {
    let d = tempfile::tempdir().unwrap();
    let input = games(d.path());
    let o = d.path().join("p.hcpe");
    let ix = d.path().join("p.jsonl");
    // The third game repeats the first: every position is a copy.
    let r = kifu(&[
        s(&input),
        "--to",
        "hcpe",
        "--dedupe",
        "position",
        "-o",
        s(&o),
        "--index",
        s(&ix),
    ]);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(std::fs::read(&o).unwrap().len(), 4 * 38);
    assert_eq!(index(&ix)[2]["reason"], "duplicate");
    let o = d.path().join("g.hcpe");
    let r = kifu(&[s(&input), "--to", "hcpe", "--dedupe", "game", "-o", s(&o)]);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(std::fs::read(&o).unwrap().len(), 4 * 38);
    let r = kifu(&[
        s(&input),
        "--to",
        "hcpe3",
        "--dedupe",
        "position",
        "-o",
        s(&d.path().join("x.hcpe3")),
    ]);
    assert_eq!(r.status.code(), Some(2), "hcpe3 keeps games whole");
}

#[test]
fn split_is_by_game_and_deterministic() {
    let d = tempfile::tempdir().unwrap();
    let o = d.path().join("all.hcpe");
    let ix = d.path().join("all.jsonl");
    let run = |seed: &str| {
        let r = kifu(&[
            s(&fixtures()),
            "--to",
            "hcpe",
            "--split",
            "test=0.3",
            "--seed",
            seed,
            "--force",
            "-o",
            s(&o),
            "--index",
            s(&ix),
        ]);
        assert!(r.status.code().is_some_and(|c| c <= 1));
        let test = d.path().join("all-test.hcpe");
        (
            std::fs::read(&o).unwrap(),
            std::fs::read(&test).unwrap(),
            index(&ix),
        )
    };
    let (train, test, v) = run("1");
    let kept: Vec<&serde_json::Value> = v.iter().filter(|g| g["status"] == "kept").collect();
    let in_test = kept.iter().filter(|g| g["split"] == "test").count();
    assert!(in_test > 0 && in_test < kept.len());
    let records = |part: Option<&str>| -> u64 {
        kept.iter()
            .filter(|g| g["split"].as_str() == part)
            .map(|g| g["records"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(train.len() as u64, 38 * records(None));
    assert_eq!(test.len() as u64, 38 * records(Some("test")));
    // The same seed, the same parts; copies of a game go together.
    assert_eq!(run("1").0, train);
    let (_, test2, _) = run("2");
    assert_ne!(test2, test);
}

#[test]
fn preset_dlshogi_needs_ratings_and_length() {
    let d = tempfile::tempdir().unwrap();
    let input = games(d.path());
    let ix = d.path().join("d.jsonl");
    let r = kifu(&[
        s(&input),
        "--to",
        "hcpe",
        "--preset",
        "dlshogi",
        "--allow-empty",
        "-o",
        s(&d.path().join("d.hcpe")),
        "--index",
        s(&ix),
    ]);
    assert_eq!(r.status.code(), Some(0));
    let v = index(&ix);
    assert_eq!(v[0]["reason"], "min-plies");
    // Explicit flags win over the preset.
    let o = d.path().join("d2.hcpe");
    let r = kifu(&[
        s(&input),
        "--to",
        "hcpe",
        "--preset",
        "dlshogi",
        "--min-plies",
        "4",
        "-o",
        s(&o),
    ]);
    assert_eq!(r.status.code(), Some(0));
    // The third game has no ratings: only the first is written.
    assert_eq!(std::fs::read(&o).unwrap().len(), 4 * 38);
    let r = kifu(&[
        s(&input),
        "--to",
        "hcpe",
        "--min-plies",
        "4",
        "--min-rating",
        "3650",
        "--endings",
        "%TORYO,%KACHI",
        "--force",
        "-o",
        s(&o),
        "--index",
        s(&ix),
    ]);
    assert_eq!(r.status.code(), Some(0));
    // Sente is rated 3600; the other games have no ratings at all.
    assert!(index(&ix).iter().all(|g| g["status"] == "skipped"));
}

#[test]
fn outputs_are_refused_as_the_planner_refuses_them() {
    let d = tempfile::tempdir().unwrap();
    let input = games(d.path());
    let o = d.path().join("o.hcpe");
    std::fs::write(&o, b"keep").unwrap();
    let r = kifu(&[s(&input), "--to", "hcpe", "-o", s(&o)]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("--force") || !r.status.success());
    assert_eq!(std::fs::read(&o).unwrap(), b"keep");
    let r = kifu(&[s(&input), "--to", "hcpe", "-o", s(&input), "--force"]);
    assert_eq!(r.status.code(), Some(2), "never over an input");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), GAMES);
    let r = kifu(&[s(&input), "--to", "hcpe", "-o", s(&o), "--index", s(&o)]);
    assert_eq!(r.status.code(), Some(2), "two outputs, one file");
    let r = kifu(&[s(&input), "--to", "hcpe", "-o", s(&o), "--force"]);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(std::fs::read(&o).unwrap().len(), 8 * 38);
    let r = kifu(&[s(&input), "--to", "hcpe", "-o", "-", "--split", "t=0.5"]);
    assert_eq!(r.status.code(), Some(2));
    let r = kifu(&[s(&input), "--to", "hcpe", "-o", s(&o), "--invalid"]);
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn standard_output_and_variants() {
    let d = tempfile::tempdir().unwrap();
    let input = games(d.path());
    let r = kifu(&[s(&input), "--to", "hcpe3", "-o", "-"]);
    assert_eq!(r.status.code(), Some(0));
    // Two games of four moves: a 36-byte header and 4 × 10 bytes each.
    assert_eq!(r.stdout.len(), 2 * (36 + 4 * 10));
    let mini = fixtures().join("psn/ok/minishogi.psn");
    let r = kifu(&[s(&mini), "--to", "hcpe", "-o", "-", "--allow-empty"]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("minishogi has no hcpe layout; not written"),
        "{err}"
    );
    assert!(r.stdout.is_empty());
}

#[test]
fn a_stated_foul_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let ix = d.path().join("f.jsonl");
    let foul = fixtures().join("fouls/illegal-move.csa");
    let r = kifu(&[
        s(&foul),
        "--to",
        "hcpe",
        "--allow-empty",
        "-o",
        s(&d.path().join("f.hcpe")),
        "--index",
        s(&ix),
    ]);
    assert_eq!(r.status.code(), Some(0), "a foul is a warning");
    assert_eq!(index(&ix)[0]["reason"], "illegal-move");
}

#[test]
fn help_has_examples() {
    let r = kifu(&["--help"]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(out.contains("Examples:") && out.contains("--preset dlshogi"));
    assert!(out.contains("docs/export.md"));
}

/// A floodgate game that reaches the move limit has no `%` line, only
/// `'summary:max_moves:… draw:… draw` (issue 36): the summary is its
/// result, so it is written as a draw (as cshogi and dlshogi's converters
/// keep it), with the `.hcpe3` impasse flag (cshogi reads it `%JISHOGI`).
#[test]
fn a_floodgate_max_moves_game_is_a_draw() {
    let d = tempfile::tempdir().unwrap();
    let input = fixtures().join("csa/ok/floodgate-max-moves.csa");
    let o = d.path().join("m.hcpe3");
    let ix = d.path().join("m.jsonl");
    let r = kifu(&[s(&input), "--to", "hcpe3", "-o", s(&o), "--index", s(&ix)]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let v = index(&ix);
    assert_eq!(v[0]["status"], "kept", "{:?}", v[0]);
    assert_eq!(v[0]["result"], "draw");
    assert_eq!(v[0]["records"], 256);
    let bytes = std::fs::read(&o).unwrap();
    // hcpe3 header: hcp (32), moveNum (2), result: 0 (draw) | 16 (impasse).
    assert_eq!(&bytes[32..35], &[0, 1, 16]);
}
