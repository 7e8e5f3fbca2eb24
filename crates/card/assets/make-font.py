#!/usr/bin/env python3
"""Build the card's font subsets from Noto Sans CJK SC and Noto Serif CJK SC (SIL OFL 1.1).

How the shipped files were made (run from the repository root):

    apt-get install fonts-noto-cjk          # Debian: /usr/share/fonts/opentype/noto/
    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools==4.68.0
    /tmp/ft/bin/python crates/card/assets/make-font.py

The sans glyph list (Regular and Bold) is every character the card can print:
  * printable ASCII (digits, Latin, punctuation) and a few typographic marks;
  * every non-ASCII character in the string literals of the card's source
    (crates/card/src/**.rs: all its labels);
  * the same of the Klotski module's source (the 40 classic names are level data there, and
    the pieces' names are in its view.rs);
  * the same of the built-in pictures' titles (crates/engine/src/slide/pictures.rs).
Files under a `tests` folder and files named `*tests.rs` are not read: their strings never
reach a card.
The bold face also holds Latin-1 and Latin Extended-A (what Noto has of them), for players'
names. HuarongCard-Names.otf (bold) holds the rest of what a name may be written in (the
headline prints the name from the settings): Greek, Cyrillic, kana and the 3,755 common
hanzi of GB 2312 level 1 (enumerated with Python's gb2312 codec, no list to fetch), less
what the bold face has; about 0.8 MB, so it is compiled in only with the card crate's
`embedded-name-font` feature (the web build leaves it out of its first load). A name with a
letter outside the faces goes on the card without the name (crates/card/src/lib.rs,
`writable_name`).
The serif subset (Bold only) holds the Chinese names written on Klotski pieces: every CJK
character in the string literals of crates/engine/src/klotski/view.rs and
crates/card/src/games/klotski.rs. Comments are skipped (nothing in them reaches the card).

Everything it needs is in this repository. It fails (exit status 1, nothing written) when a
source it reads is missing or when a Noto font lacks a character of its list, so a character
is never dropped silently. Re-run it whenever a label, a level name or a piece name changes;
the test `font_covers_every_label` fails if a character the card prints is missing.

Output: HuarongCard-Regular.otf, HuarongCard-Bold.otf, HuarongCard-Names.otf and
HuarongCard-SerifBold.otf (CFF
outlines, no hinting, no layout features), renamed "Huarong Card Sans" / "Huarong Card
Serif" as Modified Versions under the OFL, and glyphs.txt (the sans list).
"""

import pathlib
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = pathlib.Path(__file__).resolve().parents[3]
ASSETS = pathlib.Path(__file__).resolve().parent
NOTO = pathlib.Path("/usr/share/fonts/opentype/noto")
SC_INDEX = 2  # face 2 of NotoSansCJK-*.ttc and NotoSerifCJK-*.ttc is the SC one

EXTRA = "×–—·…：，。、！？（）《》“”‘’★☆№→←↑↓"

# What each subset reads: (path relative to the repository root, whether it is a folder).
SANS_SOURCES = [
    ("crates/card/src", True),
    ("crates/engine/src/klotski", True),
    ("crates/engine/src/slide/pictures.rs", False),
]
SERIF_SOURCES = [
    ("crates/engine/src/klotski/view.rs", False),
    ("crates/card/src/games/klotski.rs", False),
]


class Missing(Exception):
    pass


def files(sources):
    out = []
    for rel, folder in sources:
        path = ROOT / rel
        if folder:
            if not path.is_dir():
                raise Missing(f"the folder {rel} is missing")
            found = sorted(
                p
                for p in path.rglob("*.rs")
                if p.is_file() and not is_test(p.relative_to(path))
            )
            if not found:
                raise Missing(f"the folder {rel} has no .rs file")
            out += found
        else:
            if not path.is_file():
                raise Missing(f"the file {rel} is missing")
            out.append(path)
    return out


def is_test(rel):
    """Test sources: their strings (sample names, bad input) never reach a card."""
    return "tests" in rel.parts[:-1] or rel.name.endswith("tests.rs")


