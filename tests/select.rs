//! Selecting games (issue 11): every filter over `fixtures/select/` (the
//! same games in KIF, KI2, CSA, PSN, JKF and USI; see its README) selects
//! exactly the expected games, the game key is one per game whatever the
//! format and encoding, planted duplicates are found exactly, and
//! `kifu select` prints what docs/select.md says, the same for any `-j`.

use kifu::read::Reader;
use kifu::replay::Replay;
use kifu::select::{Filter, GameKey, PositionQuery, Selector};
use kifu::validate::{ValidateOptions, Validator};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/select")
}

/// The fixture files in name order, as `kifu select` lists a folder.
fn files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    v.sort();
    v
}

/// One selected game: `name:game` (1-based) and the matching ply.
#[derive(Debug)]
struct Hit {
    name: String,
    key: GameKey,
    matched: bool,
    ply: Option<u32>,
}

/// Runs a selector with `filter` over every fixture through the library.
fn run(filter: &Filter) -> Vec<Hit> {
    let mut out = Vec::new();
    for path in files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut reader = Reader::from_path(&path).unwrap();
        let mut sel = Replay::new(ValidateOptions::default(), Selector::new(filter))
            .with_names(Some(kifu::tags::Taxonomy::builtin()));
        let mut n = 0;
        while let Some(g) = reader.read_game(&mut sel) {
            n += 1;
            assert!(!g.output.read_error, "{name}:{n} reads cleanly");
            out.push(Hit {
                name: format!("{name}:{n}"),
                key: g.report.game_key,
                matched: g.output.matched,
                ply: g.output.ply,
            });
        }
    }
    out
}

/// The names of the games `filter` selects.
fn selected(filter: &Filter) -> Vec<String> {
    run(filter)
        .into_iter()
        .filter(|h| h.matched)
        .map(|h| h.name)
        .collect()
}

const A: [&str; 6] = [
    "a-meijin.csa:1",
    "a-meijin.jkf:1",
    "a-meijin.ki2:1",
    "a-meijin.kifu:1",
    "a-meijin.psn:1",
    "a-meijin.usi:1",
];

fn with(f: impl FnOnce(&mut Filter)) -> Vec<String> {
    let mut filter = Filter::default();
    f(&mut filter);
    selected(&filter)
}

#[test]
fn the_same_game_has_one_key_in_every_format_and_encoding() {
    let mut groups: BTreeMap<GameKey, Vec<String>> = BTreeMap::new();
    for h in run(&Filter::default()) {
        groups.entry(h.key).or_default().push(h.name);
    }
    let mut groups: Vec<Vec<String>> = groups.into_values().collect();
    groups.sort();
    assert_eq!(
        groups,
        vec![
            A.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            vec!["b-lance.csa:1".to_string(), "b-lance.kifu:1".to_string()],
            vec!["games.csa:1".to_string()],
            vec!["games.csa:2".to_string(), "games.csa:4".to_string()],
            vec!["games.csa:3".to_string()],
            vec!["mini.usi:1".to_string()],
        ]
    );
}

#[test]
fn the_key_is_the_documented_hash() {
    // docs/select.md: XXH3-128 of variant, start SFEN without the move
    // number, and the main-line moves in USI.
    let bytes = "standard\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -\n\
                 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b 5g5f 7b8b 4i5h 7a7b";
    let a = run(&Filter::default())
        .into_iter()
        .find(|h| h.name == "a-meijin.kifu:1")
        .unwrap();
    assert_eq!(a.key, GameKey::of_bytes(bytes.as_bytes()));
    // The value Python's xxhash.xxh3_128_hexdigest gives for those bytes.
    assert_eq!(a.key.to_string(), A_KEY);
}

#[test]
fn variant_keys_match_an_independent_xxh3() {
    // Keys computed with Python's xxhash from the documented bytes:
    // xxh3_128_hexdigest(b"minishogi\nrbsgk/4p/5/P4/KGSBR b -\n5d5c 1b1c 5c5b 5a5b").
    for (usi, want) in [
        (
            "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c 1b1c 5c5b 5a5b\n",
            "83e4287f34b8cfe41d76d97a61e70f41",
        ),
        (
            "position sfen gle/1c1/1C1/ELG b - 1 moves 2c2b 1a2b C*2c\n",
            "e68fcbfc33ff857ef59aec09bf175a4d",
        ),
    ] {
        let mut reader = Reader::new(usi.as_bytes()).unwrap();
        let report = reader
            .read_game(&mut Validator::new(ValidateOptions::default()))
            .unwrap();
        assert!(report.ok, "{usi}");
        assert_eq!(report.game_key.to_string(), want, "{usi}");
    }
}

