// Klotski board. At pointerdown the board asks Rust once (`klotski_targets`) where the piece
// can go in one move; the piece then follows the finger along the graph of those cells (so it
// goes around corners but never through another piece), snaps to the nearest reachable cell on
// release, and one `play {piece, to}` commits the move. Every other move (tap, key, undo, redo,
// hint, auto-solve) animates along its path (motion.js). Pieces carry their traditional names.

export { strings } from './klotski.strings.js';
export const stylesheet = 'css/board-klotski.css';
import { h, reducedMotion } from '../dom.js';
import { t, language } from '../i18n.js';
import { freshGrid, bindGrid, frameMonitor, finishAnimations, idParams, beginDrag, dragDelta, releaseGrid, previewGrid, celebration } from './common.js';
import { pathPoints, findPath, animateAlong, moveGraph, followGraph } from './motion.js';
import { recordFor, bestText, levelOf, levelName, loadLevels } from '../screens/records.js';
import { movesRows } from './slide.js';
import { klotskiLevels, klotskiBands, bandChips } from './klotski-levels.js';
import { AccessGrid, hideDrawn, where, list, sentences, stepWords, toolbar } from '../a11y.js';

/** Glyphs of pieces without a traditional name (non-classic layouts), by shape. */
const GLYPH = { C: '曹', v: '将', h: '将', s: '兵', b: '' };

/** The look of a piece from its role and size: C (曹操), a tall or wide general, a soldier, a block. */
function shape(p) {
  if (p.role === 'cao') return 'C';
  if (p.role === 'soldier') return 's';
  if (p.role === 'general') return p.h > p.w ? 'v' : 'h';
  return 'b';
}

