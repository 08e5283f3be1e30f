#!/usr/bin/env python3
"""Helper of benches/validate_bench.sh: count games, moves and bad games in
one tool's output. Prints `games<TAB>moves<TAB>bad`.

  kind kifu: `kifu validate --format json` JSON Lines (one object per game,
             with `plies` and `ok`).
  kind peer: the one JSON object of validate_cshogi.py / validate_rsshogi.py.
  kind wc:   the line count printed by `wc -l` (games/moves left empty).
"""
import json
import sys

kind, path = sys.argv[1], sys.argv[2]
games = moves = bad = 0
with open(path, encoding="utf-8") as f:
    if kind == "kifu":
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            o = json.loads(line)
            games += 1
            moves += o.get("plies") or 0
            if not o.get("ok"):
                bad += 1
    elif kind == "peer":
        lines = f.read().strip().splitlines()
        if not lines:
            # The tool failed (see its stderr log): no counts.
            print("\t\t")
            sys.exit(0)
        o = json.loads(lines[-1])
        games, moves, bad = o["games"], o["moves"], o["illegal"] + o["errors"]
    else:
        print("\t\t")
        sys.exit(0)
print(f"{games}\t{moves}\t{bad}")
