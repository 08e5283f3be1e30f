#!/usr/bin/env bash
# Issue 16's one-file-per-game targets as interleaved best-of-N wall times
# (a noisy shared machine makes single runs swing by 30 %): each round runs
# `cat * | wc -l`, `kifu validate -q -j1`, `-j2`, `kifu stats -j1` and
# cshogi (first 3 rounds; not for KI2, which it does not read) one after
# the other on the same folder; the minimum of each over N rounds is printed.
#   N=7 CSA_DIR=… KIF_DIR=… KI2_DIR=… KIFU=… PY=… benches/issue16_min.sh
# Data as for benches/issue16_check.sh.
set -u
K=$(realpath "${KIFU:-target/release/kifu}")
PY=${PY:-python3}
CS=$(realpath benches/peers/validate_cshogi.py)
N=${N:-7}
for d in "${CSA_DIR:?set CSA_DIR to a folder of CSA records}" "${KIF_DIR:?set KIF_DIR to a folder of Shift_JIS KIF records}" "${KI2_DIR:?set KI2_DIR to a folder of KI2 records}"; do
  (
    cd "$d" || exit 2
    declare -A best=()
    for r in $(seq "$N"); do
      for name in catwc v1 v2 st1 cs; do
        case $name in
          catwc) cmd=(sh -c 'cat * | wc -l') ;;
          v1) cmd=("$K" validate -q -j1 .) ;;
          v2) cmd=("$K" validate -q -j2 .) ;;
          st1) cmd=("$K" stats -j1 .) ;;
          cs)
            case $d in *ki2*) continue ;; esac
            [ "$r" -gt 3 ] && continue
            cmd=("$PY" "$CS" .) ;;
        esac
        s=$(date +%s%N); "${cmd[@]}" >/dev/null 2>&1; e=$(date +%s%N)
        t=$(((e - s) / 1000000))
        if [ -z "${best[$name]:-}" ] || [ "$t" -lt "${best[$name]}" ]; then best[$name]=$t; fi
      done
    done
    echo "$d: cat|wc ${best[catwc]} ms; validate -j1 ${best[v1]} ms; -j2 ${best[v2]} ms; stats -j1 ${best[st1]} ms; cshogi ${best[cs]:-n/a} ms"
  )
done