/// `xxhash.xxh3_128_hexdigest(bytes)` of game A's serialisation, computed
/// with Python's xxhash package.
const A_KEY: &str = "a347fcbda118c2b1700dc7cf13e2f41b";

#[test]
fn players_match_ignoring_width_case_and_spaces() {
    assert_eq!(
        with(|f| f.player.push("春野一二".parse().unwrap())),
        A[..5].to_vec()
    );
    assert_eq!(
        with(|f| f.player.push("春野　一二".parse().unwrap())),
        A[..5].to_vec()
    );
    let abc = vec!["games.csa:2", "games.csa:4"];
    assert_eq!(with(|f| f.player.push("abc12".parse().unwrap())), abc);
    assert_eq!(with(|f| f.player.push("ＡＢＣ１２".parse().unwrap())), abc);
    assert_eq!(with(|f| f.player.push("CAROL".parse().unwrap())), abc);
    // Repeated: both must appear.
    assert_eq!(
        with(|f| {
            f.player.push("abc".parse().unwrap());
            f.player.push("bob".parse().unwrap());
        }),
        Vec::<String>::new()
    );
    assert_eq!(
        with(|f| {
            f.player.push("alice".parse().unwrap());
            f.player.push("bob".parse().unwrap());
        }),
        vec!["games.csa:1"]
    );
}

#[test]
fn sides_in_handicap_games_are_shitate_sente_and_uwate_gote() {
    let b = vec!["b-lance.csa:1", "b-lance.kifu:1"];
    assert_eq!(with(|f| f.sente.push("加藤".parse().unwrap())), b);
    assert_eq!(with(|f| f.gote.push("田中一郎".parse().unwrap())), b);
    assert!(with(|f| f.gote.push("加藤".parse().unwrap())).is_empty());
    assert_eq!(
        with(|f| f.sente.push("秋川".parse().unwrap())),
        Vec::<String>::new()
    );
    assert_eq!(
        with(|f| f.gote.push("秋川".parse().unwrap())),
        A[..5].to_vec()
    );
}

#[test]
fn events_dates_and_games_without_a_date() {
    assert_eq!(
        with(|f| f.event.push("club NIGHT".parse().unwrap())),
        vec!["games.csa:1", "games.csa:3"]
    );
    // 2020: A (but not its USI copy, which has no date) and B.
    let in_2020 = with(|f| {
        f.since = Some("2020".parse().unwrap());
        f.until = Some("2020".parse().unwrap());
    });
    let mut want: Vec<&str> = A[..5].to_vec();
    want.extend(["b-lance.csa:1", "b-lance.kifu:1"]);
    assert_eq!(in_2020, want);
    assert_eq!(
        with(|f| f.since = Some("2020-05-18".parse().unwrap())),
        vec![
            "b-lance.csa:1",
            "b-lance.kifu:1",
            "games.csa:2",
            "games.csa:4"
        ]
    );
    assert_eq!(
        with(|f| f.until = Some("2019-12".parse().unwrap())),
        vec!["games.csa:3"]
    );
    assert_eq!(
        with(|f| {
            f.since = Some("2020/05/17".parse().unwrap());
            f.until = Some("2020-05-17".parse().unwrap());
        }),
        A[..5].to_vec()
    );
}

#[test]
fn results_reasons_handicaps_and_variants() {
    assert_eq!(
        with(|f| f.result.push(kifu::record::Outcome::Aborted)),
        vec!["games.csa:1"]
    );
    // Repeated results are alternatives.
    let sente_or_draw = with(|f| {
        f.result.push(kifu::record::Outcome::SenteWin);
        f.result.push(kifu::record::Outcome::Draw);
    });
    assert_eq!(
        sente_or_draw,
        vec![
            "b-lance.csa:1",
            "b-lance.kifu:1",
            "games.csa:2",
            "games.csa:4"
        ]
    );
    assert_eq!(
        with(|f| f.reason.push("time_up".parse().unwrap())),
        vec!["games.csa:2"]
    );
    let b = vec!["b-lance.csa:1", "b-lance.kifu:1"];
    assert_eq!(with(|f| f.handicap.push("香落ち".parse().unwrap())), b);
    assert_eq!(with(|f| f.handicap.push("lance".parse().unwrap())), b);
    let even = with(|f| f.handicap.push("平手".parse().unwrap()));
    assert_eq!(even.len(), 6 + 4);
    assert!(!even.contains(&"mini.usi:1".to_string()));
    assert_eq!(
        with(|f| f.variant.push(kifu::Variant::Minishogi)),
        vec!["mini.usi:1"]
    );
}

