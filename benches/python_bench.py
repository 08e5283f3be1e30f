#!/usr/bin/env python3
"""The Python package's speed targets (issue 30), measured in one process.

1. kifu.read + moves against cshogi's parse + strict replay on the same CSA
   files: for each file, `kifu.read(path)` (parse, every move played and
   checked, the result decided) and each game's `.moves` (USI strings),
   against `cshogi.CSA.Parser.parse_file(path)` and, for each game,
   `board.set_sfen(sfen)` then `board.is_legal(m)` before every
   `board.push(m)` (as benches/peers/validate_cshogi.py replays). Target:
   kifu >= 1.5x.
2. kifu.validate(folder, jobs=2) against jobs=1 on the same files. Target:
   >= 1.7x.

Rounds alternate between the contenders; each figure is the best of
--rounds. The corpus is made by benches/peers/gen_csa_corpus.py (seeded
random legal games, one per file) unless --corpus names a folder.

  python benches/python_bench.py [--games 2000] [--rounds 5] [--corpus DIR]

Needs the kifu wheel, cshogi and the generator's cshogi in the running
Python (target/pyvenv after .ci/run).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cshogi
import cshogi.CSA

import kifu

ROOT = Path(__file__).resolve().parents[1]


def kifu_read(files):
    games = moves = 0
    for f in files:
        for g in kifu.read(f):
            games += 1
            moves += len(g.moves)
    return games, moves


def cshogi_replay(files):
    games = moves = 0
    board = cshogi.Board()
    for f in files:
        for game in cshogi.CSA.Parser.parse_file(f):
            games += 1
            board.set_sfen(game.sfen)
            for m in game.moves:
                if not board.is_legal(m):
                    break
                board.push(m)
                moves += 1
    return games, moves


def best(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--corpus", help="a folder of .csa files (default: generated)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = a.corpus
        if corpus is None:
            corpus = os.path.join(tmp, "csa")
            subprocess.run(
                [sys.executable, str(ROOT / "benches/peers/gen_csa_corpus.py"),
                 "--out", corpus, "--games", str(a.games), "--seed", "1"],
                check=True, stdout=subprocess.DEVNULL,
            )
        files = kifu.discover(corpus, ext=["csa"])
        size = sum(os.path.getsize(f) for f in files)
        times = {"kifu.read": [], "cshogi": [], "jobs=1": [], "jobs=2": []}
        counts = {}
        for _ in range(a.rounds):
            for name, fn, arg in (
                ("kifu.read", kifu_read, files),
                ("cshogi", cshogi_replay, files),
                ("jobs=1", lambda c: len(kifu.validate(c, jobs=1)), corpus),
                ("jobs=2", lambda c: len(kifu.validate(c, jobs=2)), corpus),
            ):
                secs, out = best(fn, arg)
                times[name].append(secs)
                counts[name] = out
        b = {k: min(v) for k, v in times.items()}
        assert counts["kifu.read"] == counts["cshogi"], counts
        print(json.dumps({
            "files": len(files),
            "bytes": size,
            "games_moves": counts["kifu.read"],
            "best_seconds": {k: round(v, 4) for k, v in b.items()},
            "read_vs_cshogi": round(b["cshogi"] / b["kifu.read"], 2),
            "jobs2_vs_jobs1": round(b["jobs=1"] / b["jobs=2"], 2),
            "cpus": os.cpu_count(),
            "kifu": kifu.__version__,
            "cshogi": getattr(cshogi, "__version__", "?"),
        }, indent=1))


if __name__ == "__main__":
    main()
