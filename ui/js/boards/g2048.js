// 2048 board: swipes anywhere on the play area, arrow keys and (a setting) a direction pad,
// all through the same `play {dir}`. Each cell carries `data-value`; tiles slide with
// transforms when the move's effect says where they came from, otherwise changed cells pop.

export { strings } from './g2048.strings.js';
export const stylesheet = 'css/board-2048.css';
import { h, icon, reducedMotion, setText, setData } from '../dom.js';
import { t, language } from '../i18n.js';
import { boardView, freshGrid } from './common.js';
import { recordFor } from '../screens/records.js';

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

  /** Render the snapshot's `view` ({ size, cells }). */
  update(view, effect) {
    if (!view || !Array.isArray(view.cells)) return false;
    const s = { n: view.size, vals: view.cells };
    if (this.grid) this.grid.el.classList.remove('won');
    if (!this.grid || this.grid.cols !== s.n) this.build(s);
    const prev = this.state;
    this.state = s;
    this.render(prev, effect);
    return true;
  }

  build(s) {
    freshGrid(this, s.n, s.n, 'g2048-grid');
    this.el.setAttribute('aria-label', t('label.board.2048'));
    this.cells = [];
    for (let i = 0; i < s.n * s.n; i++) {
      const cell = h('div', { class: 'cell', role: 'img', 'data-value': '0' }, h('span', { class: 'face', 'aria-hidden': 'true' }));
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
      cell.classList.toggle('big', digits(v) === 4);
      cell.classList.toggle('huge', digits(v) >= 5);
      cell.setAttribute('aria-label', t('label.cell2048', { row: Math.floor(i / n) + 1, col: (i % n) + 1, v: v || t('label.empty') }));
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
      g.classList.toggle('big', digits(m.value) === 4);
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

  /** Swipes anywhere on the play area (a swipe may start off the board). */
  bindArea(area) {
    let start = null;
    area.addEventListener('pointerdown', (e) => {
      if (start || (e.pointerType === 'mouse' && e.button !== 0)) return void (start = null); // a second finger: no swipe
      if (e.target.closest && e.target.closest('.pad')) return;
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

  /** The win (2048 reached): the tiles glow once. Resolves when it is over. */
  win() {
    if (reducedMotion() || !this.grid) return Promise.resolve();
    this.grid.el.classList.add('won');
    return new Promise((resolve) => setTimeout(resolve, 600));
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
  solveLabel: 'autoPlay',
  stats: [['score', 'score'], ['tile', 'bestTile'], ['best', 'bestShort'], ['moves', 'moves']],
  statValues(app, s) {
    const c = s.counters || {};
    const score = Number(c.score || 0);
    const rec = recordFor(app, '2048', '2048');
    return { score, tile: maxTile(s), best: Math.max(score, Number((rec && rec.best_score) || 0)), moves: s.moves };
  },
  subtitle: () => '',
  moveSaid(before, s) {
    if (Number((s.counters || {}).score || 0) <= Number((before.counters || {}).score || 0)) return null;
    return { sound: 'merge', text: t('say.merged', { value: maxTile(s) }) };
  },
  finish: {
    wonTitle: 'reached2048',
    stars: false,
    next: false,
    keepGoing: true,
    rows: (s, f) => [
      ['score', (s.counters && s.counters.score) || 0, 'score'],
      ['bestTile', maxTile(s), 'tile'],
      ['moves', f.moves ?? s.moves, 'moves'],
    ],
  },
  cardFields(s, f) {
    return { score: Number(f.score ?? (s.counters && s.counters.score) ?? 0), best_tile: Number(f.best_tile ?? maxTile(s)) };
  },
  /** A new seed, into the free game's slot. */
  newGame: (app, s) => ({ cmd: 'new_game', args: { kind: '2048', params: '' }, sameSlot: !s.mode || s.mode === 'free' }),
  levelList(screen) {
    const rec = (screen.list[0] && screen.list[0].best) || recordFor(screen.app, '2048', '2048');
    const stat = (label, v) => h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, t(label)), h('span', { class: 'stat-value' }, String(v || 0)));
    return h(
      'div',
      { class: 'g2048-start' },
      h('div', { class: 'stats' }, stat('bestScore', rec && rec.best_score), stat('bestTile', rec && rec.best_tile)),
      h('button', { class: 'btn primary wide', type: 'button', 'data-action': 'new-2048', onclick: () => screen.start('') }, icon('new'), t('newGame')),
    );
  },
  mini: ['2', '', '4', '', '', '8', '', '2', '16', '', '', '', '', '2', '', '4'],
};

function maxTile(s) {
  const c = s.counters || {};
  if (c.max_tile) return Number(c.max_tile);
  const v = boardView(s);
  return v ? Math.max(0, ...v.cells) : 0;
}
