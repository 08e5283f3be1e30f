#!/usr/bin/env python3
"""Tiny independent brute-force doubutsu (dobutsu shogi) move generator.

Written from the rules text only (no code shared with kifu's Rust engine) to
cross-check Fairy-Stockfish.  Rules implemented (kifu's):
  * 3 files x 4 ranks; SFEN board rows top (rank a, gote's back rank) to
    bottom (rank d); within a row file 3 comes first.
  * l lion (king moves), g giraffe (1 step orthogonal), e elephant (1 step
    diagonal), c chick (1 step forward), h hen (gold moves); uppercase = sente.
  * moving into / staying in check IS allowed; capturing the lion ends the
    game (no moves afterwards).
  * a chick moved onto the far rank always promotes (only "+" move exists).
  * drops: any empty square, captured hens become chicks; no nifu, no
    uchifuzume, a chick may be dropped on the last rank (unpromoted).
  * try rule is NOT modelled (does not matter for perft depth <= 4 from the
    start position).
Usage: python3 doubutsu_bruteforce.py SFEN MAXDEPTH   -> "depth nodes" lines
"""
import sys

FILES, RANKS = 3, 4
RANK_CH = "abcd"
STEPS = {  # (dfile_right, drank_down) for sente; files: x=0 leftmost (file 3)
    "l": [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
    "g": [(0, -1), (-1, 0), (1, 0), (0, 1)],
    "e": [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    "c": [(0, -1)],
    "h": [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
}


def sq_name(x, y):
    return f"{FILES - x}{RANK_CH[y]}"


def parse_sq(s):
    return FILES - int(s[0]), RANK_CH.index(s[1])


class Pos:
    def __init__(self, sfen):
        board, side, hand, *_ = sfen.split()
        self.b = {}
        for y, row in enumerate(board.split("/")):
            x = 0
            for ch in row:
                if ch.isdigit():
                    x += int(ch)
                else:
                    self.b[(x, y)] = ch
                    x += 1
            assert x == FILES
        assert y == RANKS - 1
        self.side = side  # 'b' sente or 'w' gote
        self.hand = {"b": [], "w": []}
        count = ""
        for ch in "" if hand == "-" else hand:
            if ch.isdigit():
                count += ch
                continue
            owner = "b" if ch.isupper() else "w"
            self.hand[owner] += [ch.lower()] * (int(count) if count else 1)
            count = ""
        self.over = False  # a lion was captured

    def mine(self, ch):
        return ch.isupper() == (self.side == "b")

    def moves(self):
        if self.over:
            return []
        out = []
        fwd = -1 if self.side == "b" else 1
        last = 0 if self.side == "b" else RANKS - 1
        for (x, y), ch in self.b.items():
            if not self.mine(ch):
                continue
            for dx, dy in STEPS[ch.lower()]:
                nx, ny = x + dx, y + dy * (-fwd)  # steps written for sente (up = -1)
                if not (0 <= nx < FILES and 0 <= ny < RANKS):
                    continue
                t = self.b.get((nx, ny))
                if t is not None and self.mine(t):
                    continue
                m = sq_name(x, y) + sq_name(nx, ny)
                if ch.lower() == "c" and ny == last:
                    m += "+"
                out.append(m)
        for p in sorted(set(self.hand[self.side])):
            for y in range(RANKS):
                for x in range(FILES):
                    if (x, y) not in self.b:
                        out.append(f"{p.upper()}*{sq_name(x, y)}")
        return out

    def play(self, m):
        p = Pos.__new__(Pos)
        p.b, p.side, p.over = dict(self.b), self.side, False
        p.hand = {"b": list(self.hand["b"]), "w": list(self.hand["w"])}
        up = (lambda c: c.upper()) if self.side == "b" else (lambda c: c.lower())
        if m[1] == "*":
            p.hand[self.side].remove(m[0].lower())
            p.b[parse_sq(m[2:4])] = up(m[0])
        else:
            frm, to = parse_sq(m[0:2]), parse_sq(m[2:4])
            ch = p.b.pop(frm)
            cap = p.b.get(to)
            if cap is not None:
                c = cap.lower()
                if c == "l":
                    p.over = True
                else:
                    p.hand[self.side].append("c" if c == "h" else c)
            if m.endswith("+"):
                ch = up("h")
            p.b[to] = ch
        p.side = "w" if self.side == "b" else "b"
        return p


def perft(pos, depth):
    ms = pos.moves()
    if depth == 1:
        return len(ms)
    return sum(perft(pos.play(m), depth - 1) for m in ms)


if __name__ == "__main__":
    pos = Pos(sys.argv[1])
    for d in range(1, int(sys.argv[2]) + 1):
        print(d, perft(pos, d), flush=True)
