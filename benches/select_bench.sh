#!/usr/bin/env bash
# Selecting against validating, on the same files in one run (issue 11):
# `kifu select` with header filters and with --position against
# `kifu validate`, and the memory `--duplicates` takes per game.
#
#   benches/select_bench.sh
#
# Data: $BENCH_DATA (default target/select-bench)/files, 5,000 one-game CSA
# files made by benches/peers/gen_csa_corpus.py (seed 1) when missing (needs
# $PYTHON, default python3, with cshogi: benches/peers/requirements.txt). For memory, one
# USI file of $MANY games (default 400000) is made from them, every game cut
# at a different length per copy so that the games are distinct, and read
# with --count and with --duplicates.
#
# Environment: JOBS (default $(nproc)), RUNS (default 3; the best wall time
# is kept), REPEAT (default 4: the folder is given that many times, so each
# command reads 20,000 games), MANY, KIFU (a kifu binary; default: build
# target/release/kifu).
#
# Every command runs under GNU time (wall seconds, user + system CPU
# seconds, peak RSS in KiB) after the inputs were read once into the page
# cache; ratios are against `kifu validate -q` on the same files in the same
# run. On a machine shared with other work, the CPU ratio is the steadier.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
data="${BENCH_DATA:-$root/target/select-bench}"
py="${PYTHON:-python3}"
files="$data/files"
jobs="${JOBS:-$(nproc)}"
runs="${RUNS:-3}"
many="${MANY:-400000}"
repeat="${REPEAT:-4}"

if [[ ! -x /usr/bin/time ]]; then
  echo "installing GNU time (Debian package 'time') for peak RSS" >&2
  apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y time >/dev/null; }
fi
if [[ ! -d "$files" ]] || [[ $(find "$files" -name '*.csa' | wc -l) -lt 5000 ]]; then
  "$py" -c 'import cshogi' 2>/dev/null || "$py" -m pip install -q -r "$here/peers/requirements.txt"
  rm -rf "$files"
  "$py" "$here/peers/gen_csa_corpus.py" --out "$files" --games 5000 --seed 1
fi
if [[ -z "${KIFU:-}" ]]; then
  (cd "$root" && cargo build --release --quiet --bin kifu)
  KIFU="$root/target/release/kifu"
fi
cat "$files"/*.csa > /dev/null
set_args=()
for _ in $(seq "$repeat"); do set_args+=("$files"); done

# A position some games reach: the one after the first two plies of the
# first game (found with kifu itself), and a position none reaches.
first="$(ls "$files" | sed -n 1p)"
reached="$("$KIFU" convert "$files/$first" --to usi 2>/dev/null | awk '{print "position startpos moves " $4 " " $5}' \
  | "$KIFU" validate --format json --from usi - | "$py" -c 'import json,sys; print(json.loads(sys.stdin.readline())["final_sfen"])')"
unreached='lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/1PPPPPPPP/1B5R1/LNSGKGSNL w - 2'

best() { # prints "wall_s cpu_s rss_kib": the fastest wall time and the least CPU time (user + system) of $runs runs of "$@", and the peak RSS of the fastest
  local b="" cpu="" r="" tf
  tf="$(mktemp)"
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$tf" -f '%e %U %S %M' "$@" >/dev/null 2>/dev/null || true
    local t w c
    t="$(tail -1 "$tf")"
    read -r w u sy rss <<< "$t"
    c="$(awk "BEGIN{print $u + $sy}")"
    if [[ -z "$b" ]] || awk "BEGIN{exit !($w < $b)}"; then b="$w"; r="$rss"; fi
    if [[ -z "$cpu" ]] || awk "BEGIN{exit !($c < $cpu)}"; then cpu="$c"; fi
  done
  rm -f "$tf"
  echo "$b $cpu $r"
}

printf '%-58s %7s %7s %9s %6s %6s\n' "command (${jobs} jobs, $repeat x $(ls "$files" | wc -l) files)" "wall s" "CPU s" "RSS KiB" "wall x" "CPU x"
base="$(best "$KIFU" validate -q -j "$jobs" "${set_args[@]}")"
read -r bw bc brss <<< "$base"
printf '%-58s %7s %7s %9s %6s %6s\n' "validate -q" "$bw" "$bc" "$brss" "1.00" "1.00"
row() {
  local label="$1"; shift
  local r w c rss
  r="$(best "$@")"
  read -r w c rss <<< "$r"
  printf '%-58s %7s %7s %9s %6.2f %6.2f\n' "$label" "$w" "$c" "$rss" "$(awk "BEGIN{print $w / $bw}")" "$(awk "BEGIN{print $c / $bc}")"
}
row "select --player Sente00042 --since 2024-03 (few match)" "$KIFU" select -j "$jobs" "${set_args[@]}" --player Sente00042 --since 2024-03
row "select --player sente --event benchmark (all match)" "$KIFU" select -j "$jobs" "${set_args[@]}" --player sente --event benchmark
row "select --result sente_win --min-plies 90" "$KIFU" select -j "$jobs" "${set_args[@]}" --result sente_win --min-plies 90
row "select --position (reached at ply 2 by some)" "$KIFU" select -j "$jobs" "${set_args[@]}" --position "$reached"
row "select --position (reached by none: every ply compared)" "$KIFU" select -j "$jobs" "${set_args[@]}" --position "$unreached"
row "select --duplicates" "$KIFU" select -j "$jobs" "${set_args[@]}" --duplicates
row "select --pattern (sente's king on 6八-7八 by ply 40)" "$KIFU" select -j "$jobs" "${set_args[@]}" --pattern 'K[6-7]8' --pattern-ply ..40
row "select --pattern (held by none: every ply tested)" "$KIFU" select -j "$jobs" "${set_args[@]}" --pattern 'K11 k99'
row "select --contained" "$KIFU" select -j "$jobs" "${set_args[@]}" --contained
row "validate --format json (game_key in every object)" "$KIFU" validate --format json -j "$jobs" "${set_args[@]}"

# ---- memory of --duplicates per game
usi="$data/select-many.usi"
small="$data/select-5000.usi"
if [[ ! -f "$usi" ]] || [[ $(wc -l < "$usi") -ne $many ]]; then
  "$KIFU" convert "$files" --to usi -o "$small.tmp" --force 2>/dev/null
  mv "$small.tmp" "$small"
  "$py" - "$small" "$usi" "$many" <<'EOF'
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
read -r cw _ crss <<< "$c"
read -r dw _ drss <<< "$d"
# The same file read the same way, with and without --duplicates: the
# difference is what remembering the games costs.
e="$(best "$KIFU" select -j "$jobs" "$usi" --contained)"
read -r ew _ erss <<< "$e"
printf '%s games in one USI file: select --contained %s s, %s KiB\n' "$n" "$ew" "$erss"
printf '\n%s games in one USI file: select --count %s s, %s KiB; select --duplicates %s s, %s KiB: %.1f bytes per game\n' \
  "$n" "$cw" "$crss" "$dw" "$drss" "$(awk "BEGIN{print ($drss - $crss) * 1024 / $n}")"
