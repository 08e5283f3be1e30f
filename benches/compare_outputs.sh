#!/bin/sh
# Byte-for-byte comparison of two kifu binaries: every reading command's
# standard output, standard error, exit code and output files, over the
# shipped fixtures (and ../shared/corpus when CORPUS=1), at -j1 and -j2,
# plus the usage and claim errors of the command skeleton.
#
#   benches/compare_outputs.sh OLD_KIFU NEW_KIFU [DATA...]
#
# Prints one line per difference and "identical: N cases" at the end;
# exits 1 on any difference.
set -u
old=$(realpath "$1") new=$(realpath "$2")
shift 2
[ $# -gt 0 ] || set -- fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 bad=0

# case NAME ARGS...: runs both binaries in fresh folders (outputs named
# out.* land there) and compares everything.
case_() {
    name=$1
    shift
    n=$((n + 1))
    for side in old new; do
        # both run in one folder, whose name some outputs hold
        d=$work/run
        rm -rf "$d" "$work/$side" && mkdir -p "$d"
        bin=$old
        [ $side = new ] && bin=$new
        (cd "$d" && NO_COLOR=1 "$bin" "$@" >stdout 2>stderr </dev/null; echo $? >rc)
        # timings vary from run to run
        sed -i 's#time [0-9.]*s, [0-9]* nodes/s#time T#' "$d/stdout"
        mv "$d" "$work/$side"
    done
    if ! diff -r "$work/old" "$work/new" >/dev/null 2>&1; then
        bad=$((bad + 1))
        echo "DIFF $name: $*"
        diff -r "$work/old" "$work/new" | head -5 | cut -c1-300
    fi
}

abs=""
for p in "$@"; do abs="$abs $(cd "$(dirname "$p")" && pwd)/$(basename "$p")"; done
set -- $abs
for j in 1 2; do
    case_ validate-json-j$j validate --format json -j$j "$@"
    case_ validate-human-j$j validate -j$j "$@"
    case_ validate-sarif-j$j validate --format sarif -j$j "$@"
    case_ stats-j$j stats -j$j --moves out.moves.csv --tags out.tags.csv -o out.games.csv "$@"
    case_ stats-stdout-j$j stats -j$j --summary --diagnostics json "$@"
    case_ stats-notags-j$j stats -j$j --no-tags --opening-plies 24 "$@"
    case_ select-j$j select --format json -j$j "$@"
    case_ select-plain-j$j select -j$j "$@"
    case_ select-count-j$j select -j$j --count "$@"
    case_ select-dups-j$j select -j$j --duplicates --format json "$@"
    for to in hcpe psv hcpe3; do
        case_ export-$to-j$j export -j$j --to $to -o out.$to --index out.index.jsonl "$@"
    done
    case_ export-split-j$j export -j$j --to hcpe -o out.hcpe --split train=0.8 --split test=0.1 --index out.ix "$@"
    case_ export-dedupe-j$j export -j$j --to psv -o out.psv --dedupe position "$@"
    for to in kif kifu ki2 ki2u csa psn jkf usi sfen; do
        case_ convert-$to-j$j convert -j$j --to $to -o out.$to "$@"
        case_ convert-dir-$to-j$j convert -j$j --to $to --out-dir outdir "$@"
    done
    case_ tags-j$j tags -j$j "$@"
    case_ html-j$j html -j$j --out-dir outdir "$@"
done
# The command skeleton's refusals: usage errors, claims, nothing found.
f=$(find "$@" -name '*.csa' | head -1)
case_ empty-dir validate /nonexistent-kifu-dir
case_ empty-ok validate --allow-empty /dev/null/x
case_ stats-twice stats -o same.csv --moves same.csv "$f"
case_ export-twice export --to hcpe -o a.hcpe --index a.hcpe "$f"
case_ export-invalid export --to hcpe -o a.hcpe --invalid "$f"
case_ export-position-hcpe3 export --to hcpe3 -o a.hcpe3 --dedupe position "$f"
case_ export-split-sum export --to hcpe -o a.hcpe --split a=0.8 --split b=0.5 "$f"
case_ export-split-name export --to hcpe -o a.hcpe --split a=0.1 --split a=0.2 "$f"
case_ export-split-stdout export --to hcpe --split a=0.1 "$f"
case_ export-input export --to hcpe -o "$f" "$f"
case_ export-ending export --to hcpe -o a.hcpe --endings nosuch "$f"
case_ convert-input convert --to csa -o "$f" "$f"
case_ convert-both convert --to csa -o a.csa --out-dir d "$f"
case_ convert-outdir-file convert --to kif --out-dir /etc/hostname/x "$f"
case_ html-outdir-file html --out-dir /etc/hostname/x "$f"
case_ convert-enc convert --to kif --encoding euc-jp --out-dir "$(dirname "$f")" "$f"
case_ convert-nosplit convert --to kif --no-split -o a.kif "$f"
case_ select-bad select --opening nosuchname "$f"
case_ stats-strict stats --strict nosuch "$f"
case_ board board "$f"
case_ board-ply board --ply 3 --to bod "$f"
case_ board-svg board --ply 3 -o b.svg "$f"
case_ board-missing board /nonexistent.csa
case_ board-game board --game 99 "$f"
case_ board-sfen board --sfen 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
case_ html-missing html /nonexistent.csa
case_ html-stdout html -o - "$f"
case_ perft perft 2
echo "identical: $((n - bad)) of $n cases"
[ $bad -eq 0 ]
