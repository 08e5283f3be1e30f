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

/// Runs `kifu ARGS -j JOBS PATH`.
fn run_jobs(args: &[&str], jobs: &str, path: &str) -> Output {
    let mut a = args.to_vec();
    a.extend(["-j", jobs, path]);
    run(&a)
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
                "findings",
                "game_key"
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
        &["convert", "--help"],
        &["--help"],
    ] {
        let o = run(cmd);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("Examples:"), "{cmd:?}");
    }
}

fn game_text() -> &'static [u8] {
    b"V2.2\nN+Alice\nN-Bob\nPI\n+\n+7776FU\nT3\n-3334FU\nT2\n'a comment\n+8822UM\n-3122GI\n%TORYO\n"
}

#[test]
fn convert_to_stdout_file_and_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("in/sub")).unwrap();
    std::fs::write(d.join("in/a.csa"), game_text()).unwrap();
    std::fs::write(d.join("in/sub/b.csa"), game_text()).unwrap();
    // stdout
    let o = run(&[
        "convert",
        d.join("in/a.csa").to_str().unwrap(),
        "--to",
        "usi",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n");
    // -o, then refusal to overwrite, then --force
    let out = d.join("a.kifu");
    let o = run(&[
        "convert",
        d.join("in/a.csa").to_str().unwrap(),
        "--to",
        "kifu",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let first = std::fs::read_to_string(&out).unwrap();
    assert!(
        first.contains("７六歩(77)") && first.contains("*a comment") && first.contains("投了"),
        "{first}"
    );
    std::fs::write(&out, "keep me").unwrap();
    let o = run(&[
        "convert",
        d.join("in/a.csa").to_str().unwrap(),
        "--to",
        "kifu",
        "-o",
        out.to_str().unwrap(),
    ]);
    // A refused output is exit 2 for every command (docs/cli.md).
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    let o = run(&[
        "convert",
        d.join("in/a.csa").to_str().unwrap(),
        "--to",
        "kifu",
        "-o",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    // --out-dir mirrors the tree; KIF defaults to Shift_JIS.
    let o = run(&[
        "convert",
        d.join("in").to_str().unwrap(),
        "--to",
        "kif",
        "--out-dir",
        d.join("out").to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let kif = std::fs::read(d.join("out/sub/b.kif")).unwrap();
    assert!(std::str::from_utf8(&kif).is_err(), "Shift_JIS expected");
    assert!(d.join("out/a.kif").exists());
    // Converting back gives the same moves.
    let o = run(&[
        "convert",
        d.join("out/sub/b.kif").to_str().unwrap(),
        "--to",
        "usi",
    ]);
    assert_eq!(stdout(&o), "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n");
}

#[test]
fn convert_multi_game_split_and_streams() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut two = game_text().to_vec();
    two.extend_from_slice(b"/\n");
    two.extend_from_slice(b"PI\n+\n+2726FU\n%CHUDAN\n");
    std::fs::write(d.join("two.csa"), &two).unwrap();
    let o = run(&[
        "convert",
        d.join("two.csa").to_str().unwrap(),
        "--to",
        "kif",
        "--out-dir",
        d.join("o").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(d.join("o/two-0001.kif").exists() && d.join("o/two-0002.kif").exists());
    let o = run(&[
        "convert",
        d.join("two.csa").to_str().unwrap(),
        "--to",
        "psn",
        "--out-dir",
        d.join("p").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let psn = std::fs::read_to_string(d.join("p/two.psn")).unwrap();
    assert_eq!(psn.matches("[Result").count(), 2, "{psn}");
    // To stdout as one CSA stream with `/` between games; it reads back as two games.
    let o = run(&[
        "convert",
        d.join("two.csa").to_str().unwrap(),
        "--to",
        "csa",
    ]);
    let text = stdout(&o);
    assert_eq!(text.lines().filter(|l| *l == "/").count(), 1, "{text}");
    assert_eq!(text.matches("V2.2").count(), 1);
    // A single-game target refuses a second game on stdout.
    let o = run(&[
        "convert",
        d.join("two.csa").to_str().unwrap(),
        "--to",
        "kifu",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("one game per file"));
}

#[test]
fn convert_reports_a_bad_input_and_converts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("in")).unwrap();
    std::fs::write(d.join("in/good.csa"), game_text()).unwrap();
    std::fs::copy(fixture("validate/nifu.csa"), d.join("in/bad.csa")).unwrap();
    let o = run(&[
        "convert",
        d.join("in").to_str().unwrap(),
        "--to",
        "jkf",
        "--out-dir",
        d.join("out").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.csa:5:1: error[nifu]"), "{err}");
    assert!(d.join("out/good.jkf").exists());
    assert!(!d.join("out/bad.jkf").exists());
}

#[test]
fn convert_says_what_it_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.csa");
    std::fs::write(&f, game_text()).unwrap();
    let o = run(&["convert", f.to_str().unwrap(), "--to", "usi"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("dropped: ") && err.contains("1 comment") && err.contains("2 move times"),
        "{err}"
    );
}

#[test]
fn convert_never_overwrites_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.csa");
    std::fs::write(&f, game_text()).unwrap();
    let o = run(&[
        "convert",
        f.to_str().unwrap(),
        "--to",
        "csa",
        "--out-dir",
        dir.path().to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&f).unwrap(), game_text());
    assert!(String::from_utf8_lossy(&o.stderr).contains("one of the inputs"));
}

#[test]
fn convert_write_error_is_reported_with_exit_2() {
    // The output folder cannot be created: a file stands where it should be.
    // (Tests run as root here, so a read-only folder would not stop writes.)
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.csa");
    std::fs::write(&f, game_text()).unwrap();
    let blocker = dir.path().join("out");
    std::fs::write(&blocker, b"").unwrap();
    let o = run(&[
        "convert",
        f.to_str().unwrap(),
        "--to",
        "kif",
        "--out-dir",
        blocker.join("sub").to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("error[io]"));
}

#[test]
fn convert_killed_mid_batch_leaves_only_complete_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("in")).unwrap();
    // Long games so that writing takes a while.
    let mut game = b"V2.2\nPI\n+\n".to_vec();
    for i in 0..400 {
        game.extend_from_slice(if i % 4 == 0 {
            b"+5958OU\n"
        } else if i % 4 == 1 {
            b"-5152OU\n"
        } else if i % 4 == 2 {
            b"+5859OU\n"
        } else {
            b"-5251OU\n"
        });
        if i == 10 {
            break;
        }
    }
    for i in 0..3000 {
        std::fs::write(d.join(format!("in/g{i:04}.csa")), &game).unwrap();
    }
    let mut child = kifu()
        .args([
            "convert",
            d.join("in").to_str().unwrap(),
            "--to",
            "kifu",
            "--out-dir",
            d.join("out").to_str().unwrap(),
            "-j",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until some outputs exist, then kill.
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(20) {
        if std::fs::read_dir(d.join("out"))
            .map(|r| r.count() > 20)
            .unwrap_or(false)
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let still_running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        still_running,
        "the conversion finished before it could be interrupted"
    );
    let mut complete = 0;
    for e in std::fs::read_dir(d.join("out")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with(".kifu-") && name.ends_with(".tmp") {
            continue; // an unfinished temporary file, never under a final name
        }
        let bytes = std::fs::read(&p).unwrap();
        let games =
            kifu::read::read_all(&bytes, Some(kifu::read::Format::Kif), &Default::default());
        assert_eq!(games.len(), 1, "{name}");
        assert!(
            games[0].findings.is_empty(),
            "{name}: {:?}",
            games[0].findings
        );
        assert_eq!(games[0].record.main.moves.len(), 11, "{name}");
        complete += 1;
    }
    assert!(complete > 0 && complete < 3000, "{complete} complete files");
}

#[test]
fn large_multi_game_file_is_read_in_pieces_with_exact_locations() {
    // Over the 8 MiB streaming threshold: read in pieces by several workers.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.csa");
    let good = "PI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n%TORYO\n/\n";
    let bad = "PI\n+\n+7776FU\n-3334FU\n+0055FU\n/\n"; // no pawn in hand
    let mut text = String::from("V2.2\n");
    let games = 200_000;
    let bad_at = 97_531;
    let mut bad_line = 0;
    for g in 0..games {
        if g == bad_at {
            bad_line = text.matches('\n').count() + 5;
            text.push_str(bad);
        } else {
            text.push_str(good);
        }
    }
    assert!(text.len() > 8 << 20);
    std::fs::write(&path, &text).unwrap();
    for jobs in ["1", "2"] {
        let o = run(&[
            "validate",
            "--format",
            "json",
            "-j",
            jobs,
            path.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1));
        let out = stdout(&o);
        let mut n = 0;
        for (i, line) in out.lines().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["game"], i, "games are numbered in file order");
            if i == bad_at {
                assert_eq!(v["ok"], false);
                let f = &v["findings"][0];
                assert_eq!(f["rule"], "not-in-hand");
                assert_eq!(
                    f["line"], bad_line,
                    "line numbers count from the start of the file"
                );
                assert_eq!(f["ply"], 3);
            } else {
                assert_eq!(v["ok"], true, "game {i}: {line}");
            }
            n += 1;
        }
        assert_eq!(n, games);
    }
}

/// A mid-size multi-game CSA file (under the 8 MiB streaming threshold)
/// is cut into pieces between games when several workers run; every
/// report (JSON, human with quoted source lines, stats) is the one of a
/// single worker. With a byte-order mark, comments between games, a bad
/// game near a cut and trailing comments and blank lines after the last
/// `/`.
#[test]
fn mid_size_multi_game_file_is_shared_by_workers_with_the_same_reports() {
    let dir = tempfile::tempdir().unwrap();
    let good = "PI\n+\n+7776FU\nT3\n-3334FU\n+2726FU\n-8384FU\n%TORYO\n/\n";
    let bad = "PI\n+\n+7776FU\n-3334FU\n+0055FU\n/\n"; // no pawn in hand
    let odd = "'a comment between games\n\n/\n  /  \n";
    for (name, bom) in [("mid.csa", ""), ("bom.csa", "\u{feff}")] {
        let path = dir.path().join(name);
        let mut text = format!("{bom}'CSA encoding=UTF-8\nV2.2\n");
        let mut g = 0;
        while text.len() < 3 << 20 {
            match g % 9973 {
                17 => text.push_str(bad),
                40 => text.push_str(odd),
                _ => text.push_str(good),
            }
            g += 1;
        }
        text.push_str("'the end\n\n/\n'after the last game\n\n");
        std::fs::write(&path, &text).unwrap();
        let p = path.to_str().unwrap();
        for args in [
            vec!["validate", "--format", "json"],
            vec!["validate"],
            vec!["stats"],
        ] {
            let with = |jobs: &str| run_jobs(&args, jobs, p);
            let (one, two) = (with("1"), with("2"));
            assert_eq!(one.status.code(), two.status.code(), "{args:?} {name}");
            assert!(
                one.stdout == two.stdout,
                "{args:?} {name}: -j2 differs from -j1"
            );
            assert!(!one.stdout.is_empty());
        }
        let o = run(&["validate", "--format", "json", "-j", "2", p]);
        assert_eq!(o.status.code(), Some(1));
        let games = stdout(&o).lines().count();
        assert!(games > 30_000, "{games} games");
    }
}

/// Multi-game CSA files cut into pieces (read whole at 3 MiB, streamed at
/// 9 MiB) give every report exactly as one worker does, whatever falls
/// next to a cut. Every game starts with an encoding declaration, every
/// other one with a byte-order mark before it (both are text in the middle
/// of a file, not a new start: every piece continues the encoding found at
/// the start, and the Japanese comments would decode differently in
/// Shift_JIS), and every fourth ends with a `/` after a form feed (no
/// separator to the CSA reader, so no place to cut).
#[test]
fn pieces_continue_the_start_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let game = "PI\n+\n'先手の好手\n+7776FU\nT3\n-3334FU\n+2726FU\n-8384FU\n";
    for (name, size) in [("mid.csa", 3usize << 20), ("big.csa", 9 << 20)] {
        let path = dir.path().join(name);
        let mut text = String::from("'CSA encoding=UTF-8\nV2.2\n");
        let mut g = 0usize;
        while text.len() < size {
            if g % 2 == 1 {
                text.push_str("\u{feff}'継盤\n");
            }
            text.push_str("'CSA encoding=SHIFT_JIS\n");
            text.push_str(game);
            if g % 1000 == 999 {
                // An illegal move (a drop of a pawn not in hand), to quote.
                text.push_str("+0055FU\n");
            }
            text.push_str("%TORYO\n");
            text.push_str(if g % 4 == 3 { "\u{c}/\n" } else { " \t/ \r\n" });
            g += 1;
        }
        text.push_str("'最後\n/\n'後ろ\n");
        std::fs::write(&path, &text).unwrap();
        let p = path.to_str().unwrap();
        // Human output quotes source lines, at -j1 as at -j2 (a streamed
        // file is cut into pieces either way).
        let reports = [
            vec!["validate", "--format", "json"],
            vec!["stats"],
            vec!["validate"],
        ];
        for args in reports {
            let with = |jobs: &str| run_jobs(&args, jobs, p);
            let (one, two) = (with("1"), with("2"));
            assert_eq!(one.status.code(), two.status.code(), "{args:?} {name}");
            if one.stdout != two.stdout {
                let (a, b) = (stdout(&one), stdout(&two));
                let at = a.lines().zip(b.lines()).position(|(x, y)| x != y);
                let first = at.map(|i| (a.lines().nth(i), b.lines().nth(i)));
                panic!("{args:?} {name}: -j2 differs from -j1 at line {at:?}: {first:?}");
            }
            assert!(!one.stdout.is_empty());
            if args == ["validate"] {
                // Every diagnostic quotes its source line.
                let out = stdout(&one);
                let heads = out.lines().filter(|l| l.starts_with(p)).count();
                let quotes = out
                    .lines()
                    .filter(|l| {
                        l.split_once(" | ")
                            .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
                    })
                    .count();
                assert!(out.contains("error[not-in-hand]"), "{name}");
                assert_eq!(
                    heads, quotes,
                    "{name}: a diagnostic without its source line"
                );
            }
        }
    }
}

/// A false result line (claim-mismatch) is reported as `validate` reports
/// it and the game is still written; `--strict` refuses it. An illegal
/// move is refused either way.
#[test]
fn convert_writes_a_false_claim_unless_strict() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = d.join("claim.kif");
    std::fs::write(
        &f,
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで3手で後手の勝ち\n",
    )
    .unwrap();
    let v = run(&["validate", f.to_str().unwrap()]);
    let verr = stdout(&v);
    let line = verr
        .lines()
        .find(|l| l.contains("error[claim-mismatch]"))
        .unwrap_or_else(|| panic!("{verr}"))
        .to_string();
    let out = d.join("claim.csa");
    let o = run(&[
        "convert",
        f.to_str().unwrap(),
        "--to",
        "csa",
        "-o",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(&line), "{err}\nexpected: {line}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("+7776FU") && text.contains("-3334FU"),
        "{text}"
    );
    std::fs::remove_file(&out).unwrap();
    let o = run(&[
        "convert",
        f.to_str().unwrap(),
        "--to",
        "csa",
        "-o",
        out.to_str().unwrap(),
        "--strict",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error[claim-mismatch]"), "{err}");
    assert!(!out.exists());
}

/// A warning (here `time`) is printed as `validate` prints it and the game
/// is written (exit 0); `--deny time` makes it an error that refuses the
/// game; `--deny claim-mismatch` refuses a false claim as `--strict` does.
#[test]
fn convert_reports_warnings_and_respects_deny() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = d.join("time.kif");
    std::fs::write(
        &f,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:10/00:00:10)\n   2 ３四歩(33)   ( 0:05/00:00:05)\n   3 ２六歩(27)   ( 0:10/00:00:30)\n",
    )
    .unwrap();
    let out = d.join("time.csa");
    let convert = |extra: &[&str]| {
        let _ = std::fs::remove_file(&out);
        let mut args = vec!["convert", f.to_str().unwrap(), "--to", "csa", "-o"];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        run(&args)
    };
    let o = convert(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("warning[time]"), "{err}");
    assert!(out.exists());
    let o = convert(&["--deny", "time"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error[time]"), "{err}");
    assert!(!out.exists());
    let o = convert(&["--allow", "time"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("[time]"), "{err}");
    assert!(out.exists());

    let f = d.join("claim.kif");
    std::fs::write(
        &f,
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで3手で後手の勝ち\n",
    )
    .unwrap();
    let out = d.join("claim.csa");
    let o = run(&[
        "convert",
        f.to_str().unwrap(),
        "--to",
        "csa",
        "-o",
        out.to_str().unwrap(),
        "--deny",
        "claim-mismatch",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!out.exists());
}

/// Many small files are handed to the workers in groups: the output keeps
/// the input order and is the same at any `-j`, with bad, empty and
/// undecodable files among them and a multi-game file large enough to be
/// shared between workers in the middle.
#[test]
fn many_small_files_keep_their_order_at_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n";
    let bad = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+0055FU\n%TORYO\n";
    for i in 0..300 {
        let name = d.join(format!("g{i:03}.csa"));
        match i % 37 {
            5 => std::fs::write(&name, bad).unwrap(),
            11 => std::fs::write(&name, "").unwrap(),
            17 => std::fs::write(d.join(format!("g{i:03}.kifu")), b"\xff\xfe\x00bad\n").unwrap(),
            23 => std::fs::write(
                d.join(format!("g{i:03}.kif")),
                "\u{624b}\u{5408}\u{5272}\u{ff1a}\u{5e73}\u{624b}\n1 \u{ff17}\u{516d}\u{6b69}(77)\n",
            )
            .unwrap(),
            _ => std::fs::write(&name, good).unwrap(),
        }
    }
    // 1.5 MiB of games: cut between workers (see read_whole_in_pieces).
    let mut multi = String::new();
    let mut g = 0;
    while multi.len() < 3 << 19 {
        multi.push_str(if g % 500 == 7 { bad } else { good });
        multi.push_str("/\n");
        g += 1;
    }
    std::fs::write(d.join("g150m.csa"), &multi).unwrap();
    let p = d.to_str().unwrap();
    for args in [
        vec!["validate"],
        vec!["validate", "--format", "json"],
        vec!["stats"],
        vec!["select", "--result", "gote_win"],
    ] {
        let with = |jobs: &str| run_jobs(&args, jobs, p);
        let one = with("1");
        assert!(!one.stdout.is_empty(), "{args:?}");
        for jobs in ["2", "3", "8"] {
            let other = with(jobs);
            assert_eq!(one.status.code(), other.status.code(), "{args:?} -j{jobs}");
            assert!(
                one.stdout == other.stdout,
                "{args:?}: -j{jobs} differs from -j1:\n{}\n---\n{}",
                stdout(&one).lines().take(5).collect::<Vec<_>>().join("\n"),
                stdout(&other)
                    .lines()
                    .take(5)
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
        }
    }
}
