// 2048 board: swipes anywhere on the play area, arrow keys and (a setting) a direction pad,
// all through the same `play {dir}`. Each cell carries `data-value`; tiles slide with
// transforms when the move's effect says where they came from, otherwise changed cells pop.

export { strings } from './g2048.strings.js';
export const stylesheet = 'css/board-2048.css';
import { h, icon, reducedMotion, setText, setData } from '../dom.js';
import { t, language, formatTime } from '../i18n.js';
import { boardView, freshGrid, previewGrid, celebration } from './common.js';
import { recordFor } from '../screens/records.js';
import { AccessGrid, hideDrawn, where, list, sentences, num, toolbar } from '../a11y.js';

const SWIPE_MIN_PX = 24;
const ARROWS = { up: 'M12 5v14M6 11l6-6 6 6', down: 'M12 19V5M6 13l6 6 6-6', left: 'M5 12h14M11 6l-6 6 6 6', right: 'M19 12H5M13 6l6 6-6 6' };

function digits(v) {
  return String(v).length;
}

export class G2048Board {
  constructor(ctx) {
    this.ctx = ctx;
    this.state = null;
    this.grid = null;
    this.cells = [];
    this.hintEl = null;
    this.el = h('div', { class: 'board-frame g2048-frame' });
  }

  /** Render the snapshot's `view` ({ size, cells, win }): any side 3 … 8. */
  update(view, effect) {
    if (!view || !Array.isArray(view.cells)) return false;
    const s = { n: view.size, vals: view.cells };
    // The side drives the tiles' type scale (board-2048.css): a bigger board, smaller cells.
    this.el.dataset.size = `${s.n}x${s.n}`;
    if (!this.grid || this.grid.cols !== s.n) this.build(s);
    const prev = this.state;
    this.state = s;
    this.render(prev, effect);
    return true;
  }

  build(s) {
    freshGrid(this, s.n, s.n, 'g2048-grid');
    this.lang = null; // every cell labelled afresh
    this.el.setAttribute('aria-label', t('label.board.2048'));
    this.cells = [];
    for (let i = 0; i < s.n * s.n; i++) {
      const cell = h('div', { class: 'cell', 'data-value': '0' }, h('span', { class: 'face' }));
      hideDrawn(cell);
      this.cells.push(cell);
      this.grid.el.append(cell);
    }
    // The sliding copies of a move, made once and reused: inserting and removing elements on
    // every move cost more style and layout than the whole rest of the move.
    this.ghosts = [];
    for (let i = 0; i < s.n * s.n; i++) {
      const g = h('div', { class: 'gtile idle', 'data-v': '0', 'aria-hidden': 'true' }, h('span', { class: 'face' }));
      this.ghosts.push(g);
      this.grid.el.append(g);
    }
    // The cells are read, not played: a move is a swipe (the toolbar's move buttons).
    if (!this.access) this.access = new AccessGrid(t('label.board.2048'), () => {});
    this.access.size(s.n, s.n);
    this.grid.el.append(this.access.el);
    this.el.append(this.grid.el);
    this.grid.onResize(() => this.render(null, null));
  }

