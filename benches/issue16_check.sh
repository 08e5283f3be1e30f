#!/usr/bin/env bash
# Issue 16's reading targets in one run, as ratios on the same files:
# `cat | wc -l`, kifu validate -j1/-j2, kifu stats, and cshogi (CSA, KIF).
# Paths are where the data was made on the project machine; override with
#   CSA_DIR=… KIF_DIR=… KI2_DIR=… MID=… KIFU=… PY=… benches/issue16_check.sh
# Best-of-N interleaved rounds of the same commands: benches/issue16_min.sh.
# Data: benches/peers/gen_csa_corpus.py --games 5000 --seed 1 (CSA files);
# `kifu convert --to kif` / `--to ki2` of them (KIF Shift_JIS, KI2); MID is
# a 60 MB multi-game CSA file (validate_bench.sh makes one).
set -u
K=${KIFU:-target/release/kifu}; K=$(realpath "$K")
PY=${PY:-python3}
CS=$(realpath benches/peers/validate_cshogi.py)
OUT="${TMPDIR:-/tmp}/kifu-issue16-stats.csv"
t(){ /usr/bin/time -f "%e s wall %U s user %M KB" "$@" 2>&1 >/dev/null | tail -1; }
for d in "${CSA_DIR:?set CSA_DIR to a folder of CSA records}" "${KIF_DIR:?set KIF_DIR to a folder of Shift_JIS KIF records}" "${KI2_DIR:?set KI2_DIR to a folder of KI2 records}"; do
  echo "== $d"; cd $d
  for r in 1 2; do
    echo -n "cat|wc: "; /usr/bin/time -f "%e s wall" sh -c 'cat * | wc -l >/dev/null' 2>&1 | tail -1
    echo -n "kifu -j1: "; t $K validate -q -j1 .
    echo -n "kifu -j2: "; t $K validate -q -j2 .
  done
  # A new output file each time (an existing one is checked against every
  # input, one stat each), and standard output.
  echo -n "kifu stats -j1: "; rm -f "$OUT"; t $K stats -j1 -o "$OUT" .
  echo -n "kifu stats -j1 (stdout): "; t $K stats -j1 .
  case $d in *ki2) ;; *) echo -n "cshogi: "; $PY $CS . | python3 -c "import json,sys;o=json.load(sys.stdin);print(o['games'],'games',round(o['seconds'],3),'s inner')"; echo -n "cshogi process: "; t $PY $CS . ;; esac
done
MID=${MID:?set MID to a large multi-game CSA file}
echo "== $MID"; echo -n "wc -l: "; t wc -l "$MID"
for j in 1 2; do echo -n "-j$j: "; t $K validate -q -j$j "$MID"; done
echo -n "stats -j1: "; rm -f "$OUT"; t $K stats -j1 -o "$OUT" "$MID"
