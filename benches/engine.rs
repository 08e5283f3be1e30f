//! Rules-engine benchmarks (criterion): perft, legal move generation,
//! single-move checking and slider attacks, for kifu and for the peer crates
//! haitaka, shogi_legality_lite and shogi (shogi-rs).
//!
//! `cargo bench --bench engine` (about 2–3 minutes on 2 cores). Filter with
//! e.g. `cargo bench --bench engine -- perft`.
//!
//! Every peer's perft count is checked against the published table before
//! it is timed, its legal move count against kifu's on every middle-game
//! position, and its verdict on every checked move against kifu's; any
//! disagreement is printed to stderr and that peer is left out of that
//! group (its figures would not measure the same work).

#[path = "common/mod.rs"]
mod common;

use common::*;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kifu::{Move, Position};
use std::time::Duration;

fn perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft_start");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));

    let kpos = Position::default();
    for depth in [4u32, 5] {
        assert_eq!(kifu_perft(&kpos, depth), START_PERFT[depth as usize]);
        g.throughput(Throughput::Elements(START_PERFT[depth as usize]));
        g.bench_with_input(BenchmarkId::new("kifu", depth), &depth, |b, &d| {
            b.iter(|| kifu_perft(black_box(&kpos), d))
        });
    }

    let hb = haitaka_peer::start();
    for depth in [4u32, 5] {
        let n = haitaka_peer::perft(&hb, depth);
        if n != START_PERFT[depth as usize] {
            eprintln!(
                "haitaka perft({depth}) = {n}, expected {}: not timed",
                START_PERFT[depth as usize]
            );
            continue;
        }
        g.throughput(Throughput::Elements(n));
        g.bench_with_input(BenchmarkId::new("haitaka", depth), &depth, |b, &d| {
            b.iter(|| haitaka_peer::perft(black_box(&hb), d))
        });
    }

    // shogi_legality_lite is ~10× slower: depth 4 here, depth 5 in
    // compare_engine. shogi-rs is ~300× slower: depth 3 here.
    let lp = lite_peer::start();
    let n = lite_peer::perft(&lp, 4);
    if n == START_PERFT[4] {
        g.throughput(Throughput::Elements(n));
        g.bench_function(BenchmarkId::new("shogi_legality_lite", 4), |b| {
            b.iter(|| lite_peer::perft(black_box(&lp), 4))
        });
    } else {
        eprintln!(
            "shogi_legality_lite perft(4) = {n}, expected {}: not timed",
            START_PERFT[4]
        );
    }
    let mut sp = shogirs_peer::start();
    let n = shogirs_peer::perft(&mut sp, 3);
    if n == START_PERFT[3] {
        g.throughput(Throughput::Elements(n));
        g.bench_function(BenchmarkId::new("shogi-rs", 3), |b| {
            b.iter(|| shogirs_peer::perft(black_box(&mut sp), 3))
        });
    } else {
        eprintln!(
            "shogi-rs perft(3) = {n}, expected {}: not timed",
            START_PERFT[3]
        );
    }
    g.finish();
}

fn legal_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_moves");
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    for (i, sfen) in middle_game_sfens().iter().enumerate() {
        let pos = Position::from_sfen(sfen).expect("sfen");
        let n = pos.legal_moves().len();
        eprintln!("position {i}: {n} legal moves: {sfen}");
        g.throughput(Throughput::Elements(1));
        g.bench_with_input(BenchmarkId::new("kifu", i), &pos, |b, p| {
            b.iter(|| black_box(p).legal_moves().len())
        });
        // What perft does on its last ply: count per piece, list nothing.
        g.bench_with_input(BenchmarkId::new("kifu-count-only", i), &pos, |b, p| {
            b.iter(|| black_box(p).count_legal_moves())
        });
        let hb = haitaka_peer::board(sfen);
        let hn = haitaka_peer::legal_count(&hb);
        if hn == n {
            // haitaka's generator hands out bitboard sets per piece: time it
            // both writing every move to a list (the same work as kifu's
            // `legal_moves`) and only counting them.
            let mut buf = Vec::with_capacity(600);
            g.bench_with_input(BenchmarkId::new("haitaka", i), &hb, |b, p| {
                b.iter(|| {
                    haitaka_peer::legal_list(black_box(p), &mut buf);
                    buf.len()
                })
            });
            g.bench_with_input(BenchmarkId::new("haitaka-count-only", i), &hb, |b, p| {
                b.iter(|| haitaka_peer::legal_count(black_box(p)))
            });
        } else {
            eprintln!("haitaka: {hn} legal moves in position {i}, kifu {n}: not timed");
        }
        let lp = lite_peer::from_kifu(&pos);
        let ln = lite_peer::legal_count(&lp);
        if ln == n {
            g.bench_with_input(BenchmarkId::new("shogi_legality_lite", i), &lp, |b, p| {
                b.iter(|| lite_peer::legal_count(black_box(p)))
            });
        } else {
            eprintln!("shogi_legality_lite: {ln} legal moves in position {i}, kifu {n}: not timed");
        }
        let mut sp = shogirs_peer::position(sfen);
        let mut buf = Vec::new();
        shogirs_peer::legal_moves(&mut sp, &mut buf);
        if buf.len() == n {
            g.bench_function(BenchmarkId::new("shogi-rs", i), |b| {
                b.iter(|| {
                    shogirs_peer::legal_moves(black_box(&mut sp), &mut buf);
                    buf.len()
                })
            });
        } else {
            eprintln!(
                "shogi-rs: {} legal moves in position {i}, kifu {n}: not timed",
                buf.len()
            );
        }
    }
    g.finish();
}

