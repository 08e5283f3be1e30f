"""kifu.stats: the games table as an Arrow stream whose typed columns hold
what pyarrow reads from the CSV of `kifu stats`."""

import io

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.csv as pacsv  # noqa: E402

import kifu  # noqa: E402
from conftest import run_cli  # noqa: E402
from test_validate import own_copy  # noqa: E402

TYPES = {
    "path": pa.string(), "game": pa.int64(), "start_time": pa.timestamp("s"),
    "plies": pa.int64(), "valid": pa.bool_(), "first_error_ply": pa.int64(),
    "sente_time_s": pa.float64(), "gote_time_s": pa.float64(),
    "variations": pa.int64(), "game_key": pa.string(),
    "sente_rating": pa.float64(), "gote_rating": pa.float64(),
    "sente_rank": pa.string(), "gote_rank": pa.string(),
}


def cli_table(*paths, schema):
    csv = run_cli("stats", *paths)
    return pacsv.read_csv(
        io.BytesIO(csv),
        convert_options=pacsv.ConvertOptions(column_types=schema),
    )


def test_columns_and_types(tmp_path):
    t = pa.table(kifu.stats(tmp_path))
    assert t.num_rows == 0
    header = run_cli("stats", "--allow-empty", tmp_path).decode()
    assert header == ",".join(t.column_names) + "\n"
    for name, ty in TYPES.items():
        assert t.schema.field(name).type == ty, name


def test_header_is_the_csv_header(corpus):
    csv = run_cli("stats", corpus / "examples").decode()
    t = pa.table(kifu.stats(corpus / "examples"))
    assert ",".join(t.column_names) == csv.splitlines()[0]
    assert kifu.stats(corpus).columns == t.column_names


def test_table_equals_the_csv(corpus, tmp_path):
    corpus = own_copy(corpus, tmp_path)
    (corpus / "examples" / "bad.csa").write_bytes(
        b"V2.2\n$START_TIME:2024/01/02\nPI\n+\n+7776FU\nT12\n-3334FU\nT3\n+0055FU\n%TORYO\n")
    got = pa.table(kifu.stats(corpus, jobs=2))
    want = cli_table(corpus, schema=got.schema)
    assert got.num_rows == want.num_rows > 300
    assert got.column_names == want.column_names
    for name in got.column_names:
        assert got.column(name).equals(want.column(name)), name
    # the values are there: dates, times, an invalid game
    assert got.column("start_time").null_count < got.num_rows
    assert got.column("sente_time_s").null_count < got.num_rows
    assert not all(got.column("valid").to_pylist())
    assert pa.table(kifu.stats(corpus, jobs=1)).equals(got)


def test_big_file_in_several_batches(corpus):
    t = pa.table(kifu.stats(corpus / "big.csa", jobs=2))
    assert t.num_rows > 300
    assert t.column("game").to_pylist() == list(range(t.num_rows))
    reader = pa.RecordBatchReader.from_stream(kifu.stats(corpus, jobs=2))
    first = reader.read_next_batch()
    assert first.num_rows > 0
    del reader  # stopping early ends the work


def test_a_stream_is_read_once(corpus):
    s = kifu.stats(corpus / "examples")
    pa.table(s)
    with pytest.raises(ValueError):
        pa.table(s)


def test_unreadable_input_ends_the_stream_with_an_error(tmp_path):
    (tmp_path / "ok.csa").write_bytes(b"PI\n+\n+7776FU\n")
    with pytest.raises(FileNotFoundError):
        kifu.stats(tmp_path / "missing.kif")
    # /proc/self/mem cannot be read from its start (EIO): every row of the
    # other inputs comes first, then the error names it
    reader = pa.RecordBatchReader.from_stream(kifu.stats([tmp_path / "ok.csa", "/proc/self/mem"]))
    assert reader.read_next_batch().num_rows == 1
    with pytest.raises(OSError, match="/proc/self/mem"):
        reader.read_next_batch()


def test_ratings_and_ranks(tmp_path):
    (tmp_path / "rated.csa").write_bytes(
        b"V2\nN+a\nN-b\n'black_rate:a+01:3382.0\n'white_rate:b+02:3613\n"
        b"PI\n+\n+7776FU\n%TORYO\n")
    (tmp_path / "wars.kif").write_text(
        "\u5148\u624b\uff1aamai[4D]\n\u5f8c\u624b\uff1aother[10K]\n   1 \uff17\u516d\u6b69(77)\n",
        encoding="utf-8")
    t = pa.table(kifu.stats(tmp_path)).to_pylist()
    rows = {r["path"].rsplit("/", 1)[-1]: r for r in t}
    assert (rows["rated.csa"]["sente_rating"], rows["rated.csa"]["gote_rating"]) == (3382.0, 3613.0)
    assert rows["rated.csa"]["sente_rank"] == ""
    assert (rows["wars.kif"]["sente_rank"], rows["wars.kif"]["gote_rank"]) == ("4D", "10K")
    assert rows["wars.kif"]["sente_rating"] is None


def test_read_gives_ratings_times_evals_and_comments():
    data = (b"V2\nN+a\nN-b\n'black_rate:a+01:3382.0\n'white_rate:b+02:3613\n"
            b"PI\n+\n+7776FU\nT3\n'** 45 -3334FU\n-3334FU\nT2\n'*nice\n%TORYO\n")
    g = kifu.read(data, format="csa")[0]
    assert g.ratings == (3382.0, 3613.0)
    assert g.ranks == (None, None)
    assert g.times == [3.0, 2.0]
    assert g.evals == [45, None]
    assert g.mates == [None, None]
    assert (1, "** 45 -3334FU") in g.comments and (2, "*nice") in g.comments
    w = kifu.read("先手：amai[4D]\n後手：b 九段\n   1 ７六歩(77)\n".encode(), format="kif")[0]
    assert w.ranks == ("4D", "九段")
    assert w.ratings == (None, None)
