//! KI2 reader/writer tests: relative marks, fixtures, round trips, corpus.

mod common;

use common::*;
use kifu::read::Format;

#[test]
fn corpus_ki2() {
    corpus_check(Format::Ki2);
}
