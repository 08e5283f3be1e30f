"""kifu.positions: the records `kifu export` writes, as a numpy array with
cshogi's dtypes, viewing the library's buffer without a copy."""

import subprocess

import pytest

np = pytest.importorskip("numpy")

import kifu  # noqa: E402
from conftest import kifu_bin  # noqa: E402

needs_positions = pytest.mark.skipif(
    not kifu.HAS_POSITIONS,
    reason="kifu.positions needs kifu::export (issue 28): wheel built without the `positions` feature",
)


def exported(paths, fmt, tmp_path):
    out = tmp_path / f"cli.{fmt}"
    run = subprocess.run([kifu_bin(), "export", "--to", fmt, "-o", out, *paths],
                         capture_output=True)
    assert run.returncode in (0, 1), run.stderr.decode()
    return out.read_bytes()


@needs_positions
@pytest.mark.parametrize("fmt,size", [("hcpe", 38), ("psv", 40)])
def test_records_equal_kifu_export(corpus, tmp_path, fmt, size):
    paths = [corpus / "csa", corpus / "examples"]
    a = kifu.positions(paths, fmt=fmt, jobs=2)
    assert a.dtype.itemsize == size
    assert len(a) > 300 * 80
    assert a.tobytes() == exported(paths, fmt, tmp_path)
    assert kifu.positions(paths, fmt=fmt, jobs=1).tobytes() == a.tobytes()


@needs_positions
def test_cshogi_dtypes_without_a_copy(corpus):
    cshogi = pytest.importorskip("cshogi")
    import cshogi.CSA
    a = kifu.positions(corpus / "csa", fmt="hcpe")
    assert a.dtype == cshogi.HuffmanCodedPosAndEval
    assert kifu.position_dtype("psv") == cshogi.PackedSfenValue
    assert isinstance(a.base, kifu.Buffer) and not a.flags.owndata
    assert a.flags.writeable
    # the same memory: a view with cshogi's dtype shares it
    v = a.view(cshogi.HuffmanCodedPosAndEval)
    assert np.shares_memory(v, a)
    # cshogi reads the positions: the first record of the first game is
    # the start position, the second follows its first move
    board = cshogi.Board()
    board.set_hcp(a[0]["hcp"])  # (an hcp has no move number)
    assert board.sfen().split()[:3] == cshogi.Board().sfen().split()[:3]
    [game] = cshogi.CSA.Parser.parse_file(str(sorted((corpus / "csa").iterdir())[0]))
    first = cshogi.Board()
    first.push(game.moves[0])
    board.set_hcp(a[1]["hcp"])
    assert board.sfen().split()[:3] == first.sfen().split()[:3]
    assert a[0]["bestMove16"] == cshogi.move16(game.moves[0])


@pytest.mark.skipif(kifu.HAS_POSITIONS, reason="this build has positions")
def test_without_the_feature_positions_says_so(tmp_path):
    with pytest.raises(NotImplementedError, match="kifu::export"):
        kifu.positions(tmp_path)


@needs_positions
def test_arguments(tmp_path):
    with pytest.raises(ValueError):
        kifu.positions(tmp_path, fmt="hcpe3")
    with pytest.raises(ValueError):
        kifu.positions(tmp_path, fmt="nope")
    assert len(kifu.positions(tmp_path)) == 0
