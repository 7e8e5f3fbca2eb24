#!/usr/bin/env python3
"""The layer guard of the engine, the app core and the UI: fails on an import cycle, on a
module that imports one of a higher layer, and on a module that is in no layer
(ARCHITECTURE.md: the map, "The app core, by layer").

Three parts, each a list of layers (bottom to top) below:
- engine (crates/engine/src), core (crates/app/src) and card (crates/card/src): a module is a top-level file or
  folder; inside each folder module (`klotski/`, `slide/`, `persist/`, ...) its own files and
  folders must not import each other in a cycle either.
- ui (ui/js): a module is one file; it uses the files it imports (static `import`/`export
  … from` and dynamic `import()`).

A Rust module uses another when its code names it by path (`crate::code::Coded`,
`super::solver::solve`, `use board::Board` in a `mod.rs`), or names an item its parent
re-exports from it (`crate::Error` is `error`'s, `super::Board` in `klotski/` is
`klotski/board`'s). Test code (`tests.rs` files, `tests/` folders, `#[cfg(test)]` items) is
left out: tests may reach anything. The crate root (`lib.rs`: the list of games, which
composes every game) is no module.

Usage: python3 crates/app/layers.py [--self-test] [engine|core|card|ui ...]  (default: all four)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Bottom to top. A module may use modules of its own layer or below, never above; and no
# cycle, within a layer either.
ENGINE_LAYERS = [
    ("base", ["error", "rng", "clock"]),
    ("rules", ["game", "budget", "id", "session", "splits"]),
    ("codes", ["code"]),
    ("registry", ["registry"]),
    ("games", ["slide", "klotski", "g2048", "lights"]),
    ("daily and analysis", ["daily", "analysis"]),
]

CORE_LAYERS = [
    ("base", ["error", "fsio", "platform"]),
    ("schema and views", ["progress", "views"]),
    ("storage", ["persist", "journal"]),
    ("domain", ["args", "core", "games", "slots", "challenge", "daily", "records", "finish",
                "play", "search", "search_gate", "times", "analysis", "launch", "settings", "pictures", "share",
                "friends", "offload", "runs", "editor", "ghost", "groups"]),
    ("state and commands", ["state", "commands", "first", "transfer"]),
]

CARD_LAYERS = [
    ("base", ["style", "canvas", "qr", "labels"]),
    ("boards", ["thumb", "game_card"]),
    ("games", ["games"]),
    ("pictures", ["picture"]),
    ("drawing", ["draw"]),
]

UI_LAYERS = [
    ("base", ["dom.js", "i18n.js", "strings16.js", "ipc.js", "platform.js", "queue.js",
              "feedback.js", "nav.js"]),
    ("data", ["picture.js", "challenge.js", "friends.js", "screens/records.js", "a11y.js",
              "a11y.strings.js"]),
    ("boards", ["boards/*"]),
    ("screens", ["screens/*", "analysis.js", "storage-banner.js"]),
    ("app", ["main.js"]),
]

PARTS = {
    "engine": ("crates/engine/src", ENGINE_LAYERS),
    "core": ("crates/app/src", CORE_LAYERS),
    "card": ("crates/card/src", CARD_LAYERS),
    "ui": ("ui/js", UI_LAYERS),
}


# ----------------------------------------------------------------------------------------
# Rust
# ----------------------------------------------------------------------------------------

def strip_comments_and_strings(text):
    """The code without comments, string and char literals (each becomes a space)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 260]) and (i == 0 or not (
                text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append(" ")
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append(" ")
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}'), or a lifetime ('a) which stays.
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:i + 12])
            if m:
                i += len(m.group(0))
                out.append(" ")
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_tests(text):
    """The text without `#[cfg(test)]` items (`mod tests { … }`, `fn …;`, `use …;`)."""
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
            i = semi + 1
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


IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse_tree(text, i):
    """The paths of the use tree (or plain path) at `i`: a list of segment lists."""
    def skip(i):
        while i < len(text) and text[i].isspace():
            i += 1
        return i

    def tree(i, prefix):
        i = skip(i)
        if text.startswith("{", i):
            paths, i = [], i + 1
            while True:
                i = skip(i)
                if text.startswith("}", i):
                    return paths, i + 1
                sub, i = tree(i, prefix)
                paths += sub
                i = skip(i)
                if text.startswith(",", i):
                    i += 1
            # unreachable
        if text.startswith("*", i):
            return [prefix + ["*"]], i + 1
        m = IDENT.match(text, i)
        if not m:
            return [prefix], i
        seg, i = m.group(0), m.end()
        j = skip(i)
        if text.startswith("::", j) and not text.startswith("::<", j):
            return tree(j + 2, prefix + [seg])
        return [prefix + [seg]], i

    return tree(i, [])[0]


TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;")
START = re.compile(r"(?<![A-Za-z0-9_])(\$?crate|super|self)\s*::")
# `use child::…` / `pub use child::…` in a lib.rs or mod.rs: a path from the module itself.
PLAIN_USE = re.compile(r"(?<![A-Za-z0-9_:])use\s+([A-Za-z_][A-Za-z0-9_]*)\s*::")


def rust_paths(text, me, is_root):
    """Absolute module paths (segment lists) the code of module `me` names."""
    out = []
    for m in START.finditer(text):
        for p in parse_tree(text, m.start() + (1 if text[m.start()] == "$" else 0)):
            out.append(p)
    if is_root:
        for m in PLAIN_USE.finditer(text):
            if m.group(1) not in ("crate", "super", "self", "std", "core", "alloc"):
                for p in parse_tree(text, m.start(1)):
                    out.append(["self"] + p)
    resolved = []
    for p in out:
        base = list(me)
        segs = list(p)
        if segs and segs[0] in ("crate", "$crate"):
            base, segs = [], segs[1:]
        while segs and segs[0] in ("self", "super"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
        if segs and segs[-1] == "self":
            segs = segs[:-1]
        resolved.append(base + segs)
    return resolved


def rust_files(src):
    """(module path, file, is_root) of every non-test file under `src`."""
    out = []
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "tests"]
        rel = os.path.relpath(root, src)
        folder = [] if rel == "." else rel.split(os.sep)
        for f in files:
            if not f.endswith(".rs") or f == "tests.rs":
                continue
            if f in ("lib.rs", "main.rs") and not folder:
                out.append(([], os.path.join(root, f), True))
            elif f == "mod.rs":
                out.append((folder, os.path.join(root, f), True))
            else:
                out.append((folder + [f[:-3]], os.path.join(root, f), False))
    return out


def reexports(text):
    """Names a root file re-exports from its children: {name: child}."""
    names = {}
    for m in re.finditer(r"\bpub(?:\([a-z]+\))?\s+use\s+", text):
        for p in parse_tree(text, m.end()):
            p = [s for s in p if s != "self"]
            if len(p) >= 2 and p[0] not in ("crate", "super", "std"):
                names[p[-1]] = p[0]
    return names


ROOT_ITEM = re.compile(
    r"^[ \t]*(?:pub(?:\([a-z]+\))?\s+)?(?:struct|enum|fn|const|static|type|trait|union)\s+"
    r"([A-Za-z_][A-Za-z0-9_]*)", re.M)


def root_uses(src):
    """Modules that name an item the crate root defines itself (not a re-export): the root
    composes the modules, so such a use is an import upward, and a cycle through the root."""
    files = rust_files(src)
    root_text = next((open(p, encoding="utf-8").read() for me, p, r in files if r and not me), "")
    items = set(ROOT_ITEM.findall(strip_tests(strip_comments_and_strings(root_text))))
    errs = []
    for me, path, is_root in files:
        if not me:
            continue
        text = strip_tests(strip_comments_and_strings(open(path, encoding="utf-8").read()))
        named = {t[0] for t in rust_paths(text, me, is_root) if t and t[0] in items}
        for n in sorted(named):
            errs.append(f"{'/'.join(me)} uses {n}, which the crate root (lib.rs) defines: "
                        "the root only composes; define it in a module")
    return errs


