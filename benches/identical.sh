#!/usr/bin/env bash
# Guard rail of issue 37 (one replay, many observers): every output of the
# reading commands is byte-identical between two kifu binaries, and
# between -j1 and -j2.
#
#   benches/identical.sh [DATA...]
#
#   DATA  folders or files to read (default: fixtures/, the generated
#         benchmark folder $BENCH_DATA/files when it exists, a multi-game
#         CSA file of more than 8 MiB made from it (the streamed, cut-in-
#         pieces path), and ../shared/corpus when it exists)
#
# Environment:
#   BEFORE  the binary outputs are compared with (default
#           ../main/target/release/kifu); or
#   REV     a git revision: it is built into a temporary worktree (with its
#           own target folder) and used as BEFORE
#   AFTER   the binary under test (default target/release/kifu)
#   JOBS    the -j values compared (default "1 2")
#   KEEP    keep the output folders (printed) instead of deleting them
#
# For each data set, each -j value and each binary it runs, in an empty
# folder (outputs named relatively, so that the paths stderr prints are the
# same): validate --format json; stats (games, moves with --sfen, names
# tables; --summary; --no-tags; --opening/--castle filters; --moves filter);
# select --format json (no filter, --opening, --position, --min-plies with
# --result, --invalid, --duplicates); export to hcpe, psv and hcpe3 with
# --index (and hcpe with --preset dlshogi, --dedupe position); convert to
# every format (--out-dir). Standard output, standard error, the exit code
# and every file written are compared (diff -r). Exits 1 on a difference.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
AFTER="$(realpath "${AFTER:-$root/target/release/kifu}")"
JOBS="${JOBS:-1 2}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kifu-identical.XXXXXX")"
cleanup() { if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "kept $work"; fi; }
trap cleanup EXIT

if [ -n "${REV:-}" ]; then
  wt="$work/rev"
  git -C "$root" worktree add --detach -q "$wt" "$REV" || exit 2
  (cd "$wt" && cargo build --release --quiet --bin kifu) || exit 2
  cp "$wt/target/release/kifu" "$work/kifu-before"
  git -C "$root" worktree remove --force "$wt"
  BEFORE="$work/kifu-before"
fi
BEFORE="$(realpath "${BEFORE:-$root/../main/target/release/kifu}")"
[ -x "$BEFORE" ] || { echo "no BEFORE binary: $BEFORE" >&2; exit 2; }
[ -x "$AFTER" ] || { echo "no AFTER binary: $AFTER" >&2; exit 2; }

if [ $# -eq 0 ]; then
  set -- "$root/fixtures"
  gen="${BENCH_DATA:-$root/target/bench-data}/files"
  if [ -d "$gen" ]; then
    set -- "$@" "$gen"
    big="$work/big.csa"
    # More than STREAM_THRESHOLD (8 MiB): read streamed, cut between games.
    while [ "$(stat -c %s "$big" 2>/dev/null || echo 0)" -lt $((9 << 20)) ]; do
      for f in "$gen"/*.csa; do cat "$f"; echo /; done >> "$big"
    done
    set -- "$@" "$big"
  fi
  [ -d "$root/../shared/corpus" ] && set -- "$@" "$(realpath "$root/../shared/corpus")"
fi

# A position reached in many games (after 7g7f 3c3d 2g2f), an opening and a
# castle, for the filters.
POS="lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4"

# run NAME CMD...: the command's stdout, stderr and exit code, in the cwd.
run() {
  local name="$1"; shift
  "$@" > "$name.out" 2> "$name.err"
  echo $? > "$name.rc"
}

# every BIN DATA J: every command, in the current (empty) folder.
every() {
  local k="$1" d="$2" j="-j$3"
  run validate "$k" validate "$j" --format json "$d"
  run stats "$k" stats "$j" "$d" -o games.csv --moves moves.csv --sfen --tags names.csv --summary
  run stats-notags "$k" stats "$j" "$d" -o games-notags.csv --no-tags
  run stats-opening "$k" stats "$j" "$d" -o games-opening.csv --tags names-opening.csv --opening fourth_file_rook --castle mino
  run stats-moves "$k" stats "$j" "$d" -o games-moves.csv --moves moves-moves.csv --opening-moves "7g7f 3c3d" --opening-plies 24
  run select "$k" select "$j" --format json "$d"
  run select-opening "$k" select "$j" --format json --opening ranging_rook "$d"
  run select-position "$k" select "$j" --format json --position "$POS" "$d"
  run select-result "$k" select "$j" --format json --min-plies 40 --result sente_win --reason resign "$d"
  run select-invalid "$k" select "$j" --format json --invalid "$d"
  run select-dups "$k" select "$j" --format json --duplicates "$d"
  for l in hcpe psv hcpe3; do
    run "export-$l" "$k" export "$j" "$d" --to "$l" -o "out.$l" --index "index-$l.jsonl"
  done
  run export-dlshogi "$k" export "$j" "$d" --to hcpe --preset dlshogi -o dl.hcpe --index index-dl.jsonl
  run export-dedupe "$k" export "$j" "$d" --to psv --dedupe position -o dd.psv --castle ranging_anaguma
  for f in kif ki2 csa psn jkf usi; do
    run "convert-$f" "$k" convert "$j" "$d" --to "$f" --out-dir "conv-$f"
  done
}

status=0
n=0
for d in "$@"; do
  d="$(realpath "$d")"
  n=$((n + 1))
  for j in $JOBS; do
    for side in before after; do
      out="$work/$n/j$j/$side"
      mkdir -p "$out"
      k="$BEFORE"; [ "$side" = after ] && k="$AFTER"
      (cd "$out" && every "$k" "$d" "$j")
    done
    if diff -r -q "$work/$n/j$j/before" "$work/$n/j$j/after" > "$work/$n/j$j.diff"; then
      echo "same: $d -j$j (before = after)"
    else
      echo "DIFFERENT: $d -j$j (before vs after):"; head -20 "$work/$n/j$j.diff"; status=1
    fi
  done
  read -r -a js <<< "$JOBS"
  if [ "${#js[@]}" -gt 1 ]; then
    a="${js[0]}" b="${js[1]}"
    if diff -r -q "$work/$n/j$a/after" "$work/$n/j$b/after" > "$work/$n/jobs.diff"; then
      echo "same: $d -j$a = -j$b (after)"
    else
      echo "DIFFERENT: $d -j$a vs -j$b (after):"; head -20 "$work/$n/jobs.diff"; status=1
    fi
  fi
done
exit $status
