//! SFEN/USI records: fixtures with expectations, round trips. The tests on
//! the shared corpus are in `tests/usi_corpus.rs`, which reports them
//! ignored without it.

pub mod common;

use kifu::read::{lines_from_bytes, Game, ReadOptions, Severity};
use kifu::record::{Line, Location, Record};
use kifu::usi::{self, WriteOptions};
use kifu::Position;
use std::path::{Path, PathBuf};

pub fn read(bytes: &[u8]) -> Vec<Game> {
    let opts = ReadOptions::default();
    usi::Reader::new(lines_from_bytes(bytes, &opts), &opts).collect()
}

pub fn errors(g: &Game) -> Vec<String> {
    g.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{}:{}: {} ({})", f.line, f.column, f.rule, f.message))
        .collect()
}

pub fn replay(r: &Record) -> Result<(), String> {
    let mut pos = Position::from_setup_unchecked(&r.start.setup);
    for (i, n) in r.main.moves.iter().enumerate() {
        pos.check(n.mv)
            .map_err(|e| format!("move {} {}: {e}", i + 1, n.mv))?;
        pos.play_unchecked(n.mv);
    }
    Ok(())
}

fn usi_of(r: &Record) -> String {
    let v = r.variant();
    r.main
        .moves
        .iter()
        .map(|n| n.mv.usi(v).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn normalise(r: &Record) -> Record {
    let mut r = r.clone();
    r.start.location = None;
    r.main = Line {
        moves: r
            .main
            .moves
            .iter()
            .map(|n| {
                let mut n = n.clone();
                n.location = Location::default();
                n.written = Default::default();
                n
            })
            .collect(),
        terminal: None,
        stop: None,
    };
    r
}

fn files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sfen"))
        .collect();
    v.sort();
    v
}

/// Checks one ok file against its expectation lines, then round-trips it.
pub fn check_ok_file(what: &str, bytes: &[u8], expect: &str) {
    let games = read(bytes);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.index, i, "{what}");
        assert!(errors(g).is_empty(), "{what} game {i}: {:?}", errors(g));
        replay(&g.record).unwrap_or_else(|e| panic!("{what} game {i}: {e}"));
    }
    for l in expect.lines() {
        let (k, v) = l.split_once(' ').unwrap();
        match k {
            "games" => assert_eq!(games.len().to_string(), v, "{what}"),
            "plies-per-game" => {
                let got: Vec<String> = games
                    .iter()
                    .map(|g| g.record.main.moves.len().to_string())
                    .collect();
                assert_eq!(got.join(" "), v, "{what}");
            }
            "sfen" => assert_eq!(kifu::rules::write_sfen(&games[0].record.start.setup), v),
            "warning" => assert!(games
                .iter()
                .flat_map(|g| &g.findings)
                .any(|f| f.rule.id() == v && f.severity == Severity::Warning)),
            k if k.starts_with("usi") => {
                let i: usize = k[3..].parse().unwrap();
                assert_eq!(usi_of(&games[i].record), v, "{what} game {i}");
            }
            _ => panic!("unknown expectation {l}"),
        }
    }
    // Round trip, with and without the `position` word.
    let records: Vec<Record> = games.iter().map(|g| g.record.clone()).collect();
    for prefix in [true, false] {
        let opts = WriteOptions {
            position_prefix: prefix,
            sfen_only: false,
        };
        let out = usi::write_games(&records, &opts).unwrap();
        assert!(out.dropped.is_empty(), "{what}");
        let back = read(out.text.as_bytes());
        assert_eq!(back.len(), games.len(), "{what}");
        for (a, b) in games.iter().zip(&back) {
            assert!(errors(b).is_empty(), "{what}: {:?}", errors(b));
            assert_eq!(normalise(&a.record), normalise(&b.record), "{what}");
        }
    }
}

#[test]
fn fixtures_ok() {
    for path in files("fixtures/usi/ok") {
        let what = path.file_name().unwrap().to_string_lossy().to_string();
        let expect = std::fs::read_to_string(path.with_extension("expect")).unwrap();
        check_ok_file(&what, &std::fs::read(&path).unwrap(), &expect);
    }
}

#[test]
fn fixtures_bad() {
    for path in files("fixtures/usi/bad") {
        let what = path.file_name().unwrap().to_string_lossy().to_string();
        let want = std::fs::read_to_string(path.with_extension("err")).unwrap();
        let games = read(&std::fs::read(&path).unwrap());
        let f = games
            .iter()
            .flat_map(|g| &g.findings)
            .find(|f| f.severity == Severity::Error)
            .unwrap_or_else(|| panic!("{what}: no error"));
        assert_eq!(
            format!("{}:{}: {}", f.line, f.column, f.rule),
            want.trim(),
            "{what}: {}",
            f.message
        );
    }
}

#[test]
fn writer_modes() {
    let games = read(b"startpos moves 7g7f 3c3d\nsfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n");
    let out = usi::write(&games[0].record, &WriteOptions::default()).unwrap();
    assert_eq!(out.text, "position startpos moves 7g7f 3c3d\n");
    let opts = WriteOptions {
        position_prefix: false,
        sfen_only: false,
    };
    let out = usi::write(&games[1].record, &opts).unwrap();
    assert_eq!(out.text, "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n");
    let opts = WriteOptions {
        position_prefix: true,
        sfen_only: true,
    };
    let out = usi::write(&games[0].record, &opts).unwrap();
    assert_eq!(
        out.text,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n"
    );
    // Handicap starts need an SFEN.
    let games = read(
        b"position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a6b\n",
    );
    assert_eq!(
        games[0].record.start.handicap,
        Some(kifu::Handicap::TwoPiece)
    );
    let out = usi::write(&games[0].record, &WriteOptions::default()).unwrap();
    assert_eq!(
        out.text,
        "position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a6b\n"
    );
}

#[test]
fn empty_and_comments() {
    let g = read(b"# only a comment\n\n");
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].findings[0].rule.id(), "empty");
    let g = read(b"");
    assert_eq!(g.len(), 1);
    let g = read(b"startpos moves 7g7f\xff\n");
    assert_eq!(g.len(), 1);
    assert!(g[0].findings.iter().any(|f| f.rule.id() == "encoding"));
}
