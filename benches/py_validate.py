#!/usr/bin/env python3
"""`kifu.validate(FOLDER, jobs=J)` read through (benches/jobs.sh).

  py_validate.py FOLDER JOBS [GAMES]   (GAMES: the reports expected)
"""
import sys

import kifu

n = sum(1 for _ in kifu.validate([sys.argv[1]], jobs=int(sys.argv[2])))
if len(sys.argv) > 3:
    assert n == int(sys.argv[3]), n
