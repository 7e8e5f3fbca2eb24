#!/usr/bin/env python3
"""The documents' checker (issue 37): the front page and the map stay short, and every link
between the documents resolves.

For README.md, ARCHITECTURE.md and docs/*.md (and the links of every other markdown file of the
repository: the crates' and folders' READMEs):
- README.md is at most 12,288 bytes and ARCHITECTURE.md at most 15,360 (the deep dives and the
  full tables live in docs/);
- every relative link target exists (a file or a folder of the repository, never outside it);
- every `#anchor`, into the same file or into another markdown file, names one of its headings
  (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens, `-1`, `-2`, ... for
  repeats) or an explicit `id`/`name`;
- every image exists and is a file.
Links inside code (fenced blocks, `code spans`) are not links. Absolute URLs are not fetched.

Usage: python3 tests/docs/check.py [--self-test] [--root DIR]
"""
import os
import re
import sys
import tempfile
import unicodedata
from urllib.parse import unquote

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# "≤ 12 KB" and "≤ 15 KB" read the strict way: thousands of bytes.
LIMITS = {"README.md": 12_000, "ARCHITECTURE.md": 15_000}

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# [text](target "title") and ![alt](target); the text may hold one level of brackets
# (an image inside a link).
INLINE = re.compile(
    r"(!?)\[((?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*)\]"
    r"\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)")
HTML_ATTR = re.compile(r"<(img|a)\b[^>]*?\b(src|href)\s*=\s*(\"[^\"]*\"|'[^']*')", re.I)
HTML_ID = re.compile(r"<[a-z][^>]*?\b(?:id|name)\s*=\s*(\"[^\"]*\"|'[^']*')", re.I)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


SKIP_DIRS = {"target", "node_modules", "dist", "gen"}


def documents(root):
    """The checked files, relative to root, in a stable order: README.md, ARCHITECTURE.md,
    docs/*.md, then every other markdown file of the repository (the crates' and folders'
    READMEs; not in build output, dependencies, generated projects or hidden folders)."""
    names = [n for n in ("README.md", "ARCHITECTURE.md") if os.path.isfile(os.path.join(root, n))]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        names += sorted("docs/" + n for n in os.listdir(docs) if n.endswith(".md"))
    others = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
        for n in files:
            rel = os.path.relpath(os.path.join(folder, n), root).replace(os.sep, "/")
            if n.endswith(".md") and rel not in names:
                others.append(rel)
    return names + sorted(others)


def strip_code(lines):
    """Each line with fenced code blanked and code spans removed (their text stays out of
    links); the fence state is followed across lines."""
    out, fence = [], None
    for line in lines:
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip().strip(fence[0]):
                fence = None
            out.append("")
            continue
        if m:
            fence = m.group(1)
            out.append("")
            continue
        out.append(re.sub(r"(`+)(.+?)\1", lambda s: "\0" * len(s.group(0)), line))
    return out


def heading_text(raw):
    """The text GitHub renders for a heading's markdown (what its slug is made from)."""
    t = re.sub(r"(`+)(.+?)\1", lambda m: m.group(2).strip(), raw)
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", t)  # links and images: their text
    t = re.sub(r"<[^>]+>", "", t)  # inline HTML tags
    t = re.sub(r"(\*\*|__|\*|_|~~)(?=\S)(.+?)(?<=\S)\1", r"\2", t)  # emphasis
    return t.strip()


def slug(text):
    """GitHub's anchor for a heading text: lower case; letters, marks, digits, `_`, `-` and
    spaces kept, every other character dropped; each space a hyphen."""
    kept = []
    for ch in text.lower():
        cat = unicodedata.category(ch)
        if ch in " -" or cat[0] in "LMN" or cat == "Pc":
            kept.append("-" if ch == " " else ch)
    return "".join(kept)


