#!/usr/bin/env python3
"""The Python package's speed targets (issue 30), measured in one process.

1. kifu.read + moves against cshogi's parse + strict replay on the same CSA
   files: for each file, `kifu.read(path)` (parse, every move played and
   checked, the result decided) and each game's `.moves` (USI strings),
   against `cshogi.CSA.Parser.parse_file(path)` and, for each game,
   `board.set_sfen(sfen)` then `board.is_legal(m)` before every
   `board.push(m)` (as benches/peers/validate_cshogi.py replays). Target:
   kifu >= 1.5x.
2. kifu.validate(folder, jobs=2) against jobs=1 on the same files, and
   kifu.positions(folder, jobs=2) against jobs=1. Target: >= 1.7x. The
   output also gives each contender's CPU seconds and how many cores the
   process got during jobs=2 (CPU / wall): below ~1.8 the machine is busy
   with other work and the wall ratio is not a scaling figure. So that the
   scaling can be judged on a busy machine too, --profile rounds (not
   timed) sample every thread's own CPU clock during each jobs call: the
   CPU of the calling thread (the sink that puts results in input order,
   and the conversion to Python objects under the GIL), of the reader
   thread and of each worker. From them, the speed-up two free cores
   would give: CPU(jobs=1) / max(CPU(jobs=2) / 2, the busiest thread's
   CPU) -- the work spread over two cores, unless one thread (a serial
   part) is longer than that.

Rounds alternate between the contenders; each figure is the best of
--rounds. The corpus is made by benches/peers/gen_csa_corpus.py (seeded
random legal games, one per file) unless --corpus names a folder.

  python benches/python_bench.py [--games 2000] [--rounds 11] [--profile 3]
                                 [--corpus DIR]

Needs the kifu wheel, cshogi and the generator's cshogi in the running
Python (target/pyvenv after .ci/run).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from importlib.metadata import version

import cshogi
import cshogi.CSA

import kifu

ROOT = Path(__file__).resolve().parents[1]


def kifu_read(files):
    games = moves = 0
    for f in files:
        for g in kifu.read(f):
            games += 1
            moves += len(g.moves)
    return games, moves


def cshogi_replay(files):
    games = moves = 0
    board = cshogi.Board()
    for f in files:
        for game in cshogi.CSA.Parser.parse_file(f):
            games += 1
            board.set_sfen(game.sfen)
            for m in game.moves:
                if not board.is_legal(m):
                    break
                board.push(m)
                moves += 1
    return games, moves


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(fn, *args):
    """Wall seconds, CPU seconds (every thread of the process), result."""
    t, c = time.perf_counter(), cpu()
    out = fn(*args)
    return time.perf_counter() - t, cpu() - c, out


def thread_cpu(tid):
    """The CPU seconds of thread `tid` of this process (its own clock,
    CLOCK_THREAD_CPUTIME: Linux's clock id for a thread id)."""
    return time.clock_gettime(((~tid) << 3) | 6)


class ThreadClocks:
    """CPU seconds each thread of the process used while the block ran,
    summed by thread name, sampled every `period` seconds by a thread of
    its own (left out). A thread that ends between two samples loses at
    most one period of its time."""

    def __init__(self, period=0.001):
        self.period = period
        self.last, self.first, self.names = {}, {}, {}
        self.done = threading.Event()

    def sample(self):
        for t in os.listdir("/proc/self/task"):
            tid = int(t)
            if tid == self.me:
                continue
            try:
                v = thread_cpu(tid)
                # A new thread is named by itself once started: read the
                # name again until it is a worker's.
                if not self.names.get(tid, "").startswith("kifu-"):
                    with open(f"/proc/self/task/{tid}/comm") as f:
                        self.names[tid] = f.read().strip()
            except OSError:
                continue  # ended
            # threads there before the block count from their clock then
            self.first.setdefault(tid, 0.0 if self.started else v)
            self.last[tid] = v

    def loop(self):
        self.me = threading.get_native_id()
        self.started = False
        self.sample()
        self.started = True
        self.ready.set()
        while not self.done.wait(self.period):
            self.sample()
        self.sample()

    def __enter__(self):
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()
        self.ready.wait()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        self.by_name = {}
        for tid, v in self.last.items():
            name = self.names.get(tid, "?")
            name = "caller" if tid == MAIN else name
            self.by_name[name] = self.by_name.get(name, 0.0) + v - self.first[tid]


MAIN = threading.get_native_id()


def profile(fn, arg, rounds):
    """Per-thread CPU seconds of `fn(arg)`, the median of `rounds` runs per
    thread name."""
    runs = []
    for _ in range(rounds):
        with ThreadClocks() as c:
            fn(arg)
        runs.append(c.by_name)
    names = sorted({n for r in runs for n in r})
    return {n: sorted(r.get(n, 0.0) for r in runs)[len(runs) // 2] for n in names}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--profile", type=int, default=3,
                    help="untimed rounds that sample each thread's CPU (jobs calls)")
    ap.add_argument("--corpus", help="a folder of .csa files (default: generated)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = a.corpus
        if corpus is None:
            corpus = os.path.join(tmp, "csa")
            subprocess.run(
                [sys.executable, str(ROOT / "benches/peers/gen_csa_corpus.py"),
                 "--out", corpus, "--games", str(a.games), "--seed", "1"],
                check=True, stdout=subprocess.DEVNULL,
            )
        files = kifu.discover(corpus, ext=["csa"])
        size = sum(os.path.getsize(f) for f in files)
        jobs_calls = {
            "validate jobs=1": lambda c: len(kifu.validate(c, jobs=1)),
            "validate jobs=2": lambda c: len(kifu.validate(c, jobs=2)),
            "positions jobs=1": lambda c: len(kifu.positions(c, jobs=1)),
            "positions jobs=2": lambda c: len(kifu.positions(c, jobs=2)),
        }
        times = {"kifu.read": [], "cshogi": [], **{k: [] for k in jobs_calls}}
        cpus = {k: [] for k in times}
        counts = {}
        for _ in range(a.rounds):
            for name, fn, arg in (
                ("kifu.read", kifu_read, files),
                ("cshogi", cshogi_replay, files),
                *((k, f, corpus) for k, f in jobs_calls.items()),
            ):
                secs, used, out = timed(fn, arg)
                times[name].append(secs)
                cpus[name].append(used)
                counts[name] = out
        b = {k: min(v) for k, v in times.items()}
        med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
        assert counts["kifu.read"] == counts["cshogi"], counts
        threads = {k: profile(f, corpus, a.profile) for k, f in jobs_calls.items()}
        jobs = {}
        for what in ("validate", "positions"):
            one, two = f"{what} jobs=1", f"{what} jobs=2"
            cpu1 = sorted(cpus[one])[len(cpus[one]) // 2]
            t2 = threads[two]
            busiest = max(t2.values())
            jobs[what] = {
                "results": counts[one],
                "wall_best": [round(b[one], 4), round(b[two], 4)],
                "jobs2_vs_jobs1_wall_best": round(b[one] / b[two], 2),
                "jobs2_vs_jobs1_wall_median": round(med[one] / med[two], 2),
                "cpu_median": [round(cpu1, 4),
                               round(sorted(cpus[two])[len(cpus[two]) // 2], 4)],
                # CPU / wall of the jobs=2 rounds: the cores the process got.
                "cores_got_jobs2": round(
                    max(c / w for c, w in zip(cpus[two], times[two])), 2),
                "threads_cpu_jobs1": {n: round(v, 4) for n, v in threads[one].items()},
                "threads_cpu_jobs2": {n: round(v, 4) for n, v in t2.items()},
                # The speed-up two free cores give at most with these
                # threads' CPU: the work over two cores, unless one thread
                # (a serial part) is longer.
                "jobs2_vs_jobs1_two_free_cores": round(
                    sum(threads[one].values()) / max(sum(t2.values()) / 2, busiest), 2),
            }
        print(json.dumps({
            "files": len(files),
            "bytes": size,
            "games_moves": counts["kifu.read"],
            "best_seconds": {k: round(v, 4) for k, v in b.items()},
            "read_vs_cshogi": round(b["cshogi"] / b["kifu.read"], 2),
            "median_read_vs_cshogi": round(med["cshogi"] / med["kifu.read"], 2),
            "cpu_seconds_min": {k: round(min(v), 4) for k, v in cpus.items()
                                if k in ("kifu.read", "cshogi")},
            "jobs": jobs,
            "loadavg_after": open("/proc/loadavg").read().split()[:3],
            "cpus": os.cpu_count(),
            "kifu": kifu.__version__,
            "cshogi": version("cshogi"),
        }, indent=1))


if __name__ == "__main__":
    main()
