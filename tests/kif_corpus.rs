//! The KIF tests that need the shared corpus (`../shared/corpus`): every
//! KIF file of it against its expectation, the peer JKF comparison, the
//! real records of `tests/corpus-expect/kif` and their round trips. Runs on
//! `tests/support/trials.rs` (`harness = false`): without the corpus each
//! is reported `ignored`, with the reason. The helpers are those of
//! `tests/kif.rs`, included as a module.

#[allow(dead_code, unused_imports)]
#[path = "kif.rs"]
mod kif_tests;
#[path = "support/trials.rs"]
mod trials;

use kif_tests::common::*;
use kifu::read::Format;
use trials::Skip;

fn main() {
    trials::main(trials![
        corpus_kif,
        peer_jkf_kif,
        corpus_expectations_kif,
        corpus_records_kif_round_trip,
        corpus_records_kif_shift_jis_round_trip,
        corpus_records_kif_ki2_kif_keep_moves,
    ]);
}

fn corpus_kif() -> Result<(), Skip> {
    corpus_check(&trials::corpus()?, Format::Kif);
    Ok(())
}

fn peer_jkf_kif() -> Result<(), Skip> {
    jkf_expected_check(&trials::corpus()?, Format::Kif);
    Ok(())
}

/// The expectations the real KIF records once held as fixtures, now read
/// from the shared corpus.
fn corpus_expectations_kif() -> Result<(), Skip> {
    corpus_expect_check(&trials::corpus()?, "kif", Format::Kif);
    Ok(())
}

/// `kif_round_trip` on the real KIF and KI2 records.
fn corpus_records_kif_round_trip() -> Result<(), Skip> {
    kif_tests::kif_round_trip_of(corpus_records(&trials::corpus()?));
    Ok(())
}

/// `kif_shift_jis_round_trip` on the real KIF and KI2 records.
fn corpus_records_kif_shift_jis_round_trip() -> Result<(), Skip> {
    kif_tests::kif_shift_jis_round_trip_of(corpus_records(&trials::corpus()?));
    Ok(())
}

/// `kif_ki2_kif_keeps_moves` on the real KIF and KI2 records.
fn corpus_records_kif_ki2_kif_keep_moves() -> Result<(), Skip> {
    kif_tests::kif_ki2_kif_keeps_moves_of(corpus_records(&trials::corpus()?));
    Ok(())
}