def anchors(text):
    """Every anchor a markdown text defines: its headings' slugs (repeats numbered as GitHub
    does) and explicit HTML ids and names."""
    lines = text.split("\n")
    plain, found, seen = strip_code(lines), set(), {}
    fence_free = [(raw, p) for raw, p in zip(lines, plain)]
    for i, (raw, p) in enumerate(fence_free):
        if not p and raw:  # inside a fence
            continue
        m = ATX.match(raw)
        title = None
        if m:
            title = m.group(2) or ""
        elif i > 0 and SETEXT.match(raw) and fence_free[i - 1][1].strip() \
                and not ATX.match(fence_free[i - 1][0]) \
                and not fence_free[i - 1][0].lstrip().startswith(("|", "-", "*", ">")):
            title = fence_free[i - 1][0].strip()
        if title is not None:
            base = slug(heading_text(title))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        for m in HTML_ID.finditer(p):
            found.add(m.group(1)[1:-1])
    return found


def links(text):
    """(line number, is image, target) of every link and image outside code."""
    out = []
    for no, line in enumerate(strip_code(text.split("\n")), 1):
        for m in INLINE.finditer(line):
            out.append((no, m.group(1) == "!", m.group(3)))
            # an image inside the link's text
            for inner in INLINE.finditer(m.group(2)):
                out.append((no, inner.group(1) == "!", inner.group(3)))
        m = REFDEF.match(line)
        if m:
            out.append((no, False, m.group(2)))
        for m in HTML_ATTR.finditer(line):
            out.append((no, m.group(1).lower() == "img", m.group(3)[1:-1]))
    return [(no, img, t[1:-1] if t.startswith("<") and t.endswith(">") else t)
            for no, img, t in out]