#[test]
fn lengths_moves_and_validity() {
    assert_eq!(
        with(|f| f.max_plies = Some(4)),
        vec![
            "b-lance.csa:1",
            "b-lance.kifu:1",
            "games.csa:3",
            "mini.usi:1"
        ]
    );
    assert_eq!(
        with(|f| {
            f.min_plies = Some(7);
            f.max_plies = Some(7);
        }),
        vec!["games.csa:2", "games.csa:4"]
    );
    assert_eq!(
        with(|f| f.moves = Some("7g7f 3c3d".parse().unwrap())),
        [&A[..], &["games.csa:3"]].concat()
    );
    // A prefix longer than the legal part of an invalid game.
    assert!(with(|f| f.moves = Some("7g7f 3c3d P*5e".parse().unwrap())).is_empty());
    assert_eq!(
        with(|f| f.moves = Some("2g2f 4c4d 7g7f".parse().unwrap())),
        vec!["games.csa:1"]
    );
    assert_eq!(with(|f| f.valid = Some(false)), vec!["games.csa:3"]);
    assert_eq!(with(|f| f.valid = Some(true)).len(), 12);
}

/// A's position after 7g7f 3c3d 2g2f 4c4d, with a move number no game has.
const AFTER_4: &str = "lnsgkgsnl/1r5b1/ppppp2pp/5pp2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL b - 99";

/// The games that reach `q`, with the ply.
fn reaching(q: PositionQuery) -> Vec<(String, Option<u32>)> {
    let f = Filter {
        position: Some(q),
        ..Filter::default()
    };
    run(&f)
        .into_iter()
        .filter(|h| h.matched)
        .map(|h| (h.name, h.ply))
        .collect()
}

#[test]
fn positions_are_found_by_transposition_and_unreached_ones_select_nothing() {
    let hits = reaching(PositionQuery::full(AFTER_4).unwrap());
    let mut want: Vec<(String, Option<u32>)> = A.iter().map(|a| (a.to_string(), Some(4))).collect();
    want.insert(6, ("games.csa:1".to_string(), Some(4)));
    assert_eq!(hits, want);
    // The same board with gote to move: reached by nobody; as a board, by all.
    let gote = AFTER_4.replace(" b - 99", " w - 1");
    assert!(reaching(PositionQuery::full(&gote).unwrap()).is_empty());
    assert_eq!(reaching(PositionQuery::board(&gote).unwrap()).len(), 7);
    // A legal position no game reaches.
    let unreached = "lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/1PPPPPPPP/1B5R1/LNSGKGSNL w - 2";
    assert!(reaching(PositionQuery::full(unreached).unwrap()).is_empty());
    // The start position is reached at ply 0 by every even game.
    let start = reaching(
        PositionQuery::full("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            .unwrap(),
    );
    assert_eq!(start.len(), 10);
    assert!(start.iter().all(|(_, ply)| *ply == Some(0)));
}

// ---- the command line ----

fn kifu(args: &[&str]) -> (String, String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
        o.status.code().unwrap_or(-1),
    )
}

