#!/bin/sh
# Runs every fuzz target for SECONDS (default 180) each, JOBS (default 2)
# at a time, logging to logs/<target>.log. Run from anywhere; needs
# cargo-fuzz and the stable toolchain (RUSTC_BOOTSTRAP=1 lets cargo-fuzz use
# its nightly-only flags).
set -u
cd "$(dirname "$0")"
SECONDS_EACH=${SECONDS_EACH:-180}
JOBS=${JOBS:-2}
TARGETS=${TARGETS:-$(cargo fuzz list 2>/dev/null)}
[ -d corpus ] || ./seed.sh
mkdir -p logs
export RUSTC_BOOTSTRAP=1
RUSTC_BOOTSTRAP=1 cargo fuzz build -a -s none || exit 1
echo "$TARGETS" | tr ' ' '\n' | grep . | xargs -P "$JOBS" -I{} sh -c \
  "cargo fuzz run -a -s none {} -- -max_len=${MAX_LEN:-4096} -max_total_time=$SECONDS_EACH -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 > logs/{}.log 2>&1; echo \"{} exit \$?\""
