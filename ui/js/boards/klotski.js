// Klotski board. At pointerdown the board asks Rust once (`klotski_targets`) where the piece
// can go in one move; the piece then follows the finger along the graph of those cells (so it
// goes around corners but never through another piece), snaps to the nearest reachable cell on
// release, and one `play {piece, to}` commits the move.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { parseKlotski, freshGrid, bindGrid, frameMonitor } from './common.js';

const TAP_PX = 6;
const GLYPH = { C: '曹', v: '将', h: '将', s: '兵', b: '' };

/** The look of a piece: C (曹操, the goal), a tall or wide general, a soldier, or another block. */
function shape(p) {
  if (p.id === 'C') return 'C';
  if (p.w === 1 && p.h === 1) return 's';
  if (p.h > p.w) return 'v';
  if (p.w > p.h) return 'h';
  return 'b';
}

const key = (r, c) => `${r},${c}`;

export class KlotskiBoard {
  constructor(ctx) {
    this.ctx = ctx; // { play, blocked, busy, targets(piece) → Promise<[{to,path}]> }
    this.state = null;
    this.pieces = new Map();
    this.grid = null;
    this.drag = null;
    this.selected = null;
    this.markers = [];
    this.hintEls = [];
    this.el = h('div', { class: 'board-frame klotski-frame' });
  }

  update(body) {
    const s = parseKlotski(body);
    if (!s) return false;
    const sameShape = this.grid && this.grid.cols === s.cols && this.grid.rows === s.rows;
    const sameIds = sameShape && s.pieces.length === this.pieces.size && s.pieces.every((p) => this.pieces.has(p.id)) &&
      s.walls.length === (this.walls || []).length;
    if (!sameIds) this.build(s);
    this.state = s;
    this.clearMarkers();
    this.layout();
    return true;
  }

  build(s) {
    this.pieces.clear();
    freshGrid(this, s.cols, s.rows, 'klotski-grid');
    this.el.setAttribute('aria-label', t('label.board.klotski'));
    for (const p of s.pieces) {
      const kind = shape(p);
      const btn = h(
        'button',
        { class: `piece piece-${kind}`, type: 'button', 'data-piece': p.id, 'data-shape': kind },
        h('span', { class: 'face', 'aria-hidden': 'true' }, h('span', { class: 'glyph' }, GLYPH[kind])),
      );
      btn.dataset.w = String(p.w);
      btn.dataset.h = String(p.h);
      this.pieces.set(p.id, btn);
      this.grid.el.append(btn);
    }
    this.walls = s.walls.map((w) => {
      const el = h('div', { class: 'wall', 'aria-hidden': 'true' });
      el.dataset.r = String(w.r);
      el.dataset.c = String(w.c);
      this.grid.el.append(el);
      return el;
    });
    const exit = h('div', { class: 'exit', 'aria-hidden': 'true' });
    this.exitEl = exit;
    this.el.append(this.grid.el, exit);
    bindGrid(this);
  }

  info(id) {
    return this.state.pieces.find((p) => p.id === id);
  }

  place(el, x, y, w, hh) {
    const cell = this.grid.cell;
    el.style.width = `${w * cell}px`;
    el.style.height = `${hh * cell}px`;
    el.style.transform = `translate3d(${x * cell}px, ${y * cell}px, 0)`;
  }

  layout(instant) {
    if (!this.state || !this.grid.cell) return;
    for (const p of this.state.pieces) {
      const el = this.pieces.get(p.id);
      if (instant) el.classList.add('instant');
      this.place(el, p.c, p.r, p.w, p.h);
      el.setAttribute('aria-label', t('label.piece', { name: t(`piece.${shape(p)}`), row: p.r + 1, col: p.c + 1 }));
    }
    for (const w of this.walls || []) this.place(w, Number(w.dataset.c), Number(w.dataset.r), 1, 1);
    // The exit: under the middle of the bottom edge, as wide as C.
    const cell = this.grid.cell;
    const goal = this.state.pieces.find((p) => p.id === 'C');
    const exitW = goal ? goal.w : 2;
    this.exitEl.style.width = `${exitW * cell}px`;
    this.exitEl.style.transform = `translateX(${((this.state.cols - exitW) / 2) * cell}px)`;
    for (const m of this.markers) this.place(m.el, m.c, m.r, m.w, m.h);
    if (instant) requestAnimationFrame(() => this.pieces.forEach((el) => el.classList.remove('instant')));
  }

  pieceAt(e) {
    const el = e.target.closest && e.target.closest('[data-piece]');
    return el ? el.dataset.piece : null;
  }

