//! Pattern search and contained games (issue 40): `kifu select --pattern`
//! finds games whose main line reaches a partial position (pieces, empty
//! squares, pieces in hand) within a ply range, from either side's view;
//! `kifu select --contained` groups games whose main line is a prefix of
//! another's from the same start, across formats. The games are written
//! here, into a temporary folder.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// A 16-ply even game (the game key example of docs/select.md).
const A: &str = "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b 5g5f 7b8b 4i5h 7a7b";
/// Another even game.
const B: &str = "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c";
/// A third, that shares A's first move.
const C: &str = "7g7f 8c8d 2h6h 8d8e 8h7g 3c3d";
/// Bishops traded at plies 3 and 4.
const TRADE: &str = "7g7f 3c3d 8h2b+ 3a2b";

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .unwrap()
}

fn usi(moves: &str) -> String {
    format!("position startpos moves {moves}\n")
}

fn cut(moves: &str, n: usize) -> String {
    moves.split(' ').take(n).collect::<Vec<_>>().join(" ")
}

/// `select --format json` over `path` with `args`: (game, pattern_ply) of
/// each selected game; the exit code.
fn pattern(path: &Path, args: &[&str]) -> (Vec<(u64, Option<u64>)>, i32) {
    let mut all = vec!["select", path.to_str().unwrap(), "--format", "json"];
    all.extend_from_slice(args);
    let out = kifu(&all);
    let hits = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["game"].as_u64().unwrap(), v["pattern_ply"].as_u64())
        })
        .collect();
    (hits, out.status.code().unwrap())
}

