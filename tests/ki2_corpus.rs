//! The KI2 tests that need the shared corpus (`../shared/corpus`): every
//! KI2 file of it against its expectation, the peer JKF comparison, the
//! real records of `tests/corpus-expect/ki2` and their round trip. Runs on
//! `tests/support/trials.rs` (`harness = false`): without the corpus each
//! is reported `ignored`, with the reason. The helpers are those of
//! `tests/ki2.rs`, included as a module.

#[allow(dead_code, unused_imports)]
#[path = "ki2.rs"]
mod ki2_tests;
#[path = "support/trials.rs"]
mod trials;

use ki2_tests::common::*;
use kifu::read::Format;
use trials::Skip;

fn main() {
    trials::main(trials![
        corpus_ki2,
        peer_jkf_ki2,
        corpus_expectations_ki2,
        corpus_records_ki2_round_trip,
    ]);
}

fn corpus_ki2() -> Result<(), Skip> {
    corpus_check(&trials::corpus()?, Format::Ki2);
    Ok(())
}

fn peer_jkf_ki2() -> Result<(), Skip> {
    jkf_expected_check(&trials::corpus()?, Format::Ki2);
    Ok(())
}

/// The expectations the real KI2 records once held as fixtures, now read
/// from the shared corpus.
fn corpus_expectations_ki2() -> Result<(), Skip> {
    corpus_expect_check(&trials::corpus()?, "ki2", Format::Ki2);
    Ok(())
}

/// `ki2_round_trip` on the real KIF and KI2 records.
fn corpus_records_ki2_round_trip() -> Result<(), Skip> {
    ki2_tests::ki2_round_trip_of(corpus_records(&trials::corpus()?));
    Ok(())
}
