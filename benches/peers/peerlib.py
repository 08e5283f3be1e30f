"""Shared helpers: talk to the peer engines in kifu's USI/SFEN convention."""
import cshogi
import pyffish as sf
import shogi  # python-shogi

from perft_pyffish import usi_sfen_to_fsf, FSF_VARIANT, legal_moves as ffish_moves

DIMS = {"standard": (9, 9), "minishogi": (5, 5), "doubutsu": (3, 4)}  # files, ranks


def usi_to_fsf(variant, usi):
    """USI move (file digit, rank letter; file N is leftmost) -> Fairy-Stockfish UCI."""
    files, ranks = DIMS[variant]

    def sq(s):
        return chr(ord("a") + files - int(s[0])) + str(ranks - (ord(s[1]) - ord("a")))

    if usi[1] == "*":
        return f"{usi[0]}@{sq(usi[2:4])}"
    return sq(usi[0:2]) + sq(usi[2:4]) + ("+" if usi.endswith("+") else "")


def ffish_legal(variant, sfen, usi):
    # ffish_moves drops Fairy-Stockfish's "legal but losing" pawn-drop mates
    v = FSF_VARIANT[variant]
    return usi_to_fsf(variant, usi) in ffish_moves(v, usi_sfen_to_fsf(sfen))


def cshogi_legal(sfen, usi):
    b = cshogi.Board()
    b.set_sfen(sfen)
    # Membership in the generated list.  (board.is_legal(move_from_usi(..)) is
    # NOT enough: cshogi 1.1.0 answers True for e.g. 7g7f+ or an unpromoted
    # pawn move to rank 1, because is_legal ignores the promotion flag.)
    m = b.move_from_usi(usi)  # 0 if cshogi cannot even build the move
    return bool(m) and m in set(b.legal_moves)


def pyshogi_legal(sfen, usi):
    b = shogi.Board(sfen)
    try:
        m = shogi.Move.from_usi(usi)
    except ValueError:
        return False
    return b.is_legal(m)


def cshogi_valid(sfen):
    """Basic sanity: cshogi accepts it, round-trips, side not to move not in check."""
    b = cshogi.Board()
    b.set_sfen(sfen)
    assert b.sfen().split()[0] == sfen.split()[0], (sfen, b.sfen())
    # opponent in check?  flip side and look
    parts = sfen.split()
    parts[1] = {"b": "w", "w": "b"}[parts[1]]
    o = cshogi.Board()
    o.set_sfen(" ".join(parts))
    return not o.is_check()
