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
   >= 1.7x. The output also gives each contender's CPU seconds and how many
   cores the process got during jobs=2 (CPU / wall): below ~1.8 the
   machine is busy with other work and the jobs ratio is not a scaling
   figure.

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
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from importlib.metadata import version

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


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(fn, *args):
    """Wall seconds, CPU seconds (every thread of the process), result."""
    t, c = time.perf_counter(), cpu()
    out = fn(*args)
    return time.perf_counter() - t, cpu() - c, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=11)
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
        cpus = {k: [] for k in times}
        counts = {}
        for _ in range(a.rounds):
            for name, fn, arg in (
                ("kifu.read", kifu_read, files),
                ("cshogi", cshogi_replay, files),
                ("jobs=1", lambda c: len(kifu.validate(c, jobs=1)), corpus),
                ("jobs=2", lambda c: len(kifu.validate(c, jobs=2)), corpus),
            ):
                secs, used, out = timed(fn, arg)
                times[name].append(secs)
                cpus[name].append(used)
                counts[name] = out
        b = {k: min(v) for k, v in times.items()}
        med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
        assert counts["kifu.read"] == counts["cshogi"], counts
        print(json.dumps({
            "files": len(files),
            "bytes": size,
            "games_moves": counts["kifu.read"],
            "best_seconds": {k: round(v, 4) for k, v in b.items()},
            "read_vs_cshogi": round(b["cshogi"] / b["kifu.read"], 2),
            "jobs2_vs_jobs1": round(b["jobs=1"] / b["jobs=2"], 2),
            # CPU seconds of the best round's contender and the cores the
            # process got during jobs=2 (CPU / wall): on a machine busy with
            # other work it gets less than two, and the jobs ratio says
            # nothing about scaling.
            "cpu_seconds_min": {k: round(min(v), 4) for k, v in cpus.items()},
            "cores_got_jobs2": round(
                sorted(c / w for c, w in zip(cpus["jobs=2"], times["jobs=2"]))[-1], 2),
            "median_read_vs_cshogi": round(med["cshogi"] / med["kifu.read"], 2),
            "median_jobs2_vs_jobs1": round(med["jobs=1"] / med["jobs=2"], 2),
            "loadavg_after": open("/proc/loadavg").read().split()[:3],
            "cpus": os.cpu_count(),
            "kifu": kifu.__version__,
            "cshogi": version("cshogi"),
        }, indent=1))


if __name__ == "__main__":
    main()
