#!/usr/bin/env bash
# How kifu.validate and kifu.positions split their work at jobs=2, counted
# in instructions (valgrind's callgrind, one count per thread), which a
# machine busy with other work does not change (wall and CPU times do: see
# benches/python_bench.py).
#
#   benches/python_jobs_callgrind.sh DIR [PYTHON]
#
# DIR: a folder of records (e.g. 1,000 files of gen_csa_corpus.py; callgrind
# runs about 50x slower than native). PYTHON: a Python with the kifu wheel
# (default target/pyvenv/bin/python).
#
# For each call, runs a baseline (Python started, numpy and kifu imported,
# the files discovered) and the call at jobs=1 and jobs=2, and prints the
# instructions of each thread beyond the baseline's: the calling thread
# (the batch runner's sink that puts results in input order, and the
# conversion to Python objects under the GIL), the reader thread and the
# workers. From them:
#   overhead   = instructions(jobs=2) / instructions(jobs=1) - 1
#   two_cores  = instructions(jobs=1) / max(instructions(jobs=2) / 2,
#                                           the busiest thread)
#   amdahl     = the bound if all of the calling thread's work were serial:
#                1 / (caller + (1 - caller) / 2), caller as a share
set -euo pipefail
dir=${1:?usage: $0 DIR [PYTHON]}
py=${2:-target/pyvenv/bin/python}
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() { # NAME CODE
  valgrind --tool=callgrind --separate-threads=yes \
    --callgrind-out-file="$out/$1.%p" "$py" -c "
import numpy, kifu
kifu.discover('$dir')
$2
" >/dev/null 2>&1
}

run base "pass"
for call in validate positions; do
  for j in 1 2; do
    run "$call-$j" "kifu.$call('$dir', jobs=$j)"
  done
done

"$py" - "$out" <<'EOF'
import glob, json, os, sys

out = sys.argv[1]

def threads(name):
    """Instructions of each thread of the run NAME, in thread order."""
    counts = []
    for f in sorted(glob.glob(os.path.join(out, name + ".*-*")),
                    key=lambda f: int(f.rsplit("-", 1)[1])):
        with open(f) as fh:
            for line in fh:
                if line.startswith("summary:"):
                    counts.append(int(line.split()[1]))
                    break
    return counts

base = threads("base")


def beyond_base(run):
    """The run's threads less the baseline's (the calling thread first,
    then numpy's, started on import and idle: left out), then kifu's."""
    main = run[0] - base[0]
    ours = run[len(base):]
    return [main] + ours
report = {}
for call in ("validate", "positions"):
    one = threads(f"{call}-1")
    two = threads(f"{call}-2")
    one, two = beyond_base(one), beyond_base(two)
    n1, n2 = sum(one), sum(two)
    caller = two[0] / n2
    report[call] = {
        "jobs1_instructions": n1,
        "jobs2_instructions_per_thread": two,
        "overhead": round(n2 / n1 - 1, 4),
        "two_cores": round(n1 / max(n2 / 2, max(two)), 2),
        "caller_share": round(caller, 4),
        "amdahl": round(1 / (caller + (1 - caller) / 2), 2),
    }
print(json.dumps(report, indent=1))
EOF
