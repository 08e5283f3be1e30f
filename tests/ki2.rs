//! KI2 reader/writer tests: relative marks, fixtures, round trips, corpus.

mod common;

use common::*;
use kifu::read::Format;

#[test]
fn corpus_ki2() {
    corpus_check(Format::Ki2);
}

#[test]
fn peer_jkf_ki2() {
    jkf_expected_check(Format::Ki2);
}

#[test]
fn fixtures_ki2() {
    fixture_check("ki2", Format::Ki2);
}
