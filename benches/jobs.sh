#!/usr/bin/env bash
# -j2 against -j1 on many small files: `kifu validate` and the Python
# package's `kifu.validate(..., jobs=N)`, in interleaved rounds, with the
# CPU time of every thread (benches/thread_cpu.py), which does not depend
# on how loaded the machine is.
#
#   benches/jobs.sh [N]
#
#   N  one-game CSA files (default 20000), made by benches/gen_floodgate.py
#      --flat under $BENCH_DATA/jobs-N (default target/bench; kept).
#
# Environment: KIFU (a kifu binary; default: build target/release/kifu),
# ROUNDS (default 5), PYKIFU (a folder holding the `kifu` Python package,
# put first on PYTHONPATH; default: the installed one; the Python rounds are
# skipped, said so, when it cannot be imported).
#
# For each command it prints the median wall time of the rounds, the
# median ratio -j1/-j2 of the rounds (each round runs -j1 and -j2 back to
# back, so a change of load hits both), and one line of per-thread CPU:
# `bound` is the Amdahl bound of the speed-up on 2 cores for that split of
# the work (total CPU / max(busiest non-worker thread, total / 2)).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
n="${1:-20000}"
rounds="${ROUNDS:-5}"
data="${BENCH_DATA:-$root/target/bench}/jobs-$n"

kifu="${KIFU:-}"
if [[ -z "$kifu" ]]; then
  (cd "$root" && cargo build --release --quiet)
  kifu="$root/target/release/kifu"
fi
python3 -c 'import cshogi' 2>/dev/null || pip install -q cshogi
if [[ ! -d "$data" ]] || [[ $(find "$data" -name '*.csa' | wc -l) -ne $n ]]; then
  rm -rf "$data"
  python3 "$here/gen_floodgate.py" --out "$data" --games "$n" --seed 1 --flat
fi
find "$data" -name '*.csa' -print0 | xargs -0 cat >/dev/null # page cache

export PYTHONPATH="${PYKIFU:+$PYKIFU:}${PYTHONPATH:-}"
py=1
python3 -c 'import kifu' 2>/dev/null || { echo "SKIP: the kifu Python package cannot be imported (set PYKIFU)" >&2; py=0; }

wall() { /usr/bin/time -f '%e' "$@" 2>&1 >/dev/null | tail -1; }
report() { # NAME J1_TIMES J2_TIMES
  python3 - "$@" <<'EOF'
import statistics, sys
name, a, b = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
r = sorted(x / y for x, y in zip(a, b))
print(f"{name}: -j1 {statistics.median(a):.2f} s, -j2 {statistics.median(b):.2f} s, "
      f"ratio per round {' '.join(f'{x:.2f}' for x in r)} (median {statistics.median(r):.2f})")
EOF
}

echo "N=$n rounds=$rounds kifu=$kifu"
c1=""; c2=""; p1=""; p2=""
for r in $(seq "$rounds"); do
  c1+=" $(wall "$kifu" validate -j1 "$data")"
  c2+=" $(wall "$kifu" validate -j2 "$data")"
  if [[ $py == 1 ]]; then
    p1+=" $(wall python3 "$here/py_validate.py" "$data" 1 "$n")"
    p2+=" $(wall python3 "$here/py_validate.py" "$data" 2 "$n")"
  fi
done
report "kifu validate" "$c1" "$c2"
[[ $py == 1 ]] && report "python kifu.validate jobs=" "$p1" "$p2"
echo "per-thread CPU (seconds):"
for j in 1 2; do
  echo "kifu validate -j$j: $(python3 "$here/thread_cpu.py" --jobs 2 -- "$kifu" validate -j$j "$data" 2>/dev/null)"
done
if [[ $py == 1 ]]; then
  for j in 1 2; do
    echo "python jobs=$j: $(python3 "$here/thread_cpu.py" --jobs 2 -- python3 "$here/py_validate.py" "$data" "$j" "$n" 2>/dev/null)"
  done
fi
