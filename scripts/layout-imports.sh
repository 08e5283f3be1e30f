#!/usr/bin/env bash
# Rewrites module paths after the layout change of issue 16 (branch `layout`):
#
# * the rules engine moved to src/rules/: `crate::position::…` becomes
#   `crate::rules::position::…` inside the crate, and `kifu::position::…`
#   becomes `kifu::rules::…` (the flat re-exports of `kifu::rules`) outside it;
# * `Outcome` moved from the record layer to the rules
#   (`crate::record::Outcome` keeps working through a re-export, but the
#   rules themselves use `crate::rules::outcome::Outcome`);
# * batch running and output files moved into the binary
#   (`kifu::batch` / `kifu::output` become `crate::batch` / `crate::output`
#   in src/bin/kifu/).
#
# Idempotent: every pattern only matches the old path, so running it again
# changes nothing. The lead re-runs it after merging the grammar branches:
#
#     scripts/layout-imports.sh && cargo fmt
set -euo pipefail
cd "$(dirname "$0")/.."

RULES='attacks|bitboard|color|hand|handicap|moves|position|replay|role|setup|sfen|square|variant'

# Inside the library (every file under src/ except the binary).
find src -name '*.rs' -not -path 'src/bin/*' -print0 |
  xargs -0 perl -pi -e "s/\bcrate::($RULES)\b/crate::rules::\$1/g"

# The rules never import the record layer: Outcome lives in rules::outcome.
find src/rules -name '*.rs' -print0 |
  xargs -0 perl -pi -e 's/\bcrate::record::Outcome\b/crate::rules::outcome::Outcome/g'

# Outside the library (binary, tests, benches, examples, fuzz, docs):
# `kifu::sfen::parse_sfen` -> `kifu::rules::parse_sfen`; the slider
# lookups (hidden, for tests and benchmarks) stay a module of their own.
find src/bin tests benches examples fuzz/src fuzz/fuzz_targets docs README.md \
  \( -name '*.rs' -o -name '*.md' \) -print0 2>/dev/null |
  xargs -0 perl -pi -e "s/\bkifu::attacks::/kifu::rules::attacks::/g; s/\bkifu::($RULES)::/kifu::rules::/g"

# Batch running and output files belong to the binary.
find src/bin -name '*.rs' -print0 |
  xargs -0 perl -pi -e 's/\bkifu::(batch|output)\b/crate::$1/g'