/// The moves to check in one position: every legal move, then as many
/// illegal candidates.
fn check_set(pos: &Position) -> (Vec<Move>, Vec<Move>) {
    let legal: Vec<Move> = pos.legal_moves().to_vec();
    let illegal = illegal_candidates(pos, legal.len(), 7);
    (legal, illegal)
}

fn check(c: &mut Criterion) {
    let mut g = c.benchmark_group("check_one_move");
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    let sfens = middle_game_sfens();
    // The haitaka bench middle game and the first seeded 60-ply game.
    for (i, sfen) in [(0usize, &sfens[0]), (3, &sfens[3])] {
        let pos = Position::from_sfen(sfen).expect("sfen");
        let (legal, illegal) = check_set(&pos);
        for (kind, set) in [("legal", &legal), ("illegal", &illegal)] {
            let expect: Vec<bool> = set.iter().map(|&m| pos.check(m).is_ok()).collect();
            assert!(expect.iter().all(|&ok| ok == (kind == "legal")));
            eprintln!("position {i}: {} {kind} moves to check", set.len());
            g.throughput(Throughput::Elements(set.len() as u64));
            let id = format!("{kind}/{i}");
            g.bench_with_input(BenchmarkId::new("kifu", &id), set, |b, set| {
                b.iter(|| {
                    set.iter()
                        .filter(|&&m| black_box(&pos).check(m).is_ok())
                        .count()
                })
            });

            let hb = haitaka_peer::board(sfen);
            let hm: Vec<_> = set.iter().map(|&m| haitaka_peer::mv(&usi(m))).collect();
            let hv: Vec<bool> = hm.iter().map(|&m| haitaka_peer::is_legal(&hb, m)).collect();
            let bad = disagreements(set, &expect, &hv);
            if bad.is_empty() {
                g.bench_with_input(BenchmarkId::new("haitaka", &id), &hm, |b, hm| {
                    b.iter(|| {
                        hm.iter()
                            .filter(|&&m| haitaka_peer::is_legal(black_box(&hb), m))
                            .count()
                    })
                });
            } else {
                eprintln!("haitaka is_legal disagrees with kifu on {} of {} {kind} moves in position {i} (e.g. {:?}): not timed", bad.len(), set.len(), &bad[..bad.len().min(5)]);
            }
            let hv: Vec<bool> = hm
                .iter()
                .map(|&m| haitaka_peer::is_legal_with_hand(&hb, m))
                .collect();
            let bad = disagreements(set, &expect, &hv);
            if bad.is_empty() {
                g.bench_with_input(BenchmarkId::new("haitaka+hand", &id), &hm, |b, hm| {
                    b.iter(|| {
                        hm.iter()
                            .filter(|&&m| haitaka_peer::is_legal_with_hand(black_box(&hb), m))
                            .count()
                    })
                });
            } else {
                eprintln!("haitaka is_legal + hand test disagrees with kifu on {} of {} {kind} moves in position {i} (e.g. {:?}): not timed", bad.len(), set.len(), &bad[..bad.len().min(5)]);
            }

            let lp = lite_peer::from_kifu(&pos);
            let lm: Vec<_> = set.iter().map(|&m| lite_peer::mv(&pos, m)).collect();
            let lv: Vec<bool> = lm.iter().map(|&m| lite_peer::is_legal(&lp, m)).collect();
            let bad = disagreements(set, &expect, &lv);
            if bad.is_empty() {
                g.bench_with_input(
                    BenchmarkId::new("shogi_legality_lite", &id),
                    &lm,
                    |b, lm| {
                        b.iter(|| {
                            lm.iter()
                                .filter(|&&m| lite_peer::is_legal(black_box(&lp), m))
                                .count()
                        })
                    },
                );
            } else {
                eprintln!("shogi_legality_lite disagrees with kifu on {} of {} {kind} moves in position {i} (e.g. {:?}): not timed", bad.len(), set.len(), &bad[..bad.len().min(5)]);
            }

            let mut sp = shogirs_peer::position(sfen);
            let sm: Vec<_> = set.iter().map(|&m| shogirs_peer::mv(&usi(m))).collect();
            let sv: Vec<bool> = sm
                .iter()
                .map(|&m| shogirs_peer::is_legal(&mut sp, m))
                .collect();
            let bad = disagreements(set, &expect, &sv);
            if bad.is_empty() {
                g.bench_function(BenchmarkId::new("shogi-rs", &id), |b| {
                    b.iter(|| {
                        sm.iter()
                            .filter(|&&m| shogirs_peer::is_legal(black_box(&mut sp), m))
                            .count()
                    })
                });
            } else {
                eprintln!("shogi-rs make_move disagrees with kifu on {} of {} {kind} moves in position {i} (e.g. {:?}): not timed", bad.len(), set.len(), &bad[..bad.len().min(5)]);
            }
        }
    }
    g.finish();
}

