#!/bin/sh
# Seeds fuzz/corpus/<target>/ from the project's fixtures (run from fuzz/).
# Files are copied by format; the sfen/usi_move/replay targets get small
# hand-written seeds. Idempotent.
set -eu
cd "$(dirname "$0")"
F=../fixtures
seed() { # target, find-pattern...
  t=$1; shift
  mkdir -p corpus/$t
  for pat in "$@"; do
    find $F -type f -iname "$pat" -size -64k | while read -r f; do
      cp "$f" "corpus/$t/$(echo "${f#../}" | tr / _)"
    done
  done
}
for t in read_kif roundtrip_kif; do seed $t '*.kif' '*.kifu'; done
for t in read_ki2 roundtrip_ki2; do seed $t '*.ki2' '*.ki2u'; done
for t in read_csa roundtrip_csa; do seed $t '*.csa'; done
for t in read_psn roundtrip_psn; do seed $t '*.psn'; done
for t in read_jkf roundtrip_jkf; do seed $t '*.jkf' '*.json'; done
for t in read_usi roundtrip_usi; do seed $t '*.sfen' '*.usi'; done
seed sniff '*.kif' '*.kifu' '*.ki2' '*.ki2u' '*.csa' '*.psn' '*.jkf' '*.sfen'
mkdir -p corpus/sfen corpus/usi_move corpus/replay
i=0
grep -h -o 'sfen [^ ]* [bw] [^ ]* [0-9]*' $F/usi -r 2>/dev/null | sed 's/^sfen //' | head -40 | while read -r l; do
  i=$((i+1)); printf '%s' "$l" > corpus/sfen/fixture-$i
done
printf 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' > corpus/sfen/start
printf 'rbsgk/4p/5/P4/KGSBR b - 1' > corpus/sfen/minishogi
printf 'gle/1c1/1C1/ELG b - 1' > corpus/sfen/doubutsu
printf '8k/9/7GP/9/9/9/9/9/K8 w RBb2g4s4n4l16p 1' > corpus/sfen/hands
for m in 7g7f 8h2b+ P*5e 2b3c+ R*1a 5e5d 1a1b; do printf '%s' "$m" > corpus/usi_move/$(echo $m | tr '*+' 'dp'); done
printf '\000\001\002\003\004\005\006\007\010\011' > corpus/replay/even
printf '\005\001\002\003\004\005\006\007\010\011' > corpus/replay/minishogi
printf '\007\001\002\003\004\005\006' > corpus/replay/doubutsu
printf '\004\003\001\002\003\004\005' > corpus/replay/handicap
# visitor_break: a format byte and a seed byte before a fixture of that
# format (format order: kif ki2 csa psn jkf usi).
mkdir -p corpus/visitor_break
fi=0
for ext in kif ki2 csa psn jkf sfen; do
  find $F -type f -name "*.$ext" -size -16k | head -20 | while read -r f; do
    { printf "\\$(printf '%03o' $fi)\\007"; cat "$f"; } > "corpus/visitor_break/$(echo "${f#../}" | tr / _)"
  done
  fi=$((fi+1))
done
echo "seeded: $(ls corpus | wc -l) targets"
