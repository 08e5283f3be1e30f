//! `kifu tree` counts exactly: a database of games made by random legal
//! play (with results, ratings and dates) is replayed independently into
//! a map keyed by SFEN (without the move number), and every position and
//! move of the tree is checked against it, through the library and
//! through the command at -j1 and -j2 (the same bytes).

use kifu::{Move, Position, Variant};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The CSA text of `mv` in `pos`.
fn csa_move(pos: &Position, mv: Move) -> String {
    let sign = if pos.turn() == kifu::Color::Black {
        '+'
    } else {
        '-'
    };
    let sq = |s: kifu::Square| String::from_utf8(s.csa().to_vec()).unwrap();
    match mv {
        Move::Normal { from, to, promote } => {
            let role = pos.piece_at(from).unwrap().role;
            let role = if promote {
                role.promoted().unwrap()
            } else {
                role
            };
            format!("{sign}{}{}{}", sq(from), sq(to), role.csa())
        }
        Move::Drop { role, to } => format!("{sign}00{}{}", sq(to), role.csa()),
    }
}

#[derive(Default, Debug, PartialEq)]
struct Want {
    games: u32,
    sente: u32,
    gote: u32,
    draws: u32,
    other: u32,
    rated: u32,
    sum: f64,
    best: Option<f64>,
    first: Option<String>,
    last: Option<String>,
    example: Option<(String, u32)>,
}

/// Every position of the first `plies` plies: games, and per move its counts.
type Expected = HashMap<String, (u32, HashMap<String, Want>)>;

fn sfen(pos: &Position) -> String {
    let s = pos.sfen();
    s[..s.rfind(' ').unwrap()].to_string()
}

/// Writes `files` CSA files of `per_file` games each into `dir`; the
/// counts, made independently.
fn generate(dir: &Path, files: usize, per_file: usize, plies: usize, seed: u64) -> Expected {
    let mut rng = Rng(seed);
    // Few first moves, so that positions are shared and transposed.
    let openings = ["7g7f", "2g2f", "5g5f", "3c3d", "8c8d", "1g1f"];
    let mut want: Expected = HashMap::new();
    for f in 0..files {
        let name = format!("db-{f:02}.csa");
        let mut text = String::new();
        for g in 0..per_file {
            if g > 0 {
                text.push_str("/\n");
            }
            let mut pos = Position::new(Variant::Standard);
            let ratings = [
                (rng.below(3) > 0).then(|| 1000.0 + rng.below(2000) as f64),
                (rng.below(3) > 0).then(|| 1000.0 + rng.below(2000) as f64),
            ];
            let date = (rng.below(4) > 0).then(|| {
                format!(
                    "20{:02}-{:02}-{:02}",
                    10 + rng.below(15),
                    1 + rng.below(12),
                    1 + rng.below(28)
                )
            });
            text.push_str("V2.2\nN+sente\nN-gote\n");
            if let Some(d) = &date {
                text.push_str(&format!("$START_TIME:{}\n", d.replace('-', "/")));
            }
            if let Some(r) = ratings[0] {
                text.push_str(&format!("'black_rate:sente:{r:.1}\n"));
            }
            if let Some(r) = ratings[1] {
                text.push_str(&format!("'white_rate:gote:{r:.1}\n"));
            }
            text.push_str("PI\n+\n");
            let len = rng.below(45);
            let mut path: Vec<(String, Option<Move>, kifu::Color)> = Vec::new();
            for i in 0..len {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // The first plies from a small book, when legal.
                let mut mv = legal[rng.below(legal.len())];
                if i < 4 && rng.below(4) > 0 {
                    let usi = openings[rng.below(openings.len())];
                    if let Some(m) =
                        Move::from_usi(usi, Variant::Standard).filter(|m| pos.is_legal(*m))
                    {
                        mv = m;
                    }
                }
                path.push((sfen(&pos), Some(mv), pos.turn()));
                text.push_str(&csa_move(&pos, mv));
                text.push('\n');
                pos.play(mv).unwrap();
            }
            path.push((sfen(&pos), None, pos.turn()));
            // Resigned (the side to move loses), aborted, or no result.
            let outcome = match rng.below(4) {
                0 | 1 => {
                    text.push_str("%TORYO\n");
                    if pos.turn() == kifu::Color::Black {
                        "gote"
                    } else {
                        "sente"
                    }
                }
                2 => {
                    text.push_str("%CHUDAN\n");
                    "other"
                }
                _ => "other",
            };
            // The counts: once per position and move per game.
            let mut seen_nodes = Vec::new();
            let mut seen_moves = Vec::new();
            for (i, (s, mv, turn)) in path.iter().enumerate() {
                if i > plies {
                    break;
                }
                let node = want.entry(s.clone()).or_default();
                if !seen_nodes.contains(s) {
                    seen_nodes.push(s.clone());
                    node.0 += 1;
                }
                let Some(mv) = mv.filter(|_| i < plies) else {
                    continue;
                };
                let usi = mv.usi(Variant::Standard).to_string();
                if seen_moves.contains(&(s.clone(), usi.clone())) {
                    continue;
                }
                seen_moves.push((s.clone(), usi.clone()));
                let w = node.1.entry(usi).or_default();
                w.games += 1;
                match outcome {
                    "sente" => w.sente += 1,
                    "gote" => w.gote += 1,
                    _ => w.other += 1,
                }
                let r = ratings[if *turn == kifu::Color::Black { 0 } else { 1 }];
                if let Some(r) = r {
                    w.rated += 1;
                    w.sum += r;
                    w.best = Some(w.best.map_or(r, |b: f64| b.max(r)));
                }
                if let Some(d) = &date {
                    if w.first.as_ref().is_none_or(|f| d < f) {
                        w.first = Some(d.clone());
                    }
                    if w.last.as_ref().is_none_or(|l| d > l) {
                        w.last = Some(d.clone());
                    }
                }
                if w.example.is_none() {
                    w.example = Some((name.clone(), g as u32));
                }
            }
        }
        std::fs::write(dir.join(&name), text).unwrap();
    }
    want
}

