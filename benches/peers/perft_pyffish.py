#!/usr/bin/env python3
"""Perft with pyffish (Fairy-Stockfish binding), independent of kifu's engine.

Usage: python3 perft_pyffish.py VARIANT SFEN MAXDEPTH
  VARIANT: minishogi | doubutsu | standard ; SFEN in kifu/USI convention
  ("b" = sente = first player to move).  Translated to Fairy-Stockfish's
  FEN convention: hand in brackets after the board, and the side letters
  swapped (FSF calls the first player "w").
Prints "depth nodes" per depth. Last ply bulk-counted (len(legal_moves)).
Counting stops at positions where Fairy-Stockfish reports no legal moves
(e.g. in dobutsu after the lion was captured).
"""
import sys
import pyffish as sf

FSF_VARIANT = {"minishogi": "minishogi", "doubutsu": "dobutsu", "standard": "shogi"}


def usi_sfen_to_fsf(sfen):
    board, side, hand, num = sfen.split()
    side = {"b": "w", "w": "b"}[side]
    hand = "" if hand == "-" else hand
    # expand counts like "3g17p" -> "gggppp..."
    out, count = "", ""
    for ch in hand:
        if ch.isdigit():
            count += ch
        else:
            out += ch * (int(count) if count else 1)
            count = ""
    return f"{board}[{out or '-'}] {side} 0 {num}"


def legal_moves(variant, fen):
    """pyffish legal moves in kifu's sense.

    Fairy-Stockfish generates a mating pawn drop (uchifuzume) as a legal move
    and scores it as an immediate loss for the dropper; in kifu's rules it is
    not a move at all, so such drops are removed here (shogi / minishogi).
    """
    moves = sf.legal_moves(variant, fen, [])
    if variant in ("shogi", "minishogi"):
        sq = pawn_check_square(fen)
        moves = [m for m in moves if not is_pawn_drop_mate(variant, fen, m, sq)]
    return moves


def pawn_check_square(fen):
    """FSF square name where a pawn of the side to move would check the enemy king."""
    board, side = fen.split()[0], fen.split()[1]
    board = board.split("[")[0]
    rows = board.split("/")
    enemy_king = "k" if side == "w" else "K"  # FSF 'w' = sente (uppercase)
    for y, row in enumerate(rows):
        x, i = 0, 0
        while i < len(row):
            if row[i].isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                x += int(row[i:j])
                i = j
                continue
            if row[i] == "+":
                i += 1
                continue
            if row[i] == enemy_king:
                rank = len(rows) - y  # FSF rank number of the king
                rank += -1 if side == "w" else 1  # square in front of it, from the dropper's side
                return f"{chr(ord('a') + x)}{rank}"
            x += 1
            i += 1
    return None


def is_pawn_drop_mate(variant, fen, m, check_sq=None):
    if not m.startswith("P@") or m[2:] != check_sq:
        return False
    return not sf.legal_moves(variant, fen, [m])


def perft(variant, fen, depth):
    moves = legal_moves(variant, fen)
    if depth == 1:
        return len(moves)
    return sum(perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def main():
    variant, sfen, maxdepth = FSF_VARIANT[sys.argv[1]], sys.argv[2], int(sys.argv[3])
    fen = usi_sfen_to_fsf(sfen)
    for d in range(1, maxdepth + 1):
        print(d, perft(variant, fen, d), flush=True)


if __name__ == "__main__":
    main()