fn disagreements(set: &[Move], ours: &[bool], theirs: &[bool]) -> Vec<String> {
    set.iter()
        .zip(ours.iter().zip(theirs))
        .filter(|(_, (a, b))| a != b)
        .map(|(&m, (a, _))| format!("{}{}", usi(m), if *a { " (legal)" } else { " (illegal)" }))
        .collect()
}

/// Slider attacks alone: rook, bishop and lance (both colours) from every
/// square of the middle-game positions' occupancies, kifu's multiply-gather
/// lookups against haitaka's (magic bitboards for rook and bishop, the
/// Qugiy trick for the lance). Both must give the same sets first.
fn sliders(c: &mut Criterion) {
    use kifu::rules::attacks::{bishop_attacks, lance_attacks, rook_attacks};
    let mut g = c.benchmark_group("slider_attacks");
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    let mut cases = Vec::new();
    for sfen in middle_game_sfens() {
        let occ = Position::from_sfen(&sfen).expect("sfen").occupied();
        cases.extend(kifu::Square::all().map(|sq| (sq, occ)));
    }
    let hcases: Vec<(haitaka::Square, haitaka::BitBoard)> = cases
        .iter()
        .map(|&(sq, occ)| (haitaka::Square::index(sq.index()), haitaka::BitBoard(occ.0)))
        .collect();
    type KifuFn = fn(kifu::Square, kifu::Bitboard) -> kifu::Bitboard;
    type HaitakaFn = fn(haitaka::Square, haitaka::BitBoard) -> haitaka::BitBoard;
    let kinds: [(&str, KifuFn, HaitakaFn); 4] = [
        ("rook", rook_attacks, |sq, occ| {
            haitaka::get_rook_moves(haitaka::Color::Black, sq, occ)
        }),
        ("bishop", bishop_attacks, |sq, occ| {
            haitaka::get_bishop_moves(haitaka::Color::Black, sq, occ)
        }),
        (
            "lance-black",
            |sq, occ| lance_attacks(kifu::Color::Black, sq, occ),
            |sq, occ| haitaka::get_lance_moves(haitaka::Color::Black, sq, occ),
        ),
        (
            "lance-white",
            |sq, occ| lance_attacks(kifu::Color::White, sq, occ),
            |sq, occ| haitaka::get_lance_moves(haitaka::Color::White, sq, occ),
        ),
    ];
    for (name, kf, hf) in kinds {
        let bad = cases
            .iter()
            .zip(&hcases)
            .filter(|(&(sq, occ), &(hsq, hocc))| kf(sq, occ).0 != hf(hsq, hocc).0)
            .count();
        g.throughput(Throughput::Elements(cases.len() as u64));
        g.bench_with_input(BenchmarkId::new("kifu", name), &cases, |b, cases| {
            b.iter(|| {
                cases
                    .iter()
                    .fold(0u128, |acc, &(sq, occ)| acc ^ kf(sq, black_box(occ)).0)
            })
        });
        if bad == 0 {
            g.bench_with_input(BenchmarkId::new("haitaka", name), &hcases, |b, cases| {
                b.iter(|| {
                    cases
                        .iter()
                        .fold(0u128, |acc, &(sq, occ)| acc ^ hf(sq, black_box(occ)).0)
                })
            });
        } else {
            eprintln!(
                "haitaka {name} attacks differ from kifu's on {bad} of {} cases: not timed",
                cases.len()
            );
        }
    }
    g.finish();
}

criterion_group!(benches, perft, legal_moves, check, sliders);
criterion_main!(benches);
