//! One validator serves every game of a worker (a `Replay` is built once
//! per worker, `kifu convert` and `kifu html` judge each built game with
//! the worker's own): each report must be what a fresh validator gives.

use kifu::read::{visit_game, Game, Reader};
use kifu::validate::{ValidateOptions, Validator};

/// Every game of `text`, built by the reader.
fn games(text: &str) -> Vec<Game> {
    Reader::new(text.as_bytes()).unwrap().games().collect()
}

/// The reports of `games` by one validator against a fresh one's each.
fn compare(games: &[Game]) {
    let opts = ValidateOptions::default();
    let mut shared = Validator::new(opts);
    for (i, g) in games.iter().enumerate() {
        let reused = visit_game(g, &mut shared);
        let fresh = visit_game(g, &mut Validator::new(opts));
        assert_eq!(reused, fresh, "game {i}");
    }
}

/// A game whose main line stops at an illegal move, then one whose
/// result line is false: the second is judged as a fresh validator judges
/// it (nothing of the first, its cut line included, is carried over).
#[test]
fn a_cut_line_does_not_reach_the_next_game() {
    // Ply 3 moves a pawn from an empty square.
    let cut = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(77)\n";
    // Two moves, a result line that says three.
    let claim = "手合割：平手\n手数----指手---------消費時間--\n   1 ２六歩(27)\n   2 ８四歩(83)\nまで3手で先手の勝ち\n";
    let mut all = games(cut);
    all.extend(games(claim));
    assert_eq!(all.len(), 2);
    let fresh = visit_game(&all[1], &mut Validator::new(ValidateOptions::default()));
    assert!(
        fresh
            .findings
            .iter()
            .any(|f| f.rule.id() == "claim-mismatch"),
        "{:?}",
        fresh.findings
    );
    compare(&all);
}

/// Every fixture, read and judged game after game by one validator, in
/// both orders of the files.
#[test]
fn every_fixture_alike_with_one_validator() {
    let mut paths: Vec<_> = walk(std::path::Path::new("fixtures"));
    paths.sort();
    let mut all = Vec::new();
    for p in &paths {
        let Ok(mut r) = Reader::from_path(p) else {
            continue;
        };
        all.extend(r.games().take(50));
    }
    assert!(all.len() > 100, "{}", all.len());
    compare(&all);
    all.reverse();
    compare(&all);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if kifu::read::Format::from_path(&p).is_some() {
            out.push(p);
        }
    }
    out
}
