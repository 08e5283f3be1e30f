//! `kifu stats`: exact rows for games whose facts are known, a golden CSV
//! for a small multi-format set (bless with `KIFU_BLESS=1`), and the CSV
//! loads cleanly with typed columns. The tests that need the shared corpus
//! or python3 are run by `tests/stats_corpus.rs`, which reports them
//! ignored without it.

use serde::Deserialize;
use std::path::Path;
use std::process::Command;

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct GameRow {
    path: String,
    game: usize,
    format: String,
    encoding: String,
    variant: String,
    handicap: String,
    event: String,
    site: String,
    start_time: String,
    start_time_raw: String,
    sente: String,
    gote: String,
    time_control: String,
    plies: u32,
    result: String,
    reason: String,
    valid: bool,
    first_error_rule: String,
    first_error_ply: Option<u32>,
    sente_captures: u32,
    gote_captures: u32,
    sente_drops: u32,
    gote_drops: u32,
    sente_promotions: u32,
    gote_promotions: u32,
    sente_checks: u32,
    gote_checks: u32,
    sente_time_s: Option<f64>,
    gote_time_s: Option<f64>,
    opening_usi: String,
    final_sfen: String,
    variations: usize,
    comments: usize,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct MoveRow {
    path: String,
    game: usize,
    ply: u32,
    side: String,
    usi: String,
    psn: String,
    kif: String,
    piece: String,
    from: String,
    to: String,
    capture: String,
    promote: bool,
    drop: bool,
    check: bool,
    time_s: Option<f64>,
    cumulative_s: Option<f64>,
    sfen_before: String,
    eval: Option<i64>,
    pv: String,
    mate: Option<i32>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `kifu stats fixtures/stats --moves M` from the crate root (so paths
/// in the CSV are relative and stable) and returns (games.csv, moves.csv).
fn run_stats(extra: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let moves = dir.path().join("moves.csv");
    let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(root())
        .args([
            "stats",
            "fixtures/stats",
            "--moves",
            moves.to_str().unwrap(),
            "-j",
            "2",
        ])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (
        String::from_utf8(o.stdout).unwrap(),
        std::fs::read_to_string(moves).unwrap(),
    )
}

fn rows<T: for<'de> Deserialize<'de>>(csv_text: &str) -> Vec<T> {
    csv::Reader::from_reader(csv_text.as_bytes())
        .deserialize()
        .map(|r| r.expect("every row deserialises into its documented type"))
        .collect()
}

#[test]
fn known_facts() {
    let (games, moves) = run_stats(&[]);
    let games: Vec<GameRow> = rows(&games);
    let moves: Vec<MoveRow> = rows(&moves);
    let by = |name: &str| {
        games
            .iter()
            .filter(move |g| g.path.ends_with(name))
            .collect::<Vec<_>>()
    };

    let mate = by("a-mate.csa")[0];
    assert_eq!(
        (
            mate.plies,
            mate.result.as_str(),
            mate.reason.as_str(),
            mate.valid
        ),
        (1, "sente_win", "checkmate", true)
    );
    assert_eq!(
        (mate.sente_drops, mate.sente_checks, mate.sente_captures),
        (1, 1, 0)
    );
    assert_eq!(mate.opening_usi, "G*1b");
    assert_eq!(mate.handicap, "other");

    let nifu = by("b-nifu.csa")[0];
    assert!(!nifu.valid);
    assert_eq!(
        (
            nifu.first_error_rule.as_str(),
            nifu.first_error_ply,
            nifu.plies
        ),
        ("nifu", Some(1), 0)
    );

    // ぴよ将棋-style lance handicap (our file): gote (上手) moves first,
    // 104 plies, 上手 resigns at ply 105, so 下手 (sente) wins; the file's
    // cumulative times end at 00:01:09 (sente, ply 104) and 00:01:05 (gote,
    // ply 105).
    let ky = by("c-lance-handicap.kifu")[0];
    assert_eq!(ky.handicap, "香落ち");
    assert_eq!(ky.format, "kif");
    assert_eq!(ky.start_time, "2024-07-29T13:17:16");
    assert_eq!(ky.plies, 104);
    assert_eq!(
        (ky.result.as_str(), ky.reason.as_str()),
        ("sente_win", "resign")
    );
    assert_eq!(ky.sente, "Lv12 こまどり(R850)");
    assert_eq!(ky.gote, "Lv14 ふくろう(R910)");
    assert_eq!((ky.sente_time_s, ky.gote_time_s), (Some(69.0), Some(65.0)));
    lance_handicap_moves(&moves, "c-lance-handicap.kifu");

    // Our European-style PSN: 54 moves, `[Result "0-1"]`.
    let eu = by("d-europe.psn")[0];
    assert_eq!((eu.plies, eu.result.as_str()), (54, "gote_win"));
    assert_eq!(
        (eu.sente.as_str(), eu.gote.as_str()),
        ("Jansen Kees", "Bakker Piet")
    );
    assert_eq!(eu.start_time, "2023-08-19T00:00:00");

    let variants = by("e-variants.sfen");
    assert_eq!(variants.len(), 2);
    assert_eq!(
        (variants[0].variant.as_str(), variants[0].plies),
        ("minishogi", 4)
    );
    assert_eq!(
        (variants[1].variant.as_str(), variants[1].plies),
        ("doubutsu", 3)
    );
    assert_eq!(variants[1].gote_captures, 1);

    // Floodgate-style CSA with `'**` evaluation lines: `eval` and `pv`
    // per move, empty where there is none or the PV is not moves.
    let ev: Vec<(Option<i64>, &str)> = moves
        .iter()
        .filter(|m| m.path.ends_with("f-floodgate-eval.csa"))
        .map(|m| (m.eval, m.pv.as_str()))
        .collect();
    assert_eq!(
        ev,
        vec![
            (Some(45), "3c3d 2g2f"),
            (Some(-12), "2g2f 8c8d"),
            (Some(180), "3a2b B*5e"),
            (Some(0), ""),
            (None, ""),
            (None, ""),
        ]
    );
    assert!(moves.iter().all(|m| m.mate.is_none()));
}

/// Plies 1 and 14 of the lance-handicap move list both stats files share
/// (ours and the real one): gote opens with ５四歩, and 14 is the bishop
/// trade.
fn lance_handicap_moves(moves: &[MoveRow], file: &str) {
    let first = moves
        .iter()
        .find(|m| m.path.ends_with(file) && m.ply == 1)
        .unwrap();
    assert_eq!(
        (
            first.side.as_str(),
            first.usi.as_str(),
            first.kif.as_str(),
            first.psn.as_str()
        ),
        ("gote", "5c5d", "５四歩(53)", "P-5d")
    );
    let bishop_trade = moves
        .iter()
        .find(|m| m.path.ends_with(file) && m.ply == 14)
        .unwrap();
    assert_eq!(
        (
            bishop_trade.usi.as_str(),
            bishop_trade.capture.as_str(),
            bishop_trade.promote
        ),
        ("8h2b+", "B", true)
    );
    assert_eq!(bishop_trade.kif, "２二角成(88)");
    assert_eq!(bishop_trade.psn, "Bx2b+");
}

/// The facts once checked on copies of two real records, now on the records
/// themselves in the shared `corpus` (`tests/stats_corpus.rs` runs it).
pub fn known_facts_of_real_records(corpus: &Path) {
    let piyo = corpus.join("shogi-kifu-converter/tests/kif/piyo-shogi_KY.kifu");
    let europe = corpus.join("scalashogi-psn/europeHoskingLamb.psn");
    let dir = tempfile::tempdir().unwrap();
    let moves_csv = dir.path().join("moves.csv");
    let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args([
            "stats",
            piyo.to_str().unwrap(),
            europe.to_str().unwrap(),
            "--moves",
        ])
        .arg(&moves_csv)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let games: Vec<GameRow> = rows(&String::from_utf8(o.stdout).unwrap());
    let moves: Vec<MoveRow> = rows(&std::fs::read_to_string(moves_csv).unwrap());
    let ky = &games[0];
    assert_eq!(ky.handicap, "香落ち");
    assert_eq!(ky.start_time, "2022-07-29T13:17:16");
    assert_eq!(ky.plies, 104);
    assert_eq!(
        (ky.result.as_str(), ky.reason.as_str()),
        ("sente_win", "resign")
    );
    assert_eq!(ky.sente, "Lv19 ひよな(R990)");
    assert_eq!(ky.gote_time_s, Some(52.0));
    lance_handicap_moves(&moves, "piyo-shogi_KY.kifu");
    let eu = &games[1];
    assert_eq!((eu.plies, eu.result.as_str()), (54, "gote_win"));
    assert_eq!(
        (eu.sente.as_str(), eu.gote.as_str()),
        ("Hosking Tony", "Lamb Stephen")
    );
    assert_eq!(eu.start_time, "1997-08-22T00:00:00");
}

#[test]
fn golden_csv() {
    let (games, moves) = run_stats(&["--sfen"]);
    let dir = root().join("fixtures/stats/expected");
    if std::env::var_os("KIFU_BLESS").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("games.csv"), &games).unwrap();
        std::fs::write(dir.join("moves.csv"), &moves).unwrap();
        return;
    }
    let want_games =
        std::fs::read_to_string(dir.join("games.csv")).expect("bless with KIFU_BLESS=1");
    let want_moves =
        std::fs::read_to_string(dir.join("moves.csv")).expect("bless with KIFU_BLESS=1");
    assert_eq!(
        games, want_games,
        "games table changed (KIFU_BLESS=1 to accept)"
    );
    assert_eq!(
        moves, want_moves,
        "moves table changed (KIFU_BLESS=1 to accept)"
    );
}

/// The tables load in `python` (python3): its csv module, and pandas and
/// DuckDB when that Python has them (`tests/tables.rs` checks both in a
/// venv of its own). `tests/stats_corpus.rs` runs it.
pub fn loads_in_python_pandas_and_duckdb_when_present(python: &Path) {
    let (games, moves) = run_stats(&[]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.csv"), games).unwrap();
    std::fs::write(dir.path().join("moves.csv"), moves).unwrap();
    let script = r#"
import csv, sys
g = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
m = list(csv.DictReader(open(sys.argv[2], newline='', encoding='utf-8')))
assert len(g) == 7 and len(m) > 100, (len(g), len(m))
assert all(r['valid'] in ('true', 'false') for r in g)
assert all(int(r['plies']) >= 0 for r in g)
try:
    import pandas as pd
    df = pd.read_csv(sys.argv[1])
    assert df['plies'].dtype.kind == 'i' and df['valid'].dtype == bool
    print('pandas ok')
except ImportError:
    print('pandas absent')
try:
    import duckdb
    n = duckdb.sql(f"SELECT count(*) FROM read_csv_auto('{sys.argv[1]}')").fetchone()[0]
    assert n == 7
    print('duckdb ok')
except ImportError:
    print('duckdb absent')
print('csv ok')
"#;
    let o = Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(dir.path().join("games.csv"))
        .arg(dir.path().join("moves.csv"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    eprintln!("{out}");
    assert!(out.contains("csv ok"));
}
