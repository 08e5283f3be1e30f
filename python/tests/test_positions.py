"""kifu.positions: the records `kifu export` writes, as a numpy array with
cshogi's dtypes, viewing the library's buffer without a copy."""

import subprocess

import pytest

np = pytest.importorskip("numpy")

import kifu  # noqa: E402
from conftest import kifu_bin  # noqa: E402


def exported(paths, fmt, tmp_path, *flags):
    out = tmp_path / f"cli.{fmt}"
    out.unlink(missing_ok=True)
    run = subprocess.run([kifu_bin(), "export", "--to", fmt, "-o", out,
                          "--allow-empty", *flags, *paths],
                         capture_output=True)
    assert run.returncode in (0, 1), run.stderr.decode()
    return out.read_bytes() if out.exists() else b""


@pytest.mark.parametrize("fmt,size", [("hcpe", 38), ("psv", 40)])
def test_records_equal_kifu_export(corpus, tmp_path, fmt, size):
    paths = [corpus / "csa", corpus / "examples"]
    a = kifu.positions(paths, fmt=fmt, jobs=2)
    assert a.dtype.itemsize == size
    assert len(a) > 300 * 80
    assert a.tobytes() == exported(paths, fmt, tmp_path)
    assert kifu.positions(paths, fmt=fmt, jobs=1).tobytes() == a.tobytes()


@pytest.fixture(scope="module")
def rated(corpus, tmp_path_factory):
    """Forty of the generated games made floodgate-like: rating lines (some
    games below 3000 or 3500, some unrated), evals after some moves (none in every
    fifth game), and every seventh game lost on time (%TIME_UP) instead of
    resigned; one game with an illegal move (its king moves two squares)."""
    d = tmp_path_factory.mktemp("rated")
    files = sorted((corpus / "csa").iterdir())[:40]
    for i, f in enumerate(files):
        lines = f.read_text().splitlines()
        out = []
        for line in lines:
            if line == "PI" and i % 6 != 5:
                out += [f"'black_rate:Sente{i}:{2900 + 100 * (i % 8)}.0",
                        f"'white_rate:Gote{i}:{3400 + 50 * (i % 5)}"]
            if line == "%TORYO" and i % 7 == 3:
                line = "%TIME_UP"
            out.append(line)
            if line[:1] in "+-" and len(line) == 7 and i % 5 != 4:
                out.append(f"'** {(len(out) * 37 + i) % 900 - 450}")
        (d / f.name).write_text("\n".join(out) + "\n")
    lines = files[1].read_text().splitlines()
    first = lines.index("PI") + 2
    assert lines[first - 1] == "+" and lines[first][0] == "+"
    lines[first] = "+5957OU"
    (d / "z_illegal.csa").write_text("\n".join(lines) + "\n")
    return d


FILTERS = [
    ({"preset": "dlshogi"}, ["--preset", "dlshogi"]),
    ({"min_plies": 100}, ["--min-plies", "100"]),
    ({"min_rating": 3000}, ["--min-rating", "3000"]),
    ({"endings": ["%TORYO"]}, ["--endings", "%TORYO"]),
    ({"endings": ["%TIME_UP"], "require_eval": True},
     ["--endings", "%TIME_UP", "--require-eval"]),
    ({"preset": "dlshogi", "min_rating": 2800, "min_plies": 90},
     ["--preset", "dlshogi", "--min-rating", "2800", "--min-plies", "90"]),
]


@pytest.mark.parametrize("kwargs,flags", FILTERS,
                         ids=[" ".join(f) for _, f in FILTERS])
def test_filters_equal_kifu_export(rated, tmp_path, kwargs, flags):
    every = kifu.positions(rated)
    a = kifu.positions(rated, jobs=2, **kwargs)
    # the filter keeps some games and leaves some out
    assert 0 < len(a) < len(every)
    assert a.tobytes() == exported([rated], "hcpe", tmp_path, *flags)
    psv = kifu.positions(rated, fmt="psv", jobs=1, **kwargs)
    assert psv.tobytes() == exported([rated], "psv", tmp_path, *flags)


def test_a_game_with_an_illegal_move_writes_nothing(rated):
    alone = kifu.positions(rated / "z_illegal.csa")
    assert len(alone) == 0
    assert len(kifu.positions(rated)) > 0


def test_the_array_is_the_library_buffer(corpus):
    a = kifu.positions(corpus / "csa", fmt="hcpe")
    assert isinstance(a.base, kifu.Buffer) and not a.flags.owndata
    assert a.flags.writeable
    assert len(a.base) == a.nbytes
    # the same memory: a write through the array is seen in the buffer
    raw = np.frombuffer(a.base, dtype=np.uint8)
    assert np.shares_memory(raw, a)
    before = bytes(memoryview(a.base)[:4])
    a[0]["eval"] = 12345
    assert bytes(memoryview(a.base)[32:34]) == (12345).to_bytes(2, "little")
    assert bytes(memoryview(a.base)[:4]) == before


def replay(path):
    """(SFEN, move) before each main-line move of a one-game CSA file, by
    cshogi."""
    import cshogi
    import cshogi.CSA
    [game] = cshogi.CSA.Parser.parse_file(str(path))
    board = cshogi.Board()
    for m in game.moves:
        yield board.sfen(), m
        board.push(m)


def test_cshogi_reads_every_record(corpus):
    cshogi = pytest.importorskip("cshogi")
    a = kifu.positions(corpus / "csa" / "g00001.csa", fmt="hcpe")
    p = kifu.positions(corpus / "csa" / "g00001.csa", fmt="psv")
    assert a.dtype == cshogi.HuffmanCodedPosAndEval
    assert p.dtype == cshogi.PackedSfenValue
    assert kifu.position_dtype("psv") == cshogi.PackedSfenValue
    expected = list(replay(corpus / "csa" / "g00001.csa"))
    assert len(a) == len(p) == len(expected) > 0
    mine = cshogi.Board()
    for i, (sfen, move) in enumerate(expected):
        # an hcp has no move number; a psfen has
        mine.set_hcp(a[i]["hcp"])
        assert mine.sfen().split()[:3] == sfen.split()[:3], i
        assert a[i]["bestMove16"] == cshogi.move16(move), i
        mine.set_psfen(p[i]["sfen"])
        assert mine.sfen().split()[:3] == sfen.split()[:3], i
        assert p[i]["gamePly"] == i + 1


def test_arguments(tmp_path):
    with pytest.raises(ValueError, match="hcpe or psv"):
        kifu.positions(tmp_path, fmt="hcpe3")
    with pytest.raises(ValueError):
        kifu.positions(tmp_path, fmt="nope")
    with pytest.raises(ValueError, match="preset"):
        kifu.positions(tmp_path, preset="nope")
    with pytest.raises(ValueError, match="unknown CSA special"):
        kifu.positions(tmp_path, endings=["%NOPE"])
    with pytest.raises(ValueError, match="at least one"):
        kifu.positions(tmp_path, endings=[])
    with pytest.raises(FileNotFoundError):
        kifu.positions(tmp_path / "missing.csa")
    empty = kifu.positions(tmp_path)
    assert len(empty) == 0 and empty.dtype == kifu.position_dtype("hcpe")
