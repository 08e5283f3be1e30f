#!/usr/bin/env python3
"""cshogi's side of the `kifu export` checks (tests/export_cshogi.rs) and of
the export benchmark (benches/export_bench.sh).

  export_cshogi.py gen OUT --games N --seed S
      Writes floodgate-like CSA records (one game per file) made with
      cshogi: random legal games from the even start, handicap starts and
      positions set up mid-game, `'** SCORE PV` evaluations (sente's view;
      some moves without one, some mate scores), `'black_rate:` /
      `'white_rate:` lines, and endings %TORYO, %TIME_UP, %TSUMI,
      %SENNICHITE, %JISHOGI, %KACHI (from a set-up declaration) and
      %CHUDAN; a few games hold an illegal move.

  export_cshogi.py parseable FILES...
      Prints the files cshogi's CSA parser reads (one per line).

  export_cshogi.py write --layout hcpe|psv|hcpe3 [--dlshogi] -o OUT FILES...
      cshogi writes the layout from the games of FILES, in order, with
      Board.to_hcp / to_psfen and move16: kifu's conventions (every game
      with legal moves and a decided result; eval from the side to move,
      clamped to ±32767, 0 when absent), or with --dlshogi the loop of
      dlshogi's csa_to_hcpe.py with its defaults (%TORYO/%KACHI, 50 plies,
      both ratings 3500, positions without an eval left out, a stop after
      a score of ±100000, games with a score beyond ±1000000 left out).
      Prints `games N records M`.

  export_cshogi.py check --layout L [--require-eval] [--stop N] OUT INDEX
      Decodes kifu's OUT with Board.set_hcp / set_psfen and
      move_from_move16 / move_from_psv, and compares every record of every
      game the --index file INDEX lists as kept with an independent replay
      of the game's CSA record by cshogi: position, move, eval, gamePly,
      result. Prints `checked N records in M games` or the first
      difference (exit 1).

Only ASCII is written. The conventions are those of docs/export.md.
"""
import argparse
import json
import random
import sys

import numpy as np

import cshogi
from cshogi import CSA

HCPE3_HEADER = np.dtype([("hcp", cshogi.dtypeHcp), ("moveNum", np.uint16),
                         ("result", np.uint8), ("opponent", np.uint8)])
HCPE3_MOVE = np.dtype([("selectedMove16", cshogi.dtypeMove16), ("eval", cshogi.dtypeEval),
                       ("candidateNum", np.uint16)])
HCPE3_VISITS = np.dtype([("move16", cshogi.dtypeMove16), ("visitNum", np.uint16)])

HANDICAPS = ["PI82HI", "PI22KA", "PI11KY", "PI82HI22KA", "PI91KY11KY82HI22KA"]
DECIDED = {"%TORYO": "loss", "%TIME_UP": "loss", "%TSUMI": "loss", "%KACHI": "win",
           "%SENNICHITE": "draw", "%JISHOGI": "draw"}


# ---------------------------------------------------------------- gen

def csa_board(board):
    lines = board.csa_pos().rstrip("\n").split("\n")
    return lines


def random_move(rng, board):
    moves = list(board.legal_moves)
    if not moves:
        return None
    w = []
    for m in moves:
        x = 1.0
        if board.piece(cshogi.move_to(m)) != cshogi.NONE:
            x += 4.0
        if cshogi.move_is_promotion(m):
            x += 2.0
        w.append(x)
    return rng.choices(moves, w)[0]


def pv_text(rng, board):
    b = cshogi.Board(board.sfen())
    out = []
    for _ in range(rng.randint(0, 3)):
        m = random_move(rng, b)
        if m is None:
            break
        out.append(("+" if b.turn == cshogi.BLACK else "-") + cshogi.move_to_csa(m))
        b.push(m)
    return " ".join(out)


def score(rng):
    r = rng.random()
    if r < 0.03:
        return rng.choice([100000, -100000, 99999, -99999, 31111, 123456, -1500000])
    if r < 0.1:
        return rng.randint(-40000, 40000)
    return int(rng.gauss(0, 600))


