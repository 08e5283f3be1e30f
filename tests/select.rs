//! Selecting games (issue 11): every filter over `fixtures/select/` (the
//! same games in KIF, KI2, CSA, PSN, JKF and USI; see its README) selects
//! exactly the expected games, the game key is one per game whatever the
//! format and encoding, planted duplicates are found exactly, and
//! `kifu select` prints what docs/select.md says, the same for any `-j`.

use kifu::read::Reader;
use kifu::select::{Filter, GameKey, PositionQuery, Selector};
use kifu::validate::{ValidateOptions, Validator};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
        let mut sel = Selector::new(filter, Validator::new(ValidateOptions::default()));
        let mut n = 0;
        while let Some(g) = reader.read_game(&mut sel) {
            n += 1;
            assert!(!g.verdict.read_error, "{name}:{n} reads cleanly");
            out.push(Hit {
                name: format!("{name}:{n}"),
                key: g.output.game_key,
                matched: g.verdict.matched,
                ply: g.verdict.ply,
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

/// `xxhash.xxh3_128_hexdigest(bytes)` of game A's serialisation, computed
/// with Python's xxhash package.
const A_KEY: &str = "a347fcbda118c2b1700dc7cf13e2f41b";

#[test]
fn players_match_ignoring_width_case_and_spaces() {
    assert_eq!(
        with(|f| f.player.push("羽生善治".parse().unwrap())),
        A[..5].to_vec()
    );
    assert_eq!(
        with(|f| f.player.push("羽生　善治".parse().unwrap())),
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
        with(|f| f.sente.push("森内".parse().unwrap())),
        Vec::<String>::new()
    );
    assert_eq!(
        with(|f| f.gote.push("森内".parse().unwrap())),
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