fn check(lines: &str, want: &Expected, dir: &Path) {
    let mut seen = 0;
    for line in lines.lines() {
        let n: Value = serde_json::from_str(line).unwrap();
        let s = n["sfen"].as_str().unwrap();
        let (games, moves) = want.get(s).unwrap_or_else(|| panic!("unexpected node {s}"));
        assert_eq!(n["games"].as_u64().unwrap() as u32, *games, "{s}");
        let got = n["moves"].as_array().unwrap();
        assert_eq!(got.len(), moves.len(), "{s}");
        for m in got {
            let w = &moves[m["usi"].as_str().unwrap()];
            let u = |k: &str| m[k].as_u64().unwrap() as u32;
            assert_eq!(
                (
                    u("games"),
                    u("sente_wins"),
                    u("gote_wins"),
                    u("draws"),
                    u("other"),
                    u("rated")
                ),
                (w.games, w.sente, w.gote, w.draws, w.other, w.rated),
                "{s} {m}"
            );
            let round = |x: f64| (x * 10.0).round() / 10.0;
            assert_eq!(
                m["rating_avg"].as_f64(),
                (w.rated > 0).then(|| round(w.sum / w.rated as f64))
            );
            assert_eq!(m["rating_best"].as_f64(), w.best.map(round));
            assert_eq!(m["first_date"].as_str(), w.first.as_deref());
            assert_eq!(m["last_date"].as_str(), w.last.as_deref());
            let (path, game) = w.example.clone().unwrap();
            assert_eq!(
                m["example"]["path"].as_str().unwrap(),
                dir.join(path).display().to_string()
            );
            assert_eq!(m["example"]["game"].as_u64().unwrap() as u32, game);
        }
        seen += 1;
    }
    assert_eq!(seen, want.len(), "every position is in the tree");
}

fn kifu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn tree_counts_are_exact_and_the_same_whatever_j() {
    let dir = tempfile::tempdir().unwrap();
    let plies = 8;
    let want = generate(dir.path(), 6, 60, plies, 0x1234_5678_9abc_def1);
    let d = dir.path().to_str().unwrap();
    let p = plies.to_string();
    let (code, one, err) = kifu(&["tree", d, "--plies", &p, "--format", "json", "-j1"]);
    assert_eq!(code, 0, "{err}");
    check(&one, &want, dir.path());
    let (code, two, err) = kifu(&["tree", d, "--plies", &p, "--format", "json", "-j2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(one, two, "-j2 writes what -j1 writes");
    // Text, CSV and HTML are written from the same tree.
    for f in ["text", "csv", "html"] {
        let (code, _, err) = kifu(&["tree", d, "--plies", &p, "--format", f, "-j2"]);
        assert_eq!(code, 0, "{f}: {err}");
    }
}

#[test]
fn min_games_prunes_and_periodic_pruning_warns() {
    let dir = tempfile::tempdir().unwrap();
    let want = generate(dir.path(), 2, 50, 6, 42);
    let d = dir.path().to_str().unwrap();
    let (code, out, _) = kifu(&[
        "tree",
        d,
        "--plies",
        "6",
        "--format",
        "json",
        "--min-games",
        "5",
    ]);
    assert_eq!(code, 0);
    for line in out.lines() {
        let n: Value = serde_json::from_str(line).unwrap();
        let s = n["sfen"].as_str().unwrap();
        assert!(n["games"].as_u64().unwrap() >= 5);
        assert_eq!(
            n["games"].as_u64().unwrap() as u32,
            want[s].0,
            "counts stay exact: {s}"
        );
        for m in n["moves"].as_array().unwrap() {
            assert!(m["games"].as_u64().unwrap() >= 5);
        }
    }
    let (code, _, err) = kifu(&[
        "tree",
        d,
        "--plies",
        "6",
        "--format",
        "json",
        "--max-nodes",
        "50",
    ]);
    assert_eq!(code, 0);
    assert!(err.contains("pruned while reading"), "{err}");
}

#[test]
fn from_moves_roots_the_tree_and_bad_arguments_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("g.csa");
    std::fs::write(&f, "PI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n%TORYO\n/\nPI\n+\n+2726FU\n-8384FU\n+7776FU\n-3334FU\n+2625FU\n%TORYO\n").unwrap();
    let d = f.to_str().unwrap();
    let (code, out, err) = kifu(&[
        "tree",
        d,
        "--from-moves",
        "7g7f,3c3d,2g2f,8c8d",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["games"], 2, "both orders reach the root");
    assert_eq!(first["ply"], 0);
    let (code, _, _) = kifu(&["tree", d, "--from-moves", "7g7f,7g7f"]);
    assert_eq!(code, 2);
    let (code, _, _) = kifu(&["tree", d, "--from-sfen", "nonsense"]);
    assert_eq!(code, 2);
}