  render(prev, effect) {
    const { n, vals } = this.state;
    this.finishAnimation();
    const motion = !reducedMotion() && prev && prev.n === n && effect && Array.isArray(effect.tiles);
    const relabel = this.lang !== language();
    this.lang = language();
    vals.forEach((v, i) => {
      const cell = this.cells[i];
      if (cell.classList.length > 1) cell.classList.remove('spawn', 'merge', 'arriving');
      // Touch only the cells that changed: fewer style invalidations per move.
      if (cell.dataset.value === String(v) && !relabel) return;
      cell.dataset.value = String(v);
      cell.firstChild.textContent = v ? String(v) : '';
      cell.classList.toggle('mid', digits(v) === 3);
      cell.classList.toggle('big', digits(v) === 4);
      cell.classList.toggle('huge', digits(v) >= 5);
      this.access.label(Math.floor(i / n), i % n, t('a11y.cell', { what: v ? String(v) : t('a11y.empty'), where: where(Math.floor(i / n), i % n) }), { cellValue: v });
    });
    if (!motion || !this.grid.cell) return;
    // Slide copies of the old tiles from where they were to where they went, then reveal the
    // new board (merges pulse, the new tile grows in). A new move finishes this at once.
    const cell = this.grid.cell;
    const arriving = new Set();
    const merged = new Set();
    const ghosts = [];
    for (const m of effect.tiles) {
      if (m.from === m.to && !m.merged) continue;
      const g = this.ghosts[ghosts.length];
      if (!g) break;
      arriving.add(m.to);
      if (m.merged) merged.add(m.to);
      setData(g, 'v', m.value);
      setText(g.firstChild, m.value);
      g.classList.toggle('mid', digits(m.value) === 3);
      g.classList.toggle('big', digits(m.value) === 4);
      g.classList.toggle('huge', digits(m.value) >= 5);
      g.classList.remove('idle');
      const from = `translate3d(${(m.from % n) * cell}px, ${Math.floor(m.from / n) * cell}px, 0)`;
      g.style.transform = from;
      ghosts.push([g, m.to, from]);
    }
    const spawnAt = effect.spawn ? effect.spawn.cell : -1;
    for (const i of arriving) this.cells[i].classList.add('arriving');
    if (spawnAt >= 0) this.cells[spawnAt].classList.add('arriving');
    const done = () => {
      if (this.anim !== anim) return;
      this.anim = null;
      for (const [g] of ghosts) {
        if (g.getAnimations) for (const a of g.getAnimations()) a.cancel();
        g.classList.add('idle');
      }
      for (const i of arriving) {
        this.cells[i].classList.remove('arriving');
        if (merged.has(i)) this.cells[i].classList.add('merge');
      }
      if (spawnAt >= 0) {
        this.cells[spawnAt].classList.remove('arriving');
        this.cells[spawnAt].classList.add('spawn');
      }
    };
    const anim = { done, timer: 0 };
    this.anim = anim;
    // Web Animations: the ghosts slide from → to without forcing a synchronous layout.
    for (const [g, to, from] of ghosts) {
      const end = `translate3d(${(to % n) * cell}px, ${Math.floor(to / n) * cell}px, 0)`;
      g.style.transform = end;
      if (g.animate) g.animate([{ transform: from }, { transform: end }], { duration: 110, easing: 'ease-out' });
    }
    anim.timer = setTimeout(done, 120);
  }

  finishAnimation() {
    if (!this.anim) return;
    const a = this.anim;
    clearTimeout(a.timer);
    a.done();
  }

  key(dir) {
    this.ctx.play({ dir });
    return true;
  }

  /**
   * One move in words from Rust's effect and the new view: "left; merged 64; score 1,240; new 2
   * at row 1, column 3".
   */
  moveWords(mv, effect, before, snap) {
    const v = boardView(snap);
    if (!mv || !mv.dir || !effect || !v) return null;
    const parts = [t('a11y.slid2048', { dir: t(`a11y.dir.${mv.dir}`) })];
    const merged = [...new Set((effect.tiles || []).filter((m) => m.merged).map((m) => m.to))].map((i) => v.cells[i]);
    if (merged.length) parts.push(t('a11y.merged', { list: list(merged.map(num)) }));
    const gained = Number(effect.gained || 0);
    if (gained) parts.push(t('a11y.score', { n: num((snap.counters && snap.counters.score) || 0) }));
    if (effect.spawn) parts.push(t('a11y.new', { v: effect.spawn.value, where: where(Math.floor(effect.spawn.cell / v.size), effect.spawn.cell % v.size) }));
    return { text: sentences(parts), placed: false, merged: merged.length > 0 };
  }

  /** The screen reader's moves and questions (the game screen puts them under the board). */
  tools() {
    const moves = ['up', 'down', 'left', 'right'].map((dir) => ({ id: `move-${dir}`, label: t(`a11y.move.${dir}`), run: () => void this.ctx.play({ dir }) }));
    return toolbar([
      ...moves,
      {
        id: 'empty',
        label: t('a11y.q.empties'),
        run: () => {
          const s = this.state;
          if (!s) return '';
          const free = s.vals.map((x, i) => (x ? null : where(Math.floor(i / s.n), i % s.n))).filter(Boolean);
          return t('a11y.a.empty', { where: free.length ? list(free) : t('a11y.a.none') });
        },
      },
      {
        id: 'row',
        label: t('a11y.q.row'),
        run: () => {
          const s = this.state;
          if (!s || !this.access) return '';
          const r = this.access.r;
          const cells = s.vals.slice(r * s.n, (r + 1) * s.n).map((x) => (x ? String(x) : t('a11y.empty')));
          return t('a11y.a.row', { n: r + 1, cells: list(cells) });
        },
      },
      { id: 'next', label: t('a11y.q.next'), run: () => this.ctx.hint && this.ctx.hint() },
    ]);
  }

