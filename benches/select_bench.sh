#!/usr/bin/env bash
# Selecting against validating, on the same files in one run (issue 11):
# `kifu select` with header filters and with --position against
# `kifu validate`, and the memory `--duplicates` takes per game.
#
#   benches/select_bench.sh
#
# Data: $BENCH_DATA (default /work/bench-data)/files, 5,000 one-game CSA
# files made by benches/peers/gen_csa_corpus.py (seed 1) when missing (needs
# python3 with cshogi: benches/peers/requirements.txt). For memory, one
# USI file of $MANY games (default 400000) is made from them, every game cut
# at a different length per copy so that the games are distinct, and read
# with --count and with --duplicates.
#
# Environment: JOBS (default $(nproc)), RUNS (default 3; the best wall time
# is kept), MANY, KIFU (a kifu binary; default: build target/release/kifu).
#
# Every command runs under `/usr/bin/time -f '%e %M'` (wall seconds, peak
# RSS in KiB) after the inputs were read once into the page cache; ratios
# are against `kifu validate -q` on the same files in the same run.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
data="${BENCH_DATA:-/work/bench-data}"
files="$data/files"
jobs="${JOBS:-$(nproc)}"
runs="${RUNS:-3}"
many="${MANY:-400000}"

if [[ ! -x /usr/bin/time ]]; then
  echo "installing GNU time (Debian package 'time') for peak RSS" >&2
  apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y time >/dev/null; }
fi
if [[ ! -d "$files" ]] || [[ $(find "$files" -name '*.csa' | wc -l) -lt 5000 ]]; then
  python3 -c 'import cshogi' 2>/dev/null || pip install -q -r "$here/peers/requirements.txt"
  rm -rf "$files"
  python3 "$here/peers/gen_csa_corpus.py" --out "$files" --games 5000 --seed 1
fi
if [[ -z "${KIFU:-}" ]]; then
  (cd "$root" && cargo build --release --quiet --bin kifu)
  KIFU="$root/target/release/kifu"
fi
cat "$files"/*.csa > /dev/null

# A position some games reach: the one after the first two plies of the
# first game (found with kifu itself), and a position none reaches.
first="$(ls "$files" | sed -n 1p)"
reached="$("$KIFU" convert "$files/$first" --to usi 2>/dev/null | awk '{print "position startpos moves " $4 " " $5}' \
  | "$KIFU" validate --format json --from usi - | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["final_sfen"])')"
unreached='lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/1PPPPPPPP/1B5R1/LNSGKGSNL w - 2'

best() { # prints "wall_s rss_kib" of the fastest of $runs runs of "$@"
  local b="" r="" tf
  tf="$(mktemp)"
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$tf" -f '%e %M' "$@" >/dev/null 2>/dev/null || true
    local t w
    t="$(tail -1 "$tf")"
    w="${t%% *}"
    if [[ -z "$b" ]] || awk "BEGIN{exit !($w < $b)}"; then b="$w"; r="${t##* }"; fi
  done
  rm -f "$tf"
  echo "$b $r"
}

printf '%-58s %8s %10s %7s\n' "command (${jobs} jobs, $(ls "$files" | wc -l) files)" "wall s" "RSS KiB" "ratio"
base="$(best "$KIFU" validate -q -j "$jobs" "$files")"
bw="${base%% *}"
printf '%-58s %8s %10s %7s\n' "validate -q" "$bw" "${base##* }" "1.00"
row() {
  local label="$1"; shift
  local r; r="$(best "$@")"
  local w="${r%% *}"
  printf '%-58s %8s %10s %7.2f\n' "$label" "$w" "${r##* }" "$(awk "BEGIN{print $w / $bw}")"
}
row "select --player Sente00042 --since 2024-03 (few match)" "$KIFU" select -j "$jobs" "$files" --player Sente00042 --since 2024-03
row "select --player sente --event benchmark (all match)" "$KIFU" select -j "$jobs" "$files" --player sente --event benchmark
row "select --result sente_win --min-plies 90" "$KIFU" select -j "$jobs" "$files" --result sente_win --min-plies 90
row "select --position (reached at ply 2 by some)" "$KIFU" select -j "$jobs" "$files" --position "$reached"
row "select --position (reached by none: every ply compared)" "$KIFU" select -j "$jobs" "$files" --position "$unreached"
row "select --duplicates" "$KIFU" select -j "$jobs" "$files" --duplicates
row "validate --format json (game_key in every object)" "$KIFU" validate --format json -j "$jobs" "$files"

# ---- memory of --duplicates per game
usi="$data/select-many.usi"
small="$data/select-5000.usi"
if [[ ! -f "$usi" ]] || [[ $(wc -l < "$usi") -ne $many ]]; then
  "$KIFU" convert "$files" --to usi -o "$small.tmp" --force 2>/dev/null
  mv "$small.tmp" "$small"
  python3 - "$small" "$usi" "$many" <<'EOF'
import sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
games = [l.split() for l in open(src) if l.startswith("position")]
with open(dst, "w") as out:
    i = 0
    while i < n:
        for g in games:
            if i >= n:
                break
            cut = len(g) - (i // len(games))   # copy k drops k moves: distinct games
            out.write(" ".join(g[:max(cut, 4)]) + "\n")
            i += 1
EOF
fi
cat "$usi" > /dev/null
c="$(best "$KIFU" select -j "$jobs" "$usi" --count)"
d="$(best "$KIFU" select -j "$jobs" "$usi" --duplicates)"
n="$(wc -l < "$usi")"
# The same file read the same way, with and without --duplicates: the
# difference is what remembering the games costs.
printf '\n%s games in one USI file: select --count %s s, %s KiB; select --duplicates %s s, %s KiB: %.1f bytes per game\n' \
  "$n" "${c%% *}" "${c##* }" "${d%% *}" "${d##* }" "$(awk "BEGIN{print (${d##* } - ${c##* }) * 1024 / $n}")"
