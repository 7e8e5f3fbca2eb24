// 2048 board: swipes anywhere on the play area (handled by the game screen through `swipe`)
// and arrow keys. Each cell carries `data-value`; tiles slide with transforms when the move's
// effect says where they came from, otherwise changed cells pop.

import { h, reducedMotion, setText, setData } from '../dom.js';
import { t, language } from '../i18n.js';
import { freshGrid, parse2048 } from './common.js';

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

  update(body, effect) {
    const s = parse2048(body);
    if (!s) return false;
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
