//! One planner for every output of every command (issue 27): `board` and
//! `html` plan their outputs as `convert` and `stats` do (inputs never
//! outputs, `-` is standard output, FIFOs and devices written into,
//! symbolic links followed, refusals before anything is written, exit 2),
//! `html --out-dir` names its pages by the naming rule of `convert
//! --out-dir`, a failed write stops the run, `stats` always writes its
//! header rows, and no command prints a name that can drive a terminal.
//!
//! `KIFU_BIN=/path/to/kifu` runs these tests against another build (to see
//! them fail on an older one).

#![cfg(unix)]

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[path = "support/outputs.rs"]
mod support;
use support::{bin, err, kifu, out, run, s, tree, two_games, GAME, GAME2};

/// A one-move game in KIF, written by hand in the layout KIF programs use.
const KIF_GAME: &str =
    "手合割：平手\n手数----指手---------消費時間--\n   1 ２六歩(27)\n   2 投了\n";

fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo")
        .arg(p)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {} failed", p.display());
}

/// Runs kifu with `args` while a thread reads the FIFO `fifo` to its end;
/// returns kifu's output and what the FIFO carried. If kifu never opened
/// the FIFO, the reader is released so that the test does not hang.
fn through_fifo(fifo: &Path, args: &[&str]) -> (Output, Vec<u8>) {
    let path = fifo.to_path_buf();
    let reader = std::thread::spawn(move || {
        let mut got = Vec::new();
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut got))
            .unwrap();
        got
    });
    let o = run(args);
    // A writer of our own, opened without waiting: ends the reader's wait
    // if kifu did not open the FIFO (ENXIO when the reader is gone).
    use std::os::unix::fs::OpenOptionsExt;
    #[cfg(target_os = "linux")]
    const O_NONBLOCK: i32 = 0o4000;
    #[cfg(not(target_os = "linux"))]
    const O_NONBLOCK: i32 = 0x0004;
    drop(
        std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(O_NONBLOCK)
            .open(fifo),
    );
    (o, reader.join().unwrap())
}

// ---- 1. The record read from standard input is never the output -----------

#[test]
fn board_and_html_never_overwrite_the_record_they_read_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.csa");
    std::fs::write(&g, GAME).unwrap();
    for cmd in [
        vec!["board", "-", "--from", "csa", "-o"],
        vec!["board", "-", "--from", "csa", "--to", "svg", "-o"],
        vec!["html", "-", "--from", "csa", "-o"],
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
        assert!(
            err(&o).contains("one of the inputs"),
            "{args:?}: {}",
            err(&o)
        );
        assert_eq!(std::fs::read(&g).unwrap(), GAME, "{args:?}");
    }
    // Standard output appending to the record read.
    for args in [vec!["board", s(&g), "--to", "bod"], vec!["html", s(&g)]] {
        let o = kifu()
            .args(&args)
            .stdout(std::fs::OpenOptions::new().append(true).open(&g).unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert_eq!(std::fs::read(&g).unwrap(), GAME, "{args:?}");
    }
}

// ---- 2. html --out-dir: the naming rule of convert --out-dir ---------------

/// The game pages of an `html --out-dir` folder: every file but the
/// collection's index and explorer, which must be there.
fn site_pages(dir: &Path) -> Vec<String> {
    let all = tree(dir);
    for f in ["index.html", "explorer.html"] {
        assert!(all.iter().any(|p| p == f), "no {f} in {all:?}");
    }
    all.into_iter()
        .filter(|p| p != "index.html" && p != "explorer.html")
        .collect()
}

