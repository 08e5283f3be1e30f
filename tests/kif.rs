//! KIF reader/writer tests: fixtures with independent expectations, round
//! trips, the JKF comparison and the whole corpus.

mod common;

use common::*;
use kifu::kif;
use kifu::read::{Format, ReadOptions};

#[test]
fn corpus_kif() {
    corpus_check(Format::Kif);
}

#[test]
fn peer_jkf_kif() {
    jkf_expected_check(Format::Kif);
}

#[test]
fn fixtures_kif() {
    fixture_check("kif", Format::Kif);
}
