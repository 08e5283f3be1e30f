#!/usr/bin/env python3
"""Regenerate fixtures/perft/perft.csv from independent peer engines.

Usage (from repo root or anywhere):
    cd benches/peers && npm ci   # installs shogiops (package.json)
    pip install cshogi==1.1.0 pyffish==0.0.90
    python3 benches/peers/make_perft.py          # writes fixtures/perft/perft.csv + names.csv

For every row the primary tool's count is written; every other tool listed for
that variant is run up to its own depth cap and must agree, otherwise the
script reports the disagreement and exits non-zero.  The `tool` column names
every tool that produced that exact number.
"""
import csv
import os
import subprocess
import sys
from importlib.metadata import version

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "fixtures", "perft")


def npm_version(pkg):
    import json
    with open(os.path.join(HERE, "node_modules", pkg, "package.json")) as f:
        return json.load(f)["version"]


V_CSHOGI = f"cshogi {version('cshogi')}"
V_FFISH = f"pyffish {version('pyffish')}"
V_OPS = f"shogiops {npm_version('shogiops')}"
V_BRUTE = "doubutsu_bruteforce.py"

TAIL = "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
HANDICAPS = [
    ("香落ち (lance)", "lnsgkgsn1/1r5b1"),
    ("右香落ち (right lance)", "1nsgkgsnl/1r5b1"),
    ("角落ち (bishop)", "lnsgkgsnl/1r7"),
    ("飛車落ち (rook)", "lnsgkgsnl/7b1"),
    ("飛香落ち (rook-lance)", "lnsgkgsn1/7b1"),
    ("二枚落ち (2-piece)", "lnsgkgsnl/9"),
    ("三枚落ち (3-piece)", "lnsgkgsn1/9"),
    ("四枚落ち (4-piece)", "1nsgkgsn1/9"),
    ("五枚落ち (5-piece)", "2sgkgsn1/9"),
    ("左五枚落ち (left 5-piece)", "1nsgkgs2/9"),
    ("六枚落ち (6-piece)", "2sgkgs2/9"),
    ("左七枚落ち (left 7-piece)", "2sgkg3/9"),
    ("右七枚落ち (right 7-piece)", "3gkgs2/9"),
    ("八枚落ち (8-piece)", "3gkg3/9"),
    ("十枚落ち (10-piece)", "4k4/9"),
]

# (variant, name, sfen, maxdepth)
POSITIONS = [
    ("standard", "start", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 5),
    ("standard", "max-moves-593", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 3),
]
POSITIONS += [("standard", f"handicap {n}", b + TAIL, 4) for n, b in HANDICAPS]
POSITIONS += [
    # cshogi random legal play, random.Random(37), 80 plies: promoted pieces, drops
    ("standard", "midgame random seed37 ply80 (sente)",
     "1ngk4G/l2s1+Bs1l/1p1p1pn1p/p1R1pg1p1/4+B4/1P3PpP1/P1NP+r1NGP/9/L4+sPKL b SP2p 81", 3),
    # random.Random(23), 101 plies: gote to move, 4 promoted pieces
    ("standard", "midgame random seed23 ply101 (gote)",
     "1s+P5l/l4rsk1/p1+R+N2P1n/2ppg1b1p/P2Pppgp1/L2K1P1PP/1P2P1+pnL/1SG1S4/1b5N1 w Pg 102", 3),
    # random.Random(10), 101 plies: gote to move IN CHECK, 4 pawns + silver in hand
    ("standard", "midgame random seed10 ply101 (gote in check)",
     "s7l/1+N2k1ss1/2p5r/1p1gLpp1p/P1Gp2P1G/1bPP2b2/3+nPPn1P/L2G1R1PL/1N1K5 w 4Ps 102", 3),
    # random.Random(33), 100 plies: sente IN CHECK, 6 promoted pieces
    ("standard", "midgame random seed33 ply100 (sente in check)",
     "6knl/l1+B1+P2s1/1+N4GPN/ppp1G3+b/1P1p1pP1p/PsPP3p1/4+pP1KP/R2+rG1S1L/LN1G5 b SP 101", 3),
    # constructed: gote king 1a boxed (own knight 2a, own gold 2b pinned by B5e),
    # N2d guards 1b: P*1b is uchifuzume; files 3 and 7 are nifu for sente.
    ("standard", "constructed uchifuzume/pin/nifu",
     "7nk/7g1/8p/7N1/4B4/9/2P3P2/9/K8 b GSPr2p 1", 3),
    ("minishogi", "start", "rbsgk/4p/5/P4/KGSBR b - 1", 5),
    ("doubutsu", "start", "gle/1c1/1C1/ELG b - 1", 6),
]

# per variant: list of (tool label, command prefix, depth cap)
PY = sys.executable
TOOLS = {
    "standard": [
        (V_CSHOGI, [PY, os.path.join(HERE, "perft_cshogi.py")], 99),
        (V_OPS, ["node", os.path.join(HERE, "perft_shogiops.mjs"), "standard"], 99),
        (V_FFISH, [PY, os.path.join(HERE, "perft_pyffish.py"), "standard"], 3),
    ],
    "minishogi": [
        (V_OPS, ["node", os.path.join(HERE, "perft_shogiops.mjs"), "minishogi"], 99),
        (V_FFISH, [PY, os.path.join(HERE, "perft_pyffish.py"), "minishogi"], 5),
    ],
    # Fairy-Stockfish ends the game as soon as the lion reaches the far rank
    # (try); kifu does not, so only depths <= 5 are comparable (a sente lion
    # first reaches rank a at ply 5).  Depth 6 comes from the brute force only.
    "doubutsu": [
        (V_BRUTE, [PY, os.path.join(HERE, "doubutsu_bruteforce.py")], 99),
        (V_FFISH, [PY, os.path.join(HERE, "perft_pyffish.py"), "doubutsu"], 5),
    ],
}
# keep pyffish (slow, ~4 ms per node expanded) off the really big standard rows
FFISH_SKIP = {"max-moves-593": 2, "start": 3, "constructed uchifuzume/pin/nifu": 2}


def run(cmd, sfen, depth):
    out = subprocess.run(cmd + [sfen, str(depth)], check=True, capture_output=True, text=True).stdout
    return {int(a): int(b) for a, b in (l.split() for l in out.strip().splitlines())}


def main():
    rows, bad = [], 0
    for variant, name, sfen, maxd in POSITIONS:
        results = {}
        for label, cmd, cap in TOOLS[variant]:
            d = min(maxd, cap)
            if label == V_FFISH and variant == "standard":
                d = min(d, FFISH_SKIP.get(name, d))
            results[label] = run(cmd, sfen, d)
            print(f"{variant} {name}: {label} {results[label]}", file=sys.stderr, flush=True)
        primary = TOOLS[variant][0][0]
        for depth in range(1, maxd + 1):
            n = results[primary][depth]
            agree = [l for l, r in results.items() if depth in r and r[depth] == n]
            for l, r in results.items():
                if depth in r and r[depth] != n:
                    bad += 1
                    print(f"DISAGREE {variant} {name} d{depth}: {primary}={n} {l}={r[depth]}", file=sys.stderr)
            rows.append((variant, sfen, depth, n, " + ".join(agree)))
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "perft.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["variant", "sfen", "depth", "nodes", "tool"])
        w.writerows(rows)
    with open(os.path.join(OUT, "names.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["sfen", "name"])
        for variant, name, sfen, _ in POSITIONS:
            w.writerow([sfen, f"{variant} {name}"])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