def literals(text):
    """The contents of the string and char literals of Rust source `text` (comments skipped:
    only literals can reach the card)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        c = text[i]
        word_start = i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        raw = re.match(r'b?r(#*)"', text[i:]) if c in "rb" and word_start else None
        if raw:
            close = '"' + raw.group(1)
            start = i + raw.end()
            end = text.find(close, start)
            end = n if end < 0 else end
            out.append(text[start:end])
            i = end + len(close)
            continue
        if c == '"':
            j, buf = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            out.append("".join(buf))
            i = j + 1
            continue
        if c == "'":
            m = re.match(r"'(\\.|[^\\'])'", text[i:])
            if m:
                out.append(m.group(1))
                i += m.end()
                continue
        i += 1
    return out


def non_ascii(paths):
    chars = set()
    for path in paths:
        for lit in literals(path.read_text(encoding="utf-8")):
            chars.update(ch for ch in lit if ord(ch) > 0x7F and ch.isprintable())
    return chars


def sans_characters():
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars.update(EXTRA)
    chars.update(non_ascii(files(SANS_SOURCES)))
    return "".join(sorted(chars))


def gb2312_level1():
    """The 3,755 hanzi of GB 2312 level 1 (rows 16-55), in code order."""
    out = []
    for hi in range(0xB0, 0xD8):
        for lo in range(0xA1, 0xFF):
            try:
                out.append(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return out


def printable(ranges):
    chars = {chr(c) for lo, hi in ranges for c in range(lo, hi + 1)}
    return {ch for ch in chars if ch.isprintable() and not ch.isspace()}


LATIN_RANGES = [(0xA0, 0x17F)]
NAME_RANGES = [(0x370, 0x3FF), (0x400, 0x45F), (0x3041, 0x3096), (0x30A1, 0x30FA)]


def name_characters():
    """What a name may be written in beyond the bold face (see the module's documentation)."""
    return printable(NAME_RANGES) | set(gb2312_level1())


def serif_characters():
    chars = {ch for ch in non_ascii(files(SERIF_SOURCES)) if ord(ch) >= 0x3400}
    return "".join(sorted(chars))


def source_font(family, weight):
    path = NOTO / f"Noto{family}CJK-{weight}.ttc"
    if not path.is_file():
        raise Missing(f"{path} is missing (apt-get install fonts-noto-cjk)")
    return TTCollection(str(path)).fonts[SC_INDEX]


def build(family, weight, chars, optional="", tag=""):
    """The subset of `chars` (every one required) and of `optional` (those the font has)."""
    font = source_font(family, weight)
    cmap = font.getBestCmap()
    lacking = [ch for ch in chars if ord(ch) not in cmap]
    chars = chars + "".join(sorted(ch for ch in set(optional) - set(chars) if ord(ch) in cmap))
    if lacking:
        raise Missing(
            f"Noto {family} CJK SC {weight} lacks {''.join(lacking)!r} "
            f"({', '.join(f'U+{ord(c):04X}' for c in lacking)})"
        )
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    options.glyph_names = False
    sub = subset.Subsetter(options)
    sub.populate(text=chars)
    sub.subset(font)
    kept = font.getBestCmap()
    dropped = [ch for ch in chars if ord(ch) not in kept]
    if dropped:
        raise Missing(f"the subset dropped {''.join(dropped)!r}")
    name = font["name"]
    family_name = f"Huarong Card {family}" + (f" {tag}" if tag else "")
    ps = f"HuarongCard{family}{tag}-{weight}"
    for record in name.names:
        if record.nameID in (1, 4):
            record.string = family_name if weight == "Regular" else f"{family_name} {weight}"
            if record.nameID == 1 and weight != "Regular":
                record.string = family_name
        elif record.nameID == 3:
            record.string = f"{ps};subset of Noto {family} CJK SC"
        elif record.nameID == 6:
            record.string = ps
    if "CFF " in font:
        font["CFF "].cff.fontNames = [ps]
    # Keep the source's timestamps: the same lists give the same bytes on every run.
    font.recalcTimestamp = False
    return font


def main():
    try:
        sans = sans_characters()
        serif = serif_characters()
        latin = "".join(sorted(printable(LATIN_RANGES)))
        bold = build("Sans", "Bold", sans, latin)
        in_bold = set(chr(c) for c in bold.getBestCmap())
        names = "".join(sorted(name_characters() - in_bold))
        outputs = [
            ("HuarongCard-Regular.otf", build("Sans", "Regular", sans), sans),
            ("HuarongCard-Bold.otf", bold, sans),
            ("HuarongCard-Names.otf", build("Sans", "Bold", "", names, tag="Names"), names),
            ("HuarongCard-SerifBold.otf", build("Serif", "Bold", serif), serif),
        ]
    except Missing as e:
        print(f"make-font.py: {e}; nothing written", file=sys.stderr)
        return 1
    (ASSETS / "glyphs.txt").write_text(sans + "\n", encoding="utf-8")
    for file, font, chars in outputs:
        font.save(str(ASSETS / file))
        size = (ASSETS / file).stat().st_size
        print(f"{file}: {size} bytes, {len(font.getBestCmap())} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
