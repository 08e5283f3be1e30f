#!/usr/bin/env python3
"""Validate CSA and KIF files with cshogi: parse each file with
cshogi.CSA.Parser (which splits multi-game files at `/`) or, for `.kif`,
cshogi.KIF.Parser (one game per file, Shift_JIS or UTF-8), and replay every
move with
board.is_legal + board.push. Prints one JSON object with games, moves,
bytes, illegal (games with an illegal move), errors (files cshogi could not
parse) and seconds.

  validate_cshogi.py [-j N] PATH...     (files or directories of *.csa, *.kif)

-j N spreads the files over N processes (multiprocessing); one big file is
always read by one process.
"""
import argparse
import json
import os
import sys
import time
from multiprocessing import Pool

import cshogi
import cshogi.KIF
import cshogi.CSA
from importlib.metadata import version


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if name.endswith((".csa", ".kif")):
                    files.append(os.path.join(p, name))
        else:
            files.append(p)
    return files


def validate_files(files):
    games = moves = nbytes = illegal = errors = 0
    board = cshogi.Board()
    for path in files:
        nbytes += os.path.getsize(path)
        try:
            if path.endswith(".kif"):
                parsed = [cshogi.KIF.Parser.parse_file(path)]
            else:
                parsed = cshogi.CSA.Parser.parse_file(path)
        except Exception:
            errors += 1
            continue
        for kifu in parsed:
            games += 1
            board.set_sfen(kifu.sfen)
            for m in kifu.moves:
                if not board.is_legal(m):
                    illegal += 1
                    break
                board.push(m)
                moves += 1
    return games, moves, nbytes, illegal, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = collect(a.paths)
    t = time.perf_counter()
    if a.jobs > 1 and len(files) > 1:
        chunks = [files[i :: a.jobs] for i in range(a.jobs)]
        with Pool(a.jobs) as pool:
            parts = pool.map(validate_files, chunks)
        totals = [sum(x) for x in zip(*parts)]
    else:
        totals = validate_files(files)
    secs = time.perf_counter() - t
    games, moves, nbytes, illegal, errors = totals
    print(json.dumps({
        "tool": "cshogi " + version("cshogi"),
        "jobs": a.jobs, "files": len(files), "games": games, "moves": moves,
        "bytes": nbytes, "illegal": illegal, "errors": errors, "seconds": secs,
    }))


if __name__ == "__main__":
    main()
