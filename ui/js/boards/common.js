// What every board shares: a square-ish grid whose cell size follows the element's size,
// a single active pointer with capture, and the parse helpers of the game-ID bodies.

import { h } from '../dom.js';

/** The board as data: the snapshot's `view` (Rust builds it; the UI never parses board text). */
export function boardView(snapshot) {
  return snapshot && snapshot.view && typeof snapshot.view === 'object' ? snapshot.view : null;
}

/** The params of a `kind:params#seed` game ID (what `new_game` takes), or null if unseeded. */
export function idParams(id) {
  const m = /^[^:]+:([^#]*)#\d+$/.exec(id || '');
  return m ? m[1] : null;
}

/** A promise that resolves after `ms` (a pause inside a celebration, never a test's wait). */
export function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A board's win celebration, the one shape every board returns from `celebrate`: `run({ keep,
 * pause })` plays it (`keep(animation)` registers a Web Animation, `pause(ms)` waits unless
 * skipped) and resolves when its sequence is over. Returns `{ done, skip }`: `done` resolves
 * once every kept animation has ended and `cleanup` ran; `skip()` jumps them all to their end.
 */
export function celebration(run, { cleanup = null } = {}) {
  let skipped = false;
  const anims = [];
  const wakes = [];
  const end = (a) => {
    try {
      a.finish();
    } catch (_) {
      a.cancel();
    }
  };
  const keep = (a, id = 'celebrate') => {
    a.id = id;
    anims.push(a);
    if (skipped) end(a);
    return a;
  };
  const pause = (ms) =>
    skipped
      ? Promise.resolve()
      : new Promise((resolve) => {
          const timer = setTimeout(resolve, ms);
          wakes.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
  const done = Promise.resolve()
    .then(() => run({ keep, pause, skipped: () => skipped }))
    .catch(() => null)
    .then(() => Promise.all(anims.map((a) => a.finished.catch(() => null))))
    .then(() => {
      if (cleanup) cleanup();
    });
  return {
    done,
    skip() {
      skipped = true;
      anims.forEach(end);
      wakes.forEach((w) => w());
    },
  };
}

/** Finish every running Web Animation of `el` (jump to its end state; a win's is taken back). */
export function finishAnimations(el) {
  if (!el || !el.getAnimations) return;
  for (const a of el.getAnimations()) {
    try {
      if (a.id === 'win') a.cancel();
      else a.finish();
    } catch (_) {
      a.cancel();
    }
  }
}

/**
 * A grid element of `cols` × `rows` cells that keeps `--cell` (px) up to date and reports
 * the cell size to `onResize`. The element keeps the board's aspect ratio through CSS.
 */
export class Grid {
  constructor(cols, rows, className) {
    this.cols = cols;
    this.rows = rows;
    this.cell = 0;
    this.el = h('div', { class: `grid ${className || ''}` });
    this.el.style.setProperty('--cols', String(cols));
    this.el.style.setProperty('--rows', String(rows));
    this.listeners = [];
    this.ro = new ResizeObserver(() => this.measure());
    this.ro.observe(this.el);
  }
  measure() {
    const w = this.el.clientWidth;
    const cell = w / this.cols;
    if (cell > 0 && Math.abs(cell - this.cell) > 0.01) {
      this.cell = cell;
      this.el.style.setProperty('--cell', `${cell}px`);
      for (const f of this.listeners) f(cell);
    }
  }
  onResize(f) {
    this.listeners.push(f);
  }
  destroy() {
    this.ro.disconnect();
  }
}

/**
 * Replace a board's grid with a fresh `cols` × `rows` one: the old grid's resize observer and
 * pointer handlers go, the board element is emptied and takes the new aspect ratio.
 */
export function freshGrid(board, cols, rows, className) {
  releaseGrid(board);
  board.el.replaceChildren();
  board.grid = new Grid(cols, rows, className);
  board.el.style.setProperty('--aspect', String(cols / rows));
  return board.grid;
}

/** Let go of a board's grid: its resize observer and pointer handlers (also a board's `destroy`). */
export function releaseGrid(board) {
  if (board.grid) board.grid.destroy();
  if (board.untrack) board.untrack();
  board.untrack = null;
}

/** Lay the board out again on resize and route its grid's pointer to down/move/up/cancel. */
export function bindGrid(board) {
  board.grid.onResize(() => board.layout(true));
  board.untrack = trackPointer(board.grid.el, {
    down: (e) => board.down(e),
    move: (e) => board.move(e),
    up: (e) => board.up(e),
    cancel: () => board.cancel(),
  });
}

/** A finger that travelled further than this (CSS px) drags; less is a tap. */
export const TAP_PX = 6;

/** A drag begins: `drag` (with the finger's start `x0`, `y0`) is the board's, frames are watched. */
export function beginDrag(board, drag) {
  board.drag = drag;
  frameMonitor.start();
  return true;
}

/**
 * The board's drag and the finger's travel since it began (`null`: no drag); marks the drag
 * `moved` once the travel is more than a tap.
 */
export function dragDelta(board, e) {
  const d = board.drag;
  if (!d) return null;
  const dx = e.clientX - d.x0;
  const dy = e.clientY - d.y0;
  if (Math.hypot(dx, dy) > TAP_PX) d.moved = true;
  return { d, dx, dy };
}

/**
 * Single-pointer tracking with capture; a second pointer while one is down cancels both. A
 * finger that is not the touch's first (not `isPrimary`) is never taken, even when the first
 * landed where there is nothing to drag (the blank): two fingers are not a tap.
 */
export function trackPointer(el, handlers) {
  let active = null;
  const down = (e) => {
    if (active !== null) return void cancel({ pointerId: active }); // a second finger: neither a drag nor a tap
    if (!e.isPrimary) return;
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const accepted = handlers.down(e);
    if (accepted === false) return;
    active = e.pointerId;
    try {
      el.setPointerCapture(e.pointerId);
    } catch (_) {
      /* pointer already gone */
    }
    e.preventDefault();
  };
  const move = (e) => {
    if (e.pointerId !== active) return;
    handlers.move(e);
    e.preventDefault();
  };
  const end = (cancelled) => (e) => {
    if (e.pointerId !== active) return;
    active = null;
    try {
      el.releasePointerCapture(e.pointerId);
    } catch (_) {
      /* already released */
    }
    if (cancelled) handlers.cancel(e);
    else handlers.up(e);
  };
  const up = end(false);
  const cancel = end(true);
  el.addEventListener('pointerdown', down);
  el.addEventListener('pointermove', move);
  el.addEventListener('pointerup', up);
  el.addEventListener('pointercancel', cancel);
  el.addEventListener('lostpointercapture', (e) => {
    if (e.pointerId === active) cancel(e);
  });
  return () => {
    el.removeEventListener('pointerdown', down);
    el.removeEventListener('pointermove', move);
    el.removeEventListener('pointerup', up);
    el.removeEventListener('pointercancel', cancel);
  };
}

/**
 * A main-thread stall monitor: every gap between animation frames while a drag is on, one
 * array per drag (the E2E figures take the longest of each and count those over 50 ms).
 * (WebKitGTK has no PerformanceObserver "longtask" entries, so frames are watched instead.)
 */
export const frameMonitor = {
  running: false,
  last: 0,
  runs: [],
  current: [],
  start() {
    if (this.running) return;
    this.running = true;
    this.last = performance.now();
    const tick = (now) => {
      if (!this.running) return;
      this.current.push(Math.round(now - this.last));
      this.last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  },
  stop() {
    if (!this.running) return;
    this.running = false;
    this.runs.push(this.current);
    if (this.runs.length > 20) this.runs.shift();
    this.current = [];
  },
};
window.__huarongFrames = frameMonitor;

/**
 * A small static drawing of a board (home's daily, Klotski layout previews, a
 * friend's code): a `w` × `h` CSS grid, each item `{r, c, h, w, cls, text, data}` placed by its
 * grid lines (CSSOM, which the CSP allows). Decorative: the caller names the puzzle in words.
 */
export function previewGrid(kind, w, hh, items) {
  const el = h('div', { class: `pv pv-${kind}`, 'aria-hidden': 'true' });
  el.style.setProperty('--pv-cols', String(w));
  el.style.setProperty('--pv-rows', String(hh));
  for (const it of items) {
    const cell = h('span', { class: `pv-item ${it.cls || ''}` }, it.text === undefined || it.text === null ? '' : String(it.text));
    cell.style.gridArea = `${it.r + 1} / ${it.c + 1} / span ${it.h || 1} / span ${it.w || 1}`;
    for (const [k, v] of Object.entries(it.data || {})) cell.dataset[k] = String(v);
    el.append(cell);
  }
  return el;
}
