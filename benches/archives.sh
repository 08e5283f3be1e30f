#!/usr/bin/env bash
# A year of floodgate in one command: `kifu validate ARCHIVE -j2` against
# the two stages it overlaps, measured alone (the archive's decompression,
# and `kifu validate -j2` of the unpacked folder), and against unpacking to
# a folder then validating it.
#
#   benches/archives.sh [N]
#
#   N  one-game CSA files in the generated year (default 200000), made by
#      benches/gen_floodgate.py (floodgate's names, `'black_rate:` /
#      `'white_rate:` lines, `'** 123 7g7f 3c3d` comments) under
#      $BENCH_DATA/year-N (default target/bench), then packed as year.7z,
#      year.zip and year.tar.zst there (kept for the next run).
#
# Environment: KIFU (a kifu binary; default: build target/release/kifu),
# JOBS (default 2), ROUNDS (default 3; rounds interleave the commands, and
# the median of each is reported), SEVENZ_OPTS (7z's packing options,
# default `-mx=5`; `-mx=1 -mmt=on` packs 200,000 files in minutes, not an
# hour, on a loaded machine), ZSTD_LEVEL (default 19; 3 packs 600 MB in
# seconds where 19 takes most of an hour on 2 loaded cores), BENCH_DATA
# (where the data is kept).
# Each command's CPU time (user + system, from GNU time) is reported
# beside its wall time: on a loaded machine the wall time is the load's.
#
# Needs 7z (p7zip-full), unzip and zstd: installed with apt-get when
# missing; an archive whose tool cannot be installed is skipped (said so).
# GNU time at /usr/bin/time gives the peak RSS (`%M`, KiB). The script
# checks that `kifu validate ARCHIVE` writes nothing to its temporary
# folder: it runs with TMPDIR set to a fresh empty folder, listed after.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
n="${1:-200000}"
jobs="${JOBS:-2}"
rounds="${ROUNDS:-3}"
data="${BENCH_DATA:-$root/target/bench}/year-$n"
records="$data/records"

kifu="${KIFU:-}"
if [[ -z "$kifu" ]]; then
  (cd "$root" && cargo build --release --quiet)
  kifu="$root/target/release/kifu"
fi

need() { # need COMMAND PACKAGE
  command -v "$1" >/dev/null && return 0
  echo "installing $2 for $1" >&2
  { apt-get install -y "$2" || { apt-get update && apt-get install -y "$2"; }; } >/dev/null 2>&1 || true
  command -v "$1" >/dev/null || { echo "SKIP: $1 missing and $2 could not be installed" >&2; return 1; }
}
[[ -x /usr/bin/time ]] || need time time || true
have7z=1; haveunzip=1; havezstd=1
need 7z p7zip-full || have7z=0
need zip zip && need unzip unzip || haveunzip=0
need zstd zstd || havezstd=0
python3 -c 'import cshogi' 2>/dev/null || pip install -q cshogi

# ---- data
if [[ ! -d "$records" ]] || [[ $(find "$records" -name '*.csa' | wc -l) -ne $n ]]; then
  rm -rf "$data"
  python3 "$here/gen_floodgate.py" --out "$records" --games "$n" --seed 1
fi
cd "$data"
if [[ $have7z == 1 && ! -f year.7z ]]; then
  # shellcheck disable=SC2086
  (cd records && 7z a -bd ${SEVENZ_OPTS:--mx=5} ../year.7z . >/dev/null)
fi
if [[ $haveunzip == 1 && ! -f year.zip ]]; then
  (cd records && zip -qr ../year.zip .)
fi
if [[ $havezstd == 1 && ! -f year.tar.zst ]]; then
  tar -C records -cf - . | zstd -q "-${ZSTD_LEVEL:-19}" -T0 -o year.tar.zst
fi
ls -l year.* >&2
cat $(find records -name '*.csa' | head -1) >/dev/null
find records -name '*.csa' -print0 | xargs -0 cat >/dev/null  # page cache
cat year.* >/dev/null

