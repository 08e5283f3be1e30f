//! Workers read their own files: the batch runner hands paths out in
//! input order, each worker opens, reads and replays its files, and the
//! results still come out in input order, the same at every `-j`; a file
//! that cannot be read is one finding in its place.

#![cfg(unix)]

use kifu::batch::{self, EachGame, Event, Stop, Workers};
use kifu::read::ReadOptions;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;

#[path = "support/outputs.rs"]
mod support;
use support::{out, run, s, GAME, GAME2};

/// A CSA game of `plies` moves (the rooks' shuffle, legal for
/// any even count), named by `n`.
fn game(n: usize, plies: usize) -> String {
    let mut g = format!("V2.2\nN+Black{n}\nN-White{n}\nPI\n+\n");
    let cycle = ["+2818HI", "-8272HI", "+1828HI", "-7282HI"];
    for k in 0..plies {
        g.push_str(cycle[k % 4]);
        g.push('\n');
    }
    g.push_str("%TORYO\n");
    g
}

/// A folder of files of very different sizes, in name order: one-game
/// files, multi-game files of tens of kilobytes (in one worker's group
/// with one-game files), a multi-game CSA file large enough to be
/// cut into pieces shared by the workers, an empty file, a file that is
/// not a record.
fn folder(dir: &Path) {
    for i in 0..300usize {
        let path = dir.join(format!("f{i:04}.csa"));
        let mut f = std::fs::File::create(path).unwrap();
        let games = match i % 50 {
            7 => 400,  // ~30 KB
            23 => 900, // ~75 KB
            _ => 1,
        };
        let games = if i == 150 { 15_000 } else { games }; // ~1.2 MB: pieces
        for g in 0..games {
            if g > 0 {
                f.write_all(b"/\n").unwrap();
            }
            f.write_all(game(i * 10_000 + g, (i + g) % 5 * 2).as_bytes())
                .unwrap();
        }
    }
    std::fs::write(dir.join("f0100.csa"), b"").unwrap();
    std::fs::write(dir.join("f0200.csa"), b"not a record at all\n").unwrap();
}

/// (display, game index, moves) of every game and (display, error) of
/// every input, in the order the sink got them.
fn events(dir: &Path, jobs: usize) -> Vec<String> {
    let d = batch::discover(&[dir], &["csa".to_string()], None, &[]);
    let (workers, _) = Workers::new(jobs);
    let mut seen = Vec::new();
    let per_game = EachGame(|_: &batch::FileMeta, g: kifu::read::Game| {
        (g.record.main.moves.len(), g.findings.len())
    });
    let done = batch::run(
        &d.inputs,
        &workers,
        &ReadOptions::default(),
        per_game,
        |ev| {
            match ev {
                Event::Game(meta, n, moves) => {
                    seen.push(format!("{} #{n} {moves:?}", meta.display))
                }
                Event::FileDone(meta) => {
                    seen.push(format!("{} done {:?}", meta.display, meta.error))
                }
            }
            ControlFlow::Continue(())
        },
    );
    assert!(done);
    seen
}

#[test]
fn files_of_every_size_come_out_in_input_order_at_every_jobs() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let one = events(dir.path(), 1);
    assert_eq!(
        one.iter().filter(|l| l.contains(" done ")).count(),
        300,
        "every file once"
    );
    for jobs in [2, 3, 8] {
        assert_eq!(events(dir.path(), jobs), one, "-j{jobs}");
    }
}

#[test]
fn the_command_prints_the_same_at_j1_and_j2() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let p = s(dir.path());
    let j1 = run(&["validate", "--format", "json", "-j1", p]);
    let j2 = run(&["validate", "--format", "json", "-j2", p]);
    assert_eq!(j1.status.code(), j2.status.code());
    assert_eq!(out(&j1), out(&j2));
    assert!(out(&j1).lines().count() > 300);
}

/// Files that cannot be read when their turn comes, after the folder was
/// listed: one replaced by a folder (it opens, its read fails: on the
/// worker that reads it), one removed (it cannot be opened). Each is one
/// error in its place; the files around them are read.
#[test]
fn a_file_that_cannot_be_read_is_one_finding_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..100 {
        let g = if i % 2 == 0 { GAME } else { GAME2 };
        std::fs::write(dir.path().join(format!("g{i:03}.csa")), g).unwrap();
    }
    let d = batch::discover(&[dir.path()], &["csa".to_string()], None, &[]);
    std::fs::remove_file(dir.path().join("g050.csa")).unwrap();
    std::fs::create_dir(dir.path().join("g050.csa")).unwrap();
    std::fs::remove_file(dir.path().join("g070.csa")).unwrap();
    for jobs in [1, 2, 4] {
        let (workers, _) = Workers::new(jobs);
        let mut seen = Vec::new();
        let per_game = EachGame(|_: &batch::FileMeta, _: kifu::read::Game| ());
        batch::run(
            &d.inputs,
            &workers,
            &ReadOptions::default(),
            per_game,
            |ev| {
                if let Event::FileDone(meta) = ev {
                    seen.push((meta.display.clone(), meta.error.is_some()));
                }
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen.len(), 100, "-j{jobs}");
        for (k, (name, failed)) in seen.iter().enumerate() {
            assert!(name.ends_with(&format!("g{k:03}.csa")), "-j{jobs}: {name}");
            assert_eq!(*failed, k == 50 || k == 70, "-j{jobs}: {name}");
        }
    }
}

/// A run stopped from another thread ends without delivering more, at
/// every `-j` (as Ctrl-C stops it).
#[test]
fn a_stopped_run_delivers_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path());
    let d = batch::discover(&[dir.path()], &["csa".to_string()], None, &[]);
    for jobs in [1, 2] {
        let (workers, _) = Workers::new(jobs);
        let stop = Stop::new();
        let mut files = 0;
        let per_game = EachGame(|_: &batch::FileMeta, _: kifu::read::Game| ());
        let done = batch::run_until(
            &d.inputs,
            &workers,
            &ReadOptions::default(),
            per_game,
            &stop,
            |ev| {
                if let Event::FileDone(_) = ev {
                    files += 1;
                    if files == 10 {
                        stop.stop();
                    }
                }
                ControlFlow::Continue(())
            },
        );
        assert!(!done, "-j{jobs}");
        assert_eq!(files, 10, "-j{jobs}");
    }
}