  /** Swipes anywhere on the play area (a swipe may start off the board). */
  bindArea(area) {
    area.append(this.tools());
    let start = null;
    area.addEventListener('pointerdown', (e) => {
      if (start || (e.pointerType === 'mouse' && e.button !== 0)) return void (start = null); // a second finger: no swipe
      if (e.target.closest && e.target.closest('.pad, .a11y-tools')) return;
      if (this.ctx.busy()) return;
      start = { id: e.pointerId, x: e.clientX, y: e.clientY, t: performance.now() };
      try {
        area.setPointerCapture(e.pointerId);
      } catch (_) {
        /* gone */
      }
      e.preventDefault();
    });
    const end = (e, cancelled) => {
      if (!start || e.pointerId !== start.id) return;
      const s = start;
      start = null;
      if (cancelled) return;
      const dx = e.clientX - s.x;
      const dy = e.clientY - s.y;
      const ax = Math.abs(dx);
      const ay = Math.abs(dy);
      const cell = (this.grid && this.grid.cell) || 80;
      const dist = Math.max(ax, ay);
      const speed = dist / Math.max(1, performance.now() - s.t);
      const far = dist >= Math.max(SWIPE_MIN_PX, cell * 0.3);
      const flick = dist >= 12 && speed > 0.45;
      if (!far && !flick) return;
      if (Math.max(ax, ay) < 1.5 * Math.min(ax, ay)) return; // no clearly dominant axis
      this.ctx.play({ dir: ax > ay ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up' });
    };
    area.addEventListener('pointerup', (e) => end(e, false));
    area.addEventListener('pointercancel', (e) => end(e, true));
  }

  /** The direction pad (setting `pad`, off by default): four buttons, the same `play`. */
  pad(settings) {
    if (!settings.pad) return null;
    const ns = 'http://www.w3.org/2000/svg';
    const button = (dir) => {
      const svg = document.createElementNS(ns, 'svg');
      svg.setAttribute('class', 'icon');
      svg.setAttribute('viewBox', '0 0 24 24');
      svg.setAttribute('aria-hidden', 'true');
      const path = document.createElementNS(ns, 'path');
      path.setAttribute('d', ARROWS[dir]);
      svg.append(path);
      return h('button', { class: `pad-btn pad-${dir}`, type: 'button', 'data-action': `dir-${dir}`, 'aria-label': t(`pad.${dir}`), onclick: () => this.ctx.play({ dir }) }, svg);
    };
    return h('div', { class: 'pad', role: 'group', 'aria-label': t('pad.label') }, button('up'), button('left'), button('right'), button('down'));
  }

  /**
   * The celebration at the winning move (the finish flow calls it, then shows the dialog):
   * the winning tile bursts — it swells and a ring of sparks flies out of it — while the
   * other tiles bow once. Transform and opacity only. `reduced`: a short pulse of the tile,
   * nothing longer than 200 ms. Returns `{ done, skip }`, or null.
   */
  celebrate({ reduced = false } = {}) {
    if (!this.grid || !this.state || !this.grid.cell || !this.grid.el.animate) return null;
    this.finishAnimation();
    const { n, vals } = this.state;
    const top = Math.max(...vals);
    const at = vals.indexOf(top);
    const cell = this.cells[at];
    if (!cell) return null;
    const sparks = [];
    // The winning tile stays above its burst: the ring and the sparks pass behind it, so its
    // digits are never covered.
    cell.classList.add('celebrating');
    return celebration(
      async ({ keep, pause }) => {
        if (reduced) {
          keep(cell.firstChild.animate([{ opacity: 1 }, { opacity: 0.6 }, { opacity: 1 }], { duration: 180, easing: 'ease-out' }));
          return;
        }
        const size = this.grid.cell;
        // Two pulses, the second the bigger one, then the burst.
        keep(
          cell.firstChild.animate(
            [
              { transform: 'scale(1)' },
              { transform: 'scale(1.12)', offset: 0.15 },
              { transform: 'scale(1)', offset: 0.3 },
              { transform: 'scale(1.25)', offset: 0.5 },
              { transform: 'scale(0.95)', offset: 0.72 },
              { transform: 'scale(1)' },
            ],
            { duration: 1000, easing: 'ease-in-out' },
          ),
        );
        await pause(420);
        const cx = ((at % n) + 0.5) * size;
        const cy = (Math.floor(at / n) + 0.5) * size;
        const count = 12;
        for (let i = 0; i < count; i++) {
          const sp = h('span', { class: 'spark', 'aria-hidden': 'true' });
          this.grid.el.append(sp);
          sparks.push(sp);
          const angle = (i / count) * Math.PI * 2;
          const dist = size * (0.95 + (i % 3) * 0.25);
          const from = `translate(${cx}px, ${cy}px) scale(1)`;
          // Within the board: a spark never pushes the page wider than the screen.
          const inside = (v) => Math.max(size * 0.1, Math.min(n * size - size * 0.1, v));
          const to = `translate(${inside(cx + Math.cos(angle) * dist)}px, ${inside(cy + Math.sin(angle) * dist)}px) scale(0.3) rotate(${i * 40}deg)`;
          keep(sp.animate([{ transform: from, opacity: 1 }, { opacity: 1, offset: 0.6 }, { transform: to, opacity: 0 }], { duration: 760, easing: 'cubic-bezier(0.2, 0.7, 0.3, 1)', fill: 'both' }));
        }
        const ring = h('span', { class: 'burst-ring', 'aria-hidden': 'true' });
        this.grid.el.append(ring);
        sparks.push(ring);
        keep(ring.animate([{ transform: `translate(${cx}px, ${cy}px) scale(0.8)`, opacity: 0.95 }, { transform: `translate(${cx}px, ${cy}px) scale(2.4)`, opacity: 0 }], { duration: 700, easing: 'ease-out', fill: 'both' }));
        // Every other tile bows toward the burst.
        vals.forEach((v, i) => {
          if (!v || i === at) return;
          const d = Math.abs((i % n) - (at % n)) + Math.abs(Math.floor(i / n) - Math.floor(at / n));
          keep(this.cells[i].firstChild.animate([{ transform: 'scale(1)' }, { transform: 'scale(0.9)' }, { transform: 'scale(1)' }], { duration: 420, delay: d * 60, easing: 'ease-in-out' }));
        });
      },
      {
        cleanup: () => {
          for (const sp of sparks) sp.remove();
          cell.classList.remove('celebrating');
        },
      },
    );
  }

  showHint(mv) {
    this.clearHint();
    if (!mv || !mv.dir) return null;
    this.hintEl = h('div', { class: `swipe-hint dir-${mv.dir}`, 'aria-hidden': 'true' });
    this.el.append(this.hintEl);
    return t('hint.2048', { dir: t(`dir.${mv.dir}`) });
  }

  clearHint() {
    if (this.hintEl) this.hintEl.remove();
    this.hintEl = null;
  }

  destroy() {
    this.finishAnimation();
    if (this.grid) this.grid.destroy();
  }
}

/** 2048 in the registry (boards/index.js). */
export const game = {
  kind: '2048',
  Board: G2048Board,
  /** A small drawing of a start board (`preview`'s view): the tiles by value. */
  preview(v) {
    const n = (v && v.size) || 4;
    const cells = Array.isArray(v && v.cells) ? v.cells : [];
    const items = cells.map((x, i) => ({ r: Math.floor(i / n), c: i % n, cls: x ? 'pv-tile' : 'pv-blank', text: x || '', data: { v: x } }));
    return previewGrid('2048', n, n, items);
  },
  solveLabel: 'autoPlay',
  stats: [['score', 'score'], ['tile', 'bestTile'], ['best', 'bestShort'], ['moves', 'moves']],
  statValues(app, s) {
    const c = s.counters || {};
    const score = Number(c.score || 0);
    const rec = recordFor(app, scopeOfSize(sizeOf(s)), '2048');
    return { score, tile: maxTile(s), best: Math.max(score, Number((rec && rec.best_score) || 0)), moves: s.moves };
  },
  subtitle: () => '',
  moveSaid(before, s) {
    if (Number((s.counters || {}).score || 0) <= Number((before.counters || {}).score || 0)) return null;
    return { sound: 'merge', text: t('say.merged', { value: maxTile(s) }) };
  },
  finish: {
    wonTitle: 'reached2048',
    /** The winning tile of the board's size (256 on the 3×3), from the view Rust sent. */
    wonParams: (s) => ({ v: winOf(s) }),
    stars: false,
    next: false,
    keepGoing: true,
    rows: (s, f) => [
      ['score', (s.counters && s.counters.score) || 0, 'score'],
      ['bestTile', maxTile(s), 'tile'],
      ['moves', f.moves ?? s.moves, 'moves'],
      ['time', formatTime(f.time_ms ?? s.elapsed_ms, true), 'time'],
    ],
  },
  /** A new seed on the same board size, into that size's free game slot. */
  newGame: (app, s) => ({ cmd: 'new_game', args: { kind: '2048', params: paramsOf(sizeOf(s)) }, sameSlot: !s.mode || s.mode === 'free' }),
  levelList: sizeChooser,
  /** One record scope per board size for every dealt game (`2048` for the 4×4, `2048:5x5` …;
   * its record is the score, not the moves); a board of its own (`2048:<board>#seed`) is known
   * at the finish. */
  scope: (app, s) => {
    const id = String(s.id);
    if (/^2048:\d+x\d+#/.test(id)) return scopeOfSize(sizeOf(s));
    return /^2048:[^#]/.test(id) ? null : '2048';
  },
  scopeLabel: (app, rest) => {
    if (rest.startsWith('board:')) return `${t('game.2048')} · ${t('rec.board')}`;
    return rest ? `${t('game.2048')} ${rest.replace('x', '×')}` : t('game.2048');
  },
  bestMoves: false,
  mini: ['2', '', '4', '', '', '8', '', '2', '16', '', '', '', '', '2', '', '4'],
};

/** The board side of a snapshot (4 when unknown: the 4×4 of before). */
function sizeOf(s) {
  const v = s && boardView(s);
  return (v && Number(v.size)) || 4;
}

function winOf(s) {
  const v = s && boardView(s);
  return (v && Number(v.win)) || 2048;
}

/** `new_game`'s params for a side: "" is the 4×4 (its game IDs stay `2048#seed`). */
function paramsOf(n) {
  return n === 4 ? '' : `${n}x${n}`;
}

function scopeOfSize(n) {
  return n === 4 ? '2048' : `2048:${n}x${n}`;
}

/** The size the level screen offers first: the last one chosen, else the current game's. */
let chosenSize = null;

/**
 * 2048's level screen: a row of board sizes (3×3 … 8×8, from Rust's `levels`, each with its
 * best score), the chosen size's bests, and one primary button that starts it.
 */
function sizeChooser(screen) {
  const app = screen.app;
  let sizes = screen.list.filter((l) => l && l.size).slice();
  if (!sizes.length) sizes = [{ size: 4, params: '', win: 2048, best: recordFor(app, '2048', '2048') }];
  sizes.sort((a, b) => a.size - b.size);
  const current = app.progress && app.progress.games && app.progress.games['2048'];
  const start = chosenSize || (current && sizeOf(current)) || 4;
  let chosen = sizes.find((l) => l.size === start) || sizes.find((l) => l.size === 4) || sizes[0];
  const value = (label) => h('span', { class: 'stat-value', 'data-stat': label }, '0');
  const scoreEl = value('best-score');
  const tileEl = value('best-tile');
  const winEl = h('p', { class: 'g2048-goal' });
  const stat = (label, el) => h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, t(label)), el);
  // A size never played shows no bests (not "Best tile 0").
  const statsEl = h('div', { class: 'stats', 'data-bests': '' }, stat('bestScore', scoreEl), stat('bestTile', tileEl));
  const chips = sizes.map((lv) => {
    const label = `${lv.size}×${lv.size}`;
    const best = lv.best && lv.best.best_score;
    return h(
      'button',
      {
        class: 'chip g2048-size',
        type: 'button',
        'data-size': `${lv.size}x${lv.size}`,
        'aria-pressed': 'false',
        'aria-label': best ? `${label} · ${t('bestScore')} ${best}` : label,
        onclick: () => choose(lv),
      },
      h('span', { class: 'g2048-size-name' }, label),
      h('span', { class: 'g2048-size-best' }, best ? String(best) : '–'),
    );
  });
  const choose = (lv) => {
    chosen = lv;
    chosenSize = lv.size;
    chips.forEach((c, i) => c.setAttribute('aria-pressed', String(sizes[i] === lv)));
    const rec = lv.best || recordFor(app, lv.scope || scopeOfSize(lv.size), '2048');
    scoreEl.textContent = String((rec && rec.best_score) || 0);
    tileEl.textContent = String((rec && rec.best_tile) || 0);
    statsEl.hidden = !(rec && (rec.best_score || rec.best_tile));
    winEl.textContent = t('g2048.goal', { v: lv.win || 2048 });
  };
  choose(chosen);
  return h(
    'div',
    { class: 'g2048-start' },
    h('div', { class: 'g2048-sizes', role: 'group', 'aria-label': t('g2048.sizes') }, chips),
    winEl,
    statsEl,
    h('button', { class: 'btn primary wide', type: 'button', 'data-action': 'new-2048', onclick: () => screen.start(paramsOf(chosen.size)) }, icon('new'), t('newGame')),
  );
}

function maxTile(s) {
  const c = s.counters || {};
  if (c.max_tile) return Number(c.max_tile);
  const v = boardView(s);
  return v ? Math.max(0, ...v.cells) : 0;
}
