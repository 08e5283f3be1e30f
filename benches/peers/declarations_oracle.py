#!/usr/bin/env python3
"""Build and verify fixtures/rules/declarations.tsv (entering-king declarations).

Positions are generated from a small template: the declarer's pieces listed
explicitly, every remaining piece of the 40 put in the opponent's hand (so all
positions have the full material).  Expected results are computed here from
the rule text (JSA 24-point, CSA 27-point) and cross-checked with cshogi's
Board.is_nyugyoku(LAW_27) (True iff win) and is_nyugyoku(LAW_24) (True iff
win: cshogi folds 24-point "draw" and "lose" into False).
Usage: python3 benches/peers/declarations_oracle.py
"""
import os
import sys

import cshogi

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "fixtures", "rules", "declarations.tsv")
TOTAL = {"r": 2, "b": 2, "g": 4, "s": 4, "n": 4, "l": 4, "p": 18}
BIG = set("rb")


def board_pieces(board):
    out = []
    for ch in board.replace("+", ""):
        if ch.isalpha() and ch.lower() != "k":
            out.append(ch.lower())
    return out


def hand_str(counts, upper):
    s = ""
    for p in "rbgsnlp":
        n = counts.get(p, 0)
        if n:
            s += (str(n) if n > 1 else "") + (p.upper() if upper else p)
    return s


def make(board, side, my_hand):
    """board: 9 ranks; my_hand: dict of the declarer's hand; rest -> opponent's hand."""
    used = {}
    for p in board_pieces(board) + [p for p, n in my_hand.items() for _ in range(n)]:
        used[p] = used.get(p, 0) + 1
    rest = {p: TOTAL[p] - used.get(p, 0) for p in TOTAL}
    assert all(v >= 0 for v in rest.values()), rest
    sente_hand = my_hand if side == "b" else rest
    gote_hand = rest if side == "b" else my_hand
    h = hand_str(sente_hand, True) + hand_str(gote_hand, False)
    return f"{board} {side} {h or '-'} 1"


def flip(board):
    """rotate 180 degrees and swap colours"""
    ranks = board.split("/")[::-1]
    out = []
    for r in ranks:
        toks, i = [], 0
        while i < len(r):
            if r[i] == "+":
                toks.append(r[i:i + 2]); i += 2
            else:
                toks.append(r[i]); i += 1
        toks = toks[::-1]
        out.append("".join(t.swapcase() for t in toks))
    return "/".join(out)


def judge(sfen):
    """Returns (rule24, rule27) verdicts computed from the rule text."""
    board, side, hand, _ = sfen.split()
    me_upper = side == "b"
    rows = board.split("/")
    camp = range(0, 3) if me_upper else range(6, 9)
    pieces, points, king_in = 0, 0, False
    for y, row in enumerate(rows):
        i = 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                i += 1
                continue
            if ch == "+":
                ch = row[i + 1]
                i += 1
            i += 1
            if ch.isupper() != me_upper or y not in camp:
                continue
            if ch.lower() == "k":
                king_in = True
            else:
                pieces += 1
                points += 5 if ch.lower() in BIG else 1
    n = ""
    for ch in "" if hand == "-" else hand:
        if ch.isdigit():
            n += ch
            continue
        if ch.isupper() == me_upper:
            points += (int(n) if n else 1) * (5 if ch.lower() in BIG else 1)
        n = ""
    b = cshogi.Board(sfen)
    ok = king_in and pieces >= 10 and not b.is_check()
    r24 = "lose" if not ok or points < 24 else ("win" if points >= 31 else "draw")
    r27 = "win" if ok and points >= (28 if me_upper else 27) else "lose"
    return r24, r27, points, pieces


# declarer = sente: camp R B G G S S + 4 pawns on rank c, king 5b (10 pieces, 18 points)
CAMP = "RBGG1SS2/4K4/PPPP5/9/9/9/9/9/8k"
CAMP_PROM = "+RBGG1+S+S2/4K4/PPPP5/9/9/9/9/9/8k"  # promoted pieces count like unpromoted
CAMP9 = "RBGG1SS2/4K4/PPP6/9/9/9/9/9/8k"  # only 9 pieces in camp
CAMP_CHECK = "RBGG1SS2/4K4/PPPPg4/9/9/9/9/9/8k"  # g5c checks K5b
CAMP_OUT = "RBGG1SS2/9/PPPP5/4K4/9/9/9/9/8k"  # king on 5d, outside the camp

CASES = [  # (board, side, declarer hand, note)
    (CAMP, "b", {"r": 1, "b": 1, "p": 3}, "31 points"),
    (CAMP, "b", {"r": 1, "b": 1, "p": 2}, "30 points"),
    (CAMP, "b", {"r": 1, "b": 1}, "28 points"),
    (CAMP, "b", {"r": 1, "p": 4}, "27 points"),
    (CAMP, "b", {"r": 1, "p": 1}, "24 points"),
    (CAMP, "b", {"r": 1}, "23 points"),
    (CAMP_PROM, "b", {"r": 1, "b": 1, "p": 3}, "31 points, promoted R/S count as R/S"),
    (CAMP9, "b", {"r": 1, "b": 1, "p": 4}, "only 9 pieces in the camp (32 points)"),
    (CAMP_CHECK, "b", {"r": 1, "b": 1, "p": 3}, "in check from g5c (31 points)"),
    (CAMP_OUT, "b", {"r": 1, "b": 1, "p": 3}, "king on 5d, not in the camp (31 points)"),
    (flip(CAMP), "w", {"r": 1, "b": 1, "p": 3}, "gote, 31 points"),
    (flip(CAMP), "w", {"r": 1, "b": 1, "p": 2}, "gote, 30 points"),
    (flip(CAMP), "w", {"r": 1, "p": 4}, "gote, 27 points"),
    (flip(CAMP), "w", {"r": 1, "p": 3}, "gote, 26 points"),
    (flip(CAMP), "w", {"r": 1, "p": 1}, "gote, 24 points"),
    (flip(CAMP), "w", {"r": 1}, "gote, 23 points"),
    (flip(CAMP9), "w", {"r": 1, "b": 1, "p": 4}, "gote, only 9 pieces in the camp"),
    (flip(CAMP_CHECK), "w", {"r": 1, "b": 1, "p": 3}, "gote, in check"),
    (flip(CAMP_OUT), "w", {"r": 1, "b": 1, "p": 3}, "gote, king not in the camp"),
]


def main():
    bad, rows = 0, []
    for board, side, hand, note in CASES:
        sfen = make(board, side, hand)
        b = cshogi.Board(sfen)
        assert b.sfen().split()[:3] == sfen.split()[:3], (sfen, b.sfen())
        r24, r27, pts, pcs = judge(sfen)
        c24, c27 = b.is_nyugyoku(cshogi.LAW_24), b.is_nyugyoku(cshogi.LAW_27)
        flag = ""
        if c27 != (r27 == "win") or c24 != (r24 == "win"):
            bad += 1
            flag = "  <-- cshogi disagrees"
        print(f"{sfen:70} pts={pts} pcs={pcs} 24:{r24}({c24}) 27:{r27}({c27}){flag}")
        rows.append(("24", sfen, r24, note))
        rows.append(("27", sfen, r27, note))
    with open(OUT, "w") as f:
        f.write("rule\tsfen\texpect\tnote\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    print(f"{len(rows)} rows, {bad} problems")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
