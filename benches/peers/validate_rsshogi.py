#!/usr/bin/env python3
"""Validate CSA files with rsshogi (Rust core, Python API).

rsshogi.record.Record.from_csa_games_file parses a file that may hold
several games separated by `/`; its parser replays every move on its board
and raises on an illegal one ("illegal move at index N"), so parsing alone
is already a legality check. --replay additionally replays each main-line
move with Board.is_legal_move + apply_move (double work; off by default).
Prints one JSON object like validate_cshogi.py.

  validate_rsshogi.py [-j N] [--replay] PATH...
"""
import argparse
import json
import os
import time
from importlib.metadata import version
from multiprocessing import Pool

import rsshogi.core
import rsshogi.record

REPLAY = False


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if name.endswith(".csa"):
                    files.append(os.path.join(p, name))
        else:
            files.append(p)
    return files


def validate_files(args):
    files, replay = args
    games = moves = nbytes = illegal = errors = 0
    board = rsshogi.core.Board()
    for path in files:
        nbytes += os.path.getsize(path)
        try:
            records = rsshogi.record.Record.from_csa_games_file(path)
        except Exception as e:
            # A file with an illegal move (or a syntax error) fails whole.
            if "illegal" in str(e):
                illegal += 1
            else:
                errors += 1
            continue
        for rec in records:
            games += 1
            if replay:
                board.set_sfen(rec.init_position_sfen)
                for e in rec.moves:
                    if not board.is_legal_move(e.move):
                        illegal += 1
                        break
                    board.apply_move(e.move)
                    moves += 1
            else:
                moves += rec.move_count
    return games, moves, nbytes, illegal, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--replay", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = collect(a.paths)
    t = time.perf_counter()
    if a.jobs > 1 and len(files) > 1:
        chunks = [(files[i :: a.jobs], a.replay) for i in range(a.jobs)]
        with Pool(a.jobs) as pool:
            parts = pool.map(validate_files, chunks)
        totals = [sum(x) for x in zip(*parts)]
    else:
        totals = validate_files((files, a.replay))
    secs = time.perf_counter() - t
    games, moves, nbytes, illegal, errors = totals
    print(json.dumps({
        "tool": "rsshogi " + version("rsshogi") + (" (+replay)" if a.replay else ""),
        "jobs": a.jobs, "files": len(files), "games": games, "moves": moves,
        "bytes": nbytes, "illegal": illegal, "errors": errors, "seconds": secs,
    }))


if __name__ == "__main__":
    main()