def declaration_start(rng):
    """A position where the side to move can declare (27 points): sente's
    king and pieces in gote's camp."""
    return ("P1+KA+HI+KI+KI+KI+KI+GI+GI * \nP2+OU+FU+FU+FU+FU+FU+FU+FU * \nP3 *  *  *  *  *  *  *  *  * \n"
            "P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n"
            "P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  * -OU\n"
            "P+00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00KY00KY00KY00KY00KE00KE00KE00KE00GI00GI00KA00HI\n"
            "P-00FU\n+").split("\n")


def gen_game(rng, index):
    out = ["V2.2", "N+Player%03d" % (index % 211), "N-Player%03d" % (index * 7 % 197),
           "$EVENT:kifu export check %d" % index, "$START_TIME:2024/01/02 03:04:05"]
    kind = rng.random()
    board = cshogi.Board()
    if kind < 0.6:
        out += ["PI", "+"]
    elif kind < 0.75:
        h = rng.choice(HANDICAPS)
        out += [h, "-"]
        board = cshogi.Board(sfen_of_handicap(h))
    elif kind < 0.9:
        for _ in range(rng.randint(10, 60)):
            m = random_move(rng, board)
            if m is None:
                break
            board.push(m)
        if board.is_game_over() or board.is_check():
            board = cshogi.Board()
            out += ["PI", "+"]
        else:
            out += csa_board(board)
            board = cshogi.Board(board.sfen().rsplit(" ", 1)[0] + " 1")
    elif kind < 0.93:
        # Kings stepping back and forth: the start occurs a fourth time.
        out += ["PI", "+"]
        for _ in range(3):
            out += ["+5958OU", "-5152OU", "+5859OU", "-5251OU"]
        out.append("%SENNICHITE")
        return "\n".join(out) + "\n"
    else:
        out += declaration_start(rng)
        board = cshogi.Board("BRGGGGSS1/KPPPPPPP1/9/9/9/9/9/9/8k b 10P4L4N2SBRp 1")
        out.append("'black_rate:Player+0123:%0.1f" % rng.uniform(3400, 4200))
        out.append("'white_rate:Other+4567:%0.1f" % rng.uniform(3400, 4200))
        # A pawn outside the camp, a king step, and sente declares.
        out += ["+0015FU", "'** %d" % score(rng), "-1918OU", "'** %d" % score(rng), "%KACHI"]
        return "\n".join(out) + "\n"
    if rng.random() < 0.9:
        out.append("'black_rate:Player%03d+0123abcd:%0.1f" % (index % 211, rng.uniform(3000, 4200)))
    if rng.random() < 0.9:
        out.append("'white_rate:Player%03d+4567ef01:%0.1f" % (index * 7 % 197, rng.uniform(3000, 4200)))
    plies = rng.randint(20, 140)
    book = rng.randint(0, 12)
    seen = {board.zobrist_hash(): 1}
    end = rng.choice(["%TORYO"] * 6 + ["%TIME_UP", "%JISHOGI", "%CHUDAN"])
    illegal = rng.random() < 0.03
    for ply in range(plies):
        m = random_move(rng, board)
        if m is None:
            end = "%TSUMI" if board.is_check() else "%CHUDAN"
            break
        sign = "+" if board.turn == cshogi.BLACK else "-"
        if illegal and ply == plies // 2:
            bad = backward_pawn(board)
            if bad:
                out.append(sign + bad)
                break
        out.append(sign + cshogi.move_to_csa(m))
        out.append("T%d" % rng.randint(0, 30))
        board.push(m)
        if ply >= book and rng.random() < 0.9:
            pv = pv_text(rng, board)
            out.append(("'** %d %s" % (score(rng), pv)).rstrip())
        key = board.zobrist_hash()
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 4:
            end = "%SENNICHITE" if board.is_draw(16) == cshogi.REPETITION_DRAW else "%CHUDAN"
            break
    out.append(end)
    return "\n".join(out) + "\n"


