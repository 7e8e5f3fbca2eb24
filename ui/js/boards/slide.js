// Number slide board: tap a tile, or drag a tile (with the run between it and the blank)
// toward the blank; the run follows the finger along its line and snaps. Or draw a trail:
// a finger drawn through the tiles moves each tile it reaches into the blank beside it, one
// after another, as fast as the finger goes (the setting `slide_control` picks
// tap, trail or both). Every tile move is its own `play {tile}`; Rust decides whether it is
// legal and what it counts. A speedsolving run (marathon, relay) shows its progress and
// splits beside the board.

export { strings } from './slide.strings.js';
export const stylesheet = 'css/board-slide.css';
import { h } from '../dom.js';
import { t, language, formatTime } from '../i18n.js';
import { announce } from '../feedback.js';
import { boardView, freshGrid, bindGrid, frameMonitor, idParams, beginDrag, dragDelta, releaseGrid, previewGrid, celebration } from './common.js';
import { recordFor, bestText, loadLevels } from '../screens/records.js';
import { pictureList, pictureTitle } from '../picture.js';
import { AccessGrid, hideDrawn, where, list, sentences, toolbar } from '../a11y.js';

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

  /**
   * Render the snapshot's `view` ({ w, h, tiles }); false if there is none. `snap`: the whole
   * snapshot (a run's progress, `snap.run`).
   */
  update(view, _effect, _how, snap) {
    const s = view && Array.isArray(view.tiles) ? view : null;
    if (!s) return false;
    if (this.grid) for (const e of this.grid.el.querySelectorAll('.win-picture, .win-gleam')) e.remove();
    if (!this.grid || this.grid.cols !== s.w || this.grid.rows !== s.h) this.build(s);
    const nextSolve = this.showRun(snap && snap.run);
    this.confirmed = s;
    if (this.pending > 1 && !nextSolve) this.labelCells(s);
    // A later tap's preview is still waiting for its answer: it was made on top of this state,
    // so the tiles stay where it put them (that answer puts them where Rust says).
    if (this.pending > 1 && !nextSolve) return true;
    // The tile the last move put in place (the celebration's first beat).
    const was = this.state && this.state.tiles;
    if (was && was.length === s.tiles.length) this.lastMoved = s.tiles.find((n, i) => n !== 0 && was[i] !== n);
    this.state = s;
    this.labelCells(s);
    // The next solve of a run is there at once (its clock already runs).
    this.layout(nextSolve);
    return true;
  }

  /**
   * A speedsolving run's progress (solve i of N, the splits so far) in its bar beside the
   * board. Returns true when a solve has just been done (the board is the next solve's).
   */
  showRun(run) {
    const bar = this.runBar;
    const done = run && Array.isArray(run.splits) ? run.splits.length : -1;
    const next = this.runDone !== undefined && this.runDone >= 0 && done > this.runDone && !run.done;
    this.runDone = done;
    if (!bar) return next;
    if (!run) {
      bar.hidden = true;
      bar.replaceChildren();
      delete bar.dataset.run;
      return next;
    }
    bar.hidden = false;
    bar.dataset.run = run.mode;
    bar.dataset.solve = String(run.solve);
    bar.dataset.of = String(run.of);
    bar.dataset.splits = String(run.splits.length);
    // A relay's splits name their size; a marathon's are all one size.
    const relay = String(run.mode).startsWith('relay');
    const items = run.splits.map((sp, i) =>
      h('li', { class: 'split', 'data-split': String(i + 1), 'data-ms': String(sp.ms) }, relay ? h('span', { class: 'split-size' }, sp.size.replace('x', '×')) : null, h('span', { class: 'split-time' }, formatTime(sp.ms, true))),
    );
    bar.replaceChildren(
      h('span', { class: 'run-progress', 'data-run-progress': `${run.solve}/${run.of}` }, t('run.progress', { i: run.solve, n: run.of })),
      h('ol', { class: 'run-splits', 'aria-label': t('run.splits') }, items.slice(-3)),
    );
    if (next) {
      const last = run.splits[run.splits.length - 1];
      announce(t('run.say', { i: run.splits.length, time: formatTime(last.ms, true) }));
    }
    return next;
  }

  /** The run bar goes into the play area, under the board (the game screen's hook). */
  bindArea(area) {
    this.runBar = h('div', { class: 'slide-run', hidden: true, 'aria-live': 'off' });
    area.append(this.runBar, this.tools());
  }

  /** `tap`, `trail` or `both` (the player's setting, Rust's `settings.slide_control`). */
  control() {
    const c = this.ctx.app && this.ctx.app.settings && this.ctx.app.settings.slide_control;
    return c === 'tap' || c === 'trail' ? c : 'both';
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
      const tile = h('div', { class: 'tile', 'data-tile': n }, h('span', { class: 'face' }, String(n)));
      hideDrawn(tile);
      tile.dataset.home = `${Math.floor(goalIndex / s.w)},${goalIndex % s.w}`;
      this.tiles.set(n, tile);
      this.grid.el.append(tile);
    }
    if (!this.access) this.access = new AccessGrid(t('label.board.slide', { w: s.w, h: s.h }), (r, c) => this.activateCell(r, c));
    this.access.el.setAttribute('aria-label', t('label.board.slide', { w: s.w, h: s.h }));
    this.access.size(s.w, s.h);
    this.grid.el.append(this.access.el);
    this.el.append(this.grid.el);
    bindGrid(this);
  }

  /** Each cell of the accessible grid says what is in it: "7, row 2, column 3", "empty, …". */
  labelCells(s) {
    if (!this.access) return;
    s.tiles.forEach((n, i) => {
      const r = Math.floor(i / s.w);
      const c = i % s.w;
      this.access.label(r, c, t('a11y.cell', { what: n ? String(n) : t('a11y.empty'), where: where(r, c) }), { cellTile: n });
    });
  }

  /** A cell activated (Enter, Space, a screen reader's click): its tile, as a tap plays it. */
  activateCell(r, c) {
    if (!this.state || this.ctx.busy()) return;
    this.ctx.play(() => {
      const s = this.confirmed || this.state;
      const n = s.tiles[r * s.w + c];
      if (!n) {
        this.ctx.blocked();
        return null;
      }
      return { tile: n };
    });
  }

  /**
   * One move in words, from Rust's effect (the tiles that slid, from → to) and the new view:
   * "7 left", "7, 8 up; 8 in place; row 1 done". `placed`: a tile landed in its own cell.
   */
  moveWords(_mv, effect, before, snap) {
    // Rust lists the tile next to the blank first; the tile played (the run's far end) leads here.
    const moved = effect && Array.isArray(effect.moved) ? effect.moved.slice().reverse() : [];
    const v = boardView(snap);
    if (!moved.length || !v) return null;
    const step = moved[0].to - moved[0].from;
    const dir = step === 1 ? 'right' : step === -1 ? 'left' : step > 0 ? 'down' : 'up';
    const parts = [t('a11y.slid', { tiles: list(moved.map((m) => m.tile)), dir: t(`a11y.dir.${dir}`) })];
    const home = moved.filter((m) => m.to === m.tile - 1);
    if (home.length) parts.push(t('a11y.inPlace', { n: list(home.map((m) => m.tile)) }));
    const old = boardView(before);
    const goal = (tiles, i) => tiles[i] === (i === tiles.length - 1 ? 0 : i + 1);
    const rowDone = (tiles, r) => tiles.slice(r * v.w, (r + 1) * v.w).every((_, k) => goal(tiles, r * v.w + k));
    const colDone = (tiles, c) => Array.from({ length: v.h }, (_, r) => goal(tiles, r * v.w + c)).every(Boolean);
    if (old && old.tiles && snap.status === 'playing') {
      for (let r = 0; r < v.h; r++) if (rowDone(v.tiles, r) && !rowDone(old.tiles, r)) parts.push(t('a11y.rowDone', { n: r + 1 }));
      for (let c = 0; c < v.w; c++) if (colDone(v.tiles, c) && !colDone(old.tiles, c)) parts.push(t('a11y.colDone', { n: c + 1 }));
    }
    return { text: sentences(parts), placed: home.length > 0 };
  }

  /** The screen reader's questions about this board (the game screen puts them under it). */
  tools() {
    const state = () => this.confirmed || this.state;
    const cellOf = (n) => {
      const s = state();
      const i = s.tiles.indexOf(n);
      return i < 0 ? null : where(Math.floor(i / s.w), i % s.w);
    };
    return toolbar([
      { id: 'empty', label: t('a11y.q.empty'), run: () => (state() ? t('a11y.a.empty', { where: cellOf(0) }) : '') },
      {
        id: 'tile',
        field: t('a11y.q.tile'),
        run: (value) => {
          const n = Number(value);
          const at = state() && Number.isInteger(n) && n > 0 ? cellOf(n) : null;
          return at ? t('a11y.a.tile', { n, where: at }) : t('a11y.a.noTile', { n: value });
        },
      },
      {
        id: 'row',
        label: t('a11y.q.row'),
        run: () => {
          const s = state();
          if (!s || !this.access) return '';
          const r = this.access.r;
          const cells = s.tiles.slice(r * s.w, (r + 1) * s.w).map((n) => (n ? String(n) : t('a11y.empty')));
          return t('a11y.a.row', { n: r + 1, cells: list(cells) });
        },
      },
      { id: 'next', label: t('a11y.q.next'), run: () => this.ctx.hint && this.ctx.hint() },
    ]);
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
    const control = this.control();
    const n = this.tileAt(e);
    const at = this.cellAt(e.clientX, e.clientY);
    // A trail can begin anywhere on the board (the blank too); a tap or run-drag on a tile.
    const trail = control === 'tap' || at < 0 ? null : { on: control === 'trail', last: at, x: e.clientX, y: e.clientY, from: at, steps: 0, over: false };
    if (!n && !trail) return false;
    this.clearHint();
    const start = { n, x0: e.clientX, y0: e.clientY, t0: performance.now(), d: 0, moved: false, run: null, trail };
    if (!n || control === 'trail') {
      if (trail) trail.on = true;
      beginDrag(this, start);
      // Trail only: the tile the finger lands on is reached at once.
      if (control === 'trail') this.trailStep(at);
      return true;
    }
    const run = this.run(n);
    // Lift the run at once: its layers are made now, not on the first frame of the drag.
    if (run) for (const m of run.list) this.tiles.get(m).classList.add('dragging');
    start.run = run;
    return beginDrag(this, start);
  }

  /** The cell index under a point of the page, or -1 off the board. */
  cellAt(x, y) {
    if (!this.grid || !this.grid.cell || !this.state) return -1;
    const r = this.grid.el.getBoundingClientRect();
    const c = Math.floor((x - r.left) / this.grid.cell);
    const row = Math.floor((y - r.top) / this.grid.cell);
    if (c < 0 || row < 0 || c >= this.state.w || row >= this.state.h) return -1;
    return row * this.state.w + c;
  }

  /**
   * The trail: every cell the finger crossed since the last event, in order (the path is
   * walked in quarter-cell steps, so a fast finger skips none); each cell entered whose tile
   * is beside the blank moves that tile into it. With `both`, a trail begins once the finger
   * enters a cell that is not the pressed run's way to the blank (that is the run-drag).
   */
  trailMove(d, e) {
    const tr = d.trail;
    const x1 = e.clientX;
    const y1 = e.clientY;
    const steps = Math.max(1, Math.ceil(Math.hypot(x1 - tr.x, y1 - tr.y) / Math.max(1, this.grid.cell / 4)));
    for (let k = 1; k <= steps && !tr.over; k += 1) {
      const at = this.cellAt(tr.x + ((x1 - tr.x) * k) / steps, tr.y + ((y1 - tr.y) * k) / steps);
      if (at < 0 || at === tr.last) continue;
      if (!tr.on) {
        if (this.towardBlank(d, at)) {
          tr.last = at;
          continue;
        }
        // The run-drag gives way to the trail: the run goes back, the pressed tile (if it
        // is beside the blank) was the first one reached.
        tr.on = true;
        this.release();
        d.run = null;
        this.layout();
        this.trailStep(tr.from);
      }
      tr.last = at;
      this.trailStep(at);
    }
    tr.x = x1;
    tr.y = y1;
  }

  /**
   * Whether cell `at` lies on the pressed run's line, from the pressed tile toward the blank,
   * the pressed tile's own cell included (a run dragged back to where it began is the run-drag
   * taken back, no trail).
   */
  towardBlank(d, at) {
    if (!d.run) return false;
    const { w } = this.state;
    const from = d.trail.from;
    const [r0, c0] = [Math.floor(from / w), from % w];
    const [r, c] = [Math.floor(at / w), at % w];
    if (d.run.axis === 'x') return r === r0 && (c === c0 || Math.sign(c - c0) === d.run.sign);
    return c === c0 && (r === r0 || Math.sign(r - r0) === d.run.sign);
  }

  /**
   * One trail step: the tile in cell `at`, if it is beside the blank, moves into it now (the
   * picture; Rust's answer confirms it, a refusal puts the board back). Each step is its own
   * `play {tile}`, queued in order. The trail ends at a solved board (a run's next solve
   * comes from Rust, never from the same finger).
   */
  trailStep(at) {
    const s = this.state;
    const tr = this.drag && this.drag.trail;
    if (!s || at < 0 || (tr && tr.over)) return false;
    const n = s.tiles[at];
    const b = s.tiles.indexOf(0);
    if (!n) return false;
    const sameRow = Math.floor(at / s.w) === Math.floor(b / s.w);
    if (!((sameRow && Math.abs(at - b) === 1) || Math.abs(at - b) === s.w)) return false;
    const start = performance.now();
    const tiles = s.tiles.slice();
    tiles[b] = n;
    tiles[at] = 0;
    this.state = { ...s, tiles };
    this.pending += 1;
    this.layout();
    if (tr) {
      tr.steps += 1;
      if (tiles.every((v, i) => v === (i === tiles.length - 1 ? 0 : i + 1))) tr.over = true;
    }
    const shown = { start, laidOut: performance.now(), frame: null };
    requestAnimationFrame(() => (shown.frame = performance.now()));
    this.ctx
      .play({ tile: n }, { shown })
      .then((ok) => {
        this.pending -= 1;
        if (!ok && this.pending === 0) {
          if (this.confirmed) this.state = this.confirmed;
          this.layout();
        }
      })
      .catch(() => {
        this.pending -= 1;
      });
    return true;
  }

  move(e) {
    const m = dragDelta(this, e);
    if (!m) return;
    const { d, dx, dy } = m;
    if (d.trail) this.trailMove(d, e);
    if (!d.run || (d.trail && d.trail.on)) return;
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
    // A trail played its moves as the finger went; without a tile there is nothing to tap.
    if ((d.trail && d.trail.on) || !d.n) return;
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

  /**
   * The celebration at the winning move (the finish flow calls it, then shows the result):
   * the last tile drops into its place with a thump, then a wave runs across the tiles from
   * the top-left corner, each lifting and settling in turn; a picture puzzle then shows its
   * whole picture, seams and missing corner gone. About 1.2 s, transform and opacity only.
   * `reduced`: one short fade, nothing longer than 200 ms. Returns `{ done, skip }`.
   */
  celebrate({ reduced = false } = {}) {
    if (!this.grid || !this.state || !this.grid.el.animate) return null;
    const { w, tiles } = this.state;
    const hh = tiles.length / w;
    const picture = !!this.el.dataset.picture;
    const last = this.tiles.get(this.lastMoved);
    let whole = null;
    if (picture) {
      whole = h('div', { class: 'win-picture', 'aria-hidden': 'true' });
      this.grid.el.append(whole);
    }
    const faces = [];
    tiles.forEach((n, i) => {
      const tile = this.tiles.get(n);
      if (tile) faces.push([tile.firstChild, Math.floor(i / w) + (i % w)]);
    });
    const far = Math.max(1, hh - 1 + (w - 1));
    const c = celebration(async ({ keep, pause }) => {
      if (reduced) {
        for (const [face] of faces) keep(face.animate([{ opacity: 1 }, { opacity: 0.7 }, { opacity: 1 }], { duration: 180, easing: 'ease-out' }));
        if (whole) keep(whole.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 150, fill: 'forwards' }));
        return;
      }
      // The last tile lands: pressed into its place, then settling.
      if (last) {
        await keep(
          last.firstChild.animate(
            [{ transform: 'scale(1.16)', offset: 0 }, { transform: 'scale(0.9)', offset: 0.55 }, { transform: 'scale(1)' }],
            { duration: 280, easing: 'cubic-bezier(0.3, 0.7, 0.4, 1)' },
          ),
        ).finished.catch(() => null);
      }
      // The wave, diagonal by diagonal.
      const span = Math.min(480, 80 * far);
      for (const [face, d] of faces) {
        keep(
          face.animate(
            [
              { transform: 'translateY(0) scale(1)' },
              { transform: 'translateY(-16%) scale(1.1)', offset: 0.4 },
              { transform: 'translateY(0) scale(0.96)', offset: 0.75 },
              { transform: 'translateY(0) scale(1)' },
            ],
            { duration: 520, delay: Math.round((d / far) * span), easing: 'ease-in-out' },
          ),
        );
      }
      if (whole) keep(whole.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 500, delay: span, easing: 'ease-out', fill: 'forwards' }));
      await pause(span + 560);
    });
    /** Leaves the picture whole under the result; the next board update clears it. */
    c.picture = whole;
    return c;
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
    const scope = s.run ? s.run.scope : `slide:${v.w}x${v.h}${pic}`;
    return { moves: s.moves, best: bestText(recordFor(app, scope, 'slide')) };
  },
  /** A picture puzzle is titled by its picture: the level list names them. */
  title: (app, s) => pictureTitle(app, s),
  prepare: (app) => loadLevels(app, 'slide'),
  subtitle(app, s) {
    const v = boardView(s);
    if (!v) return '';
    const diff = /\/(easy|medium|hard|expert)/.exec(s.id);
    const run = s.run ? ` · ${runName(s.run.mode)} ${s.run.solve}/${s.run.of}` : '';
    return `${v.w}×${v.h}${diff ? ` · ${t(`diff.${diff[1]}`)}` : ''}${run}`;
  },
  finish: {
    wonTitle: 'solved',
    stars: true,
    next: false,
    rows: slideRows,
    extra: splitsList,
  },
  /** A new board of the same size and difficulty, into the free-play slot of that size; a
   *  run in progress or done starts a new run of its mode. */
  newGame(app, s) {
    if (s.run) return { cmd: 'new_game', args: { kind: 'slide', params: s.run.mode.startsWith('relay') ? '' : s.run.params, mode: s.run.mode }, sameSlot: true };
    const v = boardView(s) || {};
    const params = idParams(s.id) || `${v.w}x${v.h}`;
    return { cmd: 'new_game', args: { kind: 'slide', params }, sameSlot: !s.mode || s.mode === 'free' };
  },
  levelList: slideSizes,
  /** Its finishes have a post-game analysis (`analysis`). */
  analysis: true,
  /** The record scope: `slide:WxH`, `slide:WxH/picture` for picture puzzles; a board the app
   * did not deal (no seed) has a scope of its own, known at the finish; a run's own
   * (`slide:4x4/marathon:10`, `slide/relay:5`). */
  scope(app, s) {
    if (s.run) return s.run.scope;
    const v = boardView(s) || {};
    if (!v.w || !v.h || !String(s.id).includes('#')) return null;
    return `slide:${v.w}x${v.h}${/\/picture:/.test(s.id) ? '/picture' : ''}`;
  },
  /** `WxH`, `WxH/picture`, a board of its own (`…/board:<hash>`), a marathon
   *  (`WxH/marathon:10`) and a relay (the whole scope `slide/relay:5`). */
  scopeLabel(app, rest, scope) {
    const relay = /^slide\/relay:(\d+)$/.exec(scope || '');
    if (relay) return `${t('game.slide')} · ${t('run.relay')} ${t('run.relayFrom', { n: relay[1] })}`;
    const [size, ...more] = rest.split('/');
    const marathon = more.map((m) => /^marathon:(\d+)$/.exec(m)).find(Boolean);
    if (marathon) return `${t('game.slide')} ${size.replace('x', '×')} · ${t('run.marathon')} ${marathon[1]}`;
    const pic = more.includes('picture') ? ` · ${t('rec.picture')}` : '';
    const own = more.some((m) => m.startsWith('board:')) ? ` · ${t('rec.board')}` : '';
    return `${t('game.slide')} ${size.replace('x', '×')}${pic}${own}`;
  },
  mini: ['1', '2', '3', '4', '5', '6', '7', '8', ''],
  /** A small drawing of a start board (`preview`'s view): the numbers where they stand. */
  preview(v) {
    const tiles = Array.isArray(v && v.tiles) ? v.tiles : [];
    const items = tiles.map((n, i) => ({ r: Math.floor(i / v.w), c: i % v.w, cls: n ? 'pv-tile' : 'pv-blank', text: n || '' }));
    return previewGrid('slide', v.w, v.h, items);
  },
};