def rust_graphs(src):
    """The graph of the top-level modules, and one per folder module of its children."""
    files = rust_files(src)
    texts, test_mods = {}, []
    for me, path, is_root in files:
        raw = strip_comments_and_strings(open(path, encoding="utf-8").read())
        if is_root:
            # `#[cfg(test)] mod golden;`: that file is test code.
            test_mods += [me + [m] for m in TEST_MOD.findall(raw)]
        texts[path] = strip_tests(raw)
    files = [f for f in files if not any(f[0][:len(t)] == t for t in test_mods)]
    # The children of each folder (module path tuple) and the root files' re-exports.
    children, exports = {}, {}
    for me, path, is_root in files:
        if is_root:
            exports[tuple(me)] = reexports(texts[path])
        # Every level along the path (a folder module declared inline, `mod games { … }`,
        # has no file of its own).
        for d in range(len(me)):
            children.setdefault(tuple(me[:d]), set()).add(me[d])
    graphs = {(): {m: set() for m in children.get((), set())}}
    for folder in children:
        if folder:
            graphs[folder] = {m: set() for m in children[folder]}
    for me, path, is_root in files:
        for target in rust_paths(texts[path], me, is_root):
            # Every folder level along the way: the edge between the two siblings there.
            for depth in range(0, min(len(me), len(target) + 1)):
                folder = tuple(me[:depth])
                if tuple(target[:depth]) != folder or folder not in graphs:
                    continue
                src_child = me[depth]
                if depth < len(target):
                    dst = target[depth]
                    if dst not in graphs[folder]:
                        dst = exports.get(folder, {}).get(dst)
                else:
                    dst = None
                if dst and dst != src_child and dst in graphs[folder]:
                    graphs[folder][src_child].add(dst)
    return graphs


# ----------------------------------------------------------------------------------------
# JavaScript
# ----------------------------------------------------------------------------------------