def backward_pawn(board):
    """A pawn of the side to move stepping back onto an empty square (CSA
    text without the sign), or None."""
    black = board.turn == cshogi.BLACK
    pawn = cshogi.BPAWN if black else cshogi.WPAWN
    for sq in range(81):
        if board.piece(sq) != pawn:
            continue
        to = sq + 1 if black else sq - 1
        if to // 9 != sq // 9 or not 0 <= to < 81 or board.piece(to) != cshogi.NONE:
            continue
        return "%d%d%d%dFU" % (sq // 9 + 1, sq % 9 + 1, to // 9 + 1, to % 9 + 1)
    return None


def sfen_of_handicap(h):
    # Remove the named pieces from the start position.
    board = [[None] * 9 for _ in range(9)]
    start = cshogi.STARTING_SFEN.split(" ")[0].split("/")
    for r, row in enumerate(start):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board[r][f] = c
                f += 1
    body = h[2:]
    for i in range(0, len(body), 4):
        file_, rank = int(body[i]), int(body[i + 1])
        board[rank - 1][9 - file_] = None
    rows = []
    for r in range(9):
        s, n = "", 0
        for f in range(9):
            if board[r][f] is None:
                n += 1
            else:
                if n:
                    s += str(n)
                    n = 0
                s += board[r][f]
        if n:
            s += str(n)
        rows.append(s)
    return "/".join(rows) + " w - 1"


def cmd_gen(a):
    import os
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    for i in range(a.games):
        with open(os.path.join(a.out, "g%05d.csa" % i), "w", newline="\n") as f:
            f.write(gen_game(rng, i))


# ---------------------------------------------------------------- games

def games_of(path):
    """The games cshogi reads in a file, each with whether its text has a
    `%` special and floodgate's `'summary:` comment (which kifu reads as
    the result of a game without a special, cshogi only for some reasons);
    raises if cshogi cannot read it."""
    with open(path) as f:
        texts = f.read().split("\n/\n")
    return [Game(g, t) for g, t in zip(CSA.Parser.parse_file(path), texts)]


class Game:
    """What the checks read of a game cshogi parsed."""

    def __init__(self, parsed, text):
        self.sfen = parsed.sfen
        self.moves = parsed.moves
        self.scores = parsed.scores
        self.comments = parsed.comments
        self.endgame = parsed.endgame
        self.ratings = parsed.ratings
        self.win = parsed.win
        lines = text.split("\n")
        self.special = any(line.startswith("%") for line in lines)
        self.fourfold = False
        names = {}
        for line in lines:
            if line[:2] in ("N+", "N-"):
                names.setdefault(line[1], line[2:].strip())
        self.summary = next((summary_of(line[9:], names) for line in lines
                             if line.startswith("'summary:")), None)


SUMMARY_ENDS = {"toryo": "loss", "abnormal": "abort", "time_up": "loss",
                "sennichite": "draw", "oute_sennichite": "draw",
                "illegal_move": "loss", "uchifuzume": "loss",
                "oute_kaihimore": "loss", "illegal_kachi": "loss",
                "kachi": "win", "max_moves": "draw"}


def summary_of(rest, names):
    """A floodgate summary as kifu reads it (docs/validate.md): (reason,
    winner) with winner "+", "-", "draw" or None (names that do not tell);
    None when kifu cannot read it."""
    parts = rest.split(":")
    if len(parts) != 3:
        return None
    reason = parts[0].strip().replace(" ", "_")
    if reason not in SUMMARY_ENDS:
        return None
    players = []
    for p in parts[1:]:
        name, _, word = p.strip().rpartition(" ")
        if word not in ("win", "lose", "draw") or not name:
            return None
        players.append((name.strip(), word))
    words = sorted(w for _, w in players)
    if words == ["draw", "draw"]:
        return reason, "draw"
    if words != ["lose", "win"]:
        return reason, None
    won = next(n for n, w in players if w == "win")
    lost = next(n for n, w in players if w == "lose")

    def side(name):
        s = [c for c in "+-" if names.get(c) == name]
        return s[0] if len(s) == 1 else None
    w, l = side(won), side(lost)
    if won != lost and w is not None and w != l:
        return reason, w
    if won != lost and w is None and l is not None:
        return reason, "-" if l == "+" else "+"
    return reason, None


def cmd_parseable(a):
    import os
    sys.stdout.flush()
    for p in a.files:
        try:
            with open(p) as f:
                # Several statements on a line (`PI, +, +7776FU`): cshogi
                # reads them as one.
                if any("," in line and not line.startswith("'") for line in f):
                    continue
        except Exception:
            continue
        # cshogi's parser may abort the process on some input: it reads
        # each file in a child.
        pid = os.fork()
        if pid == 0:
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                games_of(p)
                os._exit(0)
            except BaseException:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            print(p, flush=True)


def result_of(kif, board, fourfold):
    """kifu's result: 0 draw, 1 sente, 2 gote, or None (no decided
    result). The end a special states; without one, the end by rule of
    the final position (checkmate, fourfold repetition); a repetition by
    perpetual check is lost by the checking side."""
    if kif.special:
        what = DECIDED.get(kif.endgame)
        # A false claim is an error: the game writes nothing.
        if kif.endgame == "%TSUMI" and not board.is_game_over():
            return None
        if kif.endgame == "%SENNICHITE" and not fourfold:
            return None
    elif board.is_game_over():
        what = "loss"
    elif fourfold:
        what = "draw"
    else:
        what = None
    if what is None:
        # Without a special or an end by rule, floodgate's summary states
        # the result: a repetition the moves do not show is false.
        if kif.special or kif.summary is None:
            return None
        reason, winner = kif.summary
        if reason in ("sennichite", "oute_sennichite"):
            return None
        if winner == "draw":
            return 0
        if winner is None:
            what = SUMMARY_ENDS[reason]
            if what not in ("win", "loss"):
                return None
            mover = board.turn
            w = mover if what == "win" else 1 - mover
            return 1 if w == cshogi.BLACK else 2
        return 1 if winner == "+" else 2
    r = rule_result(what, board, fourfold)
    if not kif.special and kif.summary is not None and r is not None:
        # A summary after an end by rule: it must not state another
        # result (`sennichite … draw` after a perpetual check only names
        # the ending: a warning).
        reason, winner = kif.summary
        stated = {"draw": 0, "+": 1, "-": 2}.get(winner)
        if reason == "sennichite" and fourfold and stated == 0:
            return r
        if stated is not None and stated != r:
            return None
    return r


def rule_result(what, board, fourfold):
    if what == "draw":
        rep = board.is_draw(1 << 30) if fourfold else cshogi.REPETITION_DRAW
        if rep == cshogi.REPETITION_WIN:
            what = "win"
        elif rep == cshogi.REPETITION_LOSE:
            what = "loss"
        else:
            return 0
    mover = board.turn
    winner = mover if what == "win" else 1 - mover
    return 1 if winner == cshogi.BLACK else 2


def replay(kif, require_eval=False, stop=None, max_score=None):
    """Records of one game by kifu's conventions: a list of (sfen, move,
    eval, ply, turn) and the result; None when the game writes nothing."""
    board = cshogi.Board(kif.sfen)
    recs = []
    stopped = False
    seen = {board.zobrist_hash(): 1}
    for move, sc, comment in zip(kif.moves, kif.scores, kif.comments):
        if not board.is_legal(move):
            return None, None
        has = comment != ""
        if not stopped and (has or not require_eval):
            if has and max_score is not None and abs(sc) > max_score:
                return None, None
            e = max(-32767, min(32767, sc)) if has else 0
            if board.turn != cshogi.BLACK:
                e = -e
            recs.append((board.sfen(), move, e, board.move_number, board.turn, has))
            if has and stop is not None and abs(sc) >= stop:
                stopped = True
        board.push(move)
        key = board.zobrist_hash()
        seen[key] = seen.get(key, 0) + 1
    kif.fourfold = seen[board.zobrist_hash()] >= 4
    r = result_of(kif, board, kif.fourfold)
    if r is None or not recs:
        return None, None
    return recs, r


def flags(kif):
    if not kif.special:
        if kif.fourfold:
            return 4
        reason = kif.summary[0] if kif.summary else None
        return {"max_moves": 16, "kachi": 8}.get(reason, 0)
    return {"%SENNICHITE": 4, "%KACHI": 8, "%JISHOGI": 16}.get(kif.endgame, 0)


def write_game(layout, kif, recs, r, out):
    board = cshogi.Board()
    if layout == "hcpe":
        a = np.zeros(len(recs), cshogi.HuffmanCodedPosAndEval)
        for i, (sfen, move, e, ply, turn, _) in enumerate(recs):
            board.set_sfen(sfen)
            board.to_hcp(a[i]["hcp"])
            a[i]["eval"] = e
            a[i]["bestMove16"] = cshogi.move16(move)
            a[i]["gameResult"] = r
        out.write(a.tobytes())
    elif layout == "psv":
        a = np.zeros(len(recs), cshogi.PackedSfenValue)
        for i, (sfen, move, e, ply, turn, _) in enumerate(recs):
            board.set_sfen(sfen)
            board.to_psfen(a[i]["sfen"])
            a[i]["score"] = e
            a[i]["move"] = cshogi.move16_to_psv(cshogi.move16(move))
            a[i]["gamePly"] = ply
            a[i]["game_result"] = 0 if r == 0 else (1 if r - 1 == turn else -1)
        out.write(a.tobytes())
    else:
        h = np.zeros(1, HCPE3_HEADER)
        board.set_sfen(recs[0][0])
        board.to_hcp(h[0]["hcp"])
        h[0]["moveNum"] = len(recs)
        h[0]["result"] = r | flags(kif)
        out.write(h.tobytes())
        for (sfen, move, e, ply, turn, _) in recs:
            m = np.zeros(1, HCPE3_MOVE)
            m[0]["selectedMove16"] = cshogi.move16(move)
            m[0]["eval"] = e
            m[0]["candidateNum"] = 1
            v = np.zeros(1, HCPE3_VISITS)
            v[0]["move16"] = cshogi.move16(move)
            v[0]["visitNum"] = 1
            out.write(m.tobytes())
            out.write(v.tobytes())


def dlshogi_game(kif, hcpes):
    """dlshogi's csa_to_hcpe.py loop, defaults: the records, or 0."""
    if kif.endgame not in ("%TORYO", "%KACHI") or len(kif.moves) < 50:
        return 0
    if min(kif.ratings) < 3500:
        return 0
    # kifu's one difference: a game with an illegal move writes nothing,
    # even when the illegal move comes after the stop.
    board = cshogi.Board(kif.sfen)
    for move in kif.moves:
        if not board.is_legal(move):
            return 0
        board.push(move)
    board = cshogi.Board(kif.sfen)
    p = 0
    for move, sc, comment in zip(kif.moves, kif.scores, kif.comments):
        if not board.is_legal(move):
            return 0
        if comment == "":
            board.push(move)
            continue
        if abs(sc) > 1000000:
            return 0
        e = min(32767, max(sc, -32767))
        hcpes[p]["eval"] = e if board.turn == cshogi.BLACK else -e
        board.to_hcp(hcpes[p]["hcp"])
        hcpes[p]["bestMove16"] = cshogi.move16(move)
        hcpes[p]["gameResult"] = kif.win
        p += 1
        if abs(sc) >= 100000:
            break
        board.push(move)
    return p


def cmd_write(a):
    games = records = 0
    hcpes = np.zeros(1024, cshogi.HuffmanCodedPosAndEval)
    with open(a.o, "wb") as out:
        for path in a.files:
            for kif in games_of(path):
                if a.dlshogi:
                    p = dlshogi_game(kif, hcpes)
                    if p:
                        hcpes[:p].tofile(out)
                        games += 1
                        records += p
                    continue
                recs, r = replay(kif)
                if recs is None:
                    continue
                write_game(a.layout, kif, recs, r, out)
                games += 1
                records += len(recs)
    print("games %d records %d" % (games, records))


# ---------------------------------------------------------------- check

def fail(msg):
    print(msg)
    sys.exit(1)


def cmd_check(a):
    data = open(a.out, "rb").read()
    board = cshogi.Board()
    cache = {}
    checked = games = 0
    at = 0
    for line in open(a.index):
        g = json.loads(line)
        if g["status"] != "kept" or g.get("split"):
            continue
        if g["offset"] != at:
            fail("%s game %d: offset %s, expected %d" % (g["path"], g["game"], g["offset"], at))
        if g["path"] not in cache:
            cache[g["path"]] = games_of(g["path"])
        kif = cache[g["path"]][g["game"]]
        recs, r = replay(kif, a.require_eval, a.stop)
        if recs is None:
            fail("%s game %d: kifu kept it, the replay writes nothing" % (g["path"], g["game"]))
        where = "%s game %d" % (g["path"], g["game"])
        if a.layout == "hcpe3":
            h = np.frombuffer(data[at:at + 36], HCPE3_HEADER)[0]
            at += 36
            board.set_hcp(np.asarray(h["hcp"]))
            if board.sfen().rsplit(" ", 1)[0] != recs[0][0].rsplit(" ", 1)[0]:
                fail("%s: start %s, expected %s" % (where, board.sfen(), recs[0][0]))
            if h["moveNum"] != len(recs) or h["result"] != r | flags(kif) or h["opponent"] != 0:
                fail("%s: header %s, expected %d moves result %d" % (where, h, len(recs), r | flags(kif)))
            for i, (sfen, move, e, ply, turn, _) in enumerate(recs):
                m = np.frombuffer(data[at:at + 6], HCPE3_MOVE)[0]
                v = np.frombuffer(data[at + 6:at + 10], HCPE3_VISITS)[0]
                at += 10
                board.set_sfen(sfen)
                got = board.move_from_move16(int(m["selectedMove16"]) & 0xffff)
                if got != move or m["eval"] != e or m["candidateNum"] != 1 \
                        or v["move16"] != m["selectedMove16"] or v["visitNum"] != 1:
                    fail("%s move %d: %s %s, expected %s eval %d" % (
                        where, i, m, v, cshogi.move_to_usi(move), e))
                checked += 1
        else:
            size = 38 if a.layout == "hcpe" else 40
            dtype = cshogi.HuffmanCodedPosAndEval if a.layout == "hcpe" else cshogi.PackedSfenValue
            if g["records"] != len(recs):
                fail("%s: %d records, the replay has %d" % (where, g["records"], len(recs)))
            for i, (sfen, move, e, ply, turn, _) in enumerate(recs):
                x = np.frombuffer(data[at:at + size], dtype)[0]
                at += size
                if a.layout == "hcpe":
                    board.set_hcp(np.asarray(x["hcp"]))
                    got = board.move_from_move16(int(x["bestMove16"]) & 0xffff)
                    fields = (int(x["eval"]), int(x["gameResult"]))
                    want = (e, r)
                else:
                    board.set_psfen(np.asarray(x["sfen"]))
                    got = board.move_from_psv(int(x["move"]))
                    res = 0 if r == 0 else (1 if r - 1 == turn else -1)
                    fields = (int(x["score"]), int(x["game_result"]), int(x["gamePly"]))
                    want = (e, res, ply)
                pos = board.sfen().rsplit(" ", 1)[0]
                if pos != sfen.rsplit(" ", 1)[0]:
                    fail("%s record %d: position %s, expected %s" % (where, i, pos, sfen))
                if got != move:
                    fail("%s record %d: move %s, expected %s" % (
                        where, i, cshogi.move_to_usi(got), cshogi.move_to_usi(move)))
                if fields != want:
                    fail("%s record %d: fields %s, expected %s" % (where, i, fields, want))
                checked += 1
        games += 1
    if at != len(data):
        fail("%d bytes after the last game the index lists" % (len(data) - at))
    print("checked %d records in %d games" % (checked, games))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("out")
    g.add_argument("--games", type=int, default=200)
    g.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("parseable")
    p.add_argument("files", nargs="*")
    w = sub.add_parser("write")
    w.add_argument("--layout", choices=["hcpe", "psv", "hcpe3"], default="hcpe")
    w.add_argument("--dlshogi", action="store_true")
    w.add_argument("-o", required=True)
    w.add_argument("files", nargs="*")
    c = sub.add_parser("check")
    c.add_argument("--layout", choices=["hcpe", "psv", "hcpe3"], default="hcpe")
    c.add_argument("--require-eval", action="store_true")
    c.add_argument("--stop", type=int)
    c.add_argument("out")
    c.add_argument("index")
    a = ap.parse_args()
    {"gen": cmd_gen, "parseable": cmd_parseable, "write": cmd_write, "check": cmd_check}[a.cmd](a)


if __name__ == "__main__":
    main()
