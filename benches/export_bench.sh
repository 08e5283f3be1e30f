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
# Environment: ROUNDS (default 5; rounds are interleaved and the best time
# of each command is kept), KIFU (path of a kifu binary; default: build
# target/release/kifu), PYTHON (a Python with cshogi; default python3,
# with tests/support/export-requirements.txt installed when missing).
#
# Every command runs at -j1 (one core), timed in wall seconds with bash's
# EPOCHREALTIME (interpreter start-up is part of the peer's time, process
# start-up part of kifu's), on inputs read once before so that they come
# from the page cache; kifu writes its records to a file on the same
# filesystem as the data (through its output planner: atomic, synced when
# the command ends), cshogi to another. Moves per second are the moves of
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

declare -A best
time_it() {
  local name="$1"; shift
  local t0=$EPOCHREALTIME
  "$@" > /dev/null 2> "$work/err" || true
  local t1=$EPOCHREALTIME
  local s; s="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')"
  if [[ -z "${best[$name]:-}" ]] || awk -v a="$s" -v b="${best[$name]}" 'BEGIN{exit !(a<b)}'; then
    best[$name]="$s"
  fi
}

for r in $(seq "$rounds"); do
  time_it validate "$KIFU" validate -q -j1 "$dir"
  time_it export "$KIFU" export -j1 "$dir" --to hcpe --force -o "$work/kifu.hcpe"
  time_it export_null "$KIFU" export -j1 "$dir" --to hcpe -o /dev/null
  time_it cshogi "$python" "$root/tests/support/export_cshogi.py" write --layout hcpe -o "$work/cshogi.hcpe" "${files[@]}"
done

cmp -s "$work/kifu.hcpe" "$work/cshogi.hcpe" && same="identical" || same="DIFFERENT"
echo "folder: $dir (${#files[@]} files, $moves moves); best of $rounds interleaved rounds, -j1"
printf '%-60s %8s %12s\n' command seconds moves/s
printf '%-60s %8s %12.0f\n' "kifu validate -q -j1 DIR" "${best[validate]}" "$(awk -v m="$moves" -v s="${best[validate]}" 'BEGIN{print m/s}')"
printf '%-60s %8s %12.0f\n' "kifu export -j1 DIR --to hcpe -o FILE" "${best[export]}" "$(awk -v m="$moves" -v s="${best[export]}" 'BEGIN{print m/s}')"
printf '%-60s %8s %12.0f\n' "kifu export -j1 DIR --to hcpe -o /dev/null" "${best[export_null]}" "$(awk -v m="$moves" -v s="${best[export_null]}" 'BEGIN{print m/s}')"
printf '%-60s %8s %12.0f\n' "cshogi loop (export_cshogi.py write --layout hcpe)" "${best[cshogi]}" "$(awk -v m="$moves" -v s="${best[cshogi]}" 'BEGIN{print m/s}')"
awk -v e="${best[export]}" -v n="${best[export_null]}" -v v="${best[validate]}" -v c="${best[cshogi]}" 'BEGIN{
  printf "export / validate moves/s: %.2fx to a file, %.2fx to /dev/null (target >= 0.8)\n", v/e, v/n;
  printf "export / cshogi loop moves/s: %.1fx (target >= 10)\n", c/e }'
echo "kifu's and cshogi's hcpe: $same"
