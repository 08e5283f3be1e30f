//! The round trips of `tests/convert.rs` across every pair of formats, on
//! the real records of `tests/corpus-expect/` read from the shared corpus
//! (`../shared/corpus`). Runs on `tests/support/trials.rs`
//! (`harness = false`): without the corpus it is reported `ignored`, with
//! the reason. The helpers are those of `tests/convert.rs`, included as a
//! module.

#[allow(dead_code, unused_imports)]
#[path = "convert.rs"]
mod convert_tests;
#[path = "support/trials.rs"]
mod trials;

use trials::Skip;

fn main() {
    trials::main(trials![every_real_record_through_every_format]);
}

fn every_real_record_through_every_format() -> Result<(), Skip> {
    let games = convert_tests::corpus_games(&trials::corpus()?);
    assert!(!games.is_empty(), "no real record read clean");
    convert_tests::through_every_format(&games);
    Ok(())
}
