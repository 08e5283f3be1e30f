#!/usr/bin/env python3
"""Standard-shogi perft with cshogi (independent of kifu's Rust engine).

Usage: python3 perft_cshogi.py SFEN MAXDEPTH
Prints one line per depth: "depth nodes".
Counting: plain recursive push/pop over board.legal_moves; the last ply is
bulk-counted (len(legal_moves)), which is exactly equivalent.
cshogi's legal_moves already excludes unpromoted pawn/lance/knight moves to
dead squares, drops on dead squares, nifu, uchifuzume and self-check, and
contains both the promoting and the non-promoting variant where both are legal.
"""
import sys
import cshogi


def perft(board, depth):
    if depth == 1:
        return len(board.legal_moves)
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += perft(board, depth - 1)
        board.pop()
    return n


def main():
    sfen, maxdepth = sys.argv[1], int(sys.argv[2])
    board = cshogi.Board()
    board.set_sfen(sfen)
    assert board.sfen().split()[:3] == sfen.split()[:3], (board.sfen(), sfen)
    for d in range(1, maxdepth + 1):
        print(d, perft(board, d), flush=True)


if __name__ == "__main__":
    main()