/// `kifu select fixtures/select ARGS`: the lines of standard output (exit 0).
fn select(args: &[&str]) -> Vec<String> {
    let mut all = vec!["select", "fixtures/select"];
    all.extend_from_slice(args);
    let (out, err, code) = kifu(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    out.lines()
        .map(|l| l.trim_start_matches("fixtures/select/").to_string())
        .collect()
}

#[test]
fn cli_lists_path_and_game_and_the_ply_of_a_position() {
    let all = select(&[]);
    assert_eq!(all.len(), 13);
    assert_eq!(all[0], "a-meijin.csa:1");
    assert_eq!(all[11], "games.csa:4");
    assert_eq!(
        select(&["--player", "ＡＢＣ１２"]),
        ["games.csa:2", "games.csa:4"]
    );
    assert_eq!(
        select(&["--sente", "加藤", "--handicap", "香落ち"]),
        ["b-lance.csa:1", "b-lance.kifu:1"]
    );
    assert_eq!(
        select(&[
            "--gote",
            "田中",
            "--handicap",
            "lance",
            "--result",
            "sente_win"
        ]),
        ["b-lance.csa:1", "b-lance.kifu:1"]
    );
    assert_eq!(
        select(&["--position", AFTER_4]),
        [
            "a-meijin.csa:1 ply 4",
            "a-meijin.jkf:1 ply 4",
            "a-meijin.ki2:1 ply 4",
            "a-meijin.kifu:1 ply 4",
            "a-meijin.psn:1 ply 4",
            "a-meijin.usi:1 ply 4",
            "games.csa:1 ply 4",
        ]
    );
    // An SFEN no game reaches selects none, and that is not an error.
    assert!(select(&[
        "--position",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/1PPPPPPPP/1B5R1/LNSGKGSNL w - 2"
    ])
    .is_empty());
    assert_eq!(select(&["--moves", "2g2f 4c4d 7g7f 3c3d"]), ["games.csa:1"]);
    assert_eq!(select(&["--opening-moves", "5d5c"]), ["mini.usi:1"]);
    assert_eq!(select(&["--variant", "minishogi", "--count"]), ["1"]);
    assert_eq!(select(&["--count"]), ["13"]);
    assert_eq!(select(&["--count", "--dedupe"]), ["6"]);
    assert_eq!(
        select(&["--since", "2021", "--reason", "resign"]),
        ["games.csa:4"]
    );
    assert_eq!(select(&["--invalid", "--event", "club"]), ["games.csa:3"]);
    assert_eq!(select(&["--valid", "--max-plies", "2"]), ["mini.usi:1"]);
    // Dedupe keeps the first of each key in input order, after the filters.
    assert_eq!(
        select(&["--dedupe", "--min-plies", "7"]),
        ["a-meijin.csa:1", "games.csa:2"]
    );
    assert_eq!(
        select(&["--dedupe", "--player", "abc 12", "--reason", "resign"]),
        ["games.csa:4"]
    );
}

#[test]
fn cli_json_lines_carry_the_documented_fields() {
    let lines = select(&["--format", "json", "--position-board", AFTER_4]);
    assert_eq!(lines.len(), 7);
    let v: serde_json::Value = serde_json::from_str(&lines[4]).unwrap();
    assert_eq!(v["path"], "fixtures/select/a-meijin.psn");
    assert_eq!(v["game"], 0);
    assert_eq!(v["game_key"], A_KEY);
    assert_eq!(v["sente"], "春野　一二");
    assert_eq!(v["gote"], "秋川三四");
    assert_eq!(v["start_time"], "2020-05-17T00:00:00");
    assert_eq!(v["result"], "gote_win");
    assert_eq!(v["reason"], "resign");
    assert_eq!(v["plies"], 16);
    assert_eq!(v["ply"], 4);
    assert_eq!(v["valid"], true);
    assert_eq!(v["handicap"], "平手");
    let c: serde_json::Value = serde_json::from_str(&lines[6]).unwrap();
    assert_eq!(
        (c["path"].as_str(), c["game"].as_u64()),
        (Some("fixtures/select/games.csa"), Some(0))
    );
    assert_eq!(c["start_time"], serde_json::Value::Null);
    assert_eq!(c["result"], "aborted");
    // Without a position filter, `ply` is null.
    let v: serde_json::Value =
        serde_json::from_str(&select(&["--format", "json", "--variant", "minishogi"])[0]).unwrap();
    assert_eq!(v["ply"], serde_json::Value::Null);
    assert_eq!(v["variant"], "minishogi");
    assert_eq!(v["handicap"], serde_json::Value::Null);
}

#[test]
fn cli_duplicates_are_exactly_the_planted_groups() {
    let human = select(&["--duplicates"]);
    assert_eq!(
        human,
        [
            format!("{A_KEY} 6"),
            "  fixtures/select/a-meijin.csa:1".into(),
            "  fixtures/select/a-meijin.jkf:1".into(),
            "  fixtures/select/a-meijin.ki2:1".into(),
            "  fixtures/select/a-meijin.kifu:1".into(),
            "  fixtures/select/a-meijin.psn:1".into(),
            "  fixtures/select/a-meijin.usi:1".into(),
            human[7].clone(),
            "  fixtures/select/b-lance.csa:1".into(),
            "  fixtures/select/b-lance.kifu:1".into(),
            human[10].clone(),
            "  fixtures/select/games.csa:2".into(),
            "  fixtures/select/games.csa:4".into(),
        ]
    );
    assert!(human[7].ends_with(" 2") && human[10].ends_with(" 2"));
    let json = select(&["--duplicates", "--format", "json"]);
    assert_eq!(json.len(), 3);
    let g: serde_json::Value = serde_json::from_str(&json[2]).unwrap();
    assert_eq!(g["count"], 2);
    assert_eq!(
        g["games"],
        serde_json::json!([
            {"path": "fixtures/select/games.csa", "game": 1},
            {"path": "fixtures/select/games.csa", "game": 3}
        ])
    );
    // Filters narrow the groups: A's USI copy has no date.
    let dated = select(&["--duplicates", "--since", "2000"]);
    assert_eq!(dated[0], format!("{A_KEY} 5"));
}

#[test]
fn cli_output_is_the_same_for_any_jobs() {
    // Many files and many games, copies spread across them and formats.
    let tmp = tempfile::tempdir().unwrap();
    let src = dir();
    for i in 0..40 {
        for name in ["a-meijin.ki2", "games.csa", "b-lance.kifu", "mini.usi"] {
            if (i + name.len()) % 3 == 0 {
                let ext = name.rsplit('.').next().unwrap();
                std::fs::copy(
                    src.join(name),
                    tmp.path().join(format!("{i:03}-{name}.{ext}")),
                )
                .unwrap();
            }
        }
    }
    let path = tmp.path().to_str().unwrap();
    for args in [
        vec!["--duplicates"],
        vec!["--duplicates", "--format", "json"],
        vec!["--dedupe"],
        vec!["--format", "json", "--position", AFTER_4],
    ] {
        let run = |j: &str| {
            let mut all = vec!["select", path, "-j", j];
            all.extend_from_slice(&args);
            let (out, err, code) = kifu(&all);
            assert_eq!(code, 0, "{err}");
            out
        };
        let one = run("1");
        assert!(!one.is_empty());
        assert_eq!(one, run("2"), "{args:?}");
        assert_eq!(one, run("4"), "{args:?}");
    }
}

#[test]
fn cli_game_key_in_validate_json_and_stats_csv() {
    let (out, _, code) = kifu(&["validate", "--format", "json", "fixtures/select"]);
    assert_eq!(code, 1); // games.csa game 3 is invalid
    let keys: Vec<(String, String)> = out
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["path"].as_str().unwrap().to_string(),
                v["game_key"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(keys.len(), 13);
    assert!(keys[..6].iter().all(|(_, k)| k == A_KEY));
    assert_eq!(keys[9].1, keys[11].1);
    assert_ne!(keys[9].1, keys[8].1);
    let (csv, _, code) = kifu(&["stats", "fixtures/select", "--handicap", "香落ち"]);
    assert_eq!(code, 0);
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let header = r.headers().unwrap().clone();
    let col = header
        .iter()
        .position(|h| h == "game_key")
        .expect("game_key column");
    let rows: Vec<csv::StringRecord> = r.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].get(col), rows[1].get(col));
    assert_eq!(rows[0].get(col).unwrap().len(), 32);
}

