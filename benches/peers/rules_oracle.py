#!/usr/bin/env python3
"""Build and verify fixtures/rules/moves.tsv (single-move legality catalogue).

Every row's legal / not-legal verdict is checked against peers:
  standard : cshogi (must agree, hard failure), python-shogi and pyffish ("shogi")
  minishogi: pyffish ("minishogi") and shogiops (via rules_shogiops.mjs)
  doubutsu : pyffish ("dobutsu") and doubutsu_bruteforce.py
The specific rule id in `expect` is our own reasoning (peers only say legal / not).
Usage: python3 benches/peers/rules_oracle.py   (rewrites fixtures/rules/moves.tsv)
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peerlib import cshogi_legal, cshogi_valid, ffish_legal, pyshogi_legal  # noqa: E402
from doubutsu_bruteforce import Pos as DPos  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "fixtures", "rules", "moves.tsv")

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
AFTER_76 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
AFTER_76_34 = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
# 7g7f 3c3d 8h2b+ : gote to move, sente holds the bishop, gote holds nothing
BX = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
HAND_G = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK1SNL b G 1"
HAND_P = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1"
GOTE_P = "lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w p 1"
# sparse sente positions: kings 5a / 5i
PROMO = "4k4/P8/6N1L/1N7/9/9/9/9/4K4 b - 1"  # P9b, N3c, L1c, N8d
DROPS = "4k4/9/9/9/9/9/9/9/4K4 b PLN 1"
GOTE_PROMO = "4k4/9/9/9/7n1/9/9/8p/4K4 w - 1"  # gote n2e, p1h
GOTE_DROPS = "4k4/9/9/9/9/9/9/9/4K4 w pln 1"
# uchifuzume family (gote king 1a, own knight 2a)
UCHI_GOLD = "7nk/9/7G1/9/9/9/9/9/K8 b P 1"  # G2c guards 1b and 2b
UCHI_PIN = "7nk/7g1/8p/7N1/4B4/9/2P3P2/9/K8 b GSPr2p 1"  # g2b pinned by B5e, N2d guards 1b
UCHI_FREE = "7nk/9/9/9/9/9/9/9/K8 b P 1"  # 1b unguarded: king takes
UCHI_ESC = "7nk/9/6N2/9/9/9/9/9/K8 b P 1"  # N3c attacks 2a/4a only: pawn on 1b unguarded
UCHI_NOPIN = "7nk/7g1/8p/7N1/9/9/2P3P2/9/K8 b GSPr2p 1"  # UCHI_PIN without the pinning bishop
UCHI_SILVER = "7nk/9/7Gs/9/9/9/9/9/K8 b P 1"  # gote s1c may capture 1b? (silver back-diagonal: no, 1c->2b/0b)
UCHI_GOTE = "k8/9/9/9/9/9/1g7/9/KN7 w p 1"  # sente king 9i boxed by own N8i, gote g8g
PAWN_MOVE_MATE = "7nk/9/7GP/9/9/9/9/9/K8 b - 1"
TOKIN_FILE = "4k4/9/9/9/9/8+P/9/9/4K4 b P 1"  # own tokin on file 1
ENEMY_PAWN_FILE = "4k4/8p/9/9/9/9/9/9/4K4 b P 1"  # enemy pawn on file 1
PIN = "3k5/9/9/9/4r4/9/9/4G4/4K4 b - 1"  # G5h pinned by r5e
DEFENDED = "4k4/9/9/9/9/9/P4g3/5s3/4K4 b - 1"  # s4h checks, defended by g4g
GOTE_KING = "4k4/9/9/9/9/9/9/9/3RK4 w - 1"
LANCE_PIN = "4k4/9/8l/9/9/9/9/8S/8K b - 1"
ZONE = "4k4/9/2G3+P2/5S3/9/9/9/9/4K4 b - 1"  # G7c, tokin 3c, S4d
KING_ZONE = "1k7/9/4K4/9/9/9/9/9/9 b - 1"
SILVER_OUT = "4k4/9/5S3/9/9/9/9/9/4K4 b - 1"  # S4c in zone

MINI = "rbsgk/4p/5/P4/KGSBR b - 1"
M_SILVER = "4k/5/2S2/5/K4 b - 1"
M_SILVER2 = "4k/2S2/5/5/K4 b - 1"
M_PAWN = "4k/P4/5/5/K4 b - 1"
M_DROP = "4k/5/5/P4/K4 b P 1"
M_UCHI = "3rk/5/4G/5/K4 b P 1"
M_GOTE = "k4/5/5/4p/4K w - 1"  # gote p1d, sente king 1e? see fix below

DOB = "gle/1c1/1C1/ELG b - 1"
D_CHICK = "l2/2C/3/2L b C 1"
D_LION = "2l/3/1g1/L2 b - 1"
D_GOTE = "2l/1c1/3/L2 w c 1"

CASES = [
    # ---- no-piece
    ("standard", START, "5e5d", "no-piece", "empty from-square"),
    ("standard", START, "3c3d", "no-piece", "from-square holds gote's pawn, sente to move"),
    ("standard", AFTER_76, "2g2f", "no-piece", "gote to move tries sente's pawn"),
    ("standard", AFTER_76, "5e5f", "no-piece", "gote to move, empty from-square"),
    # ---- illegal-movement
    ("standard", START, "7g7e", "illegal-movement", "pawn two steps"),
    ("standard", START, "8h2b", "illegal-movement", "bishop path blocked by own 7g pawn"),
    ("standard", START, "2h2d", "illegal-movement", "rook path blocked by own 2g pawn"),
    ("standard", START, "5i5g", "illegal-movement", "king two squares"),
    ("standard", START, "6i5h+", "illegal-promotion", "gold cannot promote (and 5h not in zone)"),
    ("standard", AFTER_76, "8b8d", "illegal-movement", "gote rook blocked by own 8c pawn"),
    ("standard", AFTER_76, "2a2c", "illegal-movement", "gote knight straight down is not a knight move"),
    ("standard", AFTER_76, "3a4c", "illegal-movement", "gote silver cannot jump 2 squares"),
    ("standard", PROMO, "1c1b", "legal", "lance to rank 2 unpromoted is fine"),
    ("standard", PROMO, "8d8b", "illegal-movement", "knight moving straight"),
    # ---- occupied
    ("standard", START, "8h7g", "occupied", "bishop onto own pawn"),
    ("standard", HAND_G, "G*5g", "occupied", "drop on own pawn"),
    ("standard", HAND_G, "G*5c", "occupied", "drop on enemy pawn"),
    ("standard", AFTER_76, "6a5a", "occupied", "gote gold onto own king"),
    ("standard", AFTER_76, "2a3c", "occupied", "gote knight onto own pawn"),
    # ---- not-in-hand
    ("standard", START, "P*5e", "not-in-hand", "empty hands"),
    ("standard", HAND_G, "S*5e", "not-in-hand", "holds a gold, not a silver"),
    ("standard", BX, "B*5e", "not-in-hand", "gote to move; the captured bishop is in SENTE's hand"),
    ("standard", BX, "3a2b", "legal", "gote recaptures the horse"),
    # ---- must-promote (board moves)
    ("standard", PROMO, "9b9a", "must-promote", "pawn to last rank unpromoted"),
    ("standard", PROMO, "9b9a+", "legal", "pawn to last rank promoting"),
    ("standard", PROMO, "1c1a", "must-promote", "lance to last rank unpromoted"),
    ("standard", PROMO, "1c1a+", "legal", "lance to last rank promoting"),
    ("standard", PROMO, "8d7b", "must-promote", "knight to rank 2 unpromoted"),
    ("standard", PROMO, "8d7b+", "legal", "knight to rank 2 promoting"),
    ("standard", PROMO, "3c2a", "must-promote", "knight to rank 1 unpromoted"),
    ("standard", PROMO, "3c4a+", "legal", "knight to rank 1 promoting"),
    ("standard", DROPS, "N*4c", "legal", "knight drop on rank 3"),
    ("standard", "4k4/9/9/9/1N7/9/9/9/4K4 b - 1", "8e7c", "legal", "knight to rank 3 unpromoted"),
    ("standard", "4k4/9/9/9/1N7/9/9/9/4K4 b - 1", "8e7c+", "legal", "knight to rank 3 promoting"),
    ("standard", GOTE_PROMO, "1h1i", "must-promote", "gote pawn to rank i unpromoted"),
    ("standard", GOTE_PROMO, "1h1i+", "legal", "gote pawn to rank i promoting"),
    ("standard", GOTE_PROMO, "2e1g", "legal", "gote knight to rank g (its 3rd rank) unpromoted"),
    ("standard", "4k4/9/9/9/9/7n1/9/9/4K4 w - 1", "2f1h", "must-promote", "gote knight to rank h unpromoted"),
    # ---- dead-drop
    ("standard", DROPS, "P*9a", "dead-drop", "pawn drop on rank 1"),
    ("standard", DROPS, "L*1a", "dead-drop", "lance drop on rank 1"),
    ("standard", DROPS, "N*1b", "dead-drop", "knight drop on rank 2"),
    ("standard", DROPS, "L*1b", "legal", "lance drop on rank 2"),
    ("standard", GOTE_DROPS, "P*1i", "dead-drop", "gote pawn drop on rank i"),
    ("standard", GOTE_DROPS, "N*1h", "dead-drop", "gote knight drop on rank h"),
    ("standard", GOTE_DROPS, "N*1g", "legal", "gote knight drop on rank g"),
    # ---- nifu
    ("standard", HAND_P, "P*5e", "nifu", "own unpromoted pawn on 5g"),
    ("standard", HAND_P, "P*1e", "legal", "file 1 has only gote's pawn 1c"),
    ("standard", GOTE_P, "P*5e", "nifu", "gote, own pawn on 5c"),
    ("standard", GOTE_P, "P*1e", "legal", "gote, file 1 free of gote pawns"),
    ("standard", UCHI_PIN, "P*3d", "nifu", "own pawn on 3g"),
    ("standard", UCHI_PIN, "P*7c", "nifu", "own pawn on 7g"),
    ("standard", TOKIN_FILE, "P*1e", "legal", "own tokin (not a pawn) on the file"),
    ("standard", ENEMY_PAWN_FILE, "P*1e", "legal", "only an enemy pawn on the file"),
    # ---- uchifuzume and pawn-drop checks
    ("standard", UCHI_GOLD, "P*1b", "uchifuzume", "pawn guarded by G2c, 2b covered, 2a own knight"),
    ("standard", UCHI_PIN, "P*1b", "uchifuzume", "only capturer g2b is pinned by B5e (still uchifuzume)"),
    ("standard", UCHI_NOPIN, "P*1b", "legal", "same as above without the pinning bishop: g2b may capture"),
    ("standard", UCHI_PIN, "S*1b", "legal", "same square, silver drop check is fine"),
    ("standard", UCHI_PIN, "P*5b", "legal", "ordinary pawn drop"),
    ("standard", UCHI_GOTE, "P*9h", "uchifuzume", "gote drops: sente king 9i boxed by own N8i, g8g guards"),
    ("standard", UCHI_FREE, "P*1b", "legal", "pawn-drop check, king can capture the pawn"),
    ("standard", UCHI_ESC, "P*1b", "legal", "pawn-drop check, unguarded pawn"),
    ("standard", "8k/9/7G1/9/9/9/9/9/K8 b P 1", "P*1b", "legal", "pawn-drop check not mate: king escapes to 2a"),
    ("standard", UCHI_SILVER, "P*1b", "uchifuzume", "gote silver 1c cannot move straight back to 1b"),
    ("standard", "7nk/9/7G1/8s/9/9/9/9/K8 b P 1", "P*1b", "uchifuzume", "gote silver 1d cannot reach 1b"),
    ("standard", "6s1k/9/7G1/9/9/9/9/9/K8 b P 1", "P*1b", "legal", "gote silver 3a is not on 2a: king escapes to 2a"),
    ("standard", "7nk/9/7Gs/9/9/9/9/9/K8 b P 1", "P*2b", "legal", "drop next to king, not check on king 1a (pawn attacks 2a)"),
    ("standard", "7nk/8s/7G1/9/9/9/9/9/K8 b P 1", "P*1c", "legal", "pawn drop attacks silver, not king"),
    ("standard", PAWN_MOVE_MATE, "1c1b", "legal", "pawn MOVE that mates is legal"),
    ("standard", PAWN_MOVE_MATE, "1c1b+", "legal", "promoting pawn move that mates"),
    ("standard", UCHI_GOLD, "G*1b", "not-in-hand", "only a pawn in hand"),
    # ---- self-check
    ("standard", PIN, "5h4g", "self-check", "pinned gold leaves the file"),
    ("standard", PIN, "5h5g", "legal", "pinned gold moves along the pin line"),
    ("standard", PIN, "5h4h", "self-check", "pinned gold sideways"),
    ("standard", DEFENDED, "5i4h", "self-check", "king captures silver defended by g4g"),
    ("standard", DEFENDED, "5i5h", "self-check", "king steps onto square attacked by g4g"),
    ("standard", DEFENDED, "5i4i", "self-check", "king stays attacked by s4h"),
    ("standard", DEFENDED, "9g9f", "self-check", "ignores the check"),
    ("standard", DEFENDED, "5i6h", "legal", "king escapes"),
    ("standard", GOTE_KING, "5a6b", "self-check", "gote king onto R6i's file"),
    ("standard", GOTE_KING, "5a4b", "legal", "gote king safe step"),
    ("standard", LANCE_PIN, "1h2g", "self-check", "silver uncovers l1c onto K1i"),
    ("standard", LANCE_PIN, "1h1g", "legal", "silver stays on the lance file"),
    # ---- illegal-promotion
    ("standard", START, "7g7f+", "illegal-promotion", "neither from nor to in zone"),
    ("standard", AFTER_76, "3c3d+", "illegal-promotion", "gote pawn outside its zone"),
    ("standard", ZONE, "7c7b+", "illegal-promotion", "gold cannot promote"),
    ("standard", ZONE, "3c3b+", "illegal-promotion", "tokin cannot promote again"),
    ("standard", KING_ZONE, "5c5b+", "illegal-promotion", "king cannot promote"),
    ("standard", KING_ZONE, "5c5b", "legal", "king into enemy camp"),
    ("standard", ZONE, "4d4c+", "legal", "silver enters the zone promoting"),
    ("standard", ZONE, "4d4c", "legal", "silver enters the zone unpromoted"),
    ("standard", SILVER_OUT, "4c5d+", "legal", "promotion by moving OUT of the zone"),
    ("standard", SILVER_OUT, "4c5d", "legal", "leaving the zone unpromoted"),
    ("standard", AFTER_76_34, "8h2b+", "legal", "bishop exchange promoting"),
    ("standard", AFTER_76_34, "8h2b", "legal", "bishop exchange not promoting"),
    ("standard", START, "7g7f", "legal", "opening move"),
    ("standard", START, "2h7h", "legal", "rook swing"),
    ("standard", AFTER_76, "3c3d", "legal", "gote reply"),
    # ---- minishogi (zone = far rank only)
    ("minishogi", MINI, "5d5c", "legal", "pawn push"),
    ("minishogi", MINI, "5d5c+", "illegal-promotion", "rank c is not in the minishogi zone"),
    ("minishogi", MINI, "4e3e", "occupied", "gold onto own silver"),
    ("minishogi", MINI, "2e3d", "legal", "bishop diagonal"),
    ("minishogi", MINI, "1e1c", "legal", "rook up the file"),
    ("minishogi", MINI, "1e1a", "illegal-movement", "rook blocked by gote pawn 1b"),
    ("minishogi", MINI, "P*3c", "not-in-hand", "empty hands"),
    ("minishogi", M_SILVER, "3c3b+", "illegal-promotion", "silver rank 3 -> rank 2: not in zone (rank a only)"),
    ("minishogi", M_SILVER, "3c3b", "legal", "same move unpromoted"),
    ("minishogi", M_SILVER2, "3b3a+", "legal", "silver enters the zone promoting"),
    ("minishogi", M_SILVER2, "3b2c+", "illegal-promotion", "from rank b (not zone) to rank c"),
    ("minishogi", M_PAWN, "5b5a", "must-promote", "pawn to rank a unpromoted"),
    ("minishogi", M_PAWN, "5b5a+", "legal", "pawn to rank a promoting"),
    ("minishogi", M_DROP, "P*5c", "nifu", "own pawn on 5d"),
    ("minishogi", M_DROP, "P*4c", "legal", "free file"),
    ("minishogi", M_DROP, "P*4a", "dead-drop", "pawn drop on rank a"),
    ("minishogi", M_UCHI, "P*1b", "uchifuzume", "guarded by G1c, 2b covered, r2a cannot capture diagonally"),
    ("minishogi", M_UCHI, "G*1b", "not-in-hand", "only a pawn in hand"),
    ("minishogi", "4k/5/5/4p/K4 w - 1", "1d1e", "must-promote", "gote pawn to rank e unpromoted"),
    ("minishogi", "4k/5/5/4p/K4 w - 1", "1d1e+", "legal", "gote pawn to rank e promoting"),
    ("minishogi", "4k/5/5/3r1/K4 b - 1", "5e4d", "self-check", "king onto r2d's rank"),
    ("minishogi", "4k/5/5/3r1/K4 b - 1", "5e4e", "legal", "king sideways, safe"),
    # ---- doubutsu (no check rules, no drop restrictions, chick forced promotion)
    ("doubutsu", DOB, "2c2b", "legal", "chick captures chick"),
    ("doubutsu", DOB, "1d1c", "legal", "giraffe step"),
    ("doubutsu", DOB, "2d2c", "occupied", "lion onto own chick"),
    ("doubutsu", DOB, "3d2c", "occupied", "elephant onto own chick"),
    ("doubutsu", DOB, "3d3c", "illegal-movement", "elephant moves only diagonally"),
    ("doubutsu", DOB, "1d1b", "illegal-movement", "giraffe moves one step"),
    ("doubutsu", DOB, "2b2c", "no-piece", "gote chick, sente to move"),
    ("doubutsu", DOB, "C*1c", "not-in-hand", "empty hands"),
    ("doubutsu", DOB, "2d3c", "legal", "lion step"),
    ("doubutsu", D_CHICK, "1b1a+", "legal", "chick reaches far rank, promotes"),
    ("doubutsu", D_CHICK, "1b1a", "must-promote", "chick onto far rank without + (only the promoted move exists)"),
    ("doubutsu", D_CHICK, "C*2a", "legal", "chick drop on last rank is legal (stays a chick)"),
    ("doubutsu", D_CHICK, "C*2b", "legal", "chick drop next to enemy lion"),
    ("doubutsu", D_CHICK, "C*1b", "occupied", "drop onto own chick"),
    ("doubutsu", D_CHICK, "1d1c+", "illegal-promotion", "lion cannot promote"),
    ("doubutsu", D_LION, "3d3c", "legal", "lion moves into the giraffe's attack: allowed in doubutsu"),
    ("doubutsu", D_LION, "3d2c", "legal", "lion captures the giraffe"),
    ("doubutsu", D_GOTE, "2b2c", "legal", "gote chick forward"),
    ("doubutsu", D_GOTE, "C*2d", "legal", "gote drops a chick on its last rank"),
    ("doubutsu", D_GOTE, "C*3d", "occupied", "drop onto sente lion"),
    ("doubutsu", "2l/3/1c1/L2 w - 1", "2c2d+", "legal", "gote chick promotes on rank d"),
    ("doubutsu", "2l/3/1c1/L2 w - 1", "2c2d", "must-promote", "gote chick onto rank d without +"),
    ("doubutsu", "2l/1G1/3/L2 b - 1", "2b2a+", "illegal-promotion", "giraffe cannot promote"),
]


# Rows where a secondary peer is known to be wrong (checked by hand); cshogi
# must always agree, secondary peers must agree except for these.
KNOWN_PEER_BUGS = {
    (HAND_G, "G*5c", "python-shogi"): "python-shogi 1.1.1 allows a drop onto an ENEMY piece",
    (UCHI_PIN, "P*1b", "python-shogi"): "python-shogi 1.1.1 ignores that the only capturer is pinned",
}


def shogiops_verdicts(rows):
    """minishogi rows -> shogiops isLegal, via one node call."""
    payload = json.dumps([{"rules": "minishogi", "sfen": s, "usi": m} for _, s, m, _, _ in rows])
    out = subprocess.run(["node", os.path.join(HERE, "rules_shogiops.mjs")], input=payload,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def brute_legal(sfen, usi):
    return usi in DPos(sfen).moves()


def main():
    cases = CASES
    bad = 0
    mini = [c for c in cases if c[0] == "minishogi"]
    ops = dict(zip([(c[1], c[2]) for c in mini], shogiops_verdicts(mini)))
    for variant, sfen, move, expect, note in cases:
        want = expect == "legal"
        verdicts = {}
        if variant == "standard":
            if not cshogi_valid(sfen):
                print("INVALID (side not to move in check)", sfen); bad += 1
            verdicts["cshogi"] = cshogi_legal(sfen, move)
            verdicts["python-shogi"] = pyshogi_legal(sfen, move)
            verdicts["pyffish"] = ffish_legal(variant, sfen, move)
        elif variant == "minishogi":
            verdicts["pyffish"] = ffish_legal(variant, sfen, move)
            verdicts["shogiops"] = ops[(sfen, move)]
        else:
            verdicts["pyffish"] = ffish_legal(variant, sfen, move)
            verdicts["bruteforce"] = brute_legal(sfen, move)
        wrong = [k for k, v in verdicts.items() if v != want]
        for k in list(wrong):
            if (sfen, move, k) in KNOWN_PEER_BUGS:
                print(f"known peer bug: {k} on {sfen} {move}: {KNOWN_PEER_BUGS[(sfen, move, k)]}")
                wrong.remove(k)
        if wrong:
            bad += 1
            print(f"MISMATCH {variant} {sfen} {move} expect={expect} peers={verdicts}")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("variant\tsfen\tmove\texpect\tnote\n")
        for row in cases:
            f.write("\t".join(row) + "\n")
    print(f"{len(cases)} rows, {bad} problems")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