/** A run mode's name: "Marathon", "Relay". */
function runName(mode) {
  return String(mode).startsWith('relay') ? t('run.relay') : t('run.marathon');
}

/**
 * The speedsolving modes on the level screen: a marathon of one size (the size
 * chosen, then its length starts it) and a relay from N×N down to 2×2.
 */
function runModes(screen, sizes) {
  const raw = (screen.app.levelsRaw && screen.app.levelsRaw.slide) || {};
  const modes = raw.modes || { marathon: [5, 10, 42, 100], relay: [3, 4, 5, 6, 7, 8, 9, 10] };
  const squares = sizes.map((l) => l.size).filter((s) => /^(\d+)x\1$/.test(s));
  let size = squares.includes('4x4') ? '4x4' : squares[0] || '4x4';
  const sizeChips = squares.map((sz) =>
    h('button', { class: sz === size ? 'chip primary' : 'chip', type: 'button', 'data-run-size': sz, 'aria-pressed': sz === size ? 'true' : 'false', onclick: (e) => pick(sz, e.currentTarget) }, sz.replace('x', '×')),
  );
  const pick = (sz, el) => {
    size = sz;
    for (const c of sizeChips) {
      const on = c === el;
      c.className = on ? 'chip primary' : 'chip';
      c.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  };
  const marathon = modes.marathon.map((n) =>
    h('button', { class: 'chip', type: 'button', 'data-mode': `marathon:${n}`, 'aria-label': `${t('run.marathon')} ${t('run.count', { n })}`, onclick: () => screen.start(size, { mode: `marathon:${n}` }) }, t('run.count', { n })),
  );
  const relay = modes.relay.map((n) =>
    h('button', { class: 'chip', type: 'button', 'data-mode': `relay:${n}`, 'aria-label': `${t('run.relay')} ${t('run.relayFrom', { n })}`, onclick: () => screen.start('', { mode: `relay:${n}` }) }, t('run.relayFrom', { n })),
  );
  return h(
    'section',
    { class: 'run-modes', 'data-modes': 'slide', 'aria-labelledby': 'run-title' },
    h('h2', { class: 'section-title', id: 'run-title' }, t('run.title')),
    h('div', { class: 'size-row', 'data-run': 'marathon' }, h('div', { class: 'size-head' }, h('span', { class: 'size-name' }, t('run.marathon'))), h('div', { class: 'chips run-sizes' }, sizeChips), h('div', { class: 'chips' }, marathon)),
    h('div', { class: 'size-row', 'data-run': 'relay' }, h('div', { class: 'size-head' }, h('span', { class: 'size-name' }, t('run.relay'))), h('div', { class: 'chips' }, relay)),
  );
}

/** The level screen's body: every size, each with its difficulties and a random board. */
function slideSizes(screen) {
  let sizes = screen.list.filter((l) => l && l.size);
  if (!sizes.length) sizes = [3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ size: `${n}x${n}`, params: `${n}x${n}`, difficulties: [] }));
  // Smallest first (3×3, 3×4, 4×4, 4×5, … 10×10), whatever order the list came in.
  const area = (lv) => lv.size.split('x').map(Number);
  sizes = [...sizes].sort((a, b) => {
    const [aw, ah] = area(a);
    const [bw, bh] = area(b);
    return aw * ah - bw * bh || aw - bw;
  });
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
  return h('div', { class: 'size-list' }, rows, runModes(screen, sizes), pictureList(screen));
}

