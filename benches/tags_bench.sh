#!/usr/bin/env bash
# What naming openings and castles costs `kifu stats` (issue 29: at most
# 1.1x): the same binary run with and without the names (`--no-tags`),
# interleaved, -j1, median of N runs, on each data set given; prints the
# wall and the CPU (user + system) seconds of both and their ratios.
#   N=9 KIFU=target/release/kifu benches/tags_bench.sh DIR_OR_FILE...
# Default data (needs ../shared/corpus): the 297 Shogi Wars games of
# pyshogi-db copied 100 times into one folder (29,700 one-game KIF files,
# whole games), and tanuki-coliseum's 10,818 openings ten times in one
# SFEN file (108,180 games of 24 plies: every move inside the naming
# window, the worst case). Runs last about a second each, so that the
# 10 ms resolution of the timer is 1%.
set -u
K=$(realpath "${KIFU:-target/release/kifu}")
N=${N:-9}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="$root/../shared/corpus"
if [ $# -eq 0 ]; then
  [ -d "$corpus/pyshogi-db/wars" ] || { echo "no data given and $corpus is absent" >&2; exit 2; }
  wars="${TMPDIR:-/tmp}/kifu-tags-bench-wars100"
  if [ ! -d "$wars" ]; then
    mkdir -p "$wars"
    for i in $(seq 1 100); do
      for f in "$corpus"/pyshogi-db/wars/*.kif; do cp "$f" "$wars/$i-$(basename "$f")"; done
    done
  fi
  tanuki="${TMPDIR:-/tmp}/kifu-tags-bench-tanuki10.sfen"
  if [ ! -f "$tanuki" ]; then
    for i in $(seq 1 10); do cat "$corpus/tanuki-coliseum/records2016_10818.sfen"; done > "$tanuki"
  fi
  set -- "$wars" "$tanuki"
fi
# Seconds (wall, cpu) of one run, as two numbers.
one() {
  local f
  f=$(mktemp)
  /usr/bin/time -o "$f" -f '%e %U %S' "$@" >/dev/null 2>&1
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$f"
  rm -f "$f"
}
# The median of the numbers given.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for d in "$@"; do
  tw=(); tc=(); nw=(); nc=()
  for _ in $(seq "$N"); do
    read -r w c < <(one "$K" stats -j1 "$d")
    tw+=("$w"); tc+=("$c")
    read -r w c < <(one "$K" stats -j1 --no-tags "$d")
    nw+=("$w"); nc+=("$c")
  done
  awk -v d="$d" -v n="$N" -v bw="$(median "${tw[@]}")" -v bc="$(median "${tc[@]}")" \
      -v nw="$(median "${nw[@]}")" -v nc="$(median "${nc[@]}")" 'BEGIN {
    printf "%s (median of %d): stats %.2f s wall / %.2f s cpu; --no-tags %.2f / %.2f; ratio wall %.3fx, cpu %.3fx\n",
      d, n, bw, bc, nw, nc, bw / nw, (nc > 0 ? bc / nc : 0) }'
done