def check(root):
    """The problems found under root (empty when all is well), and a summary line."""
    root = os.path.realpath(root)
    problems, counts = [], {"links": 0, "anchors": 0, "images": 0}
    cache = {}

    def anchors_of(path):
        if path not in cache:
            with open(path, encoding="utf-8") as f:
                cache[path] = anchors(f.read())
        return cache[path]

    names = documents(root)
    for name, limit in LIMITS.items():
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            problems.append(f"{name}: missing")
            continue
        size = os.path.getsize(path)
        if size > limit:
            problems.append(f"{name}: {size:,} bytes, more than its {limit:,} (move detail to docs/)")
    for name in names:
        path = os.path.join(root, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        here = os.path.dirname(path)
        for no, image, target in links(text):
            where = f"{name}:{no}"
            if not target:
                problems.append(f"{where}: an empty link")
                continue
            if SCHEME.match(target) or target.startswith("//"):
                continue  # an absolute URL: not fetched
            file_part, _, anchor = target.partition("#")
            file_part = unquote(file_part.split("?", 1)[0])
            dest = os.path.realpath(os.path.join(here, file_part)) if file_part else path
            if not (dest == root or dest.startswith(root + os.sep)):
                problems.append(f"{where}: {target} points outside the repository")
                continue
            if image:
                counts["images"] += 1
                if not os.path.isfile(dest):
                    problems.append(f"{where}: image {target} does not exist")
                continue
            counts["links"] += 1
            if not os.path.exists(dest):
                problems.append(f"{where}: {target} does not exist")
                continue
            if anchor:
                counts["anchors"] += 1
                if os.path.isdir(dest) or not dest.endswith((".md", ".markdown")):
                    problems.append(f"{where}: {target}: an anchor into a file that is no markdown")
                elif unquote(anchor) not in anchors_of(dest):
                    rel = os.path.relpath(dest, root)
                    problems.append(f"{where}: {target}: {rel} has no heading #{anchor}")
    sizes = ", ".join(
        f"{n} {os.path.getsize(os.path.join(root, n)):,} ≤ {lim:,} bytes"
        for n, lim in LIMITS.items() if os.path.isfile(os.path.join(root, n)))
    summary = (f"{len(names)} documents: {counts['links']} links ({counts['anchors']} with anchors), "
               f"{counts['images']} images; {sizes}")
    return problems, summary


def self_test():
    """The checker on made-up documents in a temp folder: all pass, then each breakage is caught."""
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    # slugs as GitHub makes them
    for heading, want in [
        ("The web shell (`web/`, `crates/web/`, `ui/js/ipc.js`)", "the-web-shell-web-cratesweb-uijsipcjs"),
        ("A finish's record waits for the journal", "a-finishs-record-waits-for-the-journal"),
        ("The 4×4 pattern tables", "the-44-pattern-tables"),
        ("Install on your phone", "install-on-your-phone"),
        ("**Bold** and [a link](x.md) -- done", "bold-and-a-link----done"),
        ("华容道 Klotski", "华容道-klotski"),
        ("snake_case  two spaces", "snake_case--two-spaces"),
    ]:
        got = slug(heading_text(heading))
        expect(got == want, f"slug of {heading!r} is {got!r}, want {want!r}")
    got = anchors("# Notes\n\n## Notes\n\n```\n# not a heading\n```\n\nSetext\n------\n"
                  "<a id=\"here\"></a>\n")
    expect(got == {"notes", "notes-1", "setext", "here"}, f"anchors {sorted(got)}")

    good = {
        "README.md": "# Top\n\n![shot](pics/a.png) [map](ARCHITECTURE.md#the-map) "
                     "[deep](docs/deep.md#a-finishs-record) [site](https://example.com/x.md) "
                     "[self](#top)\n\n`[not a link](nowhere.md)`\n\n```\n[nor this](gone.md)\n```\n",
        "ARCHITECTURE.md": "# Architecture\n\n## The map\n\n[back](README.md) "
                           "[folder](pics/) [ref]\n\n[ref]: docs/deep.md\n",
        "docs/deep.md": "# Deep\n\n## A finish's record\n\n[up](../README.md#top) "
                        "[again](deep.md#deep) [<b>x</b>](#a-finishs-record)\n",
        "pics/a.png": "png",
        "crates/x/README.md": "# X\n\n[the map](../../ARCHITECTURE.md#the-map)\n",
        "target/junk/README.md": "[build output is not checked](nowhere.md)\n",
    }
    breakages = [
        ("a link to a missing file", "docs/deep.md", "[up](../README.md#top)", "[up](../READ.md#top)",
         "../READ.md#top does not exist"),
        ("an anchor that names no heading", "README.md", "ARCHITECTURE.md#the-map",
         "ARCHITECTURE.md#the-mop", "has no heading #the-mop"),
        ("an anchor into the same file", "README.md", "[self](#top)", "[self](#bottom)",
         "has no heading #bottom"),
        ("a reference-style link", "ARCHITECTURE.md", "[ref]: docs/deep.md", "[ref]: docs/shallow.md",
         "docs/shallow.md does not exist"),
        ("a crate README's stale anchor", "crates/x/README.md", "#the-map", "#the-old-map",
         "crates/x/README.md:3: ../../ARCHITECTURE.md#the-old-map"),
        ("a missing image", "README.md", "pics/a.png", "pics/b.png", "image pics/b.png does not exist"),
        ("a link out of the repository", "ARCHITECTURE.md", "[back](README.md)",
         "[back](../../etc/passwd)", "points outside the repository"),
        ("an oversize README", "README.md", "# Top\n", "# Top\n" + "x" * 12_000 + "\n",
         "README.md: 12,"),
        ("an oversize ARCHITECTURE", "ARCHITECTURE.md", "# Architecture\n",
         "# Architecture\n" + "y" * 15_000 + "\n", "ARCHITECTURE.md: 15,"),
    ]
    with tempfile.TemporaryDirectory(prefix="huarong-docs-check-") as tmp:
        def write(files):
            for rel, body in files.items():
                p = os.path.join(tmp, rel)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w", encoding="utf-8") as f:
                    f.write(body)

        write(good)
        problems, summary = check(tmp)
        expect(not problems, f"the good documents fail: {problems}")
        expect("4 documents: 10 links (7 with anchors), 1 images" in summary, f"counted: {summary}")
        for what, rel, old, new, message in breakages:
            assert old in good[rel], what
            write({rel: good[rel].replace(old, new, 1)})
            problems, _ = check(tmp)
            expect(any(message in p for p in problems),
                   f"{what} is not caught (wanted {message!r}, got {problems})")
            write({rel: good[rel]})
        problems, _ = check(tmp)
        expect(not problems, f"the restored documents fail: {problems}")
    for f in failures:
        print(f"self-test: {f}", file=sys.stderr)
    if not failures:
        print(f"docs check self-test: {len(breakages)} breakages caught, slugs as GitHub's")
    return 1 if failures else 0


def main(argv):
    root = ROOT
    if "--root" in argv:
        root = argv[argv.index("--root") + 1]
    if "--self-test" in argv:
        return self_test()
    problems, summary = check(root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"docs check: {len(problems)} problems", file=sys.stderr)
        return 1
    print(f"docs check: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
