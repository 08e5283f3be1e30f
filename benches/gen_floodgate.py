#!/usr/bin/env python3
"""Generate a floodgate-like folder of one-game CSA files (benchmarks).

  gen_floodgate.py --out DIR [--games 200000] [--pool 1000] [--seed 1]

writes DIR/YYYY/MM/DD/wdoor+floodgate-300-10F+P1+P2+YYYYMMDDhhmmss.csa,
one game per file, dated through one year as floodgate's archive is.
Each file has floodgate's header and comment forms: `'black_rate:` and
`'white_rate:` rating lines, `$EVENT`, `$START_TIME`, a `T` line after
every move, engine comments such as `'** 123 7g7f 3c3d` after many
moves, and a `'summary:` line. The moves come from a pool of `--pool`
seeded random legal games (drawn with cshogi, as
benches/peers/gen_csa_corpus.py does) cycled through with different
players and dates, so that N can be large without N games to draw.
Only ASCII is written.
"""
import argparse
import os
import random
import sys

import cshogi

PLAYERS = [
    "gpsfish_normal_1c", "Apery_Z", "YaneuraOu_1c", "Suisho5_i7", "dlshogi_gct",
    "Kristallweizen", "elmo_wcsc27", "Gikou2_1c", "Tanuki_wcsc29", "Qhapaq_i5",
    "Lesserkai", "BonaBona", "Novice_1c", "HoneyWaffle", "sonic_shogi",
]


def pool_game(rng, plies_min=60, plies_max=140):
    """(moves as CSA with sign, usi moves, the end) of a random legal game."""
    board = cshogi.Board()
    plies = rng.randint(plies_min, plies_max)
    csa, usi, end = [], [], "%TORYO"
    seen = {board.zobrist_hash(): 1}
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            end = "%TSUMI"
            break
        weights = []
        for m in moves:
            w = 1.0
            if board.piece(cshogi.move_to(m)) != cshogi.NONE:
                w += 4.0
            if cshogi.move_is_promotion(m):
                w += 3.0
            weights.append(w)
        m = rng.choices(moves, weights)[0]
        sign = "+" if board.turn == cshogi.BLACK else "-"
        csa.append(sign + cshogi.move_to_csa(m))
        usi.append(cshogi.move_to_usi(m))
        board.push(m)
        key = board.zobrist_hash()
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 4:
            end = "%SENNICHITE"
            break
    return csa, usi, end


def record(rng, game, black, white, when):
    csa, usi, end = game
    y, mo, d, h, mi, s = when
    stamp = "%04d%02d%02d%02d%02d%02d" % when
    br = rng.uniform(1200, 4200)
    wr = rng.uniform(1200, 4200)
    out = [
        "V2",
        "N+" + black,
        "N-" + white,
        "'black_rate:%s+%016x:%.1f" % (black, rng.getrandbits(64), br),
        "'white_rate:%s+%016x:%.1f" % (white, rng.getrandbits(64), wr),
        "$EVENT:wdoor+floodgate-300-10F+%s+%s+%s" % (black, white, stamp),
        "$START_TIME:%04d/%02d/%02d %02d:%02d:%02d" % when,
        "$TIME_LIMIT:00:05+10",
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
        "P2 * -HI *  *  *  *  * -KA * ",
        "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
        "P4 *  *  *  *  *  *  *  *  * ",
        "P5 *  *  *  *  *  *  *  *  * ",
        "P6 *  *  *  *  *  *  *  *  * ",
        "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
        "P8 * +KA *  *  *  *  * +HI * ",
        "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
        "+",
    ]
    for k, mv in enumerate(csa):
        out.append(mv)
        out.append("T%d" % rng.randint(0, 20))
        if rng.random() < 0.7:
            pv = " ".join(usi[k + 1 : k + 1 + rng.randint(0, 4)])
            out.append(("'** %d %s" % (rng.randint(-3000, 3000), pv)).rstrip())
    out.append(end)
    loser, winner = (black, white) if len(csa) % 2 == 0 else (white, black)
    out.append("'summary:%s:%s lose:%s win" % (end[1:].lower(), loser, winner))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--games", type=int, default=200000)
    ap.add_argument("--pool", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flat", action="store_true", help="all files in DIR itself")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pool = [pool_game(rng) for _ in range(a.pool)]
    total = 0
    per_day = max(1, -(-a.games // 365))
    for i in range(a.games):
        day = i // per_day
        mo, d = 1 + day // 31 % 12, 1 + day % 31 % 28
        when = (2024, mo, d, i % 24, i * 7 % 60, i * 13 % 60)
        black, white = rng.sample(PLAYERS, 2)
        text = record(rng, pool[i % len(pool)], black, white, when)
        name = "wdoor+floodgate-300-10F+%s+%s+%04d%02d%02d%02d%02d%02d-%06d.csa" % (
            (black, white) + when + (i,)
        )
        folder = a.out if a.flat else os.path.join(a.out, "2024", "%02d" % mo, "%02d" % d)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "w", encoding="ascii", newline="\n") as f:
            f.write(text)
        total += len(text)
    print(f"{a.games} games, {total} bytes in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