/** The number slide's finish figures: moves against the optimum, time, tiles per second; a
 *  run's: its moves, time and tiles per second (no optimum). */
function slideRows(s, f) {
  // Tile moves per second only where Rust gives them (a finish of at least a second).
  const tps = f.tps === null || f.tps === undefined ? [] : [['tps', Number(f.tps).toFixed(2), 'tps']];
  if (f.run) {
    return [
      ['yourMoves', f.moves ?? s.moves, 'moves'],
      ['time', formatTime(f.time_ms ?? s.elapsed_ms, true), 'time'],
      ...tps,
    ];
  }
  return [...movesRows(s, f), ...tps];
}

/** A finished run's splits, one line each (the finish dialog's hook). */
function splitsList(s, f) {
  const run = f && f.run;
  if (!run || !Array.isArray(run.splits) || !run.splits.length) return null;
  return h(
    'section',
    { class: 'fin-splits', 'data-splits': String(run.splits.length), 'aria-label': t('run.splits') },
    h('h3', { class: 'section-title' }, `${runName(run.mode)} · ${t('run.splits')}`),
    h(
      'ol',
      { class: 'split-list' },
      run.splits.map((sp, i) =>
        h(
          'li',
          { 'data-split': String(i + 1), 'data-ms': String(sp.ms) },
          h('span', { class: 'split-n' }, `${i + 1}`),
          h('span', { class: 'split-size' }, sp.size.replace('x', '×')),
          h('span', { class: 'split-time' }, formatTime(sp.ms, true)),
          h('span', { class: 'split-moves' }, String(sp.moves)),
          h('span', { class: 'split-tps' }, sp.tps === null || sp.tps === undefined ? '' : `${Number(sp.tps).toFixed(2)} ${t('tps')}`),
        ),
      ),
    ),
  );
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
