#!/usr/bin/env python3
"""Build the card's font subsets from Noto Sans CJK SC (SIL OFL 1.1).

How the shipped files were made (run from the repository root):

    apt-get install fonts-noto-cjk          # Debian: /usr/share/fonts/opentype/noto/
    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools
    /tmp/ft/bin/python crates/card/assets/make-font.py

The glyph list is every character the card can print:
  * printable ASCII (digits, Latin, punctuation) and a few typographic marks;
  * every non-ASCII character in the card's source (crates/card/src/**.rs: all its labels);
  * every non-ASCII character in the Klotski module's source (the 40 classic names are
    level data there) and, when present, in ../shared/data/klotski-classic.tsv;
  * every non-ASCII character of the built-in pictures' titles (crates/engine/src/slide/pictures.rs).
Re-run it whenever a label or a level name changes; the test `font_covers_every_label`
fails if a character the card prints is missing.

Output: HuarongCard-Regular.otf and HuarongCard-Bold.otf (CFF outlines, no hinting, no
layout features), renamed "Huarong Card Sans" as a Modified Version under the OFL.
"""

import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = pathlib.Path(__file__).resolve().parents[3]
ASSETS = pathlib.Path(__file__).resolve().parent
NOTO = pathlib.Path("/usr/share/fonts/opentype/noto")
SC_INDEX = 2  # face 2 of NotoSansCJK-*.ttc is "Noto Sans CJK SC"

EXTRA = "×–—·…：，。、！？（）《》“”‘’★☆№→←↑↓"


def characters():
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars.update(EXTRA)
    sources = list((ROOT / "crates/card/src").rglob("*.rs"))
    sources += list((ROOT / "crates/engine/src/klotski").rglob("*"))
    sources.append(ROOT / "crates/engine/src/slide/pictures.rs")
    tsv = ROOT.parent / "shared/data/klotski-classic.tsv"
    if tsv.exists():
        sources.append(tsv)
    for path in sources:
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="ignore")
            chars.update(ch for ch in text if ord(ch) > 0x7F and ch.isprintable())
    return "".join(sorted(chars))


def build(weight, chars):
    collection = TTCollection(str(NOTO / f"NotoSansCJK-{weight}.ttc"))
    font = collection.fonts[SC_INDEX]
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    options.glyph_names = False
    sub = subset.Subsetter(options)
    sub.populate(text=chars)
    sub.subset(font)
    name = font["name"]
    family = "Huarong Card Sans"
    ps = f"HuarongCardSans-{weight}"
    for record in name.names:
        if record.nameID in (1, 4):
            record.string = family if weight == "Regular" else f"{family} {weight}"
            if record.nameID == 1 and weight != "Regular":
                record.string = family
        elif record.nameID == 3:
            record.string = f"{ps};subset of Noto Sans CJK SC 2.004"
        elif record.nameID == 6:
            record.string = ps
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps]
    out = ASSETS / f"HuarongCard-{weight}.otf"
    font.save(str(out))
    return out


def main():
    chars = characters()
    (ASSETS / "glyphs.txt").write_text(chars + "\n", encoding="utf-8")
    for weight in ("Regular", "Bold"):
        out = build(weight, chars)
        print(f"{out.name}: {out.stat().st_size} bytes, {len(chars)} characters")


if __name__ == "__main__":
    sys.exit(main())
