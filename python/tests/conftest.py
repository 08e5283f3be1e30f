"""Shared fixtures of the Python suite (run by .ci/run after the wheel is
built and installed; see docs/python.md)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "fixtures" / "examples"


def pytest_sessionfinish(session, exitstatus):
    """With KIFU_PYTEST_REQUIRE_ALL=1 (set by .ci/run, which installs
    everything the suite needs), a skipped test or module fails the run:
    nothing may be left out there. Elsewhere a test whose package is
    missing says SKIPPED (with -rs, why)."""
    if os.environ.get("KIFU_PYTEST_REQUIRE_ALL") != "1":
        return
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(tr.stats.get("skipped", [])) if tr else 0
    if skipped:
        tr.write_line(f"KIFU_PYTEST_REQUIRE_ALL=1: {skipped} skipped; failing the run", red=True)
        if exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def kifu_bin():
    """The kifu command to compare with: $KIFU_BIN, else the release build."""
    path = os.environ.get("KIFU_BIN") or str(ROOT / "target" / "release" / "kifu")
    if not Path(path).is_file():
        if os.environ.get("KIFU_BIN"):
            pytest.fail(f"KIFU_BIN={path} does not exist")
        pytest.skip(f"{path} is not built (cargo build --release)")
    return path


@pytest.fixture(scope="session")
def kifu_cli():
    return kifu_bin()


def run_cli(*args):
    """Runs the kifu command; its standard output as bytes."""
    out = subprocess.run([kifu_bin(), *map(str, args)], capture_output=True)
    assert out.returncode in (0, 1), out.stderr.decode()
    return out.stdout


@pytest.fixture(scope="session")
def corpus(tmp_path_factory):
    """A folder of 300 generated CSA games (benches/peers/gen_csa_corpus.py,
    cshogi's legal moves) plus the shipped examples in a sub-folder, and one
    multi-game CSA file."""
    pytest.importorskip("cshogi", reason="cshogi generates the corpus")
    d = tmp_path_factory.mktemp("corpus")
    subprocess.run(
        [sys.executable, str(ROOT / "benches/peers/gen_csa_corpus.py"),
         "--out", str(d / "csa"), "--games", "300", "--seed", "7",
         "--big", str(d / "big.csa"), "--big-size", "600K"],
        check=True, capture_output=True,
    )
    shutil.copytree(EXAMPLES, d / "examples")
    return d