#[test]
fn html_pages_are_named_by_the_naming_rule_of_convert() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pages = d.join("pages");
    // The same name in two folders, given as files: refused, nothing
    // written, with --force too.
    for (sub, game) in [("d1", GAME), ("d2", GAME2)] {
        std::fs::create_dir(d.join(sub)).unwrap();
        std::fs::write(d.join(sub).join("g.csa"), game).unwrap();
    }
    let (g1, g2) = (d.join("d1/g.csa"), d.join("d2/g.csa"));
    for force in [false, true] {
        let mut args = vec!["html", s(&g1), s(&g2), "--out-dir", s(&pages)];
        if force {
            args.push("--force");
        }
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        let e = err(&o);
        assert!(e.contains("d1/g.csa") && e.contains("d2/g.csa"), "{e}");
        assert!(tree(&pages).is_empty(), "{:?}", tree(&pages));
    }
    // The same file twice.
    let o = run(&["html", s(&g1), s(&g1), "--out-dir", s(&pages), "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(tree(&pages).is_empty(), "{:?}", tree(&pages));
    // y.csa and y.kif keep their extensions.
    std::fs::create_dir(d.join("y")).unwrap();
    std::fs::write(d.join("y/y.csa"), GAME).unwrap();
    std::fs::write(d.join("y/y.kif"), KIF_GAME).unwrap();
    let o = run(&["html", s(&d.join("y")), "--out-dir", s(&pages)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(site_pages(&pages), ["y.csa.html", "y.kif.html"]);
    let csa_page = std::fs::read_to_string(pages.join("y.csa.html")).unwrap();
    let kif_page = std::fs::read_to_string(pages.join("y.kif.html")).unwrap();
    assert!(csa_page.contains("Alice") && !kif_page.contains("Alice"));
    // x.csa, two games, would write x-0001.html: the page of x-0001.csa.
    std::fs::remove_dir_all(&pages).unwrap();
    std::fs::create_dir(d.join("x")).unwrap();
    std::fs::write(d.join("x/x.csa"), two_games()).unwrap();
    std::fs::write(d.join("x/x-0001.csa"), GAME2).unwrap();
    let o = run(&["html", s(&d.join("x")), "--out-dir", s(&pages), "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("x.csa") && e.contains("x-0001.csa"), "{e}");
    assert!(tree(&pages).is_empty(), "{:?}", tree(&pages));
    // Without the clash: numbered pages for the file of two games.
    std::fs::remove_file(d.join("x/x-0001.csa")).unwrap();
    let o = run(&["html", s(&d.join("x")), "--out-dir", s(&pages)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(site_pages(&pages), ["x-0001.html", "x-0002.html"]);
    // Run again: the pages exist, refused before anything is written.
    std::fs::write(d.join("x/z.csa"), GAME).unwrap();
    let o = run(&["html", s(&d.join("x")), "--out-dir", s(&pages)]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("--force"), "{}", err(&o));
    assert_eq!(
        site_pages(&pages),
        ["x-0001.html", "x-0002.html"],
        "z.html too early"
    );
    let o = run(&["html", s(&d.join("x")), "--out-dir", s(&pages), "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(site_pages(&pages), ["x-0001.html", "x-0002.html", "z.html"]);
}

// ---- 3. Names are shown, never obeyed ---------------------------------------

/// No escape or bell character, and no line another tool would take for
/// its own (a GitHub workflow command).
fn assert_inert(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    assert!(
        !bytes.contains(&0x1b) && !bytes.contains(&0x07),
        "{what}: a control character came through: {text:?}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("::")),
        "{what}: a forged workflow command: {text}"
    );
}

#[test]
fn every_message_shows_names_visibly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let name = "x\u{1b}]0;owned\u{7}\n::error::forged.csa";
    let bad = d.join(name);
    std::fs::write(&bad, GAME).unwrap();
    let good = d.join("g.csa");
    std::fs::write(&good, GAME).unwrap();
    let existing = d.join("e\u{1b}[2J\n::error::x.svg");
    std::fs::write(&existing, "keep").unwrap();
    let missing = format!("{}.missing", s(&bad));
    let cases: Vec<Vec<&str>> = vec![
        // board's own messages.
        vec!["board", s(&bad), "--ply", "99"],
        vec!["board", s(&bad), "--game", "3"],
        vec!["board", s(&good), "-o", s(&existing)],
        vec!["board", s(&good), "--every-ply", "--out-dir", s(&bad)],
        vec!["board", &missing],
        // Refused outputs of the other commands.
        vec!["html", s(&good), "-o", s(&existing)],
        vec!["convert", s(&good), "--to", "csa", "-o", s(&existing)],
        vec!["stats", s(&good), "-o", s(&existing)],
        // A name the argument parser echoes.
        vec!["board", s(&good), s(&bad)],
        vec!["board", s(&good), "--game", name],
        vec!["validate", s(&good), "--jobs", name],
        vec!["select", s(&good), "--jobs", name],
        vec!["convert", s(&good), "--to", name],
        vec!["stats", s(&good), "--opening-plies", name],
        vec!["html", s(&good), "--jobs", name],
    ];
    for args in &cases {
        let o = run(args);
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        assert_inert(&format!("{args:?} stderr"), &o.stderr);
        assert!(
            err(&o).contains("\\n::error::"),
            "{args:?}: the name is shown escaped: {}",
            err(&o)
        );
    }
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep");
}

// ---- 4. board and html outputs follow the rules of convert -----------------

#[test]
fn dash_means_standard_output_for_board_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("g.csa"), GAME).unwrap();
    for (args, start) in [
        (vec!["board", "g.csa", "-o", "-"], "☖ 後手 Bob"),
        (vec!["board", "g.csa", "--to", "svg", "-o", "-"], "<svg"),
        (vec!["html", "g.csa", "-o", "-"], "<!DOCTYPE html>"),
        (vec!["board", "g.csa", "-o", "/dev/stdout"], "☖ 後手 Bob"),
        (
            vec!["html", "g.csa", "-o", "/dev/stdout"],
            "<!DOCTYPE html>",
        ),
    ] {
        let o = kifu().current_dir(d).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        assert!(out(&o).starts_with(start), "{args:?}: {}", out(&o));
        assert!(!d.join("-").exists(), "{args:?}: a file named `-`");
    }
}

#[test]
fn board_and_html_write_into_fifos_and_follow_symbolic_links() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let g = d.join("g.csa");
    std::fs::write(&g, GAME).unwrap();
    // A FIFO is written into (no --force needed: nothing is replaced).
    let fifo = d.join("pipe");
    mkfifo(&fifo);
    for (args, start) in [
        (
            vec!["board", s(&g), "--to", "bod", "-o", s(&fifo)],
            "後手の持駒",
        ),
        (vec!["html", s(&g), "-o", s(&fifo)], "<!DOCTYPE html>"),
    ] {
        let (o, got) = through_fifo(&fifo, &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        let got = String::from_utf8_lossy(&got);
        assert!(got.starts_with(start), "{args:?}: {got}");
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
    }
    // A symbolic link is followed: the file it names is replaced (with
    // --force), the link stays; without --force it is refused, exit 2.
    let target = d.join("target.svg");
    let link = d.join("link.svg");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for cmd in [vec!["board", s(&g)], vec!["html", s(&g)]] {
        std::fs::write(&target, "old").unwrap();
        let mut args = cmd.clone();
        args.extend(["-o", s(&link)]);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("--force"), "{}", err(&o));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        args.push("--force");
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        let text = std::fs::read_to_string(&target).unwrap();
        assert!(text.starts_with('<'), "{args:?}: {text}");
    }
    // A character device is written into.
    for args in [
        vec!["board", s(&g), "-o", "/dev/null"],
        vec!["html", s(&g), "-o", "/dev/null"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }
    // A folder is refused, exit 2.
    for args in [
        vec!["board", s(&g), "-o", s(d), "--force"],
        vec!["html", s(&g), "-o", s(d), "--force"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("is a folder"), "{}", err(&o));
    }
}

#[test]
fn refused_outputs_of_board_and_html_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let g = d.join("g.csa");
    std::fs::write(&g, GAME).unwrap();
    let existing = d.join("exists.svg");
    std::fs::write(&existing, "keep").unwrap();
    for args in [
        vec!["board", s(&g), "-o", s(&existing)],
        vec![
            "board",
            "--sfen",
            "4k4/9/9/9/9/9/9/9/4K4 b - 1",
            "-o",
            s(&existing),
        ],
        vec!["html", s(&g), "-o", s(&existing)],
        vec!["html", s(&g), "-o", s(&g), "--force"],
        vec!["board", s(&g), "-o", s(&g), "--force"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep");
        assert_eq!(std::fs::read(&g).unwrap(), GAME);
    }
}

#[test]
fn every_ply_plans_every_picture_before_writing_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let g = d.join("g.csa");
    std::fs::write(&g, GAME).unwrap();
    let slides = d.join("slides");
    std::fs::create_dir(&slides).unwrap();
    // The middle picture exists: nothing is written, exit 2.
    std::fs::write(slides.join("g-0001.svg"), "keep").unwrap();
    let o = run(&["board", s(&g), "--every-ply", "--out-dir", s(&slides)]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("g-0001.svg"), "{}", err(&o));
    assert_eq!(tree(&slides), ["g-0001.svg"], "nothing before it either");
    assert_eq!(
        std::fs::read_to_string(slides.join("g-0001.svg")).unwrap(),
        "keep"
    );
    // With --force every picture is written, the existing one replaced.
    let o = run(&[
        "board",
        s(&g),
        "--every-ply",
        "--out-dir",
        s(&slides),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(tree(&slides), ["g-0000.svg", "g-0001.svg", "g-0002.svg"]);
    for k in 0..3 {
        let svg = std::fs::read_to_string(slides.join(format!("g-{k:04}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"), "{k}: {svg}");
    }
    // A folder where a picture should go: refused before the first.
    std::fs::remove_dir_all(&slides).unwrap();
    std::fs::create_dir_all(slides.join("g-0002.svg")).unwrap();
    let o = run(&[
        "board",
        s(&g),
        "--every-ply",
        "--out-dir",
        s(&slides),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(tree(&slides).is_empty(), "{:?}", tree(&slides));
}

// ---- 5. stats writes its header rows when nothing is selected --------------

#[test]
fn stats_writes_the_header_rows_when_no_game_is_selected() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let g = d.join("g.csa");
    std::fs::write(&g, GAME).unwrap();
    // The header rows, from a run that selects the game.
    let all = run(&["stats", s(&g), "--moves", s(&d.join("all-moves.csv"))]);
    assert_eq!(all.status.code(), Some(0), "{}", err(&all));
    let games_header = out(&all).lines().next().unwrap().to_string();
    let moves_text = std::fs::read_to_string(d.join("all-moves.csv")).unwrap();
    let moves_header = moves_text.lines().next().unwrap().to_string();
    assert!(games_header.starts_with("path,game,") && moves_header.starts_with("path,game,ply,"));
    let (games, moves) = (d.join("games.csv"), d.join("moves.csv"));
    let o = run(&[
        "stats",
        s(&g),
        "--player",
        "Nobody",
        "-o",
        s(&games),
        "--moves",
        s(&moves),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        std::fs::read_to_string(&games).unwrap(),
        format!("{games_header}\n")
    );
    assert_eq!(
        std::fs::read_to_string(&moves).unwrap(),
        format!("{moves_header}\n")
    );
    // On standard output too.
    let o = run(&["stats", s(&g), "--player", "Nobody"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), format!("{games_header}\n"));
    // A game that is selected but has no move: the moves table has its header.
    std::fs::write(d.join("empty.csa"), b"V2.2\nPI\n+\n%TORYO\n").unwrap();
    std::fs::remove_file(&moves).unwrap();
    let o = run(&["stats", s(&d.join("empty.csa")), "--moves", s(&moves)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        std::fs::read_to_string(&moves).unwrap(),
        format!("{moves_header}\n")
    );
}

// ---- 6. A failed write stops the run ----------------------------------------

/// Runs kifu with the largest file it may write limited to `blocks`
/// (`ulimit -f`, 512- or 1024-byte blocks as the shell counts them), and
/// SIGXFSZ ignored, so that a write past it fails as on a full disk
/// (EFBIG) instead of killing the process.
fn with_file_size_limit(blocks: u32, args: &[&str]) -> Output {
    let mut script = format!("trap '' XFSZ; ulimit -f {blocks} || exit 99; exec \"$0\"");
    for i in 1..=args.len() {
        script.push_str(&format!(" \"${i}\""));
    }
    let o = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .args(args)
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    assert_ne!(o.status.code(), Some(99), "ulimit -f: {}", err(&o));
    o
}

#[test]
fn the_first_failed_write_stops_convert_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("in");
    std::fs::create_dir(&input).unwrap();
    // a and c are small; b's outputs (3,000 comment lines) are larger than
    // the limit (100 blocks: at most 100 KiB), a and c's far smaller (a
    // page of html is about 30 KB).
    std::fs::write(input.join("a.csa"), GAME).unwrap();
    let mut big = b"V2.2\nPI\n+\n+7776FU\n".to_vec();
    for _ in 0..3000 {
        big.extend_from_slice(b"'");
        big.extend_from_slice(&[b'x'; 100]);
        big.extend_from_slice(b"\n");
    }
    big.extend_from_slice(b"%TORYO\n");
    std::fs::write(input.join("b.csa"), &big).unwrap();
    std::fs::write(input.join("c.csa"), GAME2).unwrap();
    for (args, ext) in [
        (vec!["convert", "--to", "kif", "-j1"], "kif"),
        (vec!["convert", "--to", "kif"], "kif"),
        (vec!["convert", "--to", "csa"], "csa"),
        (vec!["html", "-j1"], "html"),
        (vec!["html"], "html"),
    ] {
        let out_dir = d.join(format!("out-{}", args.join("")));
        let mut all = args.clone();
        all.extend([s(&input), "--out-dir", s(&out_dir)]);
        let o = with_file_size_limit(100, &all);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", err(&o));
        // a was written before b; b is not there, half-written or whole,
        // and c was not started.
        assert_eq!(tree(&out_dir), [format!("a.{ext}")], "{all:?}");
        let e = err(&o);
        assert_eq!(e.lines().count(), 1, "{all:?}: one message: {e}");
        assert!(e.contains(&format!("b.{ext}")), "{all:?}: {e}");
        assert!(!e.contains(".kifu-"), "{all:?}: no temporary name: {e}");
    }
}

// ---- 7. One planner ----------------------------------------------------------

#[test]
fn every_command_refuses_before_writing_anything() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(input.join("a.csa"), GAME).unwrap();
    std::fs::write(input.join("b.csa"), GAME2).unwrap();
    // Only the second input's output exists.
    for (args, existing) in [
        (vec!["convert", "--to", "kif", "-j1"], "b.kif"),
        (vec!["convert", "--to", "csa", "-j1"], "b.csa"),
        (vec!["html", "-j1"], "b.html"),
    ] {
        let out_dir = d.join(format!("out-{}", args.join("")));
        std::fs::create_dir(&out_dir).unwrap();
        std::fs::write(out_dir.join(existing), "keep").unwrap();
        let mut all = args.clone();
        all.extend([s(&input), "--out-dir", s(&out_dir)]);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", err(&o));
        assert!(err(&o).contains("--force"), "{all:?}: {}", err(&o));
        assert_eq!(tree(&out_dir), [existing], "{all:?}: nothing written");
        assert_eq!(
            std::fs::read_to_string(out_dir.join(existing)).unwrap(),
            "keep"
        );
    }
    // A split input whose numbered output exists.
    let split_dir = d.join("split");
    std::fs::create_dir(&split_dir).unwrap();
    std::fs::write(input.join("x.csa"), two_games()).unwrap();
    std::fs::write(split_dir.join("x-0002.kif"), "keep").unwrap();
    let o = run(&[
        "convert",
        s(&input),
        "--to",
        "kif",
        "--out-dir",
        s(&split_dir),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("x-0002.kif"), "{}", err(&o));
    assert_eq!(tree(&split_dir), ["x-0002.kif"]);
    // stats: the games table is not written when the moves table is refused.
    let moves = d.join("moves.csv");
    std::fs::write(&moves, "keep").unwrap();
    let games = d.join("games.csv");
    let o = run(&["stats", s(&input), "-o", s(&games), "--moves", s(&moves)]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(!games.exists());
    // GitHub's job summary is planned with the outputs: never an input.
    let g = input.join("a.csa");
    for cmd in [
        vec!["validate", "--format", "github"],
        vec!["convert", "--to", "usi", "--diagnostics", "github"],
        vec!["stats", "--diagnostics", "github"],
        vec!["html", "--diagnostics", "github", "-o", "/dev/null"],
    ] {
        let mut args = cmd.clone();
        args.push(s(&g));
        let o = kifu()
            .args(&args)
            .env("GITHUB_STEP_SUMMARY", &g)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(
            err(&o).contains("one of the inputs"),
            "{args:?}: {}",
            err(&o)
        );
        assert_eq!(std::fs::read(&g).unwrap(), GAME, "{args:?}");
    }
}

/// The commands open outputs only through the planner
/// (`src/bin/kifu/output.rs`): no other file of the command creates,
/// replaces or appends to a file by itself.
#[test]
fn no_command_opens_an_output_but_through_the_planner() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/kifu");
    let planner = root.join("output.rs");
    let files: Vec<PathBuf> = walkdir::WalkDir::new(&root)
        .into_iter()
        .filter_map(|e| e.ok())
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs") && *p != planner)
        .collect();
    assert!(files.len() > 10, "{files:?}");
    let writers = [
        "AtomicFile",
        "tempfile",
        "File::create",
        "fs::write",
        "OpenOptions",
        "create_dir",
        "fs::rename",
        "persist",
    ];
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            for w in writers {
                if line.contains(w) {
                    found.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "outputs opened outside the planner:\n{}",
        found.join("\n")
    );
    // And the planner holds them.
    let text = std::fs::read_to_string(&planner).unwrap();
    assert!(text.contains("pub struct Plan") && text.contains("OpenOptions"));
}
