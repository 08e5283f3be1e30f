#!/usr/bin/env bash
# What naming openings and castles costs `kifu stats` (issue 29: at most
# 1.1x): the same binary run with and without the names (`--no-tags`),
# interleaved, best of N, on each data set given; prints the wall and the
# CPU (user + system) seconds of both and their ratios.
#   N=9 KIFU=target/release/kifu benches/tags_bench.sh DIR_OR_FILE...
# Default data (needs ../shared/corpus): the 297 Shogi Wars games of
# pyshogi-db copied 20 times into one folder (5,940 one-game KIF files,
# whole games), and tanuki-coliseum's 10,818 openings in one SFEN file
# (24 plies each: every move inside the naming window, the worst case).
set -u
K=$(realpath "${KIFU:-target/release/kifu}")
N=${N:-9}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="$root/../shared/corpus"
if [ $# -eq 0 ]; then
  [ -d "$corpus/pyshogi-db/wars" ] || { echo "no data given and $corpus is absent" >&2; exit 2; }
  wars="${TMPDIR:-/tmp}/kifu-tags-bench-wars"
  if [ ! -d "$wars" ]; then
    mkdir -p "$wars"
    for i in $(seq 1 20); do
      for f in "$corpus"/pyshogi-db/wars/*.kif; do cp "$f" "$wars/$i-$(basename "$f")"; done
    done
  fi
  set -- "$wars" "$corpus/tanuki-coliseum/records2016_10818.sfen"
fi
# Seconds (wall, cpu) of one run, as two numbers.
one() {
  local f
  f=$(mktemp)
  /usr/bin/time -o "$f" -f '%e %U %S' "$@" >/dev/null 2>&1
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$f"
  rm -f "$f"
}
for d in "$@"; do
  bw=999; bc=999; nw=999; nc=999
  for _ in $(seq "$N"); do
    read -r w c < <(one "$K" stats -j1 "$d")
    bw=$(awk -v a="$bw" -v b="$w" 'BEGIN{print (b<a)?b:a}'); bc=$(awk -v a="$bc" -v b="$c" 'BEGIN{print (b<a)?b:a}')
    read -r w c < <(one "$K" stats -j1 --no-tags "$d")
    nw=$(awk -v a="$nw" -v b="$w" 'BEGIN{print (b<a)?b:a}'); nc=$(awk -v a="$nc" -v b="$c" 'BEGIN{print (b<a)?b:a}')
  done
  awk -v d="$d" -v bw="$bw" -v bc="$bc" -v nw="$nw" -v nc="$nc" 'BEGIN {
    printf "%s: stats %.2f s wall / %.2f s cpu; --no-tags %.2f / %.2f; ratio wall %.2fx, cpu %.2fx\n",
      d, bw, bc, nw, nc, bw / nw, (nc > 0 ? bc / nc : 0) }'
done
