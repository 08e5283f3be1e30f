#!/usr/bin/env python3
"""Build and verify fixtures/rules/endings.tsv (game-end catalogue).

standard : moves played with cshogi (each must be in board.legal_moves);
           checkmate / stalemate from len(legal_moves) and is_check();
           repetition counted here (4th occurrence of board+hands+side), then
           cshogi's is_draw() (which already fires at the 2nd occurrence)
           must classify it the same way (REPETITION_DRAW / WIN / LOSE).
minishogi: moves played with pyffish (must be legal there); repetition
           counted here; pyffish game_result / is_optional_game_end recorded.
doubutsu : doubutsu_bruteforce.py plays the moves; lion capture / try /
           repetition judged here with kifu's rules (try decided after the
           opponent's reply); pyffish, which ends a game as soon as a lion
           reaches the far rank, is only used to check move legality.
Usage: python3 benches/peers/endings_oracle.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cshogi  # noqa: E402
import pyffish as sf  # noqa: E402
from doubutsu_bruteforce import Pos as DPos, RANKS  # noqa: E402
from peerlib import usi_to_fsf, cshogi_valid  # noqa: E402
from perft_pyffish import usi_sfen_to_fsf, legal_moves as ffish_moves  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "fixtures", "rules", "endings.tsv")
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MINI = "rbsgk/4p/5/P4/KGSBR b - 1"
DOB = "gle/1c1/1C1/ELG b - 1"
SHUFFLE = "5i5h 5a5b 5h5i 5b5a"
ROOKS = "2h3h 8b7b 3h2h 7b8b"
PERP = "8k/R8/9/9/9/9/9/9/K8 b - 1"  # R9b checks on rank a / rank b alternately
PERP_W = "8k/9/9/9/9/9/9/8r/K8 w - 1"  # 180-degree mirror: r1h
SIDE = {"b": "sente", "w": "gote"}
OTHER = {"b": "w", "w": "b"}


def rep(seq, n):
    return " ".join([seq] * n)


CASES = [
    ("standard", START, "-", "ongoing:none", "initial position"),
    ("standard", START, "7g7f 3c3d 8h2b+", "ongoing:none", "horse gives no check; game goes on"),
    ("standard", "7nk/9/7GP/9/9/9/9/9/K8 b - 1", "1c1b", "checkmate:sente", "pawn-push mate (not a drop, so legal)"),
    ("standard", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b", "checkmate:sente", "gold drop mate, protected by P5c"),
    ("standard", "4k4/9/9/9/9/9/4p4/9/4K4 w g 1", "G*5h", "checkmate:gote", "gote gold drop mate"),
    ("standard", START, "7g7f 5c5d 8h3c", "ongoing:none", "B takes 3c unpromoted with check (via 4b); not mate"),
    ("standard", "4k2r1/9/9/9/9/9/9/9/8K w b 1", "B*3f", "stalemate:gote",
     "K1i: 2h/2i covered by r2a, 1h by the dropped b3f; not in check, no legal move, empty hand: sente loses"),
    ("standard", "4k2r1/9/9/9/9/6b2/9/9/8K b - 1", "-", "stalemate:gote", "same position, sente to move"),
    ("standard", "4k2r1/9/9/9/9/9/9/9/8K w b 1", "B*6a", "ongoing:none", "b6a does not cover 1h: K1i1h possible"),
    ("standard", START, rep(SHUFFLE, 2), "ongoing:none", "start position occurs for the 3rd time"),
    ("standard", START, rep(SHUFFLE, 3), "repetition-draw:none", "start position occurs for the 4th time"),
    ("standard", START, rep(SHUFFLE, 3)[:-5], "ongoing:none", "one ply short of the 4th occurrence"),
    ("standard", START, "7g7f 3c3d " + rep(ROOKS, 3), "repetition-draw:none",
     "4th occurrence of the position after 7g7f 3c3d"),
    ("standard", START, "7g7f 3c3d " + rep(ROOKS, 2) + " 2h3h 8b7b", "ongoing:none",
     "position after 2h3h 8b7b only 3 times"),
    ("standard", PERP, rep("9b9a 1a1b 9a9b 1b1a", 3), "perpetual-check:gote",
     "every sente move checks; 4th occurrence: sente loses"),
    ("standard", PERP, rep("9b9a 1a1b 9a9b 1b1a", 2), "ongoing:none", "3rd occurrence only"),
    ("standard", "R7k/9/9/9/9/9/9/9/K8 w - 1", rep("1a1b 9a9b 1b1a 9b9a", 3), "perpetual-check:gote",
     "gote to move in check at the start; sente made the last (checking) move of the 4th occurrence"),
    ("standard", PERP_W, rep("1h1i 9i9h 1i1h 9h9i", 3), "perpetual-check:sente",
     "every gote move checks; gote loses"),
    ("standard", PERP, rep("9b9c 1a1b 9c9b 1b1a", 3), "repetition-draw:none",
     "9b9c is no check, 9c9b is: checks not continuous, plain draw"),
    ("minishogi", MINI, "-", "ongoing:none", "initial position"),
    ("minishogi", MINI, rep("4e4d 2a2b 4d4e 2b2a", 2), "ongoing:none", "3rd occurrence"),
    ("minishogi", MINI, rep("4e4d 2a2b 4d4e 2b2a", 3), "repetition-loss:gote",
     "minishogi: plain repetition loses for sente"),
    ("minishogi", "4k/5/4P/5/K4 b G 1", "G*1b", "checkmate:sente", "gold drop mate protected by P1c"),
    ("doubutsu", DOB, "-", "ongoing:none", "initial position"),
    ("doubutsu", "1l1/3/1G1/L2 w - 1", "2a2b 2c2b", "lion-capture:sente",
     "gote lion steps next to the giraffe (legal in doubutsu) and is captured"),
    ("doubutsu", "1l1/3/1G1/L2 w - 1", "2a2b", "ongoing:none", "lion standing en prise is not an ending"),
    ("doubutsu", "2l/L2/3/3 b - 1", "3b3a", "ongoing:none", "try made; decided after gote's reply"),
    ("doubutsu", "2l/L2/3/3 b - 1", "3b3a 1a1b", "try-win:sente", "gote's reply does not capture the lion"),
    ("doubutsu", "2l/L2/3/3 b - 1", "3b2a", "ongoing:none", "lion on far rank but attacked by gote's lion"),
    ("doubutsu", "2l/L2/3/3 b - 1", "3b2a 1a2a", "lion-capture:gote", "failed try: the lion is captured"),
    ("doubutsu", "2l/L2/3/3 b - 1", "3b2a 1a1b", "try-win:sente", "gote declines to capture"),
    ("doubutsu", "3/1e1/l2/2L w - 1", "3c3d 1d1c", "try-win:gote",
     "gote lion on rank d (its far rank); sente's reply does not capture"),
    ("doubutsu", DOB, rep("1d1c 3a3b 1c1d 3b3a", 2), "ongoing:none", "3rd occurrence"),
    ("doubutsu", DOB, rep("1d1c 3a3b 1c1d 3b3a", 3), "repetition-draw:none", "4th occurrence"),
    ("doubutsu", "1l1/2G/3/L2 b - 1", rep("1b2b 2a1a 2b1b 1a2a", 3), "repetition-draw:none",
     "every sente move checks the lion, still a plain draw (no perpetual-check rule)"),
]


def key_cshogi(b):
    return " ".join(b.sfen().split()[:3])


def judge_standard(sfen, moves):
    b = cshogi.Board()
    b.set_sfen(sfen)
    assert cshogi_valid(sfen), sfen
    hist = [key_cshogi(b)]
    checks = []  # checks[i] = move i gave check
    for i, m in enumerate(moves):
        mv = b.move_from_usi(m)
        assert mv and mv in set(b.legal_moves), (sfen, m)
        b.push(mv)
        checks.append(b.is_check())
        hist.append(key_cshogi(b))
        if hist.count(hist[-1]) >= 4:
            assert i == len(moves) - 1, "game ended before the last move"
    mover = "b" if b.turn == cshogi.WHITE else "w"  # side that made the last move
    if not b.legal_moves:
        return ("checkmate" if b.is_check() else "stalemate") + ":" + SIDE[mover], None
    occ = [i for i, h in enumerate(hist) if h == hist[-1]]
    if len(occ) >= 4:
        first = occ[-4]
        span = checks[first:]  # moves between 1st and 4th occurrence
        by_mover = span[len(span) - 1::-2]  # moves of the side that just moved
        by_other = span[len(span) - 2::-2]
        csh = b.is_draw()
        if all(by_mover):
            res = "perpetual-check:" + SIDE[OTHER[mover]]
            assert csh == cshogi.REPETITION_WIN, csh  # cshogi: from the side to move's view
        elif all(by_other):
            res = "perpetual-check:" + SIDE[mover]
            assert csh == cshogi.REPETITION_LOSE, csh
        else:
            res = "repetition-draw:none"
            assert csh == cshogi.REPETITION_DRAW, csh
        return res, csh
    return "ongoing:none", b.is_draw()


def judge_minishogi(sfen, moves):
    fen = usi_sfen_to_fsf(sfen)
    played, hist = [], [" ".join(sf.get_fen("minishogi", fen, []).split()[:2])]
    for m in moves:
        fm = usi_to_fsf("minishogi", m)
        assert fm in ffish_moves("minishogi", sf.get_fen("minishogi", fen, played)), (sfen, m)
        played.append(fm)
        hist.append(" ".join(sf.get_fen("minishogi", fen, played).split()[:2]))
    cur = sf.get_fen("minishogi", fen, played)
    mover = "b" if cur.split()[1] == "b" else "w"  # FSF 'b' = gote to move => sente moved
    peer = sf.is_optional_game_end("minishogi", fen, played), sf.is_immediate_game_end("minishogi", fen, played)
    if not ffish_moves("minishogi", cur):
        res = sf.game_result("minishogi", fen, played)
        return "checkmate:" + SIDE[mover], peer + (res,)
    if hist.count(hist[-1]) >= 4:
        # Fairy-Stockfish (nFoldValue = loss for sente) must agree: the
        # optional-end result is from the side to move's view.
        sente_to_move = cur.split()[1] == "w"
        assert peer[0][0] and (peer[0][1] < 0) == sente_to_move, peer
        return "repetition-loss:gote", peer
    return "ongoing:none", peer


def judge_doubutsu(sfen, moves):
    p = DPos(sfen)
    hist = [(frozenset(p.b.items()), tuple(sorted(p.hand["b"])), tuple(sorted(p.hand["w"])), p.side)]
    fen = usi_sfen_to_fsf(sfen)
    for i, m in enumerate(moves):
        assert not p.over
        assert m in p.moves(), (sfen, m)
        # FSF agrees the move is legal unless it already ended the game by its try rule
        ff = sf.legal_moves("dobutsu", fen, [usi_to_fsf("doubutsu", x) for x in moves[:i]])
        assert usi_to_fsf("doubutsu", m) in ff or not ff, (sfen, m)
        mover = p.side
        p = p.play(m)
        if p.over:
            assert i == len(moves) - 1
            return "lion-capture:" + SIDE[mover], None
        # opponent's lion standing on its far rank survived this move => try win
        opp = OTHER[mover]
        lion = "L" if opp == "b" else "l"
        far = 0 if opp == "b" else RANKS - 1
        if any(ch == lion and y == far for (x, y), ch in p.b.items()):
            assert i == len(moves) - 1, "game already won by try"
            return "try-win:" + SIDE[opp], None
        hist.append((frozenset(p.b.items()), tuple(sorted(p.hand["b"])), tuple(sorted(p.hand["w"])), p.side))
        if hist.count(hist[-1]) >= 4:
            assert i == len(moves) - 1
            return "repetition-draw:none", None
    return "ongoing:none", None


def main():
    bad = 0
    for variant, sfen, moves, expect, note in CASES:
        ms = [] if moves == "-" else moves.split()
        got, peer = {"standard": judge_standard, "minishogi": judge_minishogi,
                     "doubutsu": judge_doubutsu}[variant](sfen, ms)
        flag = "" if got == expect else "  <-- MISMATCH"
        bad += bool(flag)
        print(f"{variant:9} {expect:24} got {got:24} peer={peer}{flag}")
    with open(OUT, "w") as f:
        f.write("variant\tsfen\tmoves\texpect\tnote\n")
        for row in CASES:
            f.write("\t".join(row) + "\n")
    print(f"{len(CASES)} rows, {bad} problems")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
