//! The public paths programs use keep working after the layer split of
//! issue 16 (docs/layout.md): what moved below the formats (`src/text/`,
//! `src/emit.rs`, `record::key`) is re-exported under its old names. This
//! file only has to compile; the asserts check that the names are the same
//! items. Runs without `../shared`.

#![allow(unused_imports)]

use kifu::read::decode::{detect, encode, DecodeOptions, Encoding};
use kifu::read::lines::{LineError, LineReader, MAX_LINE_BYTES};
use kifu::read::visitor::{visit_game, Flow, MoveEvent, Visitor, CONTINUE, SKIP};
use kifu::read::{
    lines_from_bytes, open, read_all, Finding, Format, Game, Games, RawMove, ReadOptions, Reader,
    RecordBuilder, Resolved, Rule, Severity, Source, UnknownRule, MAX_GAME_MOVES,
};
use kifu::write::{main_terminal, one_line, text_lines, write, Dropped, Output, WriteError};
use kifu::write::{Named, WriteOptions};

use kifu::jkf::relative::{filter_by_relative, parse_relative, relative_mark};
use kifu::jkf::JkfMove;
use kifu::ki2::notation::{can_promote, Horizontal, RelativeMark, ResolveError, Vertical};
use kifu::ki2::{relative_mark as ki2_relative_mark, resolve};
use kifu::psn::notation::{could_promote, ParsePsnError, PsnMove};
use kifu::psn::{Promotion, ResolveError as PsnResolveError};
use kifu::record::key::{GameKey, KeyHasher};
use kifu::select::key::BadGameKey;
use kifu::select::{GameKey as SelectGameKey, KeyHasher as SelectKeyHasher};

#[test]
fn old_and_flat_paths_name_the_same_items() {
    // Same types under both names: these assignments only compile if so.
    let r: kifu::read::Rule = kifu::Rule::Syntax;
    let s: kifu::read::Severity = kifu::Severity::Error;
    let e: kifu::read::Encoding = kifu::Encoding::Utf8;
    let f: kifu::read::Format = kifu::Format::Csa;
    assert_eq!(
        (r.id(), s, e.name(), f.name()),
        ("syntax", Severity::Error, "utf-8", "csa")
    );
    let k: SelectGameKey = GameKey(7);
    assert_eq!(k, kifu::select::GameKey(7));
    let _: fn() -> SelectKeyHasher = KeyHasher::default;
    let o = Output::default();
    assert!(o.dropped == Dropped::default());
    assert_eq!(text_lines("a\nb").count(), 2);

    let games = read_all(b"PI\n+\n+7776FU\n", None, &ReadOptions::default());
    assert_eq!(games.len(), 1);
    let out = write(&games[0].record, Format::Usi, &WriteOptions::default()).unwrap();
    assert_eq!(out.text, "position startpos moves 7g7f\n");
    let m: Result<PsnMove, ParsePsnError> = "P-7f".parse();
    assert!(m.is_ok());
}
