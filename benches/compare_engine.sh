#!/usr/bin/env bash
# perft(5) from the start: nodes/s of kifu and of each peer crate (haitaka,
# shogi_legality_lite, shogi-rs), and kifu/peer, from one run on one machine.
#
#   benches/compare_engine.sh            # depth 5, best of 5 interleaved rounds
#   DEPTH=4 RUNS=3 benches/compare_engine.sh
#   SLOW_DEPTH=4 benches/compare_engine.sh   # shogi-rs at depth 4 (depth 5 takes ~1–2 min)
#
# The table is printed by the bench binary benches/compare_engine.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --quiet --bench compare_engine
