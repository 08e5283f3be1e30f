//! One-table comparison of perft speed: kifu against every peer crate, in one
//! run on one machine. `cargo bench --bench compare_engine` (or
//! `benches/compare_engine.sh`). Environment: `DEPTH` (default 5), `RUNS`
//! (default 5; the best run is reported), `SLOW_DEPTH` (depth for peers
//! slower than 1 M nodes/s at depth 4, default 5).
//!
//! Each peer's count is checked against the published table before it is
//! timed; a peer that disagrees is reported and not timed.

#[path = "common/mod.rs"]
mod common;

use common::*;
use std::time::Instant;

struct Row {
    name: &'static str,
    depth: u32,
    nodes: u64,
    secs: f64,
    note: String,
}

fn best_of<F: FnMut() -> u64>(runs: u32, mut f: F) -> (u64, f64) {
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        nodes = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (nodes, best)
}

fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // cargo bench passes `--bench`; ignore arguments.
    let depth = env_u32("DEPTH", 5).min(5);
    let runs = env_u32("RUNS", 5).max(1);
    let slow_depth = env_u32("SLOW_DEPTH", depth).min(depth);
    let expected = START_PERFT[depth as usize];

    // Every engine's count is verified at depth 4 first; a peer that
    // disagrees is reported and not timed. Fast engines (> 1 M nodes/s at
    // depth 4) are then timed in interleaved rounds (kifu, peer 1, peer 2, …,
    // RUNS times) so that load from other processes hits all alike; the best
    // round of each is kept. Slow ones run once at SLOW_DEPTH.
    type Engine = (&'static str, Box<dyn Fn(u32) -> u64>);
    let engines: Vec<Engine> = vec![
        (
            "kifu",
            Box::new(|d| kifu_perft(&kifu::Position::default(), d)),
        ),
        (
            "haitaka 0.3.2",
            Box::new(|d| haitaka_peer::perft(&haitaka_peer::start(), d)),
        ),
        (
            "shogi_legality_lite 0.1.3",
            Box::new(|d| lite_peer::perft(&lite_peer::start(), d)),
        ),
        (
            "shogi (shogi-rs) 0.12.2",
            Box::new(|d| shogirs_peer::perft(&mut shogirs_peer::start(), d)),
        ),
    ];
    let mut rows: Vec<Row> = Vec::new();
    let mut fast = Vec::new();
    for (i, (name, f)) in engines.iter().enumerate() {
        let t = Instant::now();
        let n4 = f(4);
        let s4 = t.elapsed().as_secs_f64();
        if n4 != START_PERFT[4] {
            let mut note = format!("WRONG: expected {}, not timed", START_PERFT[4]);
            if name.starts_with("haitaka") {
                if let Some(d) = haitaka_divergence(&kifu::Position::default(), 3) {
                    note.push_str(&format!("; first difference: {d}"));
                }
            }
            rows.push(Row {
                name,
                depth: 4,
                nodes: n4,
                secs: f64::NAN,
                note,
            });
            continue;
        }
        if (n4 as f64 / s4) < 1e6 {
            let (n, s) = best_of(1, || f(slow_depth));
            let note = if n != START_PERFT[slow_depth as usize] {
                format!("WRONG: expected {}", START_PERFT[slow_depth as usize])
            } else {
                "1 run (slow)".to_string()
            };
            rows.push(Row {
                name,
                depth: slow_depth,
                nodes: n,
                secs: s,
                note,
            });
        } else {
            rows.push(Row {
                name,
                depth,
                nodes: 0,
                secs: f64::INFINITY,
                note: String::new(),
            });
            fast.push((i, rows.len() - 1));
        }
    }
    for _ in 0..runs {
        for &(i, r) in &fast {
            let t = Instant::now();
            let n = (engines[i].1)(depth);
            let s = t.elapsed().as_secs_f64();
            rows[r].nodes = n;
            rows[r].secs = rows[r].secs.min(s);
            if n != expected {
                rows[r].note = format!("WRONG: expected {expected}");
            }
        }
    }
    assert_eq!(rows[0].name, "kifu");
    assert_eq!(rows[0].nodes, expected, "kifu perft({depth})");

    let kifu_nps = rows[0].nodes as f64 / rows[0].secs;
    println!();
    println!(
        "perft from the start position, best of {runs} run(s); ratio = kifu nodes/s ÷ peer nodes/s"
    );
    println!(
        "{:<28} {:>5} {:>12} {:>10} {:>14} {:>10}  note",
        "engine", "depth", "nodes", "seconds", "nodes/s", "kifu/peer"
    );
    for r in &rows {
        let nps = r.nodes as f64 / r.secs;
        let ratio = if r.name == "kifu" {
            "—".to_string()
        } else if nps.is_finite() {
            format!("{:.2}×", kifu_nps / nps)
        } else {
            "—".to_string()
        };
        println!(
            "{:<28} {:>5} {:>12} {:>10.3} {:>14.0} {:>10}  {}",
            r.name, r.depth, r.nodes, r.secs, nps, ratio, r.note
        );
    }
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_default();
    println!(
        "machine: {} logical CPUs, {cpu}",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(0)
    );
}

/// Walks kifu's tree and returns the first position (depth-first) where
/// haitaka's legal move set differs from kifu's, with the moves in question.
fn haitaka_divergence(pos: &kifu::Position, depth: u32) -> Option<String> {
    let sfen = pos.sfen();
    let board = haitaka_peer::board(&sfen);
    let mut theirs = Vec::new();
    board.generate_moves(|moves| {
        theirs.extend(moves.into_iter().map(|m| m.to_string()));
        false
    });
    let ours: Vec<String> = pos.legal_moves().iter().map(|&m| usi(m)).collect();
    let missing: Vec<&String> = ours.iter().filter(|m| !theirs.contains(m)).collect();
    let extra: Vec<&String> = theirs.iter().filter(|m| !ours.contains(m)).collect();
    if !missing.is_empty() || !extra.is_empty() {
        return Some(format!("{sfen}: haitaka lacks {missing:?}, adds {extra:?}"));
    }
    if depth == 0 {
        return None;
    }
    for &m in &pos.legal_moves() {
        let mut next = *pos;
        next.play_unchecked(m);
        if let Some(d) = haitaka_divergence(&next, depth - 1) {
            return Some(d);
        }
    }
    None
}