#[test]
fn cli_filters_narrow_validate_convert_and_stats() {
    // validate: the invalid game left out, exit 0, the summary says so.
    let (_, err, code) = kifu(&["validate", "fixtures/select", "--valid"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "12 games in 10 files: 0 invalid, 0 warnings (1 more left out by the filters)"
        ),
        "{err}"
    );
    let (out, _, code) = kifu(&[
        "validate",
        "fixtures/select",
        "--player",
        "dave",
        "--format",
        "json",
    ]);
    assert_eq!((code, out.lines().count()), (1, 1));
    // convert: only the selected games, one per key.
    let (out, err, code) = kifu(&[
        "convert",
        "fixtures/select",
        "--to",
        "usi",
        "--dedupe",
        "--valid",
        "--min-plies",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 5, "{out}");
    let (out, _, code) = kifu(&[
        "convert",
        "fixtures/select",
        "--to",
        "csa",
        "--moves",
        "2g2f",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("N+Alice") && !out.contains("春野"), "{out}");
    // stats: rows and summary of the selected games only.
    let (csv, err, code) = kifu(&[
        "stats",
        "fixtures/select",
        "--opening-moves",
        "7g7f 8c8d",
        "--summary",
    ]);
    assert_eq!(code, 0);
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(err.contains("games: 2 (0 invalid)"), "{err}");
}

#[test]
fn cli_a_game_that_fails_to_read_is_never_dropped_silently() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("broken.csa"),
        "N+Zed\nN-Yan\nPI\n+\n+7776FU\n-33\n+2726FU\n",
    )
    .unwrap();
    let p = tmp.path().to_str().unwrap();
    // select: not listed (it does not match), but its error is on stderr.
    let (out, err, code) = kifu(&["select", p, "--player", "nobody"]);
    assert_eq!(out, "");
    assert!(
        err.contains("broken.csa:6:") && err.contains("error[syntax]"),
        "{err}"
    );
    assert_eq!(code, 1);
    // validate reports it although the filter leaves it out.
    let (out, _, code) = kifu(&["validate", p, "--player", "nobody"]);
    assert_eq!(code, 1);
    assert!(out.contains("error[syntax]"), "{out}");
    // stats keeps its row.
    let (csv, _, code) = kifu(&["stats", p, "--player", "nobody"]);
    assert_eq!(code, 0);
    assert!(
        csv.lines().nth(1).is_some_and(|l| l.contains("false")),
        "{csv}"
    );
    // convert reports it and fails the input.
    let (_, err, code) = kifu(&["convert", p, "--to", "usi", "--player", "nobody"]);
    assert_eq!(code, 1);
    assert!(err.contains("error[syntax]"), "{err}");
}

