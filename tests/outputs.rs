//! Outputs are never lost or clobbered: every output path of a run is
//! planned before anything is written, inputs are never outputs, special
//! files are written into and never replaced, modes follow the umask, and
//! one game the output cannot hold drops only itself. Also the exit-code
//! table of docs/cli.md, one test per row, signals, pipes and discovery.
//!
//! `KIFU_BIN=/path/to/kifu` runs these tests against another build (to see
//! them fail on an older one).

#![cfg(unix)]

use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

#[path = "support/outputs.rs"]
mod support;
use support::{bin, err, kifu, out, run, s, tree, two_games, GAME, GAME2};

fn moves_of(path: &Path) -> String {
    let o = run(&["convert", s(path), "--to", "usi"]);
    out(&o)
}

/// Reads a FIFO without blocking on its opening (a writer may never come),
/// for up to 20 seconds or until a line end.
fn read_fifo(p: &Path) -> std::thread::JoinHandle<String> {
    use std::os::unix::fs::OpenOptionsExt;
    #[cfg(target_os = "linux")]
    const O_NONBLOCK: i32 = 0o4000;
    #[cfg(not(target_os = "linux"))]
    const O_NONBLOCK: i32 = 0x0004;
    let p = p.to_path_buf();
    std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(O_NONBLOCK)
            .open(p)
            .unwrap();
        let mut got = Vec::new();
        let start = Instant::now();
        let mut buf = [0u8; 4096];
        while start.elapsed() < Duration::from_secs(20) && !got.ends_with(b"\n") {
            match f.read(&mut buf) {
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("{e}"),
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        String::from_utf8_lossy(&got).into_owned()
    })
}

/// Makes a FIFO at `p` (mkfifo(3): every Unix has it, so no test skips
/// for want of one).
fn mkfifo(p: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
    let r = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(
        r,
        0,
        "mkfifo {}: {}",
        p.display(),
        std::io::Error::last_os_error()
    );
}

// ---- Data loss: planning -------------------------------------------------

#[test]
fn inputs_differing_only_by_extension_keep_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    std::fs::write(d.join("in/a.csa"), GAME).unwrap();
    std::fs::write(d.join("in/a.usi"), b"position startpos moves 2g2f\n").unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in")),
        "--to",
        "kifu",
        "--out-dir",
        s(&d.join("out")),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(tree(&d.join("out")), ["a.csa.kifu", "a.usi.kifu"]);
    assert!(moves_of(&d.join("out/a.csa.kifu")).contains("7g7f 3c3d"));
    assert!(moves_of(&d.join("out/a.usi.kifu")).contains("moves 2g2f"));
}

#[test]
fn several_roots_are_mirrored_under_their_own_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (root, game) in [("db1", GAME), ("db2", GAME2)] {
        std::fs::create_dir_all(d.join(root).join("sub")).unwrap();
        std::fs::write(d.join(root).join("sub/x.csa"), game).unwrap();
    }
    let o = run(&[
        "convert",
        s(&d.join("db1")),
        s(&d.join("db2")),
        "--to",
        "csa",
        "--out-dir",
        s(&d.join("out")),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(tree(&d.join("out")), ["db1/sub/x.csa", "db2/sub/x.csa"]);
    assert!(moves_of(&d.join("out/db1/sub/x.csa")).contains("7g7f"));
    assert!(moves_of(&d.join("out/db2/sub/x.csa")).contains("2g2f"));
}

#[test]
fn a_collision_the_rule_cannot_avoid_is_refused_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    // x.csa has two games: split, its second game would be x-0002.kif and
    // its first x-0001.kif, the output of x-0001.csa.
    std::fs::write(d.join("in/a.csa"), GAME).unwrap();
    std::fs::write(d.join("in/x.csa"), two_games()).unwrap();
    std::fs::write(d.join("in/x-0001.csa"), GAME2).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in")),
        "--to",
        "kifu",
        "--out-dir",
        s(&d.join("out")),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("x.csa") && e.contains("x-0001.csa"), "{e}");
    assert!(
        tree(&d.join("out")).is_empty(),
        "nothing may be written: {:?}",
        tree(&d.join("out"))
    );
    // The same file name under two file arguments.
    std::fs::create_dir(d.join("other")).unwrap();
    std::fs::write(d.join("other/a.csa"), GAME2).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in/a.csa")),
        s(&d.join("other/a.csa")),
        "--to",
        "kifu",
        "--out-dir",
        s(&d.join("out2")),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("in/a.csa") && e.contains("other/a.csa"), "{e}");
    assert!(!d.join("out2").exists() || tree(&d.join("out2")).is_empty());
}

