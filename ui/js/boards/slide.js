// Number slide board: tap a tile, or drag a tile (with the run between it and the blank)
// toward the blank; the run follows the finger along its line and snaps. The move itself is
// `play {tile}`; Rust decides whether it is legal and what it counts.

export { strings } from './slide.strings.js';
export const stylesheet = 'css/board-slide.css';
import { h, reducedMotion } from '../dom.js';
import { t, language, formatTime } from '../i18n.js';
import { boardView, freshGrid, bindGrid, frameMonitor, idParams, beginDrag, dragDelta, releaseGrid } from './common.js';
import { recordFor, bestText } from '../screens/records.js';
import { pictureList } from '../picture.js';

export class SlideBoard {
  constructor(ctx) {
    this.ctx = ctx; // { play(mv) → Promise<bool>, blocked() }
    this.state = null;
    this.tiles = new Map();
    this.grid = null;
    this.drag = null;
    this.hinted = null;
    /** Previews shown whose moves Rust has not answered yet (see `preview`). */
    this.pending = 0;
    this.confirmed = null;
    this.el = h('div', { class: 'board-frame slide-frame' });
  }

  /** Render the snapshot's `view` ({ w, h, tiles }); false if there is none. */
  update(view) {
    const s = view && Array.isArray(view.tiles) ? view : null;
    if (!s) return false;
    this.grid && this.grid.el.classList.remove('won');
    if (!this.grid || this.grid.cols !== s.w || this.grid.rows !== s.h) this.build(s);
    this.confirmed = s;
    // A later tap's preview is still waiting for its answer: it was made on top of this state,
    // so the tiles stay where it put them (that answer puts them where Rust says).
    if (this.pending > 1) return true;
    this.state = s;
    this.layout();
    return true;
  }

  build(s) {
    this.tiles.clear();
    freshGrid(this, s.w, s.h, 'slide-grid');
    this.grid.el.classList.toggle('dense', s.w >= 7 || s.h >= 7);
    this.el.dataset.cols = String(s.w);
    this.el.setAttribute('aria-label', t('label.board.slide', { w: s.w, h: s.h }));
    for (const n of s.tiles) {
      if (n === 0) continue;
      const goalIndex = n - 1;
      const tile = h(
        'div',
        { class: 'tile', 'data-tile': n, role: 'img' },
        h('span', { class: 'face', 'aria-hidden': 'true' }, String(n)),
      );
      tile.dataset.home = `${Math.floor(goalIndex / s.w)},${goalIndex % s.w}`;
      this.tiles.set(n, tile);
      this.grid.el.append(tile);
    }
    this.el.append(this.grid.el);
    bindGrid(this);
  }

  pos(n) {
    const i = this.state.tiles.indexOf(n);
    return { r: Math.floor(i / this.state.w), c: i % this.state.w };
  }

  place(tile, r, c, dx = 0, dy = 0) {
    const cell = this.grid.cell;
    tile.style.transform = `translate3d(${c * cell + dx}px, ${r * cell + dy}px, 0)`;
  }

  /**
   * Put every tile where the state says. Only tiles that moved (or were dragged) are
   * touched: on a 10×10 board a move changes one line, not a hundred tiles.
   */
  layout(instant) {
    if (!this.state || !this.grid.cell) return;
    const { w, tiles } = this.state;
    const all = instant || this.placedCell !== this.grid.cell || this.placedLang !== language();
    this.placedCell = this.grid.cell;
    this.placedLang = language();
    tiles.forEach((n, i) => {
      if (n === 0) return;
      const tile = this.tiles.get(n);
      if (!tile) return;
      if (!all && tile.placedAt === i && !tile.offset) return;
      tile.placedAt = i;
      tile.offset = false;
      const r = Math.floor(i / w);
      const c = i % w;
      if (instant) tile.classList.add('instant');
      this.place(tile, r, c);
      tile.classList.toggle('home', i === n - 1);
      tile.setAttribute('aria-label', t('label.tile', { n, row: r + 1, col: c + 1 }));
    });
    if (instant) requestAnimationFrame(() => this.tiles.forEach((tl) => tl.classList.remove('instant')));
  }

  /** The run that moves when tile n is pushed toward the blank, or null if not in line. */
  run(n) {
    const p = this.pos(n);
    const b = this.pos(0);
    if (p.r === b.r && p.c !== b.c) {
      const step = Math.sign(b.c - p.c);
      const list = [];
      for (let c = p.c; c !== b.c; c += step) list.push(this.state.tiles[p.r * this.state.w + c]);
      return { axis: 'x', sign: step, list };
    }
    if (p.c === b.c && p.r !== b.r) {
      const step = Math.sign(b.r - p.r);
      const list = [];
      for (let r = p.r; r !== b.r; r += step) list.push(this.state.tiles[r * this.state.w + p.c]);
      return { axis: 'y', sign: step, list };
    }
    return null;
  }

