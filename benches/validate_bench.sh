#!/usr/bin/env bash
# Validation throughput: kifu validate against cshogi, rsshogi and
# `cat | wc -l` on the same CSA files, in one run on one machine.
#
#   benches/validate_bench.sh [DIR_OR_SIZE]
#
#   DIR_OR_SIZE  a directory holding files/ (one game per file) and big.csa
#                (one multi-game file), or a size for big.csa (default 1G);
#                data goes to $BENCH_DATA (default: target/bench-data under
#                the crate root) and is generated there by
#                benches/peers/gen_csa_corpus.py when missing (5,000 games,
#                seed 1; big.csa cycles through them).
#
# Environment: GAMES (default 5000), JOBS (default $(nproc)), SKIP_BIG=1 to
# leave out the big file, KIFU (path of a kifu binary; default: build
# target/release/kifu).
#
# Needs: python3 with benches/peers/requirements.txt (cshogi, rsshogi) and
# GNU time at /usr/bin/time for peak RSS (Debian package `time`; installed
# here with apt-get when missing).
#
# Every command runs under `/usr/bin/time -f '%e %M'` (wall seconds, peak
# RSS in KiB; the same figures `/usr/bin/time -v` prints as "Elapsed (wall
# clock)" and "Maximum resident set size"). Interpreter start-up is part of
# the peers' time, as process start-up is part of kifu's. Before timing,
# every input is read once so that all runs read from the page cache.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
arg="${1:-1G}"
games="${GAMES:-5000}"
jobs="${JOBS:-$(nproc)}"

if [[ -d "$arg" ]]; then
  data="$arg"
  size=""
else
  data="${BENCH_DATA:-$root/target/bench-data}"
  size="$arg"
fi
files="$data/files"
big="$data/big.csa"
mkdir -p "$data"

if [[ ! -x /usr/bin/time ]]; then
  echo "installing GNU time (Debian package 'time') for peak RSS" >&2
  apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y time >/dev/null; }
fi
python3 -c 'import cshogi, rsshogi' 2>/dev/null || pip install -q -r "$here/peers/requirements.txt"

# ---- data
if [[ ! -d "$files" ]] || [[ $(find "$files" -name '*.csa' | wc -l) -lt $games ]]; then
  rm -rf "$files"
  gen_big=()
  if [[ -z "${SKIP_BIG:-}" && -n "$size" ]]; then gen_big=(--big "$big" --big-size "$size"); fi
  python3 "$here/peers/gen_csa_corpus.py" --out "$files" --games "$games" --seed 1 "${gen_big[@]}"
elif [[ -z "${SKIP_BIG:-}" && -n "$size" && ! -f "$big" ]]; then
  tmp="$(mktemp -d)"
  python3 "$here/peers/gen_csa_corpus.py" --out "$tmp" --games "$games" --seed 1 --big "$big" --big-size "$size"
  rm -rf "$tmp"
fi

# ---- kifu
if [[ -z "${KIFU:-}" ]]; then
  (cd "$root" && cargo build --release --quiet --bin kifu)
  KIFU="$root/target/release/kifu"
fi

inputs=("files:$files")
if [[ -z "${SKIP_BIG:-}" && -f "$big" ]]; then inputs+=("big:$big"); fi

# Warm the page cache.
cat "$files"/*.csa > /dev/null
if [[ -f "$big" && -z "${SKIP_BIG:-}" ]]; then cat "$big" > /dev/null; fi

# Raw results and each run's stderr are kept beside the data.
results="$data/validate-results.tsv"
logs="$data/logs"
mkdir -p "$logs"
: > "$results"
out="$(mktemp)"
trap 'rm -f "$out" "$out.time"' EXIT
n=0

# run NAME INPUT JOBS KIND CMD...   (KIND: kifu | peer | wc)
run() {
  local name="$1" input="$2" j="$3" kind="$4"; shift 4
  n=$((n + 1))
  local err="$logs/$n-${name//[^a-z]/}-$input-j$j.stderr"
  echo "running: $* (stderr: $err)" >&2
  set +e
  /usr/bin/time -o "$out.time" -f '%e %M' "$@" > "$out" 2> "$err"
  local rc=$?
  set -e
  read -r secs rss < <(tail -n 1 "$out.time")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$input" "$j" "$kind" "$secs" "$rss" "$rc" \
    "$(python3 "$here/peers/count_output.py" "$kind" "$out")" >> "$results"
}

for spec in "${inputs[@]}"; do
  label="${spec%%:*}"; path="${spec#*:}"
  run kifu "$label" 1 kifu "$KIFU" validate --format json -j1 "$path"
  run kifu "$label" "$jobs" kifu "$KIFU" validate --format json -j"$jobs" "$path"
  run cshogi "$label" 1 peer python3 "$here/peers/validate_cshogi.py" "$path"
  run rsshogi "$label" 1 peer python3 "$here/peers/validate_rsshogi.py" "$path"
  if [[ "$label" == files ]]; then
    run cshogi "$label" "$jobs" peer python3 "$here/peers/validate_cshogi.py" -j"$jobs" "$path"
    run rsshogi "$label" "$jobs" peer python3 "$here/peers/validate_rsshogi.py" -j"$jobs" "$path"
    run "cat * | wc -l" "$label" 1 wc bash -c "cd '$path' && cat * | wc -l"
  else
    run "cat | wc -l" "$label" 1 wc bash -c "cat '$path' | wc -l"
  fi
done

if [[ -n "${SKIP_BIG:-}" ]]; then big=""; fi
python3 "$here/peers/validate_table.py" "$results" "$files" "$big"