#[test]
fn outputs_differing_only_by_letter_case_are_refused() {
    // `A.csa` and `a.csa` would give `A.kif` and `a.kif`: one file on
    // macOS and Windows, so refused everywhere, before anything is written.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    std::fs::write(d.join("in/A.csa"), GAME).unwrap();
    std::fs::write(d.join("in/a.csa"), GAME2).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in")),
        "--to",
        "kifu",
        "--out-dir",
        s(&d.join("out")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("A.csa") && e.contains("a.csa"), "{e}");
    assert!(e.contains("letter case"), "{e}");
    assert!(!d.join("out").exists() || tree(&d.join("out")).is_empty());
    // Folders too: `X/g.csa` and `x/g.csa`.
    std::fs::create_dir_all(d.join("in2/X")).unwrap();
    std::fs::create_dir_all(d.join("in2/x")).unwrap();
    std::fs::write(d.join("in2/X/g.csa"), GAME).unwrap();
    std::fs::write(d.join("in2/x/g.csa"), GAME2).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in2")),
        "--to",
        "csa",
        "--out-dir",
        s(&d.join("out2")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("letter case"), "{}", err(&o));
    // A name a split input may use, in another case: `X.csa` (two games,
    // split into `X-0001.kif`…) beside `x-0001.csa`.
    std::fs::create_dir(d.join("in3")).unwrap();
    std::fs::write(d.join("in3/X.csa"), two_games()).unwrap();
    std::fs::write(d.join("in3/x-0001.csa"), GAME2).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in3")),
        "--to",
        "kifu",
        "--out-dir",
        s(&d.join("out3")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("may be split into"), "{}", err(&o));
    // Differing by case and extension: the extension keeps them apart.
    std::fs::create_dir(d.join("in4")).unwrap();
    std::fs::write(d.join("in4/B.csa"), GAME).unwrap();
    std::fs::write(d.join("in4/b.usi"), b"position startpos moves 2g2f\n").unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in4")),
        "--to",
        "kifu",
        "--out-dir",
        s(&d.join("out4")),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(tree(&d.join("out4")), ["B.csa.kifu", "b.usi.kifu"]);
}

#[test]
fn names_that_are_not_utf8_stay_apart() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    let a = d.join("in").join(std::ffi::OsStr::from_bytes(b"g\xff.csa"));
    let b = d.join("in").join(std::ffi::OsStr::from_bytes(b"g\xfe.csa"));
    std::fs::write(&a, GAME).unwrap();
    std::fs::write(&b, GAME2).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in")),
        "--to",
        "csa",
        "--out-dir",
        s(&d.join("out")),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let names: Vec<Vec<u8>> = std::fs::read_dir(d.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().as_bytes().to_vec())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let texts: Vec<Vec<u8>> = std::fs::read_dir(d.join("out"))
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    assert_ne!(texts[0], texts[1], "each game in its own file");
}

