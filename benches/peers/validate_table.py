#!/usr/bin/env python3
"""Helper of benches/validate_bench.sh: print the results table.

  validate_table.py RESULTS.tsv FILES_DIR [BIG_FILE]

RESULTS.tsv rows: name, input (files|big), jobs, kind, seconds, peak RSS KiB,
exit code, games, moves, bad. For `cat | wc -l` rows, games and moves are
taken from kifu's row on the same input (same files, same bytes).
ratio columns: how many times faster kifu is than that row (speed of kifu
÷ speed of the row) on the same input, kifu with one thread (`÷ -j1`) and
with the same number of jobs as the row (`÷ same -j`).
"""
import csv
import os
import platform
import sys

results, files_dir = sys.argv[1], sys.argv[2]
big = sys.argv[3] if len(sys.argv) > 3 else ""

names = sorted(n for n in os.listdir(files_dir) if n.endswith(".csa"))
info = {"files": (len(names), sum(os.path.getsize(os.path.join(files_dir, n)) for n in names))}
if big and os.path.exists(big):
    info["big"] = (1, os.path.getsize(big))

rows = []
with open(results, newline="") as f:
    for r in csv.reader(f, delimiter="\t"):
        r = (r + [""] * 10)[:10]
        name, inp, jobs, kind, secs, rss, rc, games, moves, bad = r
        rows.append(dict(name=name, input=inp, jobs=int(jobs), kind=kind, secs=float(secs),
                         rss=int(rss), rc=int(rc), games=int(games) if games else None,
                         moves=int(moves) if moves else None, bad=int(bad) if bad else None))

kifu = {(r["input"], r["jobs"]): r for r in rows if r["name"] == "kifu"}
for r in rows:
    if r["games"] is None and r["kind"] == "wc":
        k = kifu.get((r["input"], 1))
        if k:
            r["games"], r["moves"] = k["games"], k["moves"]

cpu = ""
try:
    with open("/proc/cpuinfo") as f:
        cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
except Exception:
    pass
print()
print(f"machine: {os.cpu_count()} CPUs, {cpu}; {platform.platform()}")
for inp, (nfiles, nbytes) in info.items():
    desc = f"{nfiles} files" if inp == "files" else os.path.basename(big)
    print(f"input {inp}: {desc}, {nbytes / 1e6:.1f} MB")
print()
hdr = ["tool", "input", "-j", "games", "moves", "bad", "seconds", "games/s", "moves/s", "MB/s",
       "files/s", "peak RSS MB", "kifu÷ -j1", "kifu÷ same -j"]
table = [hdr]
for r in rows:
    nfiles, nbytes = info[r["input"]]
    s = max(r["secs"], 0.01)
    g, m = r["games"] or 0, r["moves"] or 0
    k1 = kifu.get((r["input"], 1))
    kj = kifu.get((r["input"], r["jobs"]))
    ok = r["games"] is not None
    rat1 = f"{s / max(k1['secs'], 0.01):.2f}×" if ok and k1 and r["name"] != "kifu" else ""
    ratj = f"{s / max(kj['secs'], 0.01):.2f}×" if ok and kj and r["name"] != "kifu" else ""
    table.append([
        r["name"] + ("" if r["rc"] in (0, 1) and r["games"] is not None else f" FAILED (exit {r['rc']})"), r["input"], str(r["jobs"]),
        str(g), str(m), "" if r["bad"] is None else str(r["bad"]), f"{r['secs']:.2f}",
        f"{g / s:,.0f}", f"{m / s:,.0f}", f"{nbytes / 1e6 / s:,.1f}", f"{nfiles / s:,.0f}",
        f"{r['rss'] / 1024:,.1f}", rat1, ratj,
    ])
widths = [max(len(row[i]) for row in table) for i in range(len(hdr))]
for i, row in enumerate(table):
    print("  ".join(c.ljust(w) if j < 2 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))))
    if i == 0:
        print("  ".join("-" * w for w in widths))
print()
print("kifu÷: seconds of that row ÷ seconds of kifu on the same input (>1: kifu is faster).")
