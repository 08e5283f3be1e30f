#!/usr/bin/env bash
# kifu tree against kifu validate on the same games (issue 40: the tree
# costs at most 1.5x validate, and at most 500 MB).
#
#   benches/tree_bench.sh [GAMES]
#
# GAMES (default 100000) random legal games from
# benches/peers/gen_csa_corpus.py (cshogi; seed 1, 80..120 plies, one
# multi-game file holding each game once) under $BENCH_DATA (default
# target/bench-data/tree-GAMES). One run of each, interleaved:
# validate, tree, validate, tree (the second pair shown too), each under
# `/usr/bin/time -f '%e %U %S %M'` (wall s, user s, system s, peak KiB).
# Environment: JOBS (default 2), PLIES (default 30), KIFU (binary;
# default target/release/kifu), PYTHON (with cshogi).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
games="${1:-100000}"
jobs="${JOBS:-2}"
plies="${PLIES:-30}"
kifu="${KIFU:-$root/target/release/kifu}"
py="${PYTHON:-python3}"
data="${BENCH_DATA:-$root/target/bench-data/tree-$games}"
big="$data/big.csa"
if [[ ! -f "$big" ]]; then
  mkdir -p "$data"
  tmp="$(mktemp -d)"
  "$py" "$here/peers/gen_csa_corpus.py" --out "$tmp" --games "$games" --seed 1
  # One multi-game file, each game once, `/` between games.
  # (One process over the sorted list: `xargs awk` split the list over
  # several awk runs and lost the `/` at each split.)
  "$py" - "$tmp" "$big" <<'PY'
import pathlib, sys
files = sorted(pathlib.Path(sys.argv[1]).rglob("*.csa"))
with open(sys.argv[2], "w", encoding="ascii", newline="") as out:
    for i, f in enumerate(files):
        text = f.read_text(encoding="ascii")
        if i:
            out.write("/\n")
        out.write(text if text.endswith("\n") else text + "\n")
PY
  rm -rf "$tmp"
fi
cat "$big" > /dev/null
t() { /usr/bin/time -f "%e s wall  %U s user  %S s sys  %M KB" "$@" > /dev/null; }
echo "games: $games ($(du -h "$big" | cut -f1)), -j$jobs, --plies $plies"
for round in 1 2; do
  echo "round $round"
  echo -n "  validate: "; t "$kifu" validate -j"$jobs" --quiet "$big" 2>&1 >/dev/null | tail -1 || true
  echo -n "  tree:     "; t "$kifu" tree -j"$jobs" --plies "$plies" --format json -o /dev/null "$big" 2>&1 | tail -1
  echo -n "  tree --min-games 10 (html): "; t "$kifu" tree -j"$jobs" --plies "$plies" --min-games 10 --format html -o /dev/null "$big" 2>&1 | tail -1
done
