#!/usr/bin/env python3
"""Function lengths: a brace matcher from each `fn` line to its closing
brace, outside test modules (REVIEW.md's appendix).

    python3 scripts/fn-lengths.py [--min N] [PATH...]   (default: src, 150)

Prints `lines path:line name`, longest first, for functions of N lines or
more, then the count.
"""
import re, sys, pathlib

args = sys.argv[1:]
least = 150
if args[:1] == ["--min"]:
    least = int(args[1]); args = args[2:]
roots = args or ["src"]
fn_re = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"C\"\s+)?fn\s+(\w+)")
found = []
for root in roots:
    p = pathlib.Path(root)
    files = [p] if p.is_file() else sorted(p.rglob("*.rs"))
    for f in files:
        lines = f.read_text(errors="replace").split("\n")
        # cut at the first test module
        for i, l in enumerate(lines):
            if l.strip() == "#[cfg(test)]":
                lines = lines[:i]; break
        i = 0
        while i < len(lines):
            m = fn_re.match(lines[i])
            if not m:
                i += 1; continue
            depth = 0; opened = False; j = i
            while j < len(lines):
                code = re.sub(r'"(?:\\.|[^"\\])*"|//.*$|\'(?:\\.|[^\'\\])\'', "", lines[j])
                for c in code:
                    if c == "{": depth += 1; opened = True
                    elif c == "}": depth -= 1
                if opened and depth <= 0: break
                if not opened and code.rstrip().endswith(";"): break
                j += 1
            n = j - i + 1
            if opened and n >= least:
                found.append((n, f"{f}:{i+1}", m.group(1)))
            i += 1
found.sort(reverse=True)
for n, where, name in found:
    print(f"{n:5} {where} {name}")
print(f"{len(found)} functions of {least} lines or more")