  tileAt(e) {
    const el = e.target.closest && e.target.closest('[data-tile]');
    return el ? Number(el.dataset.tile) : null;
  }

  down(e) {
    if (!this.state || this.ctx.busy()) return false;
    const n = this.tileAt(e);
    if (!n) return false;
    this.clearHint();
    const run = this.run(n);
    // Lift the run at once: its layers are made now, not on the first frame of the drag.
    if (run) for (const m of run.list) this.tiles.get(m).classList.add('dragging');
    return beginDrag(this, { n, x0: e.clientX, y0: e.clientY, t0: performance.now(), d: 0, moved: false, run });
  }

  move(e) {
    const m = dragDelta(this, e);
    if (!m) return;
    const { d, dx, dy } = m;
    if (!d.run) return;
    const along = (d.run.axis === 'x' ? dx : dy) * d.run.sign;
    d.d = Math.max(0, Math.min(this.grid.cell, along));
    d.speed = along / Math.max(1, performance.now() - d.t0);
    for (const n of d.run.list) {
      const tile = this.tiles.get(n);
      const p = this.pos(n);
      const off = d.d * d.run.sign;
      tile.offset = true;
      this.place(tile, p.r, p.c, d.run.axis === 'x' ? off : 0, d.run.axis === 'y' ? off : 0);
    }
  }

  release() {
    for (const tile of this.tiles.values()) tile.classList.remove('dragging');
  }

  async up() {
    const d = this.drag;
    this.drag = null;
    frameMonitor.stop();
    if (!d) return;
    this.release();
    const cell = this.grid.cell;
    const commit = !d.moved || (d.run && (d.d > cell * 0.35 || (d.d > cell * 0.15 && d.speed > 0.5)));
    if (!commit) {
      if (!d.run) this.ctx.blocked();
      this.layout();
      return;
    }
    const shown = this.preview(d);
    let ok;
    try {
      ok = await this.ctx.play({ tile: d.n }, shown ? { shown } : {});
    } finally {
      if (shown) this.pending -= 1;
    }
    if (!ok) {
      // Rust refused: the board goes back to the last state it gave.
      if (this.confirmed) this.state = this.confirmed;
      this.layout();
    }
  }

  /**
   * The run lands where the move takes it at once, as a drag already shows it: the board's
   * reply (the core's worker, on the web page) comes a frame later, since a browser runs other
   * tasks only after the frame that follows a tap. Only the picture moves: the move counts,
   * and the board's state (`data-state`, the counters) changes, when Rust's answer comes; a
   * refused move goes back (`up`), and every answer puts each tile where Rust says.
   * Returns the preview's timing for perf.moves, or null when the tile is not in line.
   */
  preview(d) {
    if (!d.run || !this.state) return null;
    const start = performance.now();
    const { w } = this.state;
    const tiles = this.state.tiles.slice();
    const from = tiles.indexOf(d.n);
    const step = d.run.axis === 'x' ? d.run.sign : d.run.sign * w;
    for (let i = tiles.indexOf(0); i !== from; i -= step) tiles[i] = tiles[i - step];
    tiles[from] = 0;
    this.state = { ...this.state, tiles };
    this.pending += 1;
    this.layout();
    void this.el.offsetHeight; // style + layout, so the figure includes them
    const shown = { start, laidOut: performance.now(), frame: null };
    requestAnimationFrame(() => (shown.frame = performance.now()));
    return shown;
  }

  cancel() {
    this.drag = null;
    frameMonitor.stop();
    this.release();
    this.layout();
  }

  /** Arrow keys move the tile next to the blank into it (the tile moves in the arrow's direction). */
  key(dir) {
    if (!this.state) return false;
    // Read the board when the press's turn comes (earlier presses may still be in flight).
    this.ctx.play(() => this.keyMove(dir));
    return true;
  }

  keyMove(dir) {
    const b = this.pos(0);
    const from = { up: [1, 0], down: [-1, 0], left: [0, 1], right: [0, -1] }[dir];
    const r = b.r + from[0];
    const c = b.c + from[1];
    if (r < 0 || c < 0 || r >= this.state.h || c >= this.state.w) {
      this.ctx.blocked();
      return null;
    }
    return { tile: this.state.tiles[r * this.state.w + c] };
  }