import { cellKey as key } from './motion.js';

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

  /** Render the snapshot's `view`; `effect` (a move's) animates it along its path. */
  update(view, effect, how = {}) {
    if (!view || !Array.isArray(view.pieces)) return false;
    const st = { rows: view.h, cols: view.w, pieces: view.pieces, walls: (view.walls || []).map(([r, c]) => ({ r, c })), exit: view.exit };
    const sameShape = this.grid && this.grid.cols === st.cols && this.grid.rows === st.rows;
    const sameIds = sameShape && st.pieces.length === this.pieces.size && st.pieces.every((p) => this.pieces.has(p.id)) &&
      st.walls.length === (this.walls || []).length;
    const prev = sameIds ? this.state : null;
    for (const el of this.pieces.values()) {
      finishAnimations(el);
      el.classList.remove('escaping');
    }
    if (!sameIds) this.build(st);
    this.state = st;
    this.clearMarkers();
    this.labelCells(st);
    this.grid.el.classList.remove('won');
    const moved = prev && !how.initial ? st.pieces.filter((p) => { const q = prev.pieces.find((x) => x.id === p.id); return q && (q.r !== p.r || q.c !== p.c); }) : [];
    this.layout(!prev || how.initial || moved.length > 1);
    if (moved.length === 1 && this.grid.cell && !reducedMotion()) this.animateMove(prev, moved[0], effect);
    return true;
  }

  /** One piece moved: along the move's path (a drag lands from where the finger left it). */
  animateMove(prev, p, effect) {
    const el = this.pieces.get(p.id);
    const landing = this.landing;
    this.landing = null;
    if (landing && landing.id === p.id) {
      // The drag has already carried the piece along its path; the CSS transition snaps it.
      return;
    }
    const q = prev.pieces.find((x) => x.id === p.id);
    let points;
    if (effect && effect.piece === p.id && Array.isArray(effect.path)) points = pathPoints([q.r, q.c], effect.path, [p.r, p.c]);
    else {
      const taken = new Set(this.state.walls.map((w) => `${w.r},${w.c}`));
      for (const o of this.state.pieces) {
        if (o.id === p.id) continue;
        for (let dr = 0; dr < o.h; dr++) for (let dc = 0; dc < o.w; dc++) taken.add(`${o.r + dr},${o.c + dc}`);
      }
      points = findPath(p, [q.r, q.c], [p.r, p.c], this.state.cols, this.state.rows, (r, c) => taken.has(`${r},${c}`));
    }
    if (points) animateAlong(el, points, this.grid.cell);
  }

  build(s) {
    this.pieces.clear();
    freshGrid(this, s.cols, s.rows, 'klotski-grid');
    this.el.setAttribute('aria-label', t('label.board.klotski'));
    for (const p of s.pieces) {
      const kind = shape(p);
      const btn = h(
        'button',
        { class: `piece piece-${kind}`, type: 'button', 'data-piece': p.id, 'data-shape': kind, 'data-role': p.role || '' },
        h('span', { class: 'face', 'aria-hidden': 'true' }, h('span', { class: 'glyph' })),
      );
      btn.dataset.w = String(p.w);
      btn.dataset.h = String(p.h);
      hideDrawn(btn);
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
    if (!this.access) this.access = new AccessGrid(t('label.board.klotski'), (r, c) => this.activateCell(r, c));
    this.access.size(s.cols, s.rows);
    this.grid.el.append(this.access.el);
    this.el.append(this.grid.el, exit);
    bindGrid(this);
  }

  /** The piece (or wall) covering cell (r, c) of state `s`, or null. */
  cover(s, r, c) {
    if (s.walls.some((w) => w.r === r && w.c === c)) return 'wall';
    return s.pieces.find((p) => r >= p.r && r < p.r + p.h && c >= p.c && c < p.c + p.w) || null;
  }

  /** Each cell of the accessible grid names what covers it: "Cao Cao, row 1, column 2". */
  labelCells(s) {
    if (!this.access) return;
    for (let r = 0; r < s.rows; r++) {
      for (let c = 0; c < s.cols; c++) {
        const p = this.cover(s, r, c);
        const what = p === 'wall' ? t('a11y.wall') : p ? pieceName(p) : t('a11y.empty');
        this.access.label(r, c, t('a11y.cell', { what, where: where(r, c) }), { cellPiece: p && p !== 'wall' ? p.id : '' });
      }
    }
  }

  /** A cell activated (Enter, Space, a screen reader's click): its piece, by a tap's rule. */
  async activateCell(r, c) {
    if (!this.state || this.ctx.busy()) return;
    const p = this.cover(this.state, r, c);
    if (!p || p === 'wall') {
      this.ctx.blocked();
      return;
    }
    this.clearHint();
    let targets = [];
    try {
      targets = (await this.ctx.targets(p.id)) || [];
    } catch (_) {
      targets = [];
    }
    if (targets.length === 1) {
      if (!(await this.ctx.play({ piece: p.id, to: targets[0].to }))) this.layout();
    } else if (targets.length > 1) this.select(p.id, targets, true);
    else this.ctx.blocked(this.pieces.get(p.id));
  }

  /** One target of a piece in words: "Cao Cao, row 1, column 2 → down 1". */
  targetName(p, to) {
    return t('a11y.target', { piece: pieceRef(p), step: stepWords(to[0] - p.r, to[1] - p.c) });
  }

  /** The places the selected piece can go, one button each, in the screen reader's toolbar. */
  showTargets(id, targets, focus) {
    if (!this.targetList) return;
    const p = this.info(id);
    const buttons = targets.map((tg) =>
      h('button', {
        class: 'a11y-btn',
        type: 'button',
        'data-to': tg.to.join(','),
        onclick: async () => {
          this.clearMarkers();
          if (this.access) this.access.focus(this.access.r, this.access.c);
          await this.ctx.play({ piece: id, to: tg.to });
        },
      }, this.targetName(p, tg.to)),
    );
    this.targetList.setAttribute('aria-label', t('a11y.targets', { piece: pieceRef(p) }));
    this.targetList.replaceChildren(...buttons);
    this.targetList.hidden = false;
    if (focus && buttons[0]) buttons[0].focus({ preventScroll: true });
  }

  /** One move in words from Rust's effect: "Zhang Fei, row 1, column 1 → down 1; Cao Cao at the exit". */
  moveWords(_mv, effect, before, snap) {
    const old = before && before.view;
    const p = effect && old && Array.isArray(old.pieces) ? old.pieces.find((x) => x.id === effect.piece) : null;
    if (!p) return null;
    const parts = [this.targetName(p, effect.to)];
    if (p.role === 'cao' && snap.status === 'won') parts.push(t('a11y.exit'));
    return { text: sentences(parts), placed: false };
  }

  /** The screen reader's questions about this board (the game screen puts them under it). */
  tools() {
    const bar = toolbar([
      {
        id: 'empty',
        label: t('a11y.q.empties'),
        run: () => {
          const s = this.state;
          if (!s) return '';
          const free = [];
          for (let r = 0; r < s.rows; r++) for (let c = 0; c < s.cols; c++) if (!this.cover(s, r, c)) free.push(where(r, c));
          return t('a11y.a.empty', { where: free.length ? list(free) : t('a11y.a.none') });
        },
      },
      {
        id: 'cao',
        label: t('a11y.q.cao'),
        run: () => {
          const cao = this.state && this.state.pieces.find((p) => p.role === 'cao');
          return cao ? pieceRef(cao) : '';
        },
      },
      {
        id: 'row',
        label: t('a11y.q.row'),
        run: () => {
          const s = this.state;
          if (!s || !this.access) return '';
          const r = this.access.r;
          const cells = [];
          for (let c = 0; c < s.cols; c++) {
            const p = this.cover(s, r, c);
            cells.push(p === 'wall' ? t('a11y.wall') : p ? pieceName(p) : t('a11y.empty'));
          }
          return t('a11y.a.row', { n: r + 1, cells: list(cells) });
        },
      },
      { id: 'next', label: t('a11y.q.next'), run: () => this.ctx.hint && this.ctx.hint() },
    ]);
    this.targetList = h('div', { class: 'a11y-targets', role: 'group', hidden: true });
    this.targetList.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      this.clearMarkers();
      if (this.access) this.access.focus(this.access.r, this.access.c);
    });
    bar.prepend(this.targetList);
    return bar;
  }

  /** The screen reader's toolbar goes under the board (the game screen's hook). */
  bindArea(area) {
    area.append(this.tools());
  }

  /** A piece's name: its traditional one (pinyin in English when the tile is wide enough). */
  label(p) {
    const kind = shape(p);
    if (language() !== 'en') return { text: p.name_zh || GLYPH[kind], vertical: kind === 'v' && !!p.name_zh };
    // One name per piece: a soldier is 兵 / Soldier everywhere, never the pinyin.
    const name = (kind === 's' ? '' : p.name_en) || t(`pieceShort.${kind}`);
    const widthPx = p.w * this.grid.cell * 0.86;
    const font = this.grid.cell * 0.2;
    const longest = Math.max(...name.split(' ').map((w) => w.length));
    const lines = name.split(' ').length;
    const fits = longest * font * 0.6 <= widthPx && lines * font * 1.2 <= p.h * this.grid.cell * 0.86;
    return { text: fits ? name : kind === 'b' ? '' : t(`pieceShort.${kind}`).split(' ')[0], vertical: false, latin: true };
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
      const name = pieceName(p);
      el.setAttribute('aria-label', t('label.piece', { name, row: p.r + 1, col: p.c + 1 }));
      const lab = this.label(p);
      const glyph = el.firstChild.firstChild;
      if (glyph.textContent !== lab.text) glyph.textContent = lab.text;
      glyph.classList.toggle('vertical', lab.vertical);
      glyph.classList.toggle('latin', !!lab.latin);
    }
    for (const w of this.walls || []) this.place(w, Number(w.dataset.c), Number(w.dataset.r), 1, 1);
    // The exit: under the middle of the bottom edge, as wide as C.
    const cell = this.grid.cell;
    const goal = this.state.pieces.find((p) => p.role === 'cao');
    const ex = this.state.exit;
    const exitW = ex && Number.isFinite(ex.w) ? ex.w : goal ? goal.w : 2;
    const exitC = ex && Number.isFinite(ex.c) ? ex.c : (this.state.cols - exitW) / 2;
    this.exitEl.style.width = `${exitW * cell}px`;
    this.exitEl.style.transform = `translateX(${exitC * cell}px)`;
    for (const m of this.markers) this.place(m.el, m.c, m.r, m.w, m.h);
    if (instant) requestAnimationFrame(() => this.pieces.forEach((el) => el.classList.remove('instant')));
  }

  pieceAt(e) {
    const el = e.target.closest && e.target.closest('[data-piece]');
    return el ? el.dataset.piece : null;
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
        drag.graph = moveGraph(p, drag.targets);
        if (this.drag === drag && drag.last) this.follow(drag, drag.last);
      },
      () => {
        drag.targets = [];
        drag.graph = moveGraph(p, []);
      },
    );
    this.pieces.get(id).classList.add('lifted');
    return beginDrag(this, drag);
  }

  move(e) {
    const m = dragDelta(this, e);
    if (!m) return;
    const { d, dx, dy } = m;
    d.last = { x: d.p.c + dx / this.grid.cell, y: d.p.r + dy / this.grid.cell };
    if (d.graph) this.follow(d, d.last);
  }

  /** Move the piece toward `want` along its move graph (motion.js); only the transform changes. */
  follow(d, want) {
    const { cur, anchor } = followGraph(d.graph, d.cur, d.anchor, want);
    d.cur = cur;
    d.anchor = anchor;
    const el = this.pieces.get(d.id);
    if (!el.classList.contains('dragging')) el.classList.add('dragging');
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
    this.landing = { id: d.id };
    const ok = await this.ctx.play({ piece: d.id, to: [best.n.r, best.n.c] });
    if (!ok) {
      this.landing = null;
      this.layout();
    }
  }

  cancel() {
    const d = this.drag;
    this.drag = null;
    frameMonitor.stop();
    if (d) this.pieces.get(d.id).classList.remove('dragging', 'lifted');
    this.layout();
  }

  /** Show where a tapped piece can go; tapping a marker plays that move. */
  select(id, targets, focusList = false) {
    this.clearMarkers();
    this.selected = id;
    const p = this.info(id);
    this.pieces.get(id).classList.add('selected');
    for (const tg of targets) {
      const [r, c] = tg.to;
      const el = h('button', {
        class: 'target',
        type: 'button',
        'aria-label': t('hint.klotski', { piece: pieceName(p), row: r + 1, col: c + 1 }),
        onclick: async (e) => {
          e.stopPropagation();
          this.clearMarkers();
          await this.ctx.play({ piece: id, to: [r, c] });
        },
      });
      hideDrawn(el);
      this.markers.push({ el, r, c, w: p.w, h: p.h });
      this.grid.el.append(el);
      this.place(el, c, r, p.w, p.h);
    }
    this.showTargets(id, targets, focusList);
  }

  clearMarkers() {
    if (this.targetList && !this.targetList.hidden) {
      this.targetList.hidden = true;
      this.targetList.replaceChildren();
    }
    for (const m of this.markers) m.el.remove();
    this.markers = [];
    if (this.selected && this.pieces.get(this.selected)) this.pieces.get(this.selected).classList.remove('selected');
    this.selected = null;
  }

  /** Arrow keys move the focused piece (or Cao Cao) one step in that direction if it can go there. */
  key(dir) {
    if (!this.state) return false;
    const active = document.activeElement;
    let id = active && active.dataset && active.dataset.piece;
    if (!id) {
      const cao = this.state.pieces.find((p) => p.role === 'cao');
      id = this.selected || (cao ? cao.id : this.state.pieces[0].id);
      this.pieces.get(id).focus({ preventScroll: true });
    }
    // Worked out when the press's turn comes: earlier presses may still be in flight.
    this.ctx.play(async () => {
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
        return null;
      }
      return { piece: id, to: want.to };
    });
    return true;
  }

  /**
   * The celebration at the winning move (the finish flow calls it, then shows the dialog):
   * Cao Cao finishes his last step, glows gold, and steps into the exit, where he stays. Transform
   * and opacity only. `reduced`: a short glow in place, nothing longer than 200 ms.
   * Returns `{ done, skip }`, or null when there is nothing to show.
   */
  celebrate({ reduced = false } = {}) {
    const cao = this.state && this.state.pieces.find((p) => p.role === 'cao');
    if (!cao || !this.grid.cell) return null;
    const el = this.pieces.get(cao.id);
    if (!el || !el.animate) return null;
    const cell = this.grid.cell;
    return celebration(async ({ keep, skipped }) => {
      // The last step (into the exit) first, then out of the board.
      await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => null)));
      if (!el.isConnected || skipped()) return;
      const x = cao.c * cell;
      const y = cao.r * cell;
      el.classList.add('escaping', 'instant');
      this.grid.el.classList.add('won');
      if (reduced) {
        keep(el.animate([{ opacity: 1 }, { opacity: 0.6 }, { opacity: 1 }], { duration: 180, easing: 'ease-out' }));
        return;
      }
      keep(
        el.animate(
          [
            { transform: `translate3d(${x}px, ${y}px, 0) scale(1)`, opacity: 1 },
            { transform: `translate3d(${x}px, ${y - cell * 0.08}px, 0) scale(1.08)`, opacity: 1, offset: 0.25 },
            { transform: `translate3d(${x}px, ${y + cell * 0.1}px, 0) scale(1.04)`, opacity: 1, offset: 0.45 },
            // He comes to rest in the exit, glowing: the solved board keeps its hero in sight.
            { transform: `translate3d(${x}px, ${y + cell * 0.35}px, 0) scale(1)`, opacity: 1 },
          ],
          { duration: 1200, easing: 'ease-in-out', fill: 'forwards' },
        ),
        'win',
      );
    });
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
    return this.targetName(p, mv.to);
  }

  clearHint() {
    for (const e of this.hintEls) {
      if (e.classList.contains('hint-ghost')) e.remove();
      else e.classList.remove('hinted');
    }
    this.hintEls = [];
  }

  destroy() {
    releaseGrid(this);
  }
}

