#!/usr/bin/env python3
"""Make the built-in pictures of picture puzzles: ui/pictures/<name>.svg, 512×512.

Run from anywhere: `python3 ui/pictures/make-pictures.py` (standard library only). The
names must match `crates/engine/src/slide/pictures.rs`. Every picture is drawn so that each
cell of a 3×3 (and 4×4) cut looks different — a different colour, shape or edge in every
tile — so the puzzle can be solved by the image alone. For the bigger cuts (5×5, 6×6) each
picture also gets a layer of small details laid on a jittered 6×6 grid (pebbles, ripples,
clouds, birds, stars, flowers; each cell its own colour and shape) under a soft colour cast
that runs warm to cool across the picture and light to dark down it, so that no two cells of
any cut up to 6×6 are alike. Licence: CC0 1.0 (see LICENSE).
"""

import math
import pathlib
import random

OUT = pathlib.Path(__file__).resolve().parent
S = 512


def svg(body, defs=""):
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{S}" height="{S}" '
        f'viewBox="0 0 {S} {S}">\n<defs>{defs}</defs>\n{body}\n</svg>\n'
    )


def grad(gid, stops, x2="0", y2="1"):
    s = "".join(f'<stop offset="{o}" stop-color="{c}"/>' for o, c in stops)
    return f'<linearGradient id="{gid}" x1="0" y1="0" x2="{x2}" y2="{y2}">{s}</linearGradient>'


def petal(cx, cy, length, width, angle, fill, stroke="#b03a5b"):
    """A pointed petal from (cx, cy) outward at `angle` degrees."""
    a = math.radians(angle)
    tx, ty = cx + length * math.sin(a), cy - length * math.cos(a)
    nx, ny = math.cos(a) * width, math.sin(a) * width
    mx, my = cx + 0.55 * length * math.sin(a), cy - 0.55 * length * math.cos(a)
    return (
        f'<path d="M{cx:.1f},{cy:.1f} Q{mx + nx:.1f},{my + ny:.1f} {tx:.1f},{ty:.1f} '
        f'Q{mx - nx:.1f},{my - ny:.1f} {cx:.1f},{cy:.1f}Z" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="2"/>'
    )


def lily_pad(cx, cy, r, rot, fill="#3f8f4a"):
    a0, a1 = math.radians(rot - 12), math.radians(rot + 12)
    x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
    veins = "".join(
        f'<line x1="{cx}" y1="{cy}" x2="{cx + r * 0.85 * math.cos(math.radians(rot + d)):.1f}" '
        f'y2="{cy + r * 0.85 * math.sin(math.radians(rot + d)):.1f}" stroke="#2c6b35" stroke-width="2"/>'
        for d in range(40, 340, 50)
    )
    return (
        f'<path d="M{cx},{cy} L{x0:.1f},{y0:.1f} A{r},{r} 0 1,0 {x1:.1f},{y1:.1f} Z" '
        f'fill="{fill}" stroke="#2c6b35" stroke-width="3"/>{veins}'
    )


def details(seed, motif, rows=range(6)):
    """One small detail per cell of a jittered 6×6 grid (only the given rows), its colour from
    the cell's place: `motif(rng, x, y, r, c)` draws one."""
    rng = random.Random(seed)
    step = S / 6
    out = []
    for r in range(6):
        for c in range(6):
            x = (c + 0.5) * step + rng.uniform(-0.22, 0.22) * step
            y = (r + 0.5) * step + rng.uniform(-0.22, 0.22) * step
            if r in rows:
                out.append(motif(rng, x, y, r, c))
    return "\n".join(out)


def cast(defs):
    """The soft colour cast over a whole picture (warm left to cool right, light top to dark
    bottom), so every cell of a fine cut has its own tint. Returns (defs, body element)."""
    defs += grad("castH", [(0, "#ffb347"), (0.5, "#ffffff"), (1, "#3d6fd1")], x2="1", y2="0")
    defs += grad("castV", [(0, "#ffffff"), (1, "#000000")])
    return defs, ('<rect width="512" height="512" fill="url(#castH)" opacity="0.16"/>'
                  '<rect width="512" height="512" fill="url(#castV)" opacity="0.10"/>')


def hsl(h, s_, l_):
    return f"hsl({h % 360:.0f},{s_:.0f}%,{l_:.0f}%)"


