//! The foul tests that need the shared corpus (`../shared/corpus`): real
//! records that state a foul faithfully. Runs on `tests/support/trials.rs`
//! (`harness = false`): without the corpus it is reported `ignored`, with
//! the reason. The helpers are those of `tests/fouls.rs`, included as a
//! module.

#[allow(dead_code, unused_imports)]
#[path = "fouls.rs"]
mod fouls_tests;
#[path = "support/trials.rs"]
mod trials;

use fouls_tests::{findings, result};
use kifu::read::{self, Format, ReadOptions};
use kifu::validate::{validate, ValidateOptions};
use trials::Skip;

fn main() {
    trials::main(trials![corpus_recorded_fouls]);
}

/// The real records of the shared corpus that state a foul faithfully
/// (listed as `accepted` in `tests/corpus-known.tsv`): each reads as a
/// `foul` warning with the fouler losing.
fn corpus_recorded_fouls() -> Result<(), Skip> {
    let dir = trials::corpus()?;
    for (p, at) in [
        // 27 ４五桂 leaves sente's king in check; 28 反則勝ち; まで27手で後手の勝ち.
        ("mog-core-scala/kif/game/017.kif", "34:4"),
        // ▲２九歩 (nifu) last; まで109手で後手の反則勝ち.
        ("ragnarok/kif/Sample/Ki2_Illegal.KI2", "34:1"),
        // 281 同玉 leaves the king in check; 反則勝ち; まで281手で後手の反則勝ち.
        (
            "kif-parser-muzudho/root/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].kif",
            "566:6",
        ),
        (
            "kif-parser-muzudho/examples/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].kifu",
            "566:6",
        ),
    ] {
        let path = dir.join(p);
        let bytes = std::fs::read(&path).unwrap();
        let g = read::read_all(&bytes, Format::from_path(&path), &ReadOptions::default());
        let r = validate(&g[0], &ValidateOptions::default());
        assert_eq!(findings(&r, false), [format!("foul warning {at}")], "{p}");
        assert_eq!(result(&r), "gote_win illegal-move", "{p}");
    }
    Ok(())
}