#[test]
fn output_folder_inside_the_input_folder_is_not_walked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    std::fs::write(d.join("in/a.csa"), GAME).unwrap();
    for _ in 0..2 {
        let o = run(&[
            "convert",
            s(&d.join("in")),
            "--to",
            "csa",
            "--csa-version",
            "3.0",
            "--out-dir",
            s(&d.join("in/out")),
            "--force",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    }
    assert_eq!(tree(&d.join("in")), ["a.csa", "out/a.csa"]);
}

// ---- Data loss: special files, inputs, stdout ------------------------------

#[test]
fn force_writes_into_fifos_and_devices_and_never_replaces_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("a.csa");
    std::fs::write(&input, GAME).unwrap();
    // A FIFO is written into.
    let fifo = d.join("pipe");
    mkfifo(&fifo);
    let reader = read_fifo(&fifo);
    let o = run(&[
        "convert",
        s(&input),
        "--to",
        "usi",
        "-o",
        s(&fifo),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        reader.join().unwrap(),
        "position startpos moves 7g7f 3c3d\n",
        "written into the FIFO"
    );
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    // A character device is written into, never renamed over.
    let o = run(&[
        "convert",
        s(&input),
        "--to",
        "usi",
        "-o",
        "/dev/null",
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A symbolic link is followed: the file it names is replaced, the link stays.
    let target = d.join("target.usi");
    std::fs::write(&target, "old\n").unwrap();
    let link = d.join("link.usi");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = run(&[
        "convert",
        s(&input),
        "--to",
        "usi",
        "-o",
        s(&link),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "position startpos moves 7g7f 3c3d\n"
    );
    // A folder is refused, exit 2.
    let o = run(&["convert", s(&input), "--to", "usi", "-o", s(d), "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

#[test]
fn dash_and_dev_stdout_mean_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("a.csa");
    std::fs::write(&input, GAME).unwrap();
    for target in ["-", "/dev/stdout"] {
        let o = kifu()
            .current_dir(d)
            .args(["convert", s(&input), "--to", "usi", "-o", target])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{target}: {}", err(&o));
        assert_eq!(out(&o), "position startpos moves 7g7f 3c3d\n", "{target}");
    }
    assert!(!d.join("-").exists(), "no file named `-`");
    let o = kifu()
        .current_dir(d)
        .args(["stats", s(&input), "-o", "-", "--moves", "moves.csv"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("path,game,"), "{}", out(&o));
    assert!(!d.join("-").exists());
    let o = kifu()
        .current_dir(d)
        .args(["stats", s(&input), "-o", "games.csv", "--moves", "-"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("path,game,ply,"), "{}", out(&o));
    assert!(!d.join("-").exists());
}

#[test]
fn stats_never_writes_an_input_nor_one_file_twice() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("a.csa");
    std::fs::write(&input, GAME).unwrap();
    for args in [
        vec!["-o", s(&input), "--force"],
        vec!["--moves", s(&input), "--force"],
    ] {
        let mut all = vec!["stats", s(&input)];
        all.extend(args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", err(&o));
        assert!(err(&o).contains("one of the inputs"), "{}", err(&o));
        assert_eq!(std::fs::read(&input).unwrap(), GAME, "{all:?}");
    }
    let x = d.join("x.csv");
    let o = run(&["stats", s(&input), "-o", s(&x), "--moves", s(&x)]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("twice"), "{}", err(&o));
    assert!(!x.exists());
    // The same through another spelling of the path.
    let o = run(&[
        "stats",
        s(&input),
        "-o",
        s(&x),
        "--moves",
        &format!("{}/./x.csv", d.display()),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    // -o - and --moves - are both standard output.
    let o = run(&["stats", s(&input), "-o", "-", "--moves", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

#[test]
fn standard_input_redirected_from_the_output_is_never_destroyed() {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.csa");
    std::fs::write(&g, GAME).unwrap();
    for cmd in [
        vec!["convert", "-", "--from", "csa", "--to", "csa", "-o"],
        vec!["stats", "-", "--from", "csa", "-o"],
    ] {
        let mut args = cmd.clone();
        args.push(s(&g));
        args.push("--force");
        let o = kifu()
            .args(&args)
            .stdin(std::fs::File::open(&g).unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert_eq!(std::fs::read(&g).unwrap(), GAME, "{args:?}");
    }
}

#[test]
fn one_game_the_encoding_cannot_hold_drops_only_itself() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Three games; the second's comment holds a character Shift_JIS lacks.
    let text = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n'雪🀄\n%TORYO\n/\nPI\n+\n+5756FU\n%TORYO\n";
    std::fs::write(d.join("three.csa"), text).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("three.csa")),
        "--to",
        "psn",
        "--encoding",
        "shift_jis",
        "--out-dir",
        s(&d.join("out")),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("game 2"), "{}", err(&o));
    let psn = std::fs::read(d.join("out/three.psn")).expect("the valid games are written");
    let psn = String::from_utf8_lossy(&psn);
    assert_eq!(psn.matches("[Result").count(), 2, "{psn}");
    assert!(psn.contains("P-7f") && psn.contains("P-5f") && !psn.contains("P-2f"));
}

/// Runs kifu under a given umask (via the shell).
fn with_umask(umask: &str, args: &[&str]) -> Output {
    let mut script = format!("umask {umask}; exec \"$0\"");
    for i in 1..=args.len() {
        script.push_str(&format!(" \"${i}\""));
    }
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn outputs_get_the_umask_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("a.csa");
    std::fs::write(&input, GAME).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let o = with_umask(
        "022",
        &[
            "convert",
            s(&input),
            "--to",
            "kifu",
            "-o",
            s(&d.join("a.kifu")),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(mode(&d.join("a.kifu")), 0o644);
    let o = with_umask(
        "027",
        &[
            "stats",
            s(&input),
            "-o",
            s(&d.join("g.csv")),
            "--moves",
            s(&d.join("m.csv")),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(mode(&d.join("g.csv")), 0o640);
    assert_eq!(mode(&d.join("m.csv")), 0o640);
    let o = with_umask(
        "002",
        &[
            "convert",
            s(&input),
            "--to",
            "ki2u",
            "--out-dir",
            s(&d.join("out")),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(mode(&d.join("out/a.ki2u")), 0o664);
    // --force over an existing file keeps its mode, as writing into it would.
    std::fs::set_permissions(d.join("a.kifu"), std::fs::Permissions::from_mode(0o604)).unwrap();
    let o = with_umask(
        "077",
        &[
            "convert",
            s(&input),
            "--to",
            "kifu",
            "-o",
            s(&d.join("a.kifu")),
            "--force",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(mode(&d.join("a.kifu")), 0o604);
}

// ---- Exit codes: one test per row of the table in docs/cli.md -------------

#[test]
fn exit_0_all_good() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.csa");
    std::fs::write(&f, GAME).unwrap();
    for args in [
        vec!["validate", s(&f)],
        vec!["stats", s(&f)],
        vec!["convert", s(&f), "--to", "usi"],
        vec!["perft", "1"],
    ] {
        assert_eq!(run(&args).status.code(), Some(0), "{args:?}");
    }
}

#[test]
fn exit_1_problems_found_in_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.csa");
    std::fs::write(&f, b"V2.2\nPI\n+\n+0055FU\n").unwrap(); // no pawn in hand
    for args in [
        vec!["validate", s(&f)],
        vec!["convert", s(&f), "--to", "usi"],
    ] {
        assert_eq!(run(&args).status.code(), Some(1), "{args:?}");
    }
    // stats tabulates invalid games (valid=false): not a problem for it.
    assert_eq!(run(&["stats", s(&f)]).status.code(), Some(0));
}

#[test]
fn exit_2_usage_error() {
    for args in [
        vec!["validate"],
        vec!["frobnicate"],
        vec!["stats", "--opening-plies", "x", "a.csa"],
        vec!["convert", "a.csa", "--to", "xml"],
        vec!["perft", "1", "--sfen", "nonsense"],
    ] {
        assert_eq!(run(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn exit_2_unreadable_input() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.csa");
    std::fs::write(&f, GAME).unwrap();
    for cmd in [
        vec!["validate"],
        vec!["stats"],
        vec!["convert", "--to", "usi"],
    ] {
        let mut args = cmd.clone();
        args.push("/nonexistent/x.csa");
        args.push(s(&f));
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(err(&o).contains("/nonexistent/x.csa"), "{}", err(&o));
    }
}

#[test]
fn exit_2_refused_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = d.join("a.csa");
    std::fs::write(&f, GAME).unwrap();
    let existing = d.join("exists.txt");
    std::fs::write(&existing, "keep").unwrap();
    // An existing output without --force: the same code for every command.
    for args in [
        vec!["stats", s(&f), "-o", s(&existing)],
        vec!["stats", s(&f), "--moves", s(&existing)],
        vec!["convert", s(&f), "--to", "usi", "-o", s(&existing)],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("--force"), "{}", err(&o));
        assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep");
    }
    std::fs::create_dir(d.join("out")).unwrap();
    std::fs::write(d.join("out/a.usi"), "keep").unwrap();
    let o = run(&[
        "convert",
        s(&f),
        "--to",
        "usi",
        "--out-dir",
        s(&d.join("out")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(
        std::fs::read_to_string(d.join("out/a.usi")).unwrap(),
        "keep"
    );
}

#[test]
fn exit_2_output_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = d.join("a.csa");
    std::fs::write(&f, GAME).unwrap();
    // A file stands where the output folder should be.
    let blocker = d.join("blocker");
    std::fs::write(&blocker, b"").unwrap();
    for args in [
        vec!["convert", s(&f), "--to", "kif", "--out-dir", s(&blocker)],
        vec![
            "stats",
            s(&f),
            "-o",
            &format!("{}/g.csv", blocker.display()),
        ],
        vec![
            "convert",
            s(&f),
            "--to",
            "kif",
            "-o",
            &format!("{}/g.kif", blocker.display()),
        ],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
    }
    // A full standard output: one message, exit 2.
    if Path::new("/dev/full").exists() {
        let mut many = Vec::new();
        for _ in 0..2000 {
            many.extend_from_slice(&GAME2[5..]);
            many.extend_from_slice(b"/\n");
        }
        std::fs::write(d.join("many.csa"), &many).unwrap();
        for args in [
            vec!["convert", s(&d.join("many.csa")), "--to", "usi"],
            vec!["stats", s(&d.join("many.csa"))],
            vec!["validate", "--format", "json", s(&d.join("many.csa"))],
        ] {
            let o = kifu()
                .args(&args)
                .stdout(
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open("/dev/full")
                        .unwrap(),
                )
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
            let e = err(&o);
            assert_eq!(e.lines().count(), 1, "{args:?}: one message: {e}");
            assert!(e.contains("No space left"), "{e}");
        }
    }
}

#[test]
fn exit_2_no_game_found_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("empty")).unwrap();
    std::fs::write(d.join("empty/notes.txt"), "no record here").unwrap();
    let e = d.join("empty");
    let o = run(&["validate", s(&e)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no game found"), "{}", err(&o));
    assert_eq!(
        run(&["validate", "--allow-empty", s(&e)]).status.code(),
        Some(0)
    );
    let o = run(&["stats", s(&e)]);
    assert_eq!(o.status.code(), Some(2));
    let target = d.join("out.csa");
    let o = run(&["convert", s(&e), "--to", "csa", "-o", s(&target)]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(!target.exists(), "no empty output");
    assert_eq!(
        run(&[
            "convert",
            s(&e),
            "--to",
            "csa",
            "--allow-empty",
            "-o",
            s(&target)
        ])
        .status
        .code(),
        Some(0)
    );
}

#[test]
fn exit_0_quietly_when_the_reader_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut many = Vec::new();
    for _ in 0..300_000 {
        many.extend_from_slice(&GAME2[5..]);
        many.extend_from_slice(b"/\n");
    }
    let big = d.join("many.csa");
    std::fs::write(&big, &many).unwrap();
    let args = ["stats", s(&big), "--moves", "/dev/null", "-j", "1"];
    // The whole run, for comparison.
    let start = Instant::now();
    let full = kifu().args(args).stdout(Stdio::null()).output().unwrap();
    let full_time = start.elapsed();
    assert_eq!(full.status.code(), Some(0), "{}", err(&full));
    // `| head -c 64`: the run stops at the broken pipe instead of going on
    // to the end.
    let mut child = kifu()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    let closed = Instant::now();
    drop(stdout);
    let o = child.wait_with_output().unwrap();
    let after = closed.elapsed();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(err(&o), "", "quietly");
    assert!(
        after * 3 < full_time,
        "went on for {after:?} after the pipe closed; the whole run takes {full_time:?}"
    );
}

/// Waits until a `.kifu-*.tmp` file appears in `dir`.
fn wait_for_temporary(dir: &Path, child: &mut std::process::Child) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let found = std::fs::read_dir(dir).unwrap().any(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.starts_with(".kifu-") && n.ends_with(".tmp")
        });
        if found {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    false
}

#[test]
fn exit_128_plus_signal_after_removing_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut many = Vec::new();
    for _ in 0..200_000 {
        many.extend_from_slice(&GAME2[5..]);
        many.extend_from_slice(b"/\n");
    }
    let big = d.join("many.csa");
    std::fs::write(&big, &many).unwrap();
    std::fs::create_dir(d.join("out")).unwrap();
    for (sig, code) in [("TERM", 143), ("INT", 130)] {
        let mut child = kifu()
            .args([
                "stats",
                s(&big),
                "-o",
                s(&d.join("out/g.csv")),
                "--moves",
                s(&d.join("out/m.csv")),
                "--force",
                "-j",
                "1",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        assert!(
            wait_for_temporary(&d.join("out"), &mut child),
            "no temporary file seen while running"
        );
        let st = Command::new("kill")
            .args([&format!("-{sig}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(st.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{sig}");
        assert_eq!(tree(&d.join("out")), Vec::<String>::new(), "SIG{sig}");
    }
}

// ---- Discovery and reporting ----------------------------------------------

#[test]
fn skipped_entries_are_reported_and_fifos_in_folders_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.csa"), GAME).unwrap();
    std::os::unix::fs::symlink(d.join("gone.csa"), d.join("dangling.csa")).unwrap();
    mkfifo(&d.join("pipe.kif"));
    let mut child = kifu()
        .args(["validate", s(d)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("validate blocked on a FIFO inside a folder");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    let e = err(&o);
    assert!(e.contains("dangling.csa: warning[io]: skipped"), "{e}");
    assert!(e.contains("pipe.kif: warning[io]: skipped: a FIFO"), "{e}");
    assert_eq!(
        o.status.code(),
        Some(0),
        "skipped entries are warnings: {e}"
    );
}

#[test]
fn missing_paths_are_reported_in_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.csa"), GAME).unwrap();
    std::fs::write(d.join("b.csa"), GAME2).unwrap();
    let o = run(&[
        "validate",
        "--format",
        "json",
        s(&d.join("a.csa")),
        "/nonexistent/x.csa",
        s(&d.join("b.csa")),
    ]);
    let paths: Vec<String> = out(&o)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["path"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(paths.len(), 3, "{paths:?}");
    assert!(paths[0].ends_with("a.csa"), "{paths:?}");
    assert_eq!(paths[1], "/nonexistent/x.csa");
    assert!(paths[2].ends_with("b.csa"), "{paths:?}");
    // Human output: the error line comes between the two files' findings.
    std::fs::write(d.join("a.csa"), b"V2.2\nPI\n+\n+0055FU\n").unwrap();
    std::fs::write(d.join("b.csa"), b"V2.2\nPI\n+\n+0044FU\n").unwrap();
    let o = run(&[
        "validate",
        s(&d.join("a.csa")),
        "/nonexistent/x.csa",
        s(&d.join("b.csa")),
    ]);
    let e = err(&o);
    let text = out(&o);
    // Findings go to standard output, the io error to standard error; both
    // are flushed per file, so their order shows in a merged stream.
    assert!(
        text.contains("a.csa:4:1") && text.contains("b.csa:4:1"),
        "{text}"
    );
    assert!(e.contains("/nonexistent/x.csa: error[io]"), "{e}");
    let sh = Command::new("sh")
        .arg("-c")
        .arg("\"$0\" validate \"$1\" /nonexistent/x.csa \"$2\" 2>&1")
        .arg(bin())
        .arg(d.join("a.csa"))
        .arg(d.join("b.csa"))
        .output()
        .unwrap();
    let all = out(&sh);
    let a = all.find("a.csa:4:1").unwrap();
    let x = all.find("/nonexistent/x.csa").unwrap();
    let b = all.find("b.csa:4:1").unwrap();
    assert!(a < x && x < b, "{all}");
}

#[test]
fn source_lines_come_from_what_was_read_never_a_second_open() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("game.csa");
    mkfifo(&fifo);
    let f2 = fifo.clone();
    // Writes the record once; a second open of the FIFO would block forever.
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(f2).unwrap();
        f.write_all(b"V2.2\nPI\n+\n+7776FU\n-3334FU\n+0055FU\n")
            .unwrap();
    });
    let mut child = kifu()
        .args(["validate", s(&fifo)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("validate re-opened the FIFO to show the source line");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    writer.join().unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("6 | +0055FU"), "{}", out(&o));
}

// ---- Nothing from a record drives the terminal or CI -----------------------

#[test]
fn control_characters_are_shown_not_obeyed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    // A file name with an escape sequence and a newline that would start a
    // workflow command, and a record whose text holds escape sequences.
    let name = "x\u{1b}]0;owned\u{7}\n::set-output name=x::y.csa";
    let bad = b"V2.2\nN+\x1b[2J\x1b[31mfake 0 invalid\nPI\n+\n+0055FU\n'\x1b]0;title\x07\n";
    std::fs::write(d.join("in").join(name), bad).unwrap();
    for format in ["human", "github", "json", "sarif"] {
        let o = run(&["validate", "--format", format, s(&d.join("in"))]);
        assert_eq!(o.status.code(), Some(1), "{format}");
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            assert!(
                !bytes.contains(&0x1b) && !bytes.contains(&0x07),
                "{format} {stream}: a control character came through: {:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        if format == "github" {
            for line in out(&o).lines() {
                assert!(
                    line.starts_with("::error ")
                        || line.starts_with("::warning ")
                        || line.starts_with("::notice title=kifu validate::"),
                    "a line that is not ours: {line}"
                );
            }
        }
        if format == "human" {
            let text = out(&o);
            assert!(text.contains("\\e]0;owned\\a\\n::set-output"), "{text}");
            assert!(!text.lines().any(|l| l.starts_with("::")), "{text}");
        }
    }
    // convert and stats print the same names.
    for args in [
        vec!["convert", s(&d.join("in")), "--to", "usi"],
        vec!["stats", "--summary", s(&d.join("in"))],
    ] {
        let o = run(&args);
        assert!(
            !o.stderr.contains(&0x1b) && !o.stderr.contains(&0x07),
            "{args:?}: {}",
            err(&o)
        );
    }
}

#[test]
fn no_writer_lets_a_field_start_a_line_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A JKF `special` and header values holding line breaks and whole KIF
    // lines (a variation block), and a comment with a `}`.
    let jkf = r#"{"header":{"先手":"A\n後手：X","棋戦":"x\r\n*fake"},"initial":{"preset":"HIRATE"},
"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"},"comments":["ends } here"]},
{"special":"TORYO\n\n変化：1手\n   1 ２六歩(27)\n   2 ３四歩(33)"}]}"#;
    let src = d.join("inj.jkf");
    std::fs::write(&src, jkf).unwrap();
    for to in ["kifu", "ki2u", "csa", "psn"] {
        let target = d.join(format!("out.{to}"));
        let o = run(&["convert", s(&src), "--to", to, "-o", s(&target)]);
        assert_eq!(o.status.code(), Some(0), "{to}: {}", err(&o));
        assert!(err(&o).contains("altered"), "{to}: {}", err(&o));
        let bytes = std::fs::read(&target).unwrap();
        let games = kifu::read::read_all(&bytes, None, &Default::default());
        assert_eq!(games.len(), 1, "{to}");
        let rec = &games[0].record;
        assert_eq!(rec.variation_count(), 0, "{to}: a variation was injected");
        assert_eq!(rec.main.moves.len(), 1, "{to}");
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text
                .lines()
                .any(|l| l.starts_with("後手") || l.starts_with("*fake")),
            "{to}: {text}"
        );
        if to == "psn" {
            assert!(text.contains(";ends } here"), "{text}");
            assert_eq!(rec.main.moves[0].comments, ["ends } here"], "{text}");
        }
    }
}

/// The lines of `text` as Python's `str.splitlines` gives them (LF, CR,
/// CRLF, VT, FF, FS, GS, RS, NEL, U+2028, U+2029), as editors and
/// line-aware scripts read a file.
fn python_lines(text: &str) -> Vec<&str> {
    let seps = [
        '\n', '\r', '\x0B', '\x0C', '\x1C', '\x1D', '\x1E', '\u{85}', '\u{2028}', '\u{2029}',
    ];
    let mut v = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(seps) {
        v.push(&rest[..i]);
        let skip = if rest[i..].starts_with("\r\n") {
            2
        } else {
            rest[i..].chars().next().unwrap().len_utf8()
        };
        rest = &rest[i + skip..];
    }
    if !rest.is_empty() {
        v.push(rest);
    }
    v
}

#[test]
fn no_line_separator_lets_a_field_start_a_line_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Every Unicode line separator but LF and CR (tested above), before a
    // forged CSA move or terminal, in the one-line fields (names, 棋戦,
    // 戦型 / $OPENING / [Opening], a PSN tag) and in a comment.
    for sep in [
        "\\u000b", "\\u000c", "\\u001c", "\\u001d", "\\u001e", "\\u0085", "\\u2028", "\\u2029",
    ] {
        let jkf = format!(
            r#"{{"header":{{"先手":"A{sep}+2726FU","後手":"B{sep}%KACHI","棋戦":"E{sep}%KACHI","戦型":"O{sep}+2726FU","場所":"S{sep}[Forged \"1\"]"}},"initial":{{"preset":"HIRATE"}},
"moves":[{{}},{{"move":{{"from":{{"x":7,"y":7}},"to":{{"x":7,"y":6}},"color":0,"piece":"FU"}},"comments":["c{sep}+2726FU"]}},{{"special":"TORYO"}}]}}"#
        );
        let src = d.join("inj.jkf");
        std::fs::write(&src, &jkf).unwrap();
        for to in ["kifu", "ki2u", "csa", "psn"] {
            for annotate in [false, true] {
                let target = d.join(format!("out.{to}"));
                let mut args = vec!["convert", s(&src), "--to", to, "-o", s(&target), "--force"];
                if annotate {
                    args.push("--annotate");
                }
                let o = run(&args);
                assert_eq!(o.status.code(), Some(0), "{sep} {to}: {}", err(&o));
                assert!(err(&o).contains("altered texts"), "{sep} {to}: {}", err(&o));
                let bytes = std::fs::read(&target).unwrap();
                let text = String::from_utf8(bytes.clone()).unwrap();
                // (A PSN comment block is lines of free text: not a field.)
                let mut in_block = false;
                let forged = python_lines(&text).into_iter().find(|l| {
                    in_block = (in_block || *l == "{") && *l != "}";
                    !in_block
                        && (l.starts_with("+2726FU")
                            || l.starts_with("%KACHI")
                            || l.starts_with("[Forged"))
                });
                assert_eq!(forged, None, "{sep} {to} annotate {annotate}: {text:?}");
                // kifu reads the record back: the one move and its result.
                let games = kifu::read::read_all(&bytes, None, &Default::default());
                assert_eq!(games.len(), 1, "{sep} {to}");
                assert_eq!(games[0].record.main.moves.len(), 1, "{sep} {to}: {text:?}");
            }
        }
    }
}

// ---- Threads --------------------------------------------------------------

#[test]
fn too_many_threads_fall_back_with_a_warning() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/examples");
    // Far more than the cap: lowered, with a warning.
    let o = run(&["validate", "-q", "-j", "100000", s(&examples)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("256"), "{}", err(&o));
    // Under an address-space limit that cannot hold 64 worker stacks.
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 700000 && exec \"$0\" validate -q -j 64 \"$1\"")
        .arg(bin())
        .arg(&examples)
        .output()
        .unwrap();
    assert!(
        !err(&o).contains("ulimit"),
        "the shell could not set the address-space limit: {}",
        err(&o)
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("warning"), "{}", err(&o));
}

// ---- Numbers --------------------------------------------------------------

#[test]
fn sfen_move_numbers_near_2_pow_32_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    // Over the bound: refused where it is read.
    std::fs::write(
        d.join("over.usi"),
        format!("position sfen {sfen} 4294967295 moves 7g7f 3c3d\n"),
    )
    .unwrap();
    let o = run(&["validate", s(&d.join("over.usi"))]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains("move number"), "{}", out(&o));
    // At the bound: converted, and the KIF/KI2 written reads back.
    std::fs::write(
        d.join("max.usi"),
        format!("position sfen {sfen} 2147483647 moves 7g7f 3c3d\n"),
    )
    .unwrap();
    for to in ["kifu", "ki2u"] {
        let target = d.join(format!("max.{to}"));
        let o = run(&[
            "convert",
            s(&d.join("max.usi")),
            "--to",
            to,
            "-o",
            s(&target),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let o = run(&["validate", s(&target)]);
        assert_eq!(o.status.code(), Some(0), "{to}: {}", out(&o));
    }
}

// ---- Machine-readable reports carry every warning ----------------------------

/// `--format json` / `sarif` (and `--diagnostics json|sarif`): kifu's own
/// warnings (fewer worker threads than asked) and skipped entries are in
/// the report, not plain text on standard error; human output is unchanged.
#[test]
fn machine_readable_reports_carry_every_warning() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.csa"), GAME).unwrap();
    std::os::unix::fs::symlink(d.join("gone.csa"), d.join("dangling.csa")).unwrap();
    // JSON Lines on standard output.
    let o = run(&["validate", "--format", "json", "-j", "100000", s(d)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).trim().is_empty(), "stderr: {}", err(&o));
    let lines: Vec<serde_json::Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let note = lines
        .iter()
        .find(|v| v.get("note").is_some())
        .unwrap_or_else(|| panic!("no note: {}", out(&o)));
    assert_eq!(note["severity"], "warning");
    assert!(note["path"].is_null());
    assert!(note["note"].as_str().unwrap().contains("256"), "{note}");
    let skipped = lines
        .iter()
        .find(|v| {
            v["path"]
                .as_str()
                .is_some_and(|p| p.ends_with("dangling.csa"))
        })
        .unwrap_or_else(|| panic!("no skipped entry: {}", out(&o)));
    assert_eq!(skipped["ok"], true, "a warning leaves the run ok");
    assert_eq!(skipped["findings"][0]["rule"], "io", "{skipped}");
    assert_eq!(skipped["findings"][0]["severity"], "warning", "{skipped}");
    // SARIF: the note is a tool execution notification, the skipped entry
    // a result.
    let o = run(&["validate", "--format", "sarif", "-j", "100000", s(d)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).trim().is_empty(), "stderr: {}", err(&o));
    let doc: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let notes = &doc["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert!(
        notes
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["level"] == "warning"
                && n["message"]["text"].as_str().unwrap().contains("256")),
        "{notes}"
    );
    let results = doc["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["ruleId"] == "io"), "{results:?}");
    // `convert --diagnostics json`: every line on standard error is JSON.
    let o = run(&[
        "convert",
        s(&d.join("a.csa")),
        "--to",
        "usi",
        "-j",
        "100000",
        "--diagnostics",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("256"), "{e}");
    for l in e.lines() {
        serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|x| panic!("{l}: {x}"));
    }
    // Human output: as before.
    let o = run(&["validate", "-j", "100000", s(d)]);
    assert!(err(&o).contains("kifu: warning: -j 100000"), "{}", err(&o));
    assert!(
        err(&o).contains("dangling.csa: warning[io]: skipped"),
        "{}",
        err(&o)
    );
}

#[test]
fn outputs_differing_only_by_unicode_normalisation_are_refused() {
    // `が.csa` written composed (U+304C) and decomposed (か U+304B + U+3099):
    // two files on Linux, one on macOS, so refused everywhere.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    std::fs::write(d.join("in/\u{304C}.csa"), GAME).unwrap();
    std::fs::write(d.join("in/\u{304B}\u{3099}.csa"), GAME2).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in")),
        "--to",
        "kif",
        "--out-dir",
        s(&d.join("out")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("Unicode normalisation"), "{}", err(&o));
    assert!(!d.join("out").exists() || tree(&d.join("out")).is_empty());
    // Different kana stay apart: `か.csa` and `が.csa` convert.
    std::fs::create_dir(d.join("in2")).unwrap();
    std::fs::write(d.join("in2/\u{304C}.csa"), GAME).unwrap();
    std::fs::write(d.join("in2/\u{304B}.csa"), GAME2).unwrap();
    let o = run(&[
        "convert",
        s(&d.join("in2")),
        "--to",
        "kif",
        "--out-dir",
        s(&d.join("out2")),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(tree(&d.join("out2")).len(), 2);
}
