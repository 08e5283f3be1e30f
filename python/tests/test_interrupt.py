"""Ctrl-C and inputs that never end: every call is bounded in memory and
interruptible (docs/robustness.md, "Python: bounded and interruptible").
Each case runs Python in a subprocess, sends it SIGINT while a kifu call
works or waits, and expects KeyboardInterrupt within a few seconds."""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

import kifu

CSA = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n"

CHILD = r"""
import sys, kifu
kind, arg = sys.argv[1], sys.argv[2]
print("ready", flush=True)
try:
    if kind == "read":
        kifu.read(arg)
    elif kind == "validate":
        kifu.validate(arg, jobs=int(sys.argv[3]))
    elif kind == "positions":
        kifu.positions(arg, jobs=1)
    elif kind == "stats":
        import pyarrow as pa
        pa.table(kifu.stats(arg, jobs=1))
    with open("/proc/self/status") as f:
        rss = [l for l in f if l.startswith("VmHWM")]
    print("returned", rss, flush=True)
except KeyboardInterrupt:
    with open("/proc/self/status") as f:
        peak = int([l for l in f if l.startswith("VmHWM")][0].split()[1])
    print("KeyboardInterrupt", peak, flush=True)
    sys.exit(42)
"""


def interrupted(*args, wait=1.5):
    """Runs CHILD with `args`, sends SIGINT after `wait` seconds: (exit
    code, standard output, seconds from the signal to the exit)."""
    p = subprocess.Popen([sys.executable, "-c", CHILD, *map(str, args)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(wait)
        t = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=15)
        return p.returncode, out + err, time.monotonic() - t
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def assert_interrupted(*args, max_kb=1 << 20):
    code, out, took = interrupted(*args)
    assert code == 42, out
    assert took < 5, f"KeyboardInterrupt came after {took:.1f} s"
    peak = int(out.split()[1])
    assert peak < max_kb, f"peak resident memory {peak} KB"


def assert_returned_at_once(*args, max_kb=1 << 20):
    """`/dev/zero` is a binary file (NUL bytes): one `encoding` finding,
    read no further, so the call returns before the signal comes."""
    code, out, _ = interrupted(*args)
    assert code == 0 and out.startswith("returned"), out
    peak = int(re.search(r"VmHWM:\D*(\d+)", out).group(1))
    assert peak < max_kb, f"peak resident memory {peak} KB"


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "never.csa"
    os.mkfifo(path)
    return path


@pytest.fixture
def endless(tmp_path):
    """A FIFO fed without end with text (CSA comment lines, no NUL byte):
    kifu works on it until interrupted."""
    path = tmp_path / "endless.csa"
    os.mkfifo(path)
    writer = subprocess.Popen(["sh", "-c", "exec yes \"'a comment\" > \"$0\"", str(path)],
                              stderr=subprocess.DEVNULL)
    yield path
    writer.kill()
    writer.wait()


def test_read_dev_zero_is_bounded():
    # Before: the device was read whole (gigabytes) and Ctrl-C waited.
    assert_returned_at_once("read", "/dev/zero", max_kb=512 << 10)


def test_read_endless_input_is_bounded_and_interruptible(endless):
    assert_interrupted("read", endless, max_kb=512 << 10)


def test_read_fifo_without_writer_is_interruptible(fifo):
    assert_interrupted("read", fifo)


@pytest.mark.parametrize("jobs", [1, 2])
def test_validate_fifo_and_endless_input_are_interruptible(fifo, endless, jobs):
    assert_interrupted("validate", fifo, jobs)
    assert_interrupted("validate", endless, jobs, max_kb=512 << 10)
    assert_returned_at_once("validate", "/dev/zero", jobs, max_kb=512 << 10)


def test_positions_endless_input_is_interruptible(endless):
    pytest.importorskip("numpy")
    assert_interrupted("positions", endless, max_kb=512 << 10)
    assert_returned_at_once("positions", "/dev/zero", max_kb=512 << 10)


def test_stats_endless_input_is_interruptible(endless):
    pytest.importorskip("pyarrow")
    assert_interrupted("stats", endless, max_kb=512 << 10)
    assert_returned_at_once("stats", "/dev/zero", max_kb=512 << 10)


def test_calls_still_return_what_they_read(tmp_path):
    # The waiting thread does not change results: a FIFO with a writer and
    # a file over the 8 MiB threshold are read to their end.
    big = tmp_path / "big.csa"
    big.write_bytes(CSA.replace(b"%TORYO\n", b"%TORYO\n/\n") * 300_000)
    games = kifu.read(big)
    assert len(games) == 300_000 and all(g.ok for g in games[:10])
    assert len(kifu.read(big.read_bytes())) == 300_000
    fifo = tmp_path / "w.csa"
    os.mkfifo(fifo)
    w = subprocess.Popen([sys.executable, "-c",
                          f"open({str(fifo)!r}, 'wb').write({CSA!r})"])
    [g] = kifu.read(fifo)
    w.wait()
    assert g.moves == ["7g7f", "3c3d"]


NON_UTF8 = os.fsdecode(b"\xff\xfe-game.csa")


def test_non_utf8_names_are_kept_as_fsdecode_gives_them(tmp_path):
    (tmp_path / "sub").mkdir()
    path = os.path.join(os.fsencode(tmp_path / "sub"), b"\xff\xfe-game.csa")
    with open(path, "wb") as f:
        f.write(CSA)
    found = kifu.discover(tmp_path)
    assert found == [os.path.join(str(tmp_path), "sub", NON_UTF8)]
    assert os.path.exists(found[0])
    # Before: U+FFFD replaced the bytes and this raised FileNotFoundError.
    [r] = kifu.validate(found)
    assert r.ok and r.path == found[0]
    [r] = kifu.validate(tmp_path)
    assert r.path == found[0] and r.to_dict()["path"] == found[0]
    assert kifu.validate(path)[0].path == found[0]  # bytes paths too
    [g] = kifu.read(found[0])
    assert g.plies == 2
    import pickle
    assert pickle.loads(pickle.dumps(r)) == r