def pebble(rng, x, y, r, c):
    rx, ry = rng.uniform(9, 17), rng.uniform(6, 12)
    return (f'<ellipse cx="{x:.0f}" cy="{y:.0f}" rx="{rx:.0f}" ry="{ry:.0f}" '
            f'transform="rotate({rng.uniform(0, 180):.0f} {x:.0f} {y:.0f})" '
            f'fill="{hsl(20 + c * 38 + r * 11, 35 + r * 6, 38 + c * 4)}" fill-opacity="0.85" '
            f'stroke="#0d2f40" stroke-opacity="0.5" stroke-width="2"/>')


def ripple(rng, x, y, r, c):
    n = 1 + (r + c) % 3
    rings = "".join(
        f'<ellipse cx="{x:.0f}" cy="{y:.0f}" rx="{8 + 7 * k}" ry="{4 + 3 * k}" fill="none" '
        f'stroke="{hsl(170 + c * 14, 40, 82 - r * 3)}" stroke-opacity="0.7" stroke-width="2"/>'
        for k in range(n))
    return rings + (f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{3 + c % 3}" '
                    f'fill="{hsl(40 + r * 50 + c * 20, 70, 60)}"/>')


def cloud_or_bird(rng, x, y, r, c):
    if (r + c) % 2:
        w = rng.uniform(14, 24)
        return (f'<path d="M{x - w:.0f},{y:.0f} q{w / 2:.0f},-{w / 1.6:.0f} {w:.0f},0 '
                f'q{w / 2:.0f},-{w / 1.6:.0f} {w:.0f},0" fill="none" '
                f'stroke="{hsl(10 + c * 30, 45, 25 + r * 6)}" stroke-width="3" stroke-linecap="round"/>')
    w = rng.uniform(20, 30)
    return (f'<g fill="{hsl(30 + c * 25, 60, 92 - r * 4)}" fill-opacity="0.85">'
            f'<ellipse cx="{x:.0f}" cy="{y:.0f}" rx="{w:.0f}" ry="{w / 3:.0f}"/>'
            f'<ellipse cx="{x - w / 4:.0f}" cy="{y - w / 4:.0f}" rx="{w / 2.4:.0f}" ry="{w / 3.4:.0f}"/></g>')