#[test]
fn cli_bad_values_are_usage_errors_and_help_shows_every_flag() {
    for args in [
        vec!["--since", "2023-02-29"],
        vec!["--result", "black_win"],
        vec!["--reason", "resignation"],
        vec!["--handicap", "queen"],
        vec!["--variant", "chess"],
        vec!["--moves", "7g7f 9z9z"],
        vec!["--position", "lnsgkgsnl/1r5b1"],
        vec!["--valid", "--invalid"],
        vec!["--count", "--duplicates"],
        vec!["--dedupe", "--duplicates"],
        vec!["--player", " "],
    ] {
        let mut all = vec!["select", "fixtures/select"];
        all.extend_from_slice(&args);
        let (out, err, code) = kifu(&all);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
    let flags = [
        "--player",
        "--sente",
        "--gote",
        "--event",
        "--since",
        "--until",
        "--result",
        "--reason",
        "--handicap",
        "--variant",
        "--min-plies",
        "--max-plies",
        "--opening-moves",
        "--position",
        "--position-board",
        "--valid",
        "--invalid",
        "--dedupe",
    ];
    for cmd in ["select", "convert", "stats", "validate"] {
        let (help, _, code) = kifu(&[cmd, "--help"]);
        assert_eq!(code, 0);
        for f in flags {
            assert!(help.contains(f), "{cmd} --help lacks {f}");
        }
        assert_eq!(help.contains("--moves <USI>"), cmd != "stats", "{cmd}");
    }
    let (help, _, _) = kifu(&["select", "--help"]);
    for s in [
        "--count",
        "--duplicates",
        "--format",
        "Examples:",
        "kifu select db/ --player",
    ] {
        assert!(help.contains(s), "select --help lacks {s}");
    }
}

/// Whether `filter` selects the one game of `text` (read as `format`),
/// with `lenient` claims or not.
fn selects_text(filter: &Filter, text: &str, format: kifu::Format, lenient: bool) -> bool {
    let opts = kifu::read::ReadOptions::default();
    let mut reader = Reader::with_options(text.as_bytes(), Some(format), &opts).unwrap();
    let vopts = ValidateOptions {
        lenient_claims: lenient,
        ..Default::default()
    };
    let mut sel = Replay::new(vopts, Selector::new(filter));
    let g = reader.read_game(&mut sel).unwrap();
    assert!(!g.output.read_error, "{text}");
    g.output.matched
}

/// `--result`/`--reason` read the result kifu established (issue 27): a
/// game whose statement of the result was judged false (a false terminal,
/// a `まで` line the game contradicts, two result lines that contradict
/// each other) has no established result: it is `unknown` to the
/// filters, with no reason, under `--lenient-claims` too. A false claim
/// in a variation does not touch the main line's result.
#[test]
fn results_and_reasons_are_the_established_ones_never_a_false_claim() {
    use kifu::record::Outcome;
    use kifu::Format;
    let result = |o: Outcome| {
        let mut f = Filter::default();
        f.result.push(o);
        f
    };
    let reason = |r: &str| {
        let mut f = Filter::default();
        f.reason.push(r.parse().unwrap());
        f
    };
    // `%TSUMI` after gote's second move: sente is not mated.
    let false_mate = "PI\n+\n+7776FU\n-3334FU\n%TSUMI\n";
    // The same moves, sente resigns: a true record of a gote win.
    let resign = "PI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    // KIF: sente resigns (gote wins), but the まで line names sente.
    let kif_wrong = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で先手の勝ち\n";
    // KI2: two result lines that contradict each other.
    let ki2_two = "手合割：平手\n\n▲７六歩 △３四歩\nまで2手で後手の勝ち\nまで2手で先手の勝ち\n";
    // KIF: a true main line, and a variation that claims a false mate.
    let kif_variation = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n\n変化：2手\n   2 ８四歩(83)\n   3 詰み\n";
    for lenient in [false, true] {
        assert!(selects_text(
            &result(Outcome::GoteWin),
            resign,
            Format::Csa,
            lenient
        ));
        assert!(selects_text(
            &reason("resign"),
            resign,
            Format::Csa,
            lenient
        ));
        assert!(!selects_text(
            &result(Outcome::Unknown),
            resign,
            Format::Csa,
            lenient
        ));
        for (text, format) in [
            (false_mate, Format::Csa),
            (kif_wrong, Format::Kif),
            (ki2_two, Format::Ki2),
        ] {
            for o in [Outcome::SenteWin, Outcome::GoteWin] {
                assert!(
                    !selects_text(&result(o), text, format, lenient),
                    "{o:?} {text}"
                );
            }
            for r in ["checkmate", "resign"] {
                assert!(
                    !selects_text(&reason(r), text, format, lenient),
                    "{r} {text}"
                );
            }
            assert!(
                selects_text(&result(Outcome::Unknown), text, format, lenient),
                "{text}"
            );
        }
        assert!(selects_text(
            &result(Outcome::GoteWin),
            kif_variation,
            Format::Kif,
            lenient
        ));
        assert!(selects_text(
            &reason("resign"),
            kif_variation,
            Format::Kif,
            lenient
        ));
    }
    // `kifu select --format json` prints the result the filters read.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("false-mate.csa");
    std::fs::write(&p, false_mate).unwrap();
    let (out, err, code) = kifu(&["select", "--format", "json", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["result"].as_str(), v["reason"].as_null()),
        (Some("unknown"), Some(()))
    );
    assert_eq!(v["valid"], false);
}

/// A year-only date (issue 27) matches `--since`/`--until` and is
/// reported as the partial date it is, in every format: `start_time`
/// with `start_time_precision` `year`, in `kifu select --format json` as
/// in the stats columns; a date outside the range does not match.
#[test]
fn cli_a_year_alone_is_a_partial_date_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "y.kifu",
            "開始日時：2019\n先手：春野\n後手：秋川\n手数----指手--\n   1 ７六歩(77)\n",
        ),
        (
            "y.psn",
            "[Sente \"Haruno\"]\n[Gote \"Akikawa\"]\n[Date \"2019\"]\n1.P-7f\n",
        ),
        (
            "y.csa",
            "V2.2\nN+Haruno\nN-Akikawa\n$START_TIME:2019\nPI\n+\n+7776FU\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let (out, err, code) = kifu(&[
        "select", d, "--since", "2019", "--until", "2019-12", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["start_time"], "2019-01-01T00:00:00", "{l}");
        assert_eq!(v["start_time_precision"], "year", "{l}");
        assert_eq!(v["start_time_raw"], serde_json::Value::Null, "{l}");
    }
    let (out, _, code) = kifu(&["select", d, "--since", "2020", "--count"]);
    assert_eq!((code, out.trim()), (0, "0"));
    let (csv, err, code) = kifu(&["stats", d]);
    assert_eq!(code, 0, "{err}");
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let head = rdr.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(&r[col("start_time")], "2019-01-01T00:00:00");
        assert_eq!(&r[col("start_time_raw")], "");
        assert_eq!(&r[col("start_time_precision")], "year");
    }
}