  /** The win: every tile settles with a glow, in reading order. Resolves when it is over. */
  win() {
    if (reducedMotion() || !this.grid) return Promise.resolve();
    const n = this.state.tiles.length;
    const step = Math.min(40, 600 / n);
    this.state.tiles.forEach((v, i) => {
      const tile = this.tiles.get(v);
      if (tile) tile.style.setProperty('--delay', `${Math.round(i * step)}ms`);
    });
    this.grid.el.classList.add('won');
    return new Promise((resolve) => setTimeout(resolve, Math.round(n * step + 520)));
  }

  showHint(mv) {
    this.clearHint();
    const tile = mv && this.tiles.get(Number(mv.tile));
    if (!tile) return null;
    tile.classList.add('hinted');
    this.hinted = tile;
    return t('hint.slide', { tile: mv.tile });
  }

  clearHint() {
    if (this.hinted) this.hinted.classList.remove('hinted');
    this.hinted = null;
  }

  destroy() {
    releaseGrid(this);
  }
}

/** The number slide in the registry (boards/index.js). */
export const game = {
  kind: 'slide',
  Board: SlideBoard,
  defaultParams: '4x4',
  /** The counting rules the player can choose (Rust's names; the default is Rust's). */
  rules: ['tile', 'line'],
  statValues(app, s) {
    const v = boardView(s) || {};
    const pic = /\/picture:/.test(s.id) ? '/picture' : '';
    return { moves: s.moves, best: bestText(recordFor(app, `slide:${v.w}x${v.h}${pic}`, 'slide')) };
  },
  subtitle(app, s) {
    const v = boardView(s);
    if (!v) return '';
    const diff = /\/(easy|medium|hard|expert)/.exec(s.id);
    return `${v.w}×${v.h}${diff ? ` · ${t(`diff.${diff[1]}`)}` : ''}`;
  },
  finish: {
    wonTitle: 'solved',
    stars: true,
    next: false,
    rows: movesRows,
  },
  /** A new board of the same size and difficulty, into the free-play slot of that size. */
  newGame(app, s) {
    const v = boardView(s) || {};
    const params = idParams(s.id) || `${v.w}x${v.h}`;
    return { cmd: 'new_game', args: { kind: 'slide', params }, sameSlot: !s.mode || s.mode === 'free' };
  },
  levelList: slideSizes,
  mini: ['1', '2', '3', '4', '5', '6', '7', '8', ''],
};

/** The level screen's body: every size, each with its difficulties and a random board. */
function slideSizes(screen) {
  let sizes = screen.list.filter((l) => l && l.size);
  if (!sizes.length) sizes = [3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ size: `${n}x${n}`, params: `${n}x${n}`, difficulties: [] }));
  const rows = sizes.map((lv) => {
    const [w, hh] = lv.size.split('x').map(Number);
    const rec = lv.best || recordFor(screen.app, `slide:${lv.size}`, 'slide');
    const diffs = Array.isArray(lv.difficulties) ? lv.difficulties : [];
    const label = t('sizeLabel', { w, h: hh });
    const choices = diffs.map((d) =>
      h('button', { class: 'chip', type: 'button', 'data-size': lv.size, 'data-diff': d.name, 'aria-label': `${label} ${t(`diff.${d.name}`)}`, onclick: () => screen.start(d.params) }, t(`diff.${d.name}`)),
    );
    const any = diffs.length ? t('random') : t('play');
    choices.push(h('button', { class: 'chip primary', type: 'button', 'data-size': lv.size, 'data-diff': 'random', 'aria-label': `${label} ${any}`, onclick: () => screen.start(lv.params || lv.size) }, any));
    return h(
      'div',
      { class: 'size-row', 'data-size': lv.size },
      h('div', { class: 'size-head' }, h('span', { class: 'size-name' }, label), h('span', { class: 'level-best' }, rec && rec.best_moves ? `${t('best')} ${rec.best_moves}` : '')),
      h('div', { class: 'chips' }, choices),
    );
  });
  return h('div', { class: 'size-list' }, rows, pictureList(screen));
}

/** Finish rows of the games counted in moves against an optimum. */
export function movesRows(s, f) {
  const optimal = f.optimal;
  return [
    ['yourMoves', f.moves ?? s.moves, 'moves'],
    ['optimalMoves', optimal === undefined || optimal === null ? t('noBest') : optimal, 'optimal'],
    ['time', formatTime(f.time_ms ?? s.elapsed_ms, true), 'time'],
  ];
}
