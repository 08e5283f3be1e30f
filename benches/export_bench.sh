#!/usr/bin/env bash
# Export throughput: `kifu export --to hcpe` against `kifu validate` and
# against a cshogi loop that parses the same CSA files and writes hcpe
# (tests/support/export_cshogi.py write), in one run on one machine.
#
#   benches/export_bench.sh [DIR]
#
#   DIR  a folder of CSA files (default: $BENCH_DATA/files, made by
#        benches/peers/gen_csa_corpus.py, 5,000 games, seed 1, as
#        benches/validate_bench.sh makes it; BENCH_DATA defaults to
#        target/bench-data under the crate root)
#
# Environment: ROUNDS (default 5; rounds are interleaved, and the median
# and the best time of each command are shown), KIFU (path of a kifu
# binary; default: build target/release/kifu), KIFU_BEFORE (optional: a
# second kifu binary, e.g. one built from an earlier commit, whose export
# is timed in the same rounds for a before/after comparison), PYTHON (a
# Python with cshogi; default python3, with
# tests/support/export-requirements.txt installed when missing).
#
# Every command runs at -j1 (one core), timed in wall seconds with bash's
# EPOCHREALTIME (interpreter start-up is part of the peer's time, process
# start-up part of kifu's), on inputs read once before so that they come
# from the page cache; kifu writes its records to a file on the same
# filesystem as the data (through its output planner: atomic, synced when
# the command ends), cshogi to another. The `/dev/null` row is export's
# throughput alone (no page-cache copy, no final fsync); the file row adds
# both, so their difference is what writing the file costs. Moves per second are the moves of
# the folder (the records kifu writes: one per move of every decided game)
# over the seconds. Targets (issue 28): export at least 0.8x validate's
# moves per second, and at least 10x the cshogi loop's.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
data="${BENCH_DATA:-$root/target/bench-data}"
dir="${1:-$data/files}"
rounds="${ROUNDS:-5}"
python="${PYTHON:-python3}"

"$python" -c 'import cshogi' 2>/dev/null || "$python" -m pip install -q -r "$root/tests/support/export-requirements.txt"

if [[ ! -d "$dir" ]]; then
  "$python" "$here/peers/gen_csa_corpus.py" --out "$dir" --games 5000 --seed 1
fi
if [[ -z "${KIFU:-}" ]]; then
  (cd "$root" && cargo build --release --quiet --bin kifu)
  KIFU="$root/target/release/kifu"
fi

work="$(mktemp -d "$data/export-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cat "$dir"/*.csa > /dev/null
mapfile -t files < <(find "$dir" -name '*.csa' | sort)

# The moves: kifu's summary line counts the records it wrote.
"$KIFU" export -j1 "$dir" --to hcpe -o "$work/count.hcpe" 2> "$work/count.err" || true
moves="$(grep -o '([0-9]* records)' "$work/count.err" | tr -dc 0-9)"
rm -f "$work/count.hcpe"

declare -A times
time_it() {
  local name="$1"; shift
  local t0=$EPOCHREALTIME
  "$@" > /dev/null 2> "$work/err" || true
  local t1=$EPOCHREALTIME
  times[$name]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b-a}') "
}
# The median (middle of the sorted times; the mean of the two middle ones
# for an even count) and the best of a command's times.
median() { tr ' ' '\n' <<< "${times[$1]}" | grep . | sort -g | awk '{a[NR]=$1} END{printf "%.3f", (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
best() { tr ' ' '\n' <<< "${times[$1]}" | grep . | sort -g | head -1 | awk '{printf "%.3f", $1}'; }

for r in $(seq "$rounds"); do
  time_it validate "$KIFU" validate -q -j1 "$dir"
  time_it export "$KIFU" export -j1 "$dir" --to hcpe --force -o "$work/kifu.hcpe"
  time_it export_null "$KIFU" export -j1 "$dir" --to hcpe -o /dev/null
  if [[ -n "${KIFU_BEFORE:-}" ]]; then
    time_it before "$KIFU_BEFORE" export -j1 "$dir" --to hcpe --force -o "$work/before.hcpe"
    time_it before_null "$KIFU_BEFORE" export -j1 "$dir" --to hcpe -o /dev/null
  fi
  time_it cshogi "$python" "$root/tests/support/export_cshogi.py" write --layout hcpe -o "$work/cshogi.hcpe" "${files[@]}"
done

cmp -s "$work/kifu.hcpe" "$work/cshogi.hcpe" && same="identical" || same="DIFFERENT"
echo "folder: $dir (${#files[@]} files, $moves moves); $rounds interleaved rounds, -j1"
printf '%-56s %8s %8s %12s\n' command median best "moves/s (median)"
row() {
  local m; m="$(median "$1")"
  printf '%-56s %8s %8s %12.0f\n' "$2" "$m" "$(best "$1")" "$(awk -v n="$moves" -v s="$m" 'BEGIN{print n/s}')"
}
row validate "kifu validate -q -j1 DIR"
row export "kifu export -j1 DIR --to hcpe -o FILE"
row export_null "kifu export -j1 DIR --to hcpe -o /dev/null"
if [[ -n "${KIFU_BEFORE:-}" ]]; then
  row before "KIFU_BEFORE export -j1 DIR --to hcpe -o FILE"
  row before_null "KIFU_BEFORE export -j1 DIR --to hcpe -o /dev/null"
fi
row cshogi "cshogi loop (export_cshogi.py write --layout hcpe)"
awk -v e="$(median export)" -v n="$(median export_null)" -v v="$(median validate)" -v c="$(median cshogi)" 'BEGIN{
  printf "export / validate moves/s (medians): %.2fx to a file, %.2fx to /dev/null (target >= 0.8)\n", v/e, v/n;
  printf "export / cshogi loop moves/s (medians): %.1fx (target >= 10)\n", c/e }'
if [[ -n "${KIFU_BEFORE:-}" ]]; then
  awk -v e="$(median before)" -v n="$(median before_null)" -v v="$(median validate)" 'BEGIN{
    printf "KIFU_BEFORE export / validate moves/s (medians): %.2fx to a file, %.2fx to /dev/null\n", v/e, v/n }'
  cmp -s "$work/kifu.hcpe" "$work/before.hcpe" && echo "KIFU_BEFORE's hcpe: identical" || echo "KIFU_BEFORE's hcpe: DIFFERENT"
fi
echo "kifu's and cshogi's hcpe: $same"
