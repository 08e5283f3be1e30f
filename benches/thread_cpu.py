#!/usr/bin/env python3
"""CPU time of each thread of a command, and the speed-up it allows.

  thread_cpu.py [--jobs 2] -- COMMAND ARGS...

Runs COMMAND (its output goes to /dev/null), reading
/proc/PID/task/*/stat every few milliseconds, and prints one line per
thread name (user+system CPU seconds; threads of one name summed) and a
summary line:

  total=CPU  serial=CPU  bound=X.XX  wall=S

`serial_max` is the CPU of the busiest thread that is not a worker (the
calling thread, which puts results in order and prints them, or kifu's
reading thread when there is one); `bound` is the Amdahl bound of the
speed-up on --jobs cores for this split of the work:

  bound = total / max(serial_max, total / jobs)

the run can go no faster than its busiest serial thread, nor than all
its CPU shared by --jobs cores. The figure does not depend on
how loaded the machine is (CPU time, not wall time), which is why the
benchmarks report it beside wall ratios.
"""
import argparse
import os
import subprocess
import sys
import time


def ticks():
    return os.sysconf("SC_CLK_TCK")


def sample(pid, seen):
    base = f"/proc/{pid}/task"
    try:
        tids = os.listdir(base)
    except FileNotFoundError:
        return False
    for tid in tids:
        try:
            with open(f"{base}/{tid}/stat") as f:
                s = f.read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name = s[s.index("(") + 1 : s.rindex(")")]
        rest = s[s.rindex(")") + 2 :].split()
        cpu = (int(rest[11]) + int(rest[12])) / ticks()
        seen[tid] = (name, cpu)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    seen = {}
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    while p.poll() is None:
        sample(p.pid, seen)
        time.sleep(0.003)
    wall = time.monotonic() - t0
    by = {}
    for name, cpu in seen.values():
        key = "kifu-worker" if name.startswith("kifu-worker") else name
        by[key] = by.get(key, 0.0) + cpu
    total = sum(by.values())
    workers = by.get("kifu-worker", 0.0)
    serial = {k: v for k, v in by.items() if k != "kifu-worker"}
    for k, v in sorted(by.items()):
        print(f"  {k:<16} {v:7.2f} s", file=sys.stderr)
    top = max(serial.values(), default=0.0)
    # Serial threads overlap each other and the workers; the slowest
    # bound: the busiest serial thread alone, or all the CPU over the cores.
    bound = total / max(top, total / a.jobs) if total else 0.0
    print(
        f"total={total:.2f} serial_max={top:.2f} workers={workers:.2f} "
        f"bound={bound:.2f} wall={wall:.2f} rc={p.returncode}"
    )


if __name__ == "__main__":
    main()
