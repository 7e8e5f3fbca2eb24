// Lights Out on one row: the board of the tests' stand-in game (the engine's `stand-in`
// feature; never in a shipped build). The registry loads it only with `?test-game=lights` and
// only when the core has the game (boards/index.js). A tap on a light is `play {flip}`; Rust
// flips it and its neighbours and says when every light is off.

export { strings } from './lights.strings.js';
export const stylesheet = 'css/board-lights.css';
import { h, reducedMotion } from '../dom.js';
import { t } from '../i18n.js';
import { boardView, freshGrid, releaseGrid } from './common.js';
import { recordFor, bestText } from '../screens/records.js';
import { movesRows } from './slide.js';

/** The lights of a snapshot's view (`{lights: [bool, …]}`), or null. */
function lightsOf(s) {
  const v = boardView(s);
  return v && Array.isArray(v.lights) ? v.lights : null;
}

export class LightsBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.buttons = [];
    this.hinted = null;
    this.el = h('div', { class: 'board-frame lights-frame' });
  }

  /** Render the snapshot's `view` ({ lights }); false if there is none. */
  update(view) {
    const lights = view && Array.isArray(view.lights) ? view.lights : null;
    if (!lights) return false;
    if (!this.grid || this.grid.cols !== lights.length) this.build(lights.length);
    this.grid.el.classList.remove('won');
    lights.forEach((on, i) => {
      const b = this.buttons[i];
      b.dataset.on = on ? '1' : '0';
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
      b.setAttribute('aria-label', t(on ? 'label.lightOn' : 'label.lightOff', { n: i + 1 }));
    });
    return true;
  }

  build(n) {
    freshGrid(this, n, 1, 'lights-grid');
    this.el.setAttribute('aria-label', t('label.board.lights', { n }));
    this.buttons = [];
    for (let i = 0; i < n; i++) {
      const b = h('button', { class: 'light', type: 'button', 'data-light': String(i), 'data-on': '0', onclick: () => this.flip(i) }, h('span', { class: 'face', 'aria-hidden': 'true' }));
      this.buttons.push(b);
      this.grid.el.append(b);
    }
    this.el.append(this.grid.el);
  }

  async flip(i) {
    if (this.ctx.busy()) return;
    this.clearHint();
    await this.ctx.play({ flip: i });
  }

  /** Arrow keys move the focus along the row; Enter or Space flips the focused light. */
  key(dir) {
    if (dir !== 'left' && dir !== 'right') return false;
    const at = this.buttons.indexOf(document.activeElement);
    const next = at < 0 ? 0 : Math.max(0, Math.min(this.buttons.length - 1, at + (dir === 'left' ? -1 : 1)));
    if (this.buttons[next]) this.buttons[next].focus();
    return true;
  }

  /** The win: the row glows once. Resolves when it is over. */
  win() {
    if (reducedMotion() || !this.grid) return Promise.resolve();
    this.grid.el.classList.add('won');
    return new Promise((resolve) => setTimeout(resolve, 500));
  }

  showHint(mv) {
    this.clearHint();
    const b = mv && Number.isInteger(mv.flip) ? this.buttons[mv.flip] : null;
    if (!b) return null;
    b.classList.add('hinted');
    this.hinted = b;
    return t('hint.lights', { n: mv.flip + 1 });
  }

  clearHint() {
    if (this.hinted) this.hinted.classList.remove('hinted');
    this.hinted = null;
  }

  destroy() {
    releaseGrid(this);
  }
}

/** The number of lights of a snapshot's row. */
function rowOf(s) {
  const lights = lightsOf(s);
  return lights ? lights.length : 0;
}

/** Lights Out in the registry (boards/index.js). */
export const game = {
  kind: 'lights',
  Board: LightsBoard,
  defaultParams: '5',
  statValues(app, s) {
    return { moves: s.moves, best: bestText(recordFor(app, `lights:${rowOf(s)}`, 'lights')) };
  },
  subtitle: (app, s) => t('lights.row', { n: rowOf(s) }),
  finish: { wonTitle: 'lightsOut', stars: true, next: false, rows: movesRows },
  /** A new row of the same length, into that length's slot. */
  newGame: (app, s) => ({ cmd: 'new_game', args: { kind: 'lights', params: String(rowOf(s) || 5) }, sameSlot: true }),
  levelList(screen) {
    const rows = screen.list.map((lv) => {
      const label = t('lights.row', { n: lv.size });
      const rec = lv.best;
      return h(
        'div',
        { class: 'size-row', 'data-size': String(lv.size) },
        h('div', { class: 'size-head' }, h('span', { class: 'size-name' }, label), h('span', { class: 'level-best' }, rec && rec.best_moves ? `${t('best')} ${rec.best_moves}` : '')),
        h('div', { class: 'chips' }, h('button', { class: 'chip primary', type: 'button', 'data-size': String(lv.size), 'aria-label': `${label} ${t('play')}`, onclick: () => screen.start(lv.params) }, t('play'))),
      );
    });
    return h('div', { class: 'size-list' }, rows);
  },
  /** The record scope of a game: one per row length. */
  scope: (app, s) => (rowOf(s) ? `lights:${rowOf(s)}` : null),
  scopeLabel: (app, rest) => `${t('game.lights')} · ${t('lights.row', { n: rest })}`,
  mini: ['on', 'off', 'on', 'on', 'off'],
};
