#!/usr/bin/env bash
# The cost of the replay's observers (issue 37), in one interleaved run:
#   names     `kifu stats` / `kifu stats --no-tags` (target ≤ 1.10x) on
#             whole Shogi Wars games and on 24-ply openings;
#   stats     `kifu stats` / `kifu validate` (target ≤ 1.3x) on generated
#             CSA files and the same games as KIF;
#   export    `kifu validate` CPU / `kifu export --to hcpe` CPU, that is
#             export's moves per second over validate's (target ≥ 0.8x),
#             on the same CSA and KIF files.
# CPU seconds (user + system, /usr/bin/time), -j1, median of N rounds; in
# each round every command runs once on every data set (interleaved, so
# that a loaded machine slows all of them alike).
#
#   N=5 KIFU=target/release/kifu benches/observers.sh
#
# Data (made once under $DATA, default ${TMPDIR:-/tmp}/kifu-observers):
#   wars/     the Shogi Wars games of ../shared/corpus (index.csv rows
#             under pyshogi-db/wars/) copied 100 times, one game a file;
#   open.usi  the same games cut to 24 plies (`kifu convert --to usi`,
#             then the first 24 moves of each), 300 times over;
#   csa/      5,000 generated CSA games (benches/peers/gen_csa_corpus.py,
#             seed 1; needs python3 with cshogi: PYTHON=...);
#   kif/      the same games as KIF (`kifu convert --to kifu --out-dir`).
# KIFU_BEFORE="binary..." adds their figures for the same commands in the
# same rounds (before/after). NAMES=0 leaves out the names sets (wars,
# open.usi): only the stats/validate and export/validate ratios.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
K=$(realpath "${KIFU:-$root/target/release/kifu}")
N=${N:-5}
NAMES=${NAMES:-1}
names_sets="wars open.usi"
[ "$NAMES" = 0 ] && names_sets=""
DATA=${DATA:-${TMPDIR:-/tmp}/kifu-observers}
PYTHON=${PYTHON:-python3}
corpus="$root/../shared/corpus"
mkdir -p "$DATA"
if [ ! -d "$DATA/wars" ]; then
  [ -f "$corpus/index.csv" ] || { echo "no $corpus/index.csv" >&2; exit 2; }
  mkdir -p "$DATA/wars.tmp"
  grep '^pyshogi-db/wars/' "$corpus/index.csv" | cut -d, -f1 > "$DATA/wars.list"
  for i in $(seq 1 100); do
    while read -r f; do cp "$corpus/$f" "$DATA/wars.tmp/$i-$(basename "$f")"; done < "$DATA/wars.list"
  done
  mv "$DATA/wars.tmp" "$DATA/wars"
fi
if [ ! -f "$DATA/open.usi" ]; then
  sed "s#^#$corpus/#" "$DATA/wars.list" > "$DATA/wars.paths"
  xargs -d '\n' "$K" convert -j1 --to usi -o "$DATA/wars.usi" < "$DATA/wars.paths" 2>/dev/null || true
  awk '{ if (NF > 28) NF = 28; print }' "$DATA/wars.usi" > "$DATA/open1.usi"
  for i in $(seq 1 300); do cat "$DATA/open1.usi"; done > "$DATA/open.usi"
fi
if [ ! -d "$DATA/csa" ]; then
  "$PYTHON" "$root/benches/peers/gen_csa_corpus.py" --out "$DATA/csa" --games 5000 --seed 1 >/dev/null
fi
if [ ! -d "$DATA/kif" ]; then
  "$K" convert -j1 --to kifu --out-dir "$DATA/kif" "$DATA/csa" >/dev/null 2>&1 || true
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# CPU seconds of one run.
cpu() {
  /usr/bin/time -o "$out/t" -f '%U %S' "$@" >/dev/null 2>&1 || true
  awk '{ printf "%.3f\n", $1 + $2 }' "$out/t"
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
bins=("$K")
for b in ${KIFU_BEFORE:-}; do bins+=("$(realpath "$b")"); done
declare -A t
for _ in $(seq "$N"); do
  for b in "${bins[@]}"; do
    for d in $names_sets; do
      t[$b,$d,stats]+=" $(cpu "$b" stats -j1 "$DATA/$d" -o "$out/g.csv" --force)"
      t[$b,$d,notags]+=" $(cpu "$b" stats -j1 --no-tags "$DATA/$d" -o "$out/g.csv" --force)"
    done
    for d in csa kif; do
      t[$b,$d,validate]+=" $(cpu "$b" validate -j1 "$DATA/$d")"
      t[$b,$d,stats]+=" $(cpu "$b" stats -j1 "$DATA/$d" -o "$out/g.csv" --force)"
      t[$b,$d,export]+=" $(cpu "$b" export -j1 --to hcpe "$DATA/$d" -o "$out/x.hcpe" --force)"
    done
  done
done
m() { median ${t[$1]}; }
for b in "${bins[@]}"; do
  echo "== $b (CPU s, median of $N, -j1)"
  for d in $names_sets; do
    s=$(m "$b,$d,stats") n=$(m "$b,$d,notags")
    awk -v d="$d" -v s="$s" -v n="$n" 'BEGIN { printf "names  %-8s stats %.3f  --no-tags %.3f  ratio %.3fx (target <= 1.10)\n", d, s, n, s / n }'
  done
  for d in csa kif; do
    v=$(m "$b,$d,validate") s=$(m "$b,$d,stats") e=$(m "$b,$d,export")
    awk -v d="$d" -v v="$v" -v s="$s" -v e="$e" 'BEGIN {
      printf "stats  %-8s stats %.3f  validate %.3f  ratio %.3fx (target <= 1.3)\n", d, s, v, s / v
      printf "export %-8s export %.3f  validate %.3f  moves/s %.3fx of validate (target >= 0.8)\n", d, e, v, v / e }'
  done
done
