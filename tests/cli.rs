//! The command-line contract: exit codes, JSON Lines, GitHub annotations,
//! standard input, directory walks, perft output.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn kifu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
}

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(p)
}

fn run(args: &[&str]) -> Output {
    kifu().args(args).output().expect("run kifu")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

#[test]
fn exit_codes() {
    let ok = fixture("validate/ok-checkmate.csa");
    let bad = fixture("validate/nifu.csa");
    assert_eq!(
        run(&["validate", ok.to_str().unwrap()]).status.code(),
        Some(0)
    );
    assert_eq!(
        run(&["validate", bad.to_str().unwrap()]).status.code(),
        Some(1)
    );
    // An unreadable path is reported, the others still run, and the code is 2.
    let o = run(&[
        "validate",
        "--format",
        "json",
        "/nonexistent/x.csa",
        ok.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o).lines().count(), 2);
    // Usage errors.
    assert_eq!(run(&["validate"]).status.code(), Some(2));
    assert_eq!(
        run(&["validate", "--format", "xml", ok.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn json_lines_shape() {
    let o = run(&[
        "validate",
        "--format",
        "json",
        fixture("csa/bad/second_game_error.csa").to_str().unwrap(),
        fixture("validate/nifu.csa").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 3, "one object per game");
    for v in &lines {
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "path",
                "game",
                "format",
                "encoding",
                "ok",
                "plies",
                "final_sfen",
                "result",
                "findings"
            ]
        );
    }
    assert_eq!(lines[0]["game"], 0);
    assert_eq!(lines[1]["game"], 1);
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[0]["format"], "csa");
    assert_eq!(lines[0]["encoding"], "utf-8");
    let f = &lines[2]["findings"][0];
    assert_eq!(f["rule"], "nifu");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["line"], 5);
    assert_eq!(f["column"], 1);
    assert_eq!(f["ply"], 1);
    assert_eq!(f["move"], "+0053FU");
    assert!(f["sfen"].as_str().unwrap().ends_with(" b P 1"));
    assert!(f["message"].as_str().unwrap().contains("nifu"));
    let keys: Vec<&str> = f.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        ["rule", "severity", "message", "line", "column", "ply", "move", "sfen"]
    );
    assert_eq!(lines[2]["plies"], 0);
    let r = &lines[0]["result"];
    assert!(r.get("outcome").is_some() && r.get("winner").is_some() && r.get("reason").is_some());
}

#[test]
fn every_input_yields_an_object() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.csa"), b"").unwrap();
    std::fs::write(dir.path().join("bad.csa"), b"V2.2\nN+\xff\xfe\nPI\n+\n").unwrap();
    let o = run(&["validate", "--format", "json", dir.path().to_str().unwrap()]);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    // Directory order is by name: bad.csa, empty.csa.
    assert!(lines[0]["path"].as_str().unwrap().ends_with("bad.csa"));
    assert_eq!(lines[0]["findings"][0]["rule"], "encoding");
    assert_eq!(lines[1]["findings"][0]["rule"], "empty");
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn github_annotations() {
    let o = run(&[
        "validate",
        "--format",
        "github",
        fixture("validate/uchifuzume.csa").to_str().unwrap(),
    ]);
    let out = stdout(&o);
    let line = out.lines().next().unwrap();
    assert!(line.starts_with("::error file="), "{line}");
    assert!(
        line.contains(",line=5,col=1,title=kifu uchifuzume::"),
        "{line}"
    );
    assert!(line.contains("[ply 1, move +0012FU]"), "{line}");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn human_output_points_at_the_line() {
    let o = run(&[
        "validate",
        fixture("validate/self-check.csa").to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("self-check.csa:5:1: error[self-check]:"),
        "{out}"
    );
    assert!(out.contains("5 | +5847GI"), "{out}");
    assert!(out.contains("  = ply 1, move +5847GI"), "{out}");
    assert!(out.contains("  = sfen "), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("1 game in 1 file: 1 invalid, 0 warnings"),
        "{err}"
    );
}

#[test]
fn standard_input() {
    let mut child = kifu()
        .args(["validate", "--format", "json", "--from", "csa", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["path"], "-");
    assert_eq!(v["plies"], 2);
    assert_eq!(v["result"]["outcome"], "gote_win");
    assert_eq!(v["result"]["winner"], "gote");
    assert_eq!(v["result"]["reason"], "resign");
}

#[test]
fn directory_walk_is_recursive_sorted_and_filtered() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("b/c")).unwrap();
    let game = b"V2.2\nPI\n+\n+7776FU\n";
    std::fs::write(dir.path().join("b/c/z.csa"), game).unwrap();
    std::fs::write(dir.path().join("a.csa"), game).unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"not a record").unwrap();
    let o = run(&["validate", "--format", "json", dir.path().to_str().unwrap()]);
    let paths: Vec<String> = stdout(&o)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["path"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(paths.len(), 2, "{paths:?}");
    assert!(
        paths[0].ends_with("a.csa") && paths[1].ends_with("b/c/z.csa"),
        "{paths:?}"
    );
    // --ext changes the filter.
    let o = run(&[
        "validate",
        "--format",
        "json",
        "--ext",
        "txt",
        "--from",
        "csa",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(stdout(&o).lines().count(), 1);
}

#[test]
fn lenient_claims_turn_claims_into_warnings() {
    let f = fixture("validate/claim-checkmate.csa");
    assert_eq!(
        run(&["validate", f.to_str().unwrap()]).status.code(),
        Some(1)
    );
    assert_eq!(
        run(&["validate", "--lenient-claims", f.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn perft_last_line_is_the_total() {
    let o = run(&["perft", "3"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().last(), Some("nodes 25470"));
    let o = run(&["perft", "2", "--variant", "minishogi", "--divide"]);
    let out = stdout(&o);
    assert_eq!(out.lines().last(), Some("nodes 181"));
    assert_eq!(
        out.lines()
            .filter(|l| !l.starts_with("time") && !l.starts_with("nodes"))
            .count(),
        14
    );
    let o = run(&["perft", "1", "--sfen", "not an sfen"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn help_has_examples() {
    for cmd in [
        &["validate", "--help"][..],
        &["perft", "--help"],
        &["stats", "--help"],
        &["--help"],
    ] {
        let o = run(cmd);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("Examples:"), "{cmd:?}");
    }
}
