#!/bin/sh
# Rewrites `crate::` import paths for the layer split of issue 16 (no module
# cycles): the input layer `src/text/` (findings, decoding, lines, syntax,
# events, resolver, RecordBuilder, move notations) and the output layer
# `src/emit.rs` (Output, WriteError, Dropped, shared writing decisions) sit
# below the formats; `read` and `write` only dispatch and re-export.
# The game key lives in `record::key`.
#
# Idempotent: run it again after merging a branch that still imports the
# old paths (`sh scripts/cycles-imports.sh` from the repository root).
# Only the layers that must not import `read`/`write` are rewritten; the
# modules above the formats keep the public `crate::read::…` paths.
set -eu
cd "$(dirname "$0")/.."

lower=$(find src/text src/csa src/kif src/ki2 src/psn src/jkf src/usi src/japanese \
    src/emit.rs -name '*.rs' | sort)

# Names that stay in `read` (the dispatch), everything else of `read` is
# the input layer's.
READ_ONLY='Format|Reader|open|games_from_lines|read_all|lines_from_bytes|Games|Source'
# Names of `write` that live in `emit`.
EMIT='Dropped|Named|Output|WriteError|one_line|text_lines|restates_start|main_end|claim_terminal|main_terminal|claim_carried|same_kind'

# shellcheck disable=SC2086
perl -0pi -e '
    my $ro = qr/\b(?:'"$READ_ONLY"')\b/;
    my $em = qr/^(?:'"$EMIT"')$/;
    # crate::read::{a, b, ...}: to text when no name stays in read.
    s{crate::read::\{([^{}]*)\}}{ my $g = $1; $g =~ $ro ? "crate::read::{$g}" : "crate::text::{$g}" }ge;
    # crate::read::name (module or item) unless it stays in read.
    s{crate::read::(?!\{)(?!(?:'"$READ_ONLY"')\b)}{crate::text::}g;
    # crate::write::{a, b}: to emit when every name is emit s.
    s{crate::write::\{([^{}]*)\}}{ my $g = $1; my @n = grep { $_ ne "" } map { s/^\s+|\s+$//gr } split /,/, $g; (grep { !/$em/ } @n) ? "crate::write::{$g}" : "crate::emit::{$g}" }ge;
    s{crate::write::(?=(?:'"$EMIT"')\b)}{crate::emit::}g;
' $lower src/eval.rs

# The input layer names the formats' move notations at their new home.
find src/text src/emit.rs -name '*.rs' | sort | xargs perl -0pi -e '
    s{crate::japanese::(lexicon|marks|moves)::}{crate::text::notation::$1::}g;
    s{crate::japanese::(?!(?:lexicon|marks|moves|reader|writer|bod|summary)\b)(\w+)}{crate::text::notation::lexicon::$1}g;
    s{crate::ki2::notation::}{crate::text::notation::ki2::}g;
    s{crate::ki2::(relative_mark|resolve|ResolveError|Resolved|RelativeMark|Horizontal|Vertical)\b}{crate::text::notation::ki2::$1}g;
    s{crate::psn::notation::}{crate::text::notation::psn::}g;
    s{crate::psn::(PsnMove|ResolveError|ParsePsnError|Promotion)\b}{crate::text::notation::psn::$1}g;
    s{crate::jkf::relative::}{crate::text::notation::jkf::}g;
    s{crate::jkf::JkfMove\b}{crate::text::notation::jkf::JkfMove}g;
    s{crate::csa::grammar::CsaMove\b}{crate::text::notation::csa::CsaMove}g;
    s{crate::kif::grammar::\{Dest, MoveText, Origin\}}{crate::text::notation::moves::{Dest, MoveText, Origin}}g;
'

# The game key: `record::key` (validate and select both use it).
find src -name '*.rs' | sort | xargs perl -0pi -e '
    s{crate::select::key::}{crate::record::key::}g;
    s{crate::select::\{GameKey, KeyHasher\}}{crate::record::key::{GameKey, KeyHasher}}g;
    s{crate::select::(GameKey|KeyHasher)\b}{crate::record::key::$1}g;
'