/** Klotski in the registry (boards/index.js). */
/** A piece's one name: its traditional one in a classic (not a soldier's pinyin), else its kind. */
/** A piece named with its place (its top-left cell): "Soldier, row 4, column 1". */
function pieceRef(p) {
  return t('a11y.cell', { what: pieceName(p), where: where(p.r, p.c) });
}

function pieceName(p) {
  const kind = shape(p);
  const own = kind === 's' ? '' : language() === 'en' ? p.name_en : p.name_zh;
  return own || t(`piece.${kind}`);
}

export const game = {
  kind: 'klotski',
  Board: KlotskiBoard,
  /** The counting rules the player can choose (Rust's names; the default is Rust's). */
  rules: ['piece', 'straight', 'unit'],
  prepare: (app) => loadLevels(app, 'klotski'),
  refresh(app) {
    if (app.levels) delete app.levels.klotski;
    return loadLevels(app, 'klotski');
  },
  statValues(app, s) {
    const level = levelOf(app, s);
    // A classic's best comes with its level; a plain board ID is its own record scope.
    const rec = level ? level.best : idParams(s.id) === null ? recordFor(app, s.id, 'klotski') : null;
    return { moves: s.moves, best: bestText(rec) };
  },
  subtitle(app, s) {
    const level = levelOf(app, s);
    if (level) return levelName(level);
    const band = idParams(s.id);
    return band ? t('band.title', { band: t(`band.${band}`) }) : '';
  },
  finish: { wonTitle: 'escaped', stars: true, next: true, rows: movesRows },
  /** The next classic level; after a generated level another of the same band. */
  newGame(app, s) {
    const list = (app.levels && app.levels.klotski) || [];
    const i = list.findIndex((l) => l.id === s.id);
    if (i >= 0) {
      const open = list.slice(i + 1).find((l) => l.unlocked !== false) || list[0];
      return { cmd: 'open_game', args: { id: open.id }, sameSlot: false };
    }
    const band = idParams(s.id);
    if (band) return { cmd: 'new_game', args: { kind: 'klotski', params: band }, sameSlot: s.mode !== 'daily' && s.mode !== 'challenge' };
    return { cmd: 'new_game', args: { kind: 'klotski', params: klotskiBands[1].params }, sameSlot: false };
  },
  levelList: klotskiLevels,
  /** Its finishes have a post-game analysis (`analysis`). */
  analysis: true,
  /** A board given as a plain ID is its own record scope; generated ones are known at the finish. */
  scope: (app, s) => (/^klotski:[^#]*\//.test(s.id) && !s.id.includes('#') ? s.id : null),
  scopeLabel(app, rest, scope) {
    const levels = (app.levels && app.levels.klotski) || [];
    const level = levels.find((l) => l && l.scope === scope);
    return `${t('game.klotski')} · ${level ? levelName(level) : t('rec.board')}`;
  },
  /** Home offers a random generated level of each band. */
  homeExtra: (start) => bandChips((band) => start({ kind: 'klotski', params: band })),
  mini: ['a', 'C', 'C', 'b', 'a', 'C', 'C', 'b', 'c', 'd', 'd', 'e', 'c', 's', 't', 'e', 'u', '.', '.', 'v'],
  /** A small drawing of a layout (`preview`'s view, or a level's): every piece by its role. */
  preview(v) {
    const pieces = Array.isArray(v && v.pieces) ? v.pieces : [];
    const items = pieces.map((p) => ({ r: p.r, c: p.c, h: p.h, w: p.w, cls: `pv-piece pv-${p.role || 'block'}${p.role === 'general' ? (p.h > p.w ? ' pv-tall' : ' pv-wide') : ''}` }));
    for (const [r, c] of Array.isArray(v && v.walls) ? v.walls : []) items.push({ r, c, cls: 'pv-wall' });
    return previewGrid('klotski', v.w, v.h, items);
  },
};