fn games_file(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("games.usi");
    let text = [usi(TRADE), usi(A), usi(B)].concat();
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn patterns_hold_at_their_first_ply() {
    let dir = tempfile::tempdir().unwrap();
    let p = games_file(dir.path());
    // Pieces and an empty square: 7七 empties at ply 1 in TRADE and A.
    assert_eq!(
        pattern(&p, &["--pattern", "K59 .77"]),
        (vec![(0, Some(1)), (1, Some(1))], 0)
    );
    // Pieces in hand: sente takes the bishop at ply 3, gote at ply 4.
    assert_eq!(
        pattern(&p, &["--pattern", "hand=B"]),
        (vec![(0, Some(3))], 0)
    );
    assert_eq!(
        pattern(&p, &["--pattern", "hand=b"]),
        (vec![(0, Some(4))], 0)
    );
    // The opponent's silver on 2二 (gote's 3a2b).
    assert_eq!(pattern(&p, &["--pattern", "s22"]), (vec![(0, Some(4))], 0));
    // Several patterns: each at some ply; the ply by which all held.
    assert_eq!(
        pattern(&p, &["--pattern", "hand=B", "--pattern", "hand=b"]),
        (vec![(0, Some(4))], 0)
    );
    // A pattern that never holds selects nothing, and exits 0.
    assert_eq!(pattern(&p, &["--pattern", "K48"]), (vec![], 0));
    assert_eq!(
        pattern(&p, &["--pattern", "hand=B", "--pattern", "K48"]),
        (vec![], 0)
    );
    // The start is ply 0.
    assert_eq!(
        pattern(&p, &["--pattern", "B88 b22"]),
        (vec![(0, Some(0)), (1, Some(0)), (2, Some(0))], 0)
    );
    // The move just played: never at the start.
    assert_eq!(
        pattern(&p, &["--pattern", "moved=B capture=B"]),
        (vec![(0, Some(3))], 0)
    );
    // The captures so far: B's rook leaves 2八 at ply 9, after pawns
    // were taken at plies 8 and 9.
    assert_eq!(
        pattern(&p, &["--pattern", "captured<=P .28"]),
        (vec![(2, Some(9))], 0)
    );
    assert_eq!(pattern(&p, &["--pattern", "nocapture .28"]), (vec![], 0));
}

#[test]
fn the_ply_range_and_the_side() {
    let dir = tempfile::tempdir().unwrap();
    let p = games_file(dir.path());
    assert_eq!(
        pattern(&p, &["--pattern", ".77", "--pattern-ply", "2..3"]),
        (vec![(0, Some(2)), (1, Some(2))], 0)
    );
    assert_eq!(
        pattern(&p, &["--pattern", ".77", "--pattern-ply", "..0"]),
        (vec![], 0)
    );
    assert_eq!(
        pattern(&p, &["--pattern", "hand=B", "--pattern-ply", "4"]),
        (vec![(0, Some(4))], 0)
    );
    assert_eq!(
        pattern(&p, &["--pattern", "hand=B", "--pattern-ply", "..2"]),
        (vec![], 0)
    );
    // Gote's view: 2二 turned is 8八 (sente's bishop leaves it at ply 3);
    // upper case is gote's.
    assert_eq!(
        pattern(&p, &["--pattern", ".22", "--pattern-side", "gote"]),
        (vec![(0, Some(3))], 0)
    );
    assert_eq!(
        pattern(&p, &["--pattern", "hand=B", "--pattern-side", "gote"]),
        (vec![(0, Some(4))], 0)
    );
    // Either side: sente's 7七 or gote's 7七 (3三 on the board).
    assert_eq!(
        pattern(&p, &["--pattern", ".77", "--pattern-side", "either"]),
        (vec![(0, Some(1)), (1, Some(1))], 0)
    );
    assert_eq!(
        pattern(&p, &["--pattern", ".27", "--pattern-side", "either"]),
        (vec![(1, Some(3)), (2, Some(1))], 0)
    );
    // The mover: after ply 2 (gote's 3c3d), gote's 3三 is 7七 in its view.
    assert_eq!(
        pattern(
            &p,
            &["--pattern", ".77 side=gote", "--pattern-side", "mover"]
        ),
        (vec![(0, Some(2)), (1, Some(2))], 0)
    );
    // Human output.
    let out = kifu(&["select", p.to_str().unwrap(), "--pattern", "hand=b"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.trim_end().ends_with("games.usi:1 pattern_ply 4"),
        "{text}"
    );
}

#[test]
fn a_typo_is_a_usage_error_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let p = games_file(dir.path());
    let out = kifu(&["select", p.to_str().unwrap(), "--pattern", "K59 G5x"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("at character 7"), "{err}");
    assert!(err.contains("--pattern"), "{err}");
    let out = kifu(&["select", p.to_str().unwrap(), "--pattern", "has=mino"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--castle"));
    let out = kifu(&[
        "select",
        p.to_str().unwrap(),
        "--pattern",
        "K59",
        "--pattern-ply",
        "9..3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = kifu(&["select", p.to_str().unwrap(), "--pattern-ply", "3"]);
    assert_eq!(out.status.code(), Some(2), "--pattern-ply needs --pattern");
}

#[test]
fn variants_are_refused_or_never_match() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("mini.usi");
    std::fs::write(
        &p,
        "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d\nposition startpos moves 7g7f\n",
    )
    .unwrap();
    assert_eq!(pattern(&p, &["--pattern", ".77"]), (vec![(1, Some(1))], 0));
    let out = kifu(&[
        "select",
        p.to_str().unwrap(),
        "--pattern",
        "K11",
        "--variant",
        "minishogi",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("minishogi"));
}

/// `select --contained --format json`: each group's (path file name, game,
/// plies), the longest first.
fn contained(paths: &[&Path]) -> Vec<Vec<(String, u64, u64)>> {
    let mut args = vec!["select", "--contained", "--format", "json"];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let out = kifu(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            assert_eq!(
                v["count"].as_u64().unwrap() as usize,
                v["games"].as_array().unwrap().len()
            );
            assert_eq!(v["game_key"], v["games"][0]["game_key"]);
            v["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    let path = g["path"].as_str().unwrap();
                    let name = Path::new(path)
                        .file_name()
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    (
                        name,
                        g["game"].as_u64().unwrap(),
                        g["plies"].as_u64().unwrap(),
                    )
                })
                .collect()
        })
        .collect()
}

#[test]
fn truncated_copies_are_grouped_under_the_longest_game() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("set.usi");
    // A and its cuts at 1..=15 plies, B and its cuts at 3 and 7, C whole,
    // A again whole (a copy), all shuffled.
    let mut games = Vec::new();
    for n in (1..=15).rev() {
        games.push(cut(A, n));
    }
    games.insert(3, B.to_string());
    games.insert(7, A.to_string());
    games.push(cut(B, 3));
    games.push(C.to_string());
    games.push(cut(B, 7));
    games.push(A.to_string());
    std::fs::write(&p, games.iter().map(|g| usi(g)).collect::<String>()).unwrap();
    let groups = contained(&[&p]);
    let at = |m: &str| -> Vec<u64> {
        games
            .iter()
            .enumerate()
            .filter(|(_, g)| *g == m)
            .map(|(i, _)| i as u64)
            .collect()
    };
    // Group of A: both whole copies (the first added first), then every cut.
    let a: Vec<u64> = at(A);
    let mut want_a = vec![
        ("set.usi".to_string(), a[0], 16),
        ("set.usi".to_string(), a[1], 16),
    ];
    for k in (1..=15).rev() {
        want_a.push(("set.usi".to_string(), at(&cut(A, k))[0], k as u64));
    }
    // C shares A's first move: the one-ply cut goes under the longer A
    // only, and C, containing nothing else, is no group.
    let want_b = vec![
        ("set.usi".to_string(), at(B)[0], 10),
        ("set.usi".to_string(), at(&cut(B, 7))[0], 7),
        ("set.usi".to_string(), at(&cut(B, 3))[0], 3),
    ];
    // Groups in the order of their first game: A's cut at 15 is game 0,
    // B is game 3.
    assert_eq!(groups, vec![want_a, want_b]);
}

#[test]
fn a_csa_cut_is_contained_in_its_kif_and_starts_must_agree() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.usi");
    std::fs::write(&full, usi(A)).unwrap();
    let kif = dir.path().join("a.kif");
    let out = kifu(&[
        "convert",
        full.to_str().unwrap(),
        "--to",
        "kif",
        "-o",
        kif.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_file(&full).unwrap();
    // The first six moves of A, by hand, in CSA.
    let csa = dir.path().join("b.csa");
    std::fs::write(
        &csa,
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n-4344FU\n+2625FU\n-2233KA\n",
    )
    .unwrap();
    // A's first four moves from a start without sente's 1九 lance: not
    // contained in A (another start).
    let other = dir.path().join("c.usi");
    std::fs::write(
        &other,
        format!(
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN1 b - 1 moves {}\n",
            cut(A, 4)
        ),
    )
    .unwrap();
    let groups = contained(&[dir.path()]);
    assert_eq!(
        groups,
        vec![vec![
            ("a.kif".to_string(), 0, 16),
            ("b.csa".to_string(), 0, 6)
        ]]
    );
    // Human output: the key and the count, then each game with its plies.
    let out = kifu(&["select", "--contained", dir.path().to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].ends_with(" 2"));
    assert!(lines[1].ends_with("a.kif:1 plies 16"), "{text}");
    assert!(lines[2].ends_with("b.csa:1 plies 6"), "{text}");
    // Filters narrow it; --count and --duplicates do not combine with it.
    assert_eq!(
        kifu(&[
            "select",
            "--contained",
            dir.path().to_str().unwrap(),
            "--count"
        ])
        .status
        .code(),
        Some(2)
    );
    let out = kifu(&[
        "select",
        "--contained",
        dir.path().to_str().unwrap(),
        "--min-plies",
        "7",
    ]);
    assert!(out.stdout.is_empty());
}