# ---- timing: `t NAME CMD...` appends "NAME wall KiB cpu" to $log
log="$(mktemp)"
ktmp="$(mktemp -d)"
trap 'rm -f "$log" "$log.one"; rm -rf "$data/unpacked" "$ktmp"' EXIT
t() {
  local name="$1"; shift
  /usr/bin/time -o "$log.one" -f '%e %M %U %S' "$@" >/dev/null 2>/dev/null || true
  tail -1 "$log.one" | awk -v n="$name" '{printf "%s %s %s %.2f\n", n, $1, $2, $3 + $4}' >>"$log"
}
sh_t() { t "$1" bash -c "$2"; }

kinds=()
[[ $have7z == 1 ]] && kinds+=(7z)
[[ $haveunzip == 1 ]] && kinds+=(zip)
[[ $havezstd == 1 ]] && kinds+=(tar.zst)

decompress() {
  case "$1" in
    7z) echo "7z x -so year.7z" ;;
    zip) echo "unzip -p year.zip" ;;
    tar.zst) echo "zstd -dc year.tar.zst | tar -xO" ;;
  esac
}
unpack() {
  case "$1" in
    7z) echo "7z x -bd -y -ounpacked year.7z >/dev/null" ;;
    zip) echo "unzip -q -o -d unpacked year.zip" ;;
    tar.zst) echo "mkdir -p unpacked && zstd -dc year.tar.zst | tar -C unpacked -xf -" ;;
  esac
}

for r in $(seq "$rounds"); do
  sh_t "folder" "'$kifu' validate -j$jobs records"
  for k in "${kinds[@]}"; do
    sh_t "decompress:$k" "$(decompress "$k") >/dev/null"
    t "archive:$k" env TMPDIR="$ktmp" "$kifu" validate "-j$jobs" "year.$k"
    sh_t "unpack+validate:$k" "rm -rf unpacked; $(unpack "$k") && '$kifu' validate -j$jobs unpacked; rm -rf unpacked"
  done
done

# ---- report: medians
median() { grep "^$1 " "$log" | awk '{print $2}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
peak() { grep "^$1 " "$log" | awk '{print $3}' | sort -n | tail -1; }
cpu() { grep "^$1 " "$log" | awk '{print $4}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
folder=$(median folder)
echo "N=$n jobs=$jobs rounds=$rounds kifu=$kifu"
printf '%-22s %8s %8s %10s\n' "command" "wall s" "CPU s" "peak KiB"
printf '%-22s %8s %8s %10s\n' "validate folder" "$folder" "$(cpu folder)" "$(peak folder)"
for k in "${kinds[@]}"; do
  d=$(median "decompress:$k"); a=$(median "archive:$k"); u=$(median "unpack+validate:$k")
  printf '%-22s %8s %8s %10s\n' "decompress $k" "$d" "$(cpu "decompress:$k")" "$(peak "decompress:$k")"
  printf '%-22s %8s %8s %10s\n' "validate year.$k" "$a" "$(cpu "archive:$k")" "$(peak "archive:$k")"
  printf '%-22s %8s %8s %10s\n' "unpack+validate $k" "$u" "$(cpu "unpack+validate:$k")" "$(peak "unpack+validate:$k")"
  awk -v a="$a" -v d="$d" -v f="$folder" -v u="$u" -v k="$k" 'BEGIN {
    s = (d > f) ? d : f
    printf "  %s: archive / slower stage = %.2f (target <= 1.5), archive / unpack+validate = %.2f (target < 1)\n", k, a / s, a / u }'
done
if [[ -z "$(ls -A "$ktmp")" ]]; then
  echo "TMPDIR of kifu validate ARCHIVE: nothing written"
else
  echo "TMPDIR of kifu validate ARCHIVE holds:"; ls -lA "$ktmp"
fi
