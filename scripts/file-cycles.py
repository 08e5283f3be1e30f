#!/usr/bin/env python3
"""File-level import circles: files that reach each other through
`crate::…` and `super::…` paths (tests left out), for the library (src/)
and the binary (src/bin/kifu/). Prints each circle; exits 1 if any.

    python3 scripts/file-cycles.py
"""
import re, sys, pathlib

def graph(root, skip):
    root = pathlib.Path(root)
    files = [f for f in root.rglob("*.rs") if not any(str(f).startswith(s) for s in skip)]
    mod_of = {}
    for f in files:
        rel = f.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        mod_of[tuple(parts)] = f
    edges = {f: set() for f in files}
    for f in files:
        text = f.read_text(errors="replace").split("#[cfg(test)]")[0]
        text = re.sub(r"//.*", "", text)  # comments and doc comments name paths too
        me = [k for k, v in mod_of.items() if v == f][0]
        parent = me[:-1]  # what `super` names
        paths = [tuple(p.split("::")) for p in re.findall(r"\bcrate::((?:\w+::)*\w+)", text)]
        for p in re.findall(r"\bsuper::((?:\w+::)*\w+)", text):
            paths.append(parent + tuple(p.split("::")))
        # `use super::{a, b}` and `use crate::x::{a, b}` groups
        for base, prefix, group in re.findall(r"\b(crate|super)((?:::\w+)*)::\{([^}]*)\}", text):
            start = () if base == "crate" else parent
            pre = tuple(x for x in prefix.split("::") if x)
            for name in re.findall(r"(\w+)", group):
                if name != "self":
                    paths.append(start + pre + (name,))
        for p in paths:
            for n in range(len(p), 0, -1):
                t = mod_of.get(tuple(p[:n]))
                if t is not None:
                    # a path that stops at a module file (`mod.rs`, which
                    # re-exports) is not a circle between files
                    if t != f and t.stem not in ("mod", "lib", "main"):
                        edges[f].add(t)
                    break
    return edges

def sccs(edges):
    index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)
    def visit(v):
        index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(comp)
    for v in edges:
        if v not in index: visit(v)
    return out

found = 0
for root, skip in (("src", ["src/bin"]), ("src/bin/kifu", [])):
    for comp in sccs(graph(root, skip)):
        # mod.rs files re-export their children: a circle through one is
        # the module tree, not an import circle between siblings
        comp = [c for c in comp if c.stem not in ("mod", "lib", "main")]
        if len(comp) > 1:
            found += 1
            print("circle:", " <-> ".join(sorted(str(c) for c in comp)))
print(f"{found} file circles")
sys.exit(1 if found else 0)
