//! Perft against counts from independent engines (fixtures/perft/perft.csv;
//! the tool and version of every number is in its `tool` column and in
//! fixtures/perft/README.md). No expected count comes from kifu itself.

use kifu::rules::parse_sfen;
use kifu::{Position, Variant, Waivers};

#[test]
fn perft_matches_independent_engines() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/perft/perft.csv");
    let mut rdr = csv::Reader::from_path(path).expect("perft.csv");
    let mut failures = Vec::new();
    let mut rows = 0;
    let mut variants = std::collections::BTreeSet::new();
    for rec in rdr.records() {
        let rec = rec.expect("csv row");
        let variant: Variant = rec[0].parse().expect("variant");
        let sfen = &rec[1];
        let depth: u32 = rec[2].parse().expect("depth");
        let nodes: u64 = rec[3].parse().expect("nodes");
        let tool = &rec[4];
        let setup = parse_sfen(sfen, Some(variant)).expect("sfen");
        let pos = Position::from_setup(setup, Waivers::TSUME).expect("position");
        let got = pos.perft(depth);
        rows += 1;
        variants.insert(variant.name());
        if got != nodes {
            failures.push(format!(
                "{variant} {sfen} depth {depth}: {tool} says {nodes}, we say {got}"
            ));
        }
    }
    assert!(rows >= 50, "only {rows} perft rows");
    assert_eq!(variants.len(), 3, "every variant has perft rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn published_start_counts() {
    // The widely published standard-start counts, independent of the CSV.
    let pos = Position::new(Variant::Standard);
    let expect = [1u64, 30, 900, 25_470, 719_731, 19_861_490];
    for (d, &n) in expect.iter().enumerate() {
        assert_eq!(pos.perft(d as u32), n, "depth {d}");
    }
    let max = Position::from_sfen("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1").unwrap();
    assert_eq!(max.legal_moves().len(), 593);
}
