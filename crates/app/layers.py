#!/usr/bin/env python3
"""Fails when the app core's modules import each other in a cycle, or a module imports one
of a higher layer (ARCHITECTURE.md, "The app core, by layer").

A module is a top-level file or folder of crates/app/src (`slots.rs`, `journal/`); it uses
another module when its code names `crate::<module>` (in `use` lines or paths). Test code
(`tests.rs` files and `#[cfg(test)] mod tests` blocks) is left out: tests may reach anything.
Usage: python3 crates/app/layers.py [--self-test]
"""
import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")

# Bottom to top. A module may use modules of its own layer or below, never above; and no
# cycle, within a layer either.
LAYERS = [
    ("base", ["error", "fsio", "platform"]),
    ("schema and views", ["progress", "views"]),
    ("storage", ["persist", "journal"]),
    ("domain", ["args", "core", "games", "slots", "challenge", "daily", "records", "finish",
                "play", "search", "analysis", "launch", "settings", "pictures", "share",
                "friends", "offload"]),
    ("state and commands", ["state", "commands"]),
]

USE = re.compile(r"\bcrate::(?:\{([^}]*)\}|([a-z_][a-z0-9_]*))")


def strip_tests(text):
    """The text without `#[cfg(test)] mod … { … }` blocks and `#[cfg(test)]` items."""
    out, i = [], 0
    while True:
        j = text.find("#[cfg(test)]", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = text.find("{", j)
        semi = text.find(";", j)
        if semi >= 0 and (k < 0 or semi < k):
            i = semi + 1  # `#[cfg(test)] mod tests;` or a `use`
            continue
        depth, p = 0, k
        while p < len(text):
            if text[p] == "{":
                depth += 1
            elif text[p] == "}":
                depth -= 1
                if depth == 0:
                    break
            p += 1
        i = p + 1


def graph(src):
    mods = {}
    for name in os.listdir(src):
        path = os.path.join(src, name)
        if name.endswith(".rs") and name != "lib.rs":
            mods[name[:-3]] = [path]
        elif os.path.isdir(path):
            files = []
            for root, _, fs in os.walk(path):
                files += [os.path.join(root, f) for f in fs if f.endswith(".rs")]
            mods.setdefault(name, []).extend(files)
    edges = {m: set() for m in mods}
    for m, files in mods.items():
        for f in files:
            if os.path.basename(f) == "tests.rs" or os.sep + "tests" + os.sep in f:
                continue
            text = strip_tests(open(f, encoding="utf-8").read())
            text = re.sub(r"//[^\n]*", "", text)
            for group, single in USE.findall(text):
                names = [single] if single else [
                    g.strip().split("::")[0] for g in group.split(",") if g.strip()]
                for n in names:
                    n = n.strip()
                    if n in mods and n != m:
                        edges[m].add(n)
    return edges


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def problems(edges):
    layer = {}
    for i, (_, ms) in enumerate(LAYERS):
        for m in ms:
            layer[m] = i
    errs = []
    for m in sorted(edges):
        if m not in layer:
            errs.append(f"{m}: not in any layer of crates/app/layers.py (add it where it belongs)")
            continue
        for n in sorted(edges[m]):
            if n in layer and layer[n] > layer[m]:
                errs.append(f"{m} ({LAYERS[layer[m]][0]}) uses {n} ({LAYERS[layer[n]][0]}), a higher layer")
    for c in cycles(edges):
        errs.append("import cycle: " + " -> ".join(c))
    return errs


def self_test():
    ok = {"error": set(), "progress": {"error"}, "state": {"progress", "error"}}
    assert problems(ok) == [], problems(ok)
    up = {"error": {"state"}, "state": set()}
    assert any("higher layer" in e for e in problems(up))
    loop = {"slots": {"records"}, "records": {"slots"}}
    assert any("cycle" in e for e in problems(loop))
    text = "use crate::a;\n#[cfg(test)]\nmod tests {\n use crate::b;\n fn f() { {} }\n}\nuse crate::c;"
    assert "crate::b" not in strip_tests(text) and "crate::c" in strip_tests(text)
    print("layers.py self-test: 3 passed, 0 failed")


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        self_test()
    errs = problems(graph(SRC))
    for e in errs:
        print(e)
    if errs:
        sys.exit(1)
    print(f"app core layers: {len(graph(SRC))} modules, no cycle, no upward import")
