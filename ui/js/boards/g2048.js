// 2048 board: swipes anywhere on the play area (handled by the game screen through `swipe`)
// and arrow keys. Each cell carries `data-value`; tiles slide with transforms when the move's
// effect says where they came from, otherwise changed cells pop.

import { h, reducedMotion } from '../dom.js';
import { t } from '../i18n.js';
import { Grid, parse2048 } from './common.js';

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
    if (this.grid) this.grid.destroy();
    this.el.replaceChildren();
    this.grid = new Grid(s.n, s.n, 'g2048-grid');
    this.el.setAttribute('aria-label', t('label.board.2048'));
    this.el.style.setProperty('--aspect', String(1));
    this.cells = [];
    for (let i = 0; i < s.n * s.n; i++) {
      const cell = h('div', { class: 'cell', role: 'img', 'data-value': '0' }, h('span', { class: 'face', 'aria-hidden': 'true' }));
      this.cells.push(cell);
      this.grid.el.append(cell);
    }
    this.el.append(this.grid.el);
    this.grid.onResize(() => this.render(null, null));
  }

  render(prev, effect) {
    const { n, vals } = this.state;
    const motion = !reducedMotion() && prev && prev.n === n;
    const spawned = new Set();
    const merged = new Set();
    const moves = [];
    if (effect && typeof effect === 'object') {
      // The engine's effect: tiles moved (from → to), merges and the spawned tile.
      for (const m of effect.moved || effect.moves || []) {
        const from = Array.isArray(m) ? m[0] : m.from;
        const to = Array.isArray(m) ? m[1] : m.to;
        if (Number.isInteger(from) && Number.isInteger(to) && from !== to) moves.push([from, to]);
      }
      for (const m of effect.merged || effect.merges || []) merged.add(Number.isInteger(m) ? m : m.at ?? m.to ?? m.index);
      const sp = effect.spawn || effect.spawned;
      if (sp) for (const s of Array.isArray(sp) ? sp : [sp]) spawned.add(Number.isInteger(s) ? s : s.at ?? s.index);
    }
    vals.forEach((v, i) => {
      const cell = this.cells[i];
      const old = cell.dataset.value;
      cell.dataset.value = String(v);
      cell.classList.remove('spawn', 'merge', 'pop');
      cell.firstChild.textContent = v ? String(v) : '';
      cell.classList.toggle('big', v >= 1024 || digits(v) >= 4);
      cell.classList.toggle('huge', digits(v) >= 5);
      cell.setAttribute('aria-label', t('label.cell2048', { row: Math.floor(i / n) + 1, col: (i % n) + 1, v: v || t('label.empty') }));
      if (!motion) return;
      if (spawned.has(i)) cell.classList.add('spawn');
      else if (merged.has(i)) cell.classList.add('merge');
      else if (!effect && old !== String(v) && v) cell.classList.add('pop');
    });
    if (motion && moves.length && this.grid.cell) {
      // Slide the faces from where they were: start offset, then release on the next frame.
      const cell = this.grid.cell;
      const faces = [];
      for (const [from, to] of moves) {
        const face = this.cells[to].firstChild;
        if (!vals[to]) continue;
        const dx = ((from % n) - (to % n)) * cell;
        const dy = (Math.floor(from / n) - Math.floor(to / n)) * cell;
        face.classList.add('instant');
        face.style.transform = `translate3d(${dx}px, ${dy}px, 0)`;
        faces.push(face);
      }
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          for (const f of faces) {
            f.classList.remove('instant');
            f.style.transform = '';
          }
        }),
      );
    }
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
    if (this.grid) this.grid.destroy();
  }
}