def flower(rng, x, y, r, c):
    col = hsl(c * 55 + r * 23, 70, 62)
    petals = "".join(
        f'<circle cx="{x + 7 * math.cos(math.radians(a + r * 9)):.1f}" '
        f'cy="{y + 7 * math.sin(math.radians(a + r * 9)):.1f}" r="5" fill="{col}"/>'
        for a in range(0, 360, 360 // (4 + c % 3)))
    return petals + f'<circle cx="{x:.0f}" cy="{y:.0f}" r="3.5" fill="#f6e27a"/>'


def tree(rng, x, y, r, c):
    hgt = rng.uniform(18, 30)
    col = hsl(95 + c * 14 + r * 20, 35, 22 + c * 3)
    return (f'<path d="M{x:.0f},{y - hgt:.0f} L{x + hgt / 2.4:.0f},{y:.0f} L{x - hgt / 2.4:.0f},{y:.0f} Z" '
            f'fill="{col}" stroke="#1d2a1a" stroke-opacity="0.5" stroke-width="1.5"/>'
            f'<rect x="{x - 2:.0f}" y="{y:.0f}" width="4" height="{hgt / 4:.0f}" fill="#4a3320"/>')


def star(rng, x, y, r, c):
    k = 4 + (r * 6 + c) % 4
    pts = []
    for i in range(2 * k):
        rad = (9 + c % 3 * 2) if i % 2 == 0 else 3.5
        a = math.pi * i / k + r
        pts.append(f"{x + rad * math.sin(a):.1f},{y - rad * math.cos(a):.1f}")
    return f'<polygon points="{" ".join(pts)}" fill="{hsl(40 + c * 30 + r * 15, 85, 80)}"/>'


def lotus():
    defs = grad("water", [(0, "#1d5e6e"), (0.55, "#2f8c8c"), (1, "#a8d8c8")])
    defs += '<radialGradient id="glow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#fff6d8"/><stop offset="1" stop-color="#fff6d8" stop-opacity="0"/></radialGradient>'
    body = [f'<rect width="{S}" height="{S}" fill="url(#water)"/>']
    body.append(details(11, ripple))
    # Ripples across the water.
    for i, y in enumerate(range(300, 512, 26)):
        body.append(
            f'<path d="M0,{y} Q128,{y - 10} 256,{y} T512,{y}" fill="none" stroke="#d8f0ea" '
            f'stroke-opacity="{0.25 + 0.05 * i:.2f}" stroke-width="3"/>'
        )
    # A pale moon top left, a willow branch top right.
    body.append('<circle cx="88" cy="84" r="70" fill="url(#glow)"/>')
    body.append('<circle cx="88" cy="84" r="38" fill="#fdf3c8"/>')
    for k in range(7):
        x = 330 + k * 26
        body.append(
            f'<path d="M{x},0 Q{x + 14},{60 + k * 8} {x - 6},{120 + k * 12}" fill="none" '
            f'stroke="#8fc46a" stroke-width="5" stroke-linecap="round"/>'
        )
        for j in range(4):
            ly = 30 + j * 26 + k * 3
            body.append(
                f'<ellipse cx="{x + 8 - j * 2}" cy="{ly}" rx="5" ry="13" fill="#a7d67c" '
                f'transform="rotate(20 {x + 8 - j * 2} {ly})"/>'
            )
    # Lily pads: bottom left big, bottom right, middle left small.
    body.append(lily_pad(96, 430, 92, 300))
    body.append(lily_pad(430, 440, 70, 200, "#4d9c57"))
    body.append(lily_pad(60, 250, 44, 20, "#5aa862"))
    body.append(lily_pad(452, 262, 38, 160, "#5aa862"))
    # A bud on a stem, right middle.
    body.append('<path d="M400,420 Q392,330 410,250" stroke="#2c6b35" stroke-width="6" fill="none"/>')
    body.append(petal(410, 252, 60, 20, 0, "#f4a7b9"))
    body.append(petal(410, 252, 50, 14, -18, "#f7c2cf"))
    # The lotus: stem, then petals in two rings around the centre.
    cx, cy = 246, 300
    body.append(f'<path d="M{cx},{cy + 20} Q{cx - 20},{cy + 120} {cx + 10},512" stroke="#2c6b35" stroke-width="9" fill="none"/>')
    for ang in range(-80, 81, 32):
        body.append(petal(cx, cy, 150, 48, ang, "#e9799a"))
    for ang in range(-64, 65, 32):
        body.append(petal(cx, cy, 118, 40, ang, "#f6b3c6"))
    body.append(petal(cx, cy, 100, 34, 0, "#fbd3de"))
    body.append(f'<ellipse cx="{cx}" cy="{cy - 8}" rx="34" ry="16" fill="#f2c94c" stroke="#c79a1e" stroke-width="3"/>')
    for dx in (-18, -6, 6, 18):
        body.append(f'<circle cx="{cx + dx}" cy="{cy - 10}" r="3" fill="#8a6a10"/>')
    # A red dragonfly over the water, left middle.
    body.append('<g transform="translate(120 170) rotate(-20)">'
                '<ellipse cx="0" cy="0" rx="34" ry="8" fill="#fff" fill-opacity="0.7"/>'
                '<ellipse cx="0" cy="16" rx="30" ry="7" fill="#fff" fill-opacity="0.7"/>'
                '<rect x="-4" y="-10" width="8" height="50" rx="4" fill="#c0392b"/></g>')
    defs, over = cast(defs)
    body.append(over)
    return svg("\n".join(body), defs)


def mountains():
    defs = grad("sky", [(0, "#f6c27a"), (0.45, "#f9e3c0"), (1, "#e8eef0")])
    defs += grad("river", [(0, "#9cc7d8"), (1, "#3f7891")])
    body = [f'<rect width="{S}" height="{S}" fill="url(#sky)"/>']
    body.append(details(12, cloud_or_bird, rows=range(0, 3)))
    body.append('<circle cx="390" cy="110" r="54" fill="#d9432f"/>')
    # Birds.
    for x, y in [(120, 70), (150, 92), (180, 60)]:
        body.append(f'<path d="M{x - 12},{y} q6,-8 12,0 q6,-8 12,0" stroke="#3b2a1e" stroke-width="3" fill="none"/>')
    rnd = random.Random(3)

    def ridge(base, amp, peaks, color, seed):
        r = random.Random(seed)
        pts = [(0, base)]
        for i in range(1, peaks * 2):
            x = i * S / (peaks * 2)
            y = base - (amp * (0.6 + 0.4 * r.random()) if i % 2 else amp * 0.15 * r.random())
            pts.append((x, y))
        pts.append((S, base - amp * 0.2))
        d = "M" + " L".join(f"{x:.0f},{y:.0f}" for x, y in pts) + f" L{S},{S} L0,{S} Z"
        return f'<path d="{d}" fill="{color}"/>'

    body.append(ridge(300, 210, 2, "#9fb3b8", 1))
    body.append(ridge(350, 170, 3, "#6c8a8f", 2))
    body.append(ridge(410, 150, 2, "#3e5a5e", 4))
    # A winding river from the back to the bottom left.
    body.append('<path d="M300,340 C260,380 360,400 250,440 C150,470 170,500 60,512 L230,512 '
                'C300,480 330,470 380,440 C450,400 330,380 330,340 Z" fill="url(#river)"/>')
    # Mist bands.
    for y, o in [(250, 0.5), (330, 0.35)]:
        body.append(f'<rect x="0" y="{y}" width="{S}" height="22" fill="#ffffff" fill-opacity="{o}"/>')
    # A pine on the right cliff, a boat on the river, a pavilion on the left.
    body.append('<path d="M470,512 L470,330" stroke="#3b2a1e" stroke-width="8"/>')
    for i, y in enumerate(range(330, 450, 30)):
        w = 30 + i * 12
        body.append(f'<path d="M{470 - w},{y + 30} L470,{y - 10} L{470 + w * 0.6},{y + 30} Z" fill="#1f4d2b"/>')
    body.append('<path d="M200,470 q40,18 80,0 l-8,12 q-32,10 -64,0 Z" fill="#5a3a22"/>')
    body.append('<line x1="240" y1="470" x2="240" y2="430" stroke="#5a3a22" stroke-width="3"/>')
    body.append('<path d="M242,432 L268,464 L242,464 Z" fill="#f3e7cf"/>')
    body.append('<path d="M40,300 L110,300 L95,285 L55,285 Z" fill="#9e2b25"/>'
                '<rect x="58" y="300" width="6" height="30" fill="#3b2a1e"/>'
                '<rect x="86" y="300" width="6" height="30" fill="#3b2a1e"/>')
    # A seal stamp, bottom right corner.
    body.append('<rect x="440" y="14" width="54" height="54" rx="6" fill="#b2302a"/>'
                '<rect x="448" y="22" width="38" height="38" fill="none" stroke="#f6efe3" stroke-width="4"/>')
    _ = rnd
    body.append(details(13, tree, rows=range(3, 5)) + details(18, flower, rows=range(5, 6)))
    defs, over = cast(defs)
    body.append(over)
    return svg("\n".join(body), defs)


def pagoda():
    defs = grad("night", [(0, "#0f1d3d"), (0.7, "#2b3f73"), (1, "#5b6ea3")])
    body = [f'<rect width="{S}" height="{S}" fill="url(#night)"/>']
    body.append(details(14, star, rows=range(0, 3)))
    r = random.Random(7)
    for _ in range(60):
        x, y = r.uniform(0, S), r.uniform(0, 300)
        body.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r.uniform(1, 2.6):.1f}" fill="#fdf6d8"/>')
    body.append('<circle cx="100" cy="96" r="50" fill="#fbe7a1"/><circle cx="122" cy="82" r="44" fill="#12203f"/>')
    # Clouds.
    for cx, cy, w in [(400, 120, 90), (330, 200, 70)]:
        body.append(f'<ellipse cx="{cx}" cy="{cy}" rx="{w}" ry="{w / 4:.0f}" fill="#c9d3ef" fill-opacity="0.55"/>')
    # Hills.
    body.append('<path d="M0,420 Q120,340 260,400 T512,380 L512,512 L0,512 Z" fill="#1f3b2e"/>')
    body.append('<path d="M0,470 Q160,420 300,470 T512,450 L512,512 L0,512 Z" fill="#2f5a3f"/>')
    # The pagoda: seven tiers narrowing upward.
    cx, base = 256, 440
    tiers = 7
    y = base
    for i in range(tiers):
        w = 150 - i * 17
        h = 44 - i * 2
        body.append(f'<rect x="{cx - w / 2 + 14:.0f}" y="{y - h:.0f}" width="{w - 28:.0f}" height="{h}" fill="#b8342b"/>')
        for k in range(-1, 2):
            body.append(f'<rect x="{cx + k * (w / 4) - 5:.0f}" y="{y - h + 10:.0f}" width="10" height="{h - 16}" fill="#f2c14e"/>')
        ry = y - h
        body.append(
            f'<path d="M{cx - w / 2 - 18:.0f},{ry + 6:.0f} Q{cx - w / 2:.0f},{ry - 2:.0f} {cx - w / 2 + 20:.0f},{ry - 12:.0f} '
            f'L{cx + w / 2 - 20:.0f},{ry - 12:.0f} Q{cx + w / 2:.0f},{ry - 2:.0f} {cx + w / 2 + 18:.0f},{ry + 6:.0f} Z" fill="#2d2a2a"/>'
        )
        body.append(f'<rect x="{cx - w / 2 + 4:.0f}" y="{ry - 14:.0f}" width="{w - 8:.0f}" height="4" fill="#d9a441"/>')
        y = ry - 12
    body.append(f'<line x1="{cx}" y1="{y}" x2="{cx}" y2="{y - 50}" stroke="#d9a441" stroke-width="6"/>')
    for k in range(3):
        body.append(f'<circle cx="{cx}" cy="{y - 12 - k * 14}" r="{7 - k}" fill="#d9a441"/>')
    # Lanterns left and right.
    for lx in (80, 432):
        body.append(f'<line x1="{lx}" y1="330" x2="{lx}" y2="470" stroke="#3b2a1e" stroke-width="5"/>')
        body.append(f'<ellipse cx="{lx}" cy="330" rx="22" ry="28" fill="#e8452f"/>')
        body.append(f'<rect x="{lx - 10}" y="298" width="20" height="6" fill="#f2c14e"/>')
    body.append(details(15, flower, rows=range(5, 6)))
    defs, over = cast(defs)
    body.append(over)
    return svg("\n".join(body), defs)


def koi():
    defs = '<radialGradient id="pond" cx="0.5" cy="0.45" r="0.75"><stop offset="0" stop-color="#5fb7c9"/><stop offset="1" stop-color="#174a63"/></radialGradient>'
    body = [f'<rect width="{S}" height="{S}" fill="url(#pond)"/>']
    body.append(details(16, pebble) + details(17, ripple))
    for rr in (60, 120, 180, 240, 300):
        body.append(f'<circle cx="256" cy="256" r="{rr}" fill="none" stroke="#c8eef2" stroke-opacity="0.25" stroke-width="3"/>')

    def fish(x, y, angle, body_col, spot_col, fin_col):
        """A koi centred on (x, y), head toward `angle` degrees (0 = up)."""
        parts = [f'<g transform="translate({x} {y}) rotate({angle})">']
        parts.append(f'<path d="M0,-150 C60,-130 70,-40 34,30 C20,60 12,80 6,110 '
                     f'L-6,110 C-12,80 -20,60 -34,30 C-70,-40 -60,-130 0,-150 Z" fill="{body_col}" '
                     f'stroke="#3b2a1e" stroke-width="3"/>')
        parts.append(f'<path d="M0,100 L46,170 L0,150 L-46,170 Z" fill="{fin_col}" stroke="#3b2a1e" stroke-width="3"/>')
        parts.append(f'<path d="M-40,-60 L-95,-20 L-38,-25 Z" fill="{fin_col}"/>')
        parts.append(f'<path d="M40,-60 L95,-20 L38,-25 Z" fill="{fin_col}"/>')
        parts.append(f'<ellipse cx="0" cy="-80" rx="26" ry="34" fill="{spot_col}"/>')
        parts.append(f'<ellipse cx="-12" cy="0" rx="16" ry="24" fill="{spot_col}"/>')
        parts.append('<circle cx="-20" cy="-126" r="6" fill="#111"/><circle cx="20" cy="-126" r="6" fill="#111"/>')
        parts.append('</g>')
        return "".join(parts)

    body.append(fish(170, 250, -30, "#f28a30", "#fff3e0", "#f6b26b"))
    body.append(fish(340, 270, 150, "#f7f3ea", "#d8342b", "#e9d8c0"))
    body.append(lily_pad(70, 80, 56, 40))
    body.append(lily_pad(450, 450, 60, 220))
    body.append(lily_pad(456, 70, 34, 120, "#5aa862"))
    body.append(petal(452, 448, 40, 16, -20, "#f4a7b9"))
    body.append(petal(452, 448, 40, 16, 20, "#f4a7b9"))
    defs, over = cast(defs)
    body.append(over)
    return svg("\n".join(body), defs)


PICTURES = {"lotus": lotus, "mountains": mountains, "pagoda": pagoda, "koi": koi}


def main():
    for name, make in PICTURES.items():
        path = OUT / f"{name}.svg"
        path.write_text(make(), encoding="utf-8")
        print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
