"""kifu.read: games of a file or of bytes, validated by the library, and
the same verdicts as `kifu validate --format json`."""

import json
import pickle

import pytest

import kifu
from conftest import EXAMPLES, run_cli

CSA = b"V2.2\nN+Alice\nN-Bob\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n"
ILLEGAL = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n+0055FU\n%TORYO\n"


def as_json(path, game):
    """A game of kifu.read as `kifu validate --format json` prints it."""
    r = game.result
    return {
        "path": path,
        "game": game.index,
        "format": game.format,
        "encoding": game.encoding,
        "ok": game.ok,
        "plies": game.plies,
        "final_sfen": game.final_sfen,
        "result": {"outcome": r.outcome, "winner": r.winner, "reason": r.reason,
                   "terminal_text": r.terminal_text},
        "findings": [
            {"rule": f.rule, "severity": f.severity, "message": f.message,
             "line": f.line, "column": f.column, "ply": f.ply, "move": f.move,
             "sfen": f.sfen}
            for f in game.findings
        ],
        "game_key": game.game_key,
    }


def test_bytes_give_header_start_moves_result():
    [g] = kifu.read(CSA)
    assert g.format == "csa" and g.encoding == "utf-8" and g.variant == "standard"
    assert g.header == {"sente": "Alice", "gote": "Bob"}
    assert g.header_entries == [("sente", "Alice"), ("gote", "Bob")]
    assert g.start_sfen == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert g.moves == ["7g7f", "3c3d", "8h2b+", "3a2b"]
    assert (g.plies, g.ok, len(g)) == (4, True, 4)
    # gote moved last; sente resigns
    assert (g.result.outcome, g.result.winner, g.result.reason) == ("gote_win", "gote", "resign")
    assert g.findings == []
    assert len(g.game_key) == 32


def test_an_illegal_move_is_a_finding_with_ply_move_and_sfen():
    [g] = kifu.read(ILLEGAL)
    assert not g.ok and g.plies == 2
    assert g.moves == ["7g7f", "3c3d"]  # up to the illegal move
    [f] = g.findings
    assert (f.rule, f.severity, f.line, f.column, f.ply, f.move) == (
        "not-in-hand", "error", 6, 1, 3, "+0055FU")
    assert f.sfen == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    assert pickle.loads(pickle.dumps(f)) == f
    assert pickle.loads(pickle.dumps(g.result)) == g.result


def test_bytearray_memoryview_and_forced_format():
    assert [g.moves for g in kifu.read(bytearray(CSA))] == [kifu.read(CSA)[0].moves]
    assert kifu.read(memoryview(CSA))[0].moves == kifu.read(CSA)[0].moves
    [g] = kifu.read(b"position startpos moves 7g7f 3c3d\n", format="usi")
    assert g.format == "usi" and g.moves == ["7g7f", "3c3d"]
    with pytest.raises(ValueError):
        kifu.read(CSA, format="nope")
    with pytest.raises(TypeError):
        kifu.read(12)


def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        kifu.read(tmp_path / "none.kif")
    assert e.value.filename == str(tmp_path / "none.kif")


def test_every_example_as_the_cli_reports_it():
    files = sorted(p for p in EXAMPLES.iterdir() if p.suffix != ".md")
    assert len(files) >= 8
    for p in files:
        want = [json.loads(line) for line in run_cli("validate", "--format", "json", p).splitlines()]
        games = kifu.read(p)
        got = [as_json(str(p), g) for g in games]
        assert got == want, p
        assert all(len(g.moves) == g.plies for g in games)
        # the same bytes read from memory give the same games
        assert [as_json(str(p), g) for g in kifu.read(p.read_bytes(), format=got[0]["format"])] == want


def test_invalid_records_as_the_cli_reports_them(tmp_path):
    kif = "手合割：平手\n先手：甲\n後手：乙\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ５五角打\n   6 投了\n"
    records = {
        "illegal.csa": ILLEGAL,
        "sjis.kif": kif.encode("shift_jis"),
        "syntax.kif": "手合割：平手\n   1 ７六歩(77)\n   2 ３x歩(33)\n".encode(),
        "empty.csa": b"",
    }
    for name, data in records.items():
        p = tmp_path / name
        p.write_bytes(data)
        want = [json.loads(line) for line in run_cli("validate", "--format", "json", p).splitlines()]
        assert [as_json(str(p), g) for g in kifu.read(p)] == want, name


def test_moves_equal_cshogi_on_generated_games(corpus):
    cshogi = pytest.importorskip("cshogi")
    import cshogi.CSA

    files = sorted((corpus / "csa").iterdir())[:100]
    for f in files:
        [want] = cshogi.CSA.Parser.parse_file(str(f))
        [g] = kifu.read(f)
        assert g.moves == [cshogi.move_to_usi(m) for m in want.moves], f
        assert g.start_sfen == want.sfen