/// Ratings and ranks: one reader for the stats columns, the select JSON
/// fields and the `--min-rating`/`--max-rating` filters of every reading
/// command; a game where a player has no rating matches no rating filter.
#[test]
fn rating_filters_on_every_reading_command() {
    let dir = tempfile::tempdir().unwrap();
    let games = [
        (
            "hi.csa",
            "V2\nN+a\nN-b\n'black_rate:a+01:3500.0\n'white_rate:b+02:3600\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
        ),
        (
            "mixed.csa",
            "V2\nN+c\nN-d\n'black_rate:c+01:2900\n'white_rate:d+02:3700\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
        ),
        (
            "half.csa",
            "V2\nN+e\nN-f\n'black_rate:e+01:3550\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
        ),
        (
            "kif.kif",
            "先手：amai[4D]\n後手：鈴木大介 九段\n先手レーティング：1500\n後手レーティング：1600\n手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n",
        ),
        ("none.csa", "V2\nN+g\nN-h\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n"),
    ];
    for (name, text) in games {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let names = |out: &str| -> Vec<String> {
        let mut v: Vec<String> = out
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let p = v["path"].as_str().unwrap().to_string();
                p.rsplit('/').next().unwrap().to_string()
            })
            .collect();
        v.sort();
        v
    };
    let select = |args: &[&str]| {
        let mut a = vec!["select", d, "--format", "json"];
        a.extend(args);
        let (out, err, code) = kifu(&a);
        assert_eq!(code, 0, "{err}");
        out
    };
    assert_eq!(names(&select(&["--min-rating", "3400"])), ["hi.csa"]);
    assert_eq!(
        names(&select(&["--max-rating", "3650"])),
        ["hi.csa", "kif.kif"]
    );
    assert_eq!(
        names(&select(&["--min-rating", "1000", "--max-rating", "1600"])),
        ["kif.kif"]
    );
    // 0 or less: no filter (unrated games too), as dlshogi.
    assert_eq!(names(&select(&["--min-rating", "0"])).len(), 5);
    let (_, err, code) = kifu(&["select", d, "--min-rating", "nan"]);
    assert_eq!(code, 2, "{err}");
    // The JSON fields.
    let all = select(&[]);
    let kif: serde_json::Value = all
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["path"].as_str().unwrap().ends_with("kif.kif"))
        .unwrap();
    assert_eq!(kif["sente_rating"], 1500.0);
    assert_eq!(kif["gote_rating"], 1600.0);
    assert_eq!(kif["sente_rank"], "4D");
    assert_eq!(kif["gote_rank"], "九段");
    assert_eq!(kif["sente"], "amai[4D]");
    // validate, stats, convert: the same games.
    let (out, err, code) = kifu(&["validate", d, "--min-rating", "3400", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names(&out), ["hi.csa"]);
    let (csv, err, code) = kifu(&["stats", d, "--max-rating", "3650"]);
    assert_eq!(code, 0, "{err}");
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let head = rdr.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let mut rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    rows.sort_by(|a, b| a[0].cmp(&b[0]));
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (&rows[0][col("sente_rating")], &rows[0][col("gote_rating")]),
        ("3500.0", "3600.0")
    );
    assert_eq!(
        (&rows[1][col("sente_rank")], &rows[1][col("gote_rank")]),
        ("4D", "九段")
    );
    // Outside the input folder, which convert refuses.
    let out_root = tempfile::tempdir().unwrap();
    let out_dir = out_root.path().join("out");
    let (_, err, code) = kifu(&[
        "convert",
        d,
        "--to",
        "csa",
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--min-rating",
        "3400",
    ]);
    assert_eq!(code, 0, "{err}");
    let written: Vec<_> = std::fs::read_dir(&out_dir).unwrap().collect();
    assert_eq!(written.len(), 1);
}