JS_IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]"""
    r"""|(?:^|[;\s])import\s*['"]([^'"]+)['"]"""
    r"""|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)""", re.S)


def js_graph(src):
    mods = {}
    for root, _, fs in os.walk(src):
        for f in fs:
            if f.endswith(".js"):
                path = os.path.join(root, f)
                mods[os.path.relpath(path, src).replace(os.sep, "/")] = path
    edges = {m: set() for m in mods}
    for m, path in mods.items():
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"(?m)^\s*//[^\n]*", " ", text)
        for groups in JS_IMPORT.findall(text):
            spec = next(g for g in groups if g)
            if not spec.startswith("."):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(m), spec)).replace(os.sep, "/")
            if target in mods and target != m:
                edges[m].add(target)
    return edges


# ----------------------------------------------------------------------------------------
# Checks
# ----------------------------------------------------------------------------------------

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


def layer_of(layers, m):
    for i, (_, ms) in enumerate(layers):
        for pattern in ms:
            if pattern == m or (pattern.endswith("/*") and m.startswith(pattern[:-1])
                                and pattern != m):
                # An exact name wins over a folder pattern.
                exact = [j for j, (_, ns) in enumerate(layers) if m in ns]
                return exact[0] if exact else i
    return None


def problems(edges, layers=None, where=""):
    errs = []
    if layers is not None:
        for m in sorted(edges):
            lm = layer_of(layers, m)
            if lm is None:
                errs.append(f"{where}{m}: not in any layer of crates/app/layers.py (add it where it belongs)")
                continue
            for n in sorted(edges[m]):
                ln = layer_of(layers, n)
                if ln is not None and ln > lm:
                    errs.append(f"{where}{m} ({layers[lm][0]}) uses {n} ({layers[ln][0]}), a higher layer")
    for c in cycles(edges):
        errs.append(f"{where}import cycle: " + " -> ".join(c))
    return errs


def check(part):
    src, layers = PARTS[part]
    src = os.path.join(ROOT, src)
    if part == "ui":
        g = js_graph(src)
        return problems(g, layers), f"{len(g)} files"
    graphs = rust_graphs(src)
    errs = problems(graphs[()], layers) + root_uses(src)
    for folder in sorted(graphs):
        if folder:
            errs += problems(graphs[folder], None, "/".join(folder) + "/: ")
    inner = sum(len(g) for f, g in graphs.items() if f)
    return errs, f"{len(graphs[()])} modules, {inner} inside folders"


def self_test():
    passed = 0
    ok = {"error": set(), "progress": {"error"}, "state": {"progress", "error"}}
    assert problems(ok, CORE_LAYERS) == [], problems(ok, CORE_LAYERS)
    passed += 1
    up = {"error": {"state"}, "state": set()}
    assert any("higher layer" in e for e in problems(up, CORE_LAYERS))
    passed += 1
    loop = {"slots": {"records"}, "records": {"slots"}}
    assert any("cycle" in e for e in problems(loop, CORE_LAYERS))
    passed += 1
    assert any("not in any layer" in e for e in problems({"nowhere": set()}, CORE_LAYERS))
    passed += 1
    text = "use crate::a;\n#[cfg(test)]\nmod tests {\n use crate::b;\n fn f() { {} }\n}\nuse crate::c;"
    assert "crate::b" not in strip_tests(text) and "crate::c" in strip_tests(text)
    passed += 1
    # Comments, strings and chars name nothing; lifetimes stay code.
    code = strip_comments_and_strings(
        "// crate::x\nlet s = \"crate::y\"; let r = r#\"crate::z\"#; let c = '{'; fn f<'a>() {}\n/* crate::w */")
    assert "crate::" not in code and "<'a>" in code and "{" not in code.split("fn")[0], code
    passed += 1
    # Use trees, nested groups, super and self, and re-exports.
    paths = rust_paths("use crate::{code::{self, Coded}, daily::Daily};\nlet s = super::solver::x();",
                       ["klotski", "board"], False)
    assert ["code"] in paths and ["code", "Coded"] in paths and ["daily", "Daily"] in paths, paths
    assert ["klotski", "solver", "x"] in paths, paths
    assert reexports("pub use board::{Board, Piece};\npub(crate) use solver::solve;") == {
        "Board": "board", "Piece": "board", "solve": "solver"}
    passed += 1
    # The UI's imports: static, re-exports and dynamic; comments name nothing.
    js = ("import { a } from './a.js';\nexport { s } from \"./s.js\";\n"
          "// import { z } from './z.js';\nconst m = await import('./m.js');\nimport './side.js';\n")
    found = [next(g for g in groups if g) for groups in JS_IMPORT.findall(
        re.sub(r"(?m)^\s*//[^\n]*", " ", js))]
    assert found == ["./a.js", "./s.js", "./m.js", "./side.js"], found
    passed += 1
    # A crate on disk: a cycle inside a folder (through a re-export too), a test-only file left out.
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        files = {
            "lib.rs": "mod a;\nmod b;\n",
            "a/mod.rs": "mod x;\nmod y;\n#[cfg(test)]\nmod golden;\npub use y::Thing;\n",
            "a/x.rs": "use super::Thing;\n",
            "a/y.rs": "pub struct Thing;\nfn f() { super::x::g() }\n",
            "a/golden.rs": "use crate::b::B;\n",
            "b.rs": "pub struct B;\n",
        }
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            open(os.path.join(d, name), "w").write(text)
        g = rust_graphs(d)
        assert g[()] == {"a": set(), "b": set()}, g
        assert g[("a",)] == {"x": {"y"}, "y": {"x"}}, g
        assert any("cycle" in e for e in problems(g[("a",)]))
    passed += 1
    # A folder pattern holds the files below it; an exact name in another layer wins.
    assert layer_of(UI_LAYERS, "boards/slide.js") == 2
    assert layer_of(UI_LAYERS, "screens/records.js") == 1
    assert layer_of(UI_LAYERS, "screens/home.js") == 3
    passed += 1
    # An item the crate root defines, named by a module, is an upward use; a re-export is not;
    # a folder declared inline in the root (`mod games { pub mod a; }`) is a module.
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "games"))
        open(os.path.join(d, "lib.rs"), "w").write(
            "mod a;\nmod games { pub mod g; }\npub use a::Lang;\npub struct Theme;\n")
        open(os.path.join(d, "a.rs"), "w").write("pub enum Lang { Zh }\n")
        open(os.path.join(d, "games", "g.rs"), "w").write("use crate::{Lang, Theme};\n")
        errs = root_uses(d)
        assert len(errs) == 1 and "games/g uses Theme" in errs[0], errs
        assert rust_graphs(d)[()]["games"] == {"a"}, rust_graphs(d)
    passed += 1
    print(f"layers.py self-test: {passed} passed, 0 failed")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--self-test" in sys.argv:
        self_test()
    failed = False
    for part in args or ["engine", "core", "card", "ui"]:
        errs, size = check(part)
        for e in errs:
            print(f"{part}: {e}")
        if errs:
            failed = True
        else:
            print(f"{part} layers: {size}, no cycle, no upward import")
    sys.exit(1 if failed else 0)
