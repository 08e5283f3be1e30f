"""kifu.validate: many files on the library's batch runner; the reports
of `kifu validate --format json`, in input order, the same at any jobs."""

import json
import os
import pickle
import shutil
import threading
import time

import pytest

import kifu
from conftest import run_cli
from test_read import ILLEGAL


def as_json(r):
    res = r.result
    return {
        "path": r.path, "game": r.game, "format": r.format, "encoding": r.encoding,
        "ok": r.ok, "plies": r.plies, "final_sfen": r.final_sfen,
        "result": None if res is None else {
            "outcome": res.outcome, "winner": res.winner, "reason": res.reason,
            "terminal_text": res.terminal_text},
        "findings": [
            {"rule": f.rule, "severity": f.severity, "message": f.message,
             "line": f.line, "column": f.column, "ply": f.ply, "move": f.move,
             "sfen": f.sfen}
            for f in r.findings],
        "game_key": r.game_key,
    }


def own_copy(corpus, tmp_path):
    """The shared corpus copied, for a test that adds files to it."""
    shutil.copytree(corpus, tmp_path / "corpus", symlinks=True)
    return tmp_path / "corpus"


def cli_reports(*paths):
    return [json.loads(line) for line in run_cli("validate", "--format", "json", *paths).splitlines()]


def test_reports_equal_the_cli_at_any_jobs(corpus, tmp_path):
    corpus = own_copy(corpus, tmp_path)
    (corpus / "examples" / "illegal.csa").write_bytes(ILLEGAL)
    os.symlink("/nonexistent", corpus / "examples" / "dangling.kif")
    want = cli_reports(corpus)
    assert len(want) > 300 + 29
    assert any(not r["ok"] for r in want)
    assert any(r["findings"] and r["findings"][0]["rule"] == "io" for r in want)
    one = kifu.validate(corpus, jobs=1)
    assert [as_json(r) for r in one] == want
    for jobs in (2, 3):
        assert kifu.validate(str(corpus), jobs=jobs) == one
    # the big multi-game file alone, cut in pieces by the workers
    assert kifu.validate([corpus / "big.csa"], jobs=2) == kifu.validate(corpus / "big.csa", jobs=1)


def test_input_order_follows_discover(corpus):
    files = kifu.discover(corpus / "csa")
    assert files == sorted(files) and len(files) == 300
    reports = kifu.validate(files[::-1][:10], jobs=2)
    assert [r.path for r in reports] == files[::-1][:10]


def test_reports_pickle(corpus):
    for r in kifu.validate(corpus / "examples", jobs=1):
        assert pickle.loads(pickle.dumps(r)) == r


def test_errors_and_arguments(tmp_path):
    with pytest.raises(FileNotFoundError):
        kifu.validate(tmp_path / "missing")
    with pytest.raises(ValueError):
        kifu.validate(tmp_path, jobs=0)
    with pytest.raises(TypeError):
        kifu.validate([1, 2])
    assert kifu.validate(tmp_path) == []
    (tmp_path / "a.txt").write_bytes(ILLEGAL)
    assert kifu.validate(tmp_path) == []
    assert len(kifu.validate(tmp_path, ext=["txt"], format="csa")) == 1
    [r] = kifu.validate("/proc/self/mem")
    assert (r.ok, r.findings[0].rule, r.findings[0].severity) == (False, "io", "error")


def test_the_gil_is_released(corpus):
    """A Python thread runs while kifu works: it leaves time stamps every
    half millisecond, and some fall in the middle of each call (with the
    GIL held through the call, none could)."""
    stamps = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            stamps.append(time.perf_counter())
            time.sleep(0.0005)

    big = b"\n/\n".join([(corpus / "big.csa").read_bytes()] * 6)
    calls = {
        "validate": lambda: kifu.validate([corpus] * 6, jobs=1),
        "read": lambda: kifu.read(big),
        "stats": lambda: pa_table(kifu.stats([corpus] * 6, jobs=1)),
        "positions": lambda: kifu.positions([corpus] * 6, jobs=1),
    }
    t = threading.Thread(target=tick)
    t.start()
    try:
        for name, call in calls.items():
            t0 = time.perf_counter()
            call()
            t1 = time.perf_counter()
            lo, hi = t0 + 0.2 * (t1 - t0), t0 + 0.8 * (t1 - t0)
            inside = sum(lo <= s <= hi for s in stamps)
            assert t1 - t0 > 0.03, (name, t1 - t0)
            assert inside >= 3, (name, inside, t1 - t0)
    finally:
        stop.set()
        t.join()


def pa_table(stream):
    pa = pytest.importorskip("pyarrow")
    return pa.table(stream)
