//! Reading throughput: syntax only (a counting visitor), building records,
//! validating, and statistics, for CSA, KIF (UTF-8 and Shift_JIS), KI2 and
//! PSN, over a corpus generated here (seeded random legal games written by
//! kifu's own writers; nothing is read from disk).
//!
//! `cargo bench --bench read` (about a minute); filter with
//! `cargo bench --bench read -- csa/`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kifu::read::{Flow, Format, MoveEvent, ReadOptions, Reader, Visitor, CONTINUE};
use kifu::record::{Node, Record, TerminalKind};
use kifu::stats::{Stats, StatsOptions};
use kifu::validate::{ValidateOptions, Validator};
use kifu::{Move, Position, Variant};
use std::time::Duration;

/// A legal game of about `plies` moves from a seeded random walk.
fn random_game(seed: u64, plies: usize) -> Record {
    let mut rec = Record::default();
    let mut pos = Position::new(Variant::Standard);
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let m: Move = moves[(s as usize) % moves.len()];
        let mut node = Node::new(m, Default::default());
        node.time.spent_ms = Some(1000 * (i as u64 % 30));
        rec.main.moves.push(node);
        pos.play_unchecked(m);
    }
    rec.main.terminal = Some(kifu::record::Terminal {
        kind: TerminalKind::Resign,
        time: Default::default(),
        comments: Vec::new(),
        location: Default::default(),
    });
    rec
}

/// The corpus of one format: inputs (one game each for KIF/KI2, all games
/// in one input for CSA/PSN).
fn corpus(format: Format, sjis: bool, games: usize) -> Vec<Vec<u8>> {
    let records: Vec<Record> = (0..games as u64).map(|i| random_game(i, 100)).collect();
    let write = |r: &Record| {
        kifu::write::write(r, format, &kifu::write::WriteOptions::default())
            .expect("written")
            .text
    };
    match format {
        Format::Csa | Format::Psn => {
            let sep = if format == Format::Csa { "/\n" } else { "\n" };
            let text: Vec<String> = records.iter().map(write).collect();
            vec![text.join(sep).into_bytes()]
        }
        _ => records
            .iter()
            .map(|r| {
                let t = write(r);
                if sjis {
                    kifu::read::decode::encode(&t, kifu::read::Encoding::ShiftJis).expect("sjis")
                } else {
                    t.into_bytes()
                }
            })
            .collect(),
    }
}

/// Counts moves: what a syntax-only pass costs.
struct CountMoves(u64);

impl Visitor for CountMoves {
    type Output = ();
    fn movement(&mut self, _mv: &MoveEvent<'_>) -> Flow {
        self.0 += 1;
        CONTINUE
    }
    fn end_game(&mut self) {}
}

fn each_game<V: Visitor>(inputs: &[Vec<u8>], format: Format, v: &mut V) {
    for input in inputs {
        let mut r = Reader::with_options(&input[..], Some(format), &ReadOptions::default())
            .expect("in memory");
        while r.read_game(v).is_some() {}
    }
}

fn bench(c: &mut Criterion) {
    let sets = [
        ("csa", Format::Csa, false),
        ("kif-utf8", Format::Kif, false),
        ("kif-sjis", Format::Kif, true),
        ("ki2", Format::Ki2, false),
        ("psn", Format::Psn, false),
    ];
    for (name, format, sjis) in sets {
        let inputs = corpus(format, sjis, 200);
        let bytes: usize = inputs.iter().map(Vec::len).sum();
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(bytes as u64));
        g.sample_size(10);
        g.warm_up_time(Duration::from_millis(300));
        g.measurement_time(Duration::from_secs(2));
        g.bench_function(BenchmarkId::from_parameter("syntax"), |b| {
            b.iter(|| {
                let mut v = CountMoves(0);
                each_game(&inputs, format, &mut v);
                v.0
            })
        });
        g.bench_function(BenchmarkId::from_parameter("records"), |b| {
            b.iter(|| {
                let mut n = 0;
                for input in &inputs {
                    let mut r =
                        Reader::with_options(&input[..], Some(format), &ReadOptions::default())
                            .expect("in memory");
                    n += r.games().map(|g| g.record.main.moves.len()).sum::<usize>();
                }
                n
            })
        });
        g.bench_function(BenchmarkId::from_parameter("validate"), |b| {
            b.iter(|| {
                let mut v = Validator::new(ValidateOptions::default());
                each_game(&inputs, format, &mut v);
            })
        });
        g.bench_function(BenchmarkId::from_parameter("stats"), |b| {
            b.iter(|| {
                let mut v = Stats::replay(StatsOptions::default(), ValidateOptions::default());
                each_game(&inputs, format, &mut v);
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