  /** Build the move graph: the start cell plus every reachable top-left cell, joined when adjacent. */
  graph(p, targets) {
    const nodes = new Map();
    nodes.set(key(p.r, p.c), { r: p.r, c: p.c });
    for (const tg of targets) {
      const to = tg.to || tg;
      nodes.set(key(to[0], to[1]), { r: to[0], c: to[1] });
    }
    const adj = new Map();
    for (const [k, n] of nodes) {
      const list = [];
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const nk = key(n.r + dr, n.c + dc);
        if (nodes.has(nk)) list.push(nk);
      }
      adj.set(k, list);
    }
    return { nodes, adj };
  }

  down(e) {
    if (!this.state || this.ctx.busy()) return false;
    const marker = e.target.closest && e.target.closest('.target');
    if (marker) return false; // a click on a target marker plays through its own handler
    const id = this.pieceAt(e);
    if (!id) {
      this.clearMarkers();
      return false;
    }
    this.clearHint();
    if (this.selected && this.selected !== id) this.clearMarkers();
    const p = this.info(id);
    const drag = { id, p, x0: e.clientX, y0: e.clientY, moved: false, graph: null, anchor: key(p.r, p.c), cur: { x: p.c, y: p.r }, targets: null };
    drag.ready = this.ctx.targets(id).then(
      (list) => {
        drag.targets = Array.isArray(list) ? list : [];
        drag.graph = this.graph(p, drag.targets);
        if (this.drag === drag && drag.last) this.follow(drag, drag.last);
      },
      () => {
        drag.targets = [];
        drag.graph = this.graph(p, []);
      },
    );
    this.drag = drag;
    this.pieces.get(id).classList.add('lifted');
    frameMonitor.start();
    return true;
  }

  move(e) {
    const d = this.drag;
    if (!d) return;
    const dx = e.clientX - d.x0;
    const dy = e.clientY - d.y0;
    if (Math.hypot(dx, dy) > TAP_PX) d.moved = true;
    d.last = { x: d.p.c + dx / this.grid.cell, y: d.p.r + dy / this.grid.cell };
    if (d.graph) this.follow(d, d.last);
  }

  /** Move the piece toward `want` along the graph, one segment at a time (no jumping walls). */
  follow(d, want) {
    const { nodes, adj } = d.graph;
    let cur = d.cur;
    let anchor = d.anchor;
    for (let iter = 0; iter < 24; iter++) {
      const a = nodes.get(anchor);
      let best = { dist: Math.hypot(want.x - cur.x, want.y - cur.y), pt: cur, anchor };
      const ends = [anchor];
      // If the point sits inside a segment, both of its ends count as anchors.
      for (const nk of adj.get(anchor)) {
        const n = nodes.get(nk);
        const onSeg = (n.r === a.r && Math.abs(cur.y - a.r) < 1e-6 && (cur.x - a.c) * (n.c - a.c) > 1e-6) ||
          (n.c === a.c && Math.abs(cur.x - a.c) < 1e-6 && (cur.y - a.r) * (n.r - a.r) > 1e-6);
        if (onSeg) ends.push(nk);
      }
      for (const ek of ends) {
        const e0 = nodes.get(ek);
        const cand = [{ x: e0.c, y: e0.r, k: ek }];
        for (const nk of adj.get(ek)) {
          const n = nodes.get(nk);
          // Project `want` onto the segment e0 → n.
          const vx = n.c - e0.c;
          const vy = n.r - e0.r;
          let tt = (want.x - e0.c) * vx + (want.y - e0.r) * vy;
          tt = Math.max(0, Math.min(1, tt));
          cand.push({ x: e0.c + vx * tt, y: e0.r + vy * tt, k: tt > 0.5 ? nk : ek });
        }
        for (const c of cand) {
          const dist = Math.hypot(want.x - c.x, want.y - c.y);
          if (dist < best.dist - 1e-9) best = { dist, pt: { x: c.x, y: c.y }, anchor: c.k };
        }
      }
      const moved = Math.abs(best.pt.x - cur.x) + Math.abs(best.pt.y - cur.y) > 1e-6 || best.anchor !== anchor;
      cur = best.pt;
      anchor = best.anchor;
      if (!moved) break;
    }
    d.cur = cur;
    d.anchor = anchor;
    const el = this.pieces.get(d.id);
    if (!el.classList.contains('dragging')) el.classList.add('dragging');
    // Only the transform changes while dragging: no layout, just a composite.
    el.style.transform = `translate3d(${cur.x * this.grid.cell}px, ${cur.y * this.grid.cell}px, 0)`;
  }

  async up() {
    const d = this.drag;
    frameMonitor.stop();
    if (!d) return;
    const el = this.pieces.get(d.id);
    el.classList.remove('dragging', 'lifted');
    await d.ready;
    if (this.drag === d) this.drag = null;
    if (!d.moved) {
      // A tap: one place to go → go; several → show them; none → blocked.
      if (d.targets.length === 1) {
        const to = d.targets[0].to;
        if (!(await this.ctx.play({ piece: d.id, to }))) this.layout();
      } else if (d.targets.length > 1) {
        this.select(d.id, d.targets);
      } else {
        this.ctx.blocked(el);
      }
      return;
    }
    // Snap to the nearest reachable cell.
    const { nodes } = d.graph;
    let best = null;
    for (const n of nodes.values()) {
      const dist = Math.hypot(n.c - d.cur.x, n.r - d.cur.y);
      if (!best || dist < best.dist) best = { dist, n };
    }
    if (!best || (best.n.r === d.p.r && best.n.c === d.p.c)) {
      if (d.targets.length === 0) this.ctx.blocked(el);
      this.layout();
      return;
    }
    const ok = await this.ctx.play({ piece: d.id, to: [best.n.r, best.n.c] });
    if (!ok) this.layout();
  }

  cancel() {
    const d = this.drag;
    this.drag = null;
    frameMonitor.stop();
    if (d) this.pieces.get(d.id).classList.remove('dragging', 'lifted');
    this.layout();
  }

  /** Show where a tapped piece can go; tapping a marker plays that move. */
  select(id, targets) {
    this.clearMarkers();
    this.selected = id;
    const p = this.info(id);
    this.pieces.get(id).classList.add('selected');
    for (const tg of targets) {
      const [r, c] = tg.to;
      const el = h('button', {
        class: 'target',
        type: 'button',
        'aria-label': t('hint.klotski', { piece: t(`piece.${shape(p)}`), row: r + 1, col: c + 1 }),
        onclick: async (e) => {
          e.stopPropagation();
          this.clearMarkers();
          await this.ctx.play({ piece: id, to: [r, c] });
        },
      });
      this.markers.push({ el, r, c, w: p.w, h: p.h });
      this.grid.el.append(el);
      this.place(el, c, r, p.w, p.h);
    }
    if (this.markers[0]) this.markers[0].el.focus({ preventScroll: true });
  }

  clearMarkers() {
    for (const m of this.markers) m.el.remove();
    this.markers = [];
    if (this.selected && this.pieces.get(this.selected)) this.pieces.get(this.selected).classList.remove('selected');
    this.selected = null;
  }

  /** Arrow keys move the focused piece (or Cao Cao) one step in that direction if it can go there. */
  async key(dir) {
    if (!this.state) return false;
    const active = document.activeElement;
    let id = active && active.dataset && active.dataset.piece;
    if (!id) {
      id = this.selected || (this.pieces.has('C') ? 'C' : this.state.pieces[0].id);
      this.pieces.get(id).focus({ preventScroll: true });
    }
    const p = this.info(id);
    const [dr, dc] = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] }[dir];
    let targets = [];
    try {
      targets = await this.ctx.targets(id);
    } catch (_) {
      targets = [];
    }
    const want = (targets || []).find((tg) => tg.to[0] === p.r + dr && tg.to[1] === p.c + dc);
    if (!want) {
      this.ctx.blocked(this.pieces.get(id));
      return true;
    }
    await this.ctx.play({ piece: id, to: want.to });
    const el = this.pieces.get(id);
    if (el) el.focus({ preventScroll: true });
    return true;
  }

  showHint(mv) {
    this.clearHint();
    if (!mv || !this.pieces.has(mv.piece)) return null;
    const p = this.info(mv.piece);
    const el = this.pieces.get(mv.piece);
    el.classList.add('hinted');
    const ghost = h('div', { class: 'hint-ghost', 'aria-hidden': 'true' });
    this.grid.el.append(ghost);
    this.place(ghost, mv.to[1], mv.to[0], p.w, p.h);
    this.hintEls = [el, ghost];
    return t('hint.klotski', { piece: t(`piece.${shape(p)}`), row: mv.to[0] + 1, col: mv.to[1] + 1 });
  }

  clearHint() {
    for (const e of this.hintEls) {
      if (e.classList.contains('hint-ghost')) e.remove();
      else e.classList.remove('hinted');
    }
    this.hintEls = [];
  }

  destroy() {
    if (this.grid) this.grid.destroy();
    if (this.untrack) this.untrack();
  }
}
