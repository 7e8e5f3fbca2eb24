// Level select: Klotski classics (name, stars, best), number-slide sizes 3×3 … 10×10 (with
// difficulty where the engine offers it), and 2048.

import { call } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
import { levelName, recordFor } from './records.js';

export async function loadLevels(app, kind) {
  app.levels = app.levels || {};
  if (app.levels[kind]) return app.levels[kind];
  try {
    const res = await call('levels', { kind });
    const list = Array.isArray(res) ? res : (res && res.levels) || [];
    app.levels[kind] = list;
  } catch (_) {
    app.levels[kind] = [];
  }
  return app.levels[kind];
}

function starsEl(n, max = 3) {
  const el = h('span', { class: 'stars small', role: 'img', 'aria-label': t('stars', { n }) });
  for (let i = 0; i < max; i++) {
    const s = h('span', { class: i < n ? 'star on' : 'star' });
    s.append(icon('star'));
    el.append(s);
  }
  return el;
}

export class LevelsScreen {
  constructor(app, kind) {
    this.app = app;
    this.kind = kind;
    this.name = `levels:${kind}`;
    this.list = [];
  }

  async prepare() {
    await this.app.refreshProgress();
    if (this.app.levels) delete this.app.levels[this.kind];
    this.list = await loadLevels(this.app, this.kind);
    return true;
  }

  async start(params, extra = {}) {
    try {
      const view = await call('new_game', { kind: this.kind, params, ...extra });
      await this.app.go(`game:${this.kind}`, { view });
    } catch (e) {
      this.app.error(e);
    }
  }

  async openLevel(level) {
    try {
      const view = await call('open_game', { id: level.id });
      await this.app.go(`game:${this.kind}`, { view });
    } catch (e) {
      this.app.error(e);
    }
  }

  render() {
    const header = h(
      'header',
      { class: 'bar' },
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('back'), 'data-action': 'back', onclick: () => this.app.go('home') }, icon('back')),
      h('div', { class: 'bar-title' }, h('h1', { class: 'title', tabindex: '-1' }, t(`game.${this.kind}`)), h('p', { class: 'subtitle' }, t(`levels.${this.kind}`))),
      h('span', { class: 'icon-btn-spacer' }),
    );
    let body;
    if (this.kind === 'klotski') body = this.klotski();
    else if (this.kind === 'slide') body = this.slide();
    else body = this.g2048();
    return h('section', { class: `screen levels-screen levels-${this.kind}` }, header, h('div', { class: 'scroll' }, body));
  }

  klotski() {
    const items = this.list.map((level, i) => {
      const no = level.index ?? i + 1;
      const rec = level.best || null;
      const locked = level.unlocked === false;
      const min = level.optimal ?? level.min_moves;
      const best = rec && rec.best_moves;
      return h(
        'button',
        { class: `level${locked ? ' locked' : ''}`, type: 'button', 'data-level': String(no), 'data-id': level.id, disabled: locked, onclick: () => this.openLevel(level) },
        h('span', { class: 'level-no' }, String(no)),
        h('span', { class: 'level-name' }, levelName(level)),
        h('span', { class: 'level-meta' }, min === null || min === undefined ? t('noSolution') : t('minMoves', { n: min })),
        h('span', { class: 'level-foot' }, starsEl(Number((rec && rec.stars) || 0)), h('span', { class: 'level-best' }, locked ? t('locked') : best ? `${t('best')} ${best}` : '')),
      );
    });
    return h('div', { class: 'level-grid' }, items);
  }

  slide() {
    let sizes = this.list.filter((l) => l && l.size);
    if (!sizes.length) sizes = [3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ size: `${n}x${n}`, params: `${n}x${n}`, difficulties: [] }));
    const rows = sizes.map((lv) => {
      const [w, hh] = lv.size.split('x').map(Number);
      const rec = lv.best || recordFor(this.app, `slide:${lv.size}`, 'slide');
      const diffs = Array.isArray(lv.difficulties) ? lv.difficulties : [];
      const choices = diffs.map((d) =>
        h('button', { class: 'chip', type: 'button', 'data-size': lv.size, 'data-diff': d.name, 'aria-label': `${t('sizeLabel', { w, h: hh })} ${t(`diff.${d.name}`)}`, onclick: () => this.start(d.params) }, t(`diff.${d.name}`)),
      );
      choices.push(
        h('button', { class: 'chip primary', type: 'button', 'data-size': lv.size, 'data-diff': 'random', 'aria-label': `${t('sizeLabel', { w, h: hh })} ${diffs.length ? t('random') : t('play')}`, onclick: () => this.start(lv.params || lv.size) }, diffs.length ? t('random') : t('play')),
      );
      return h(
        'div',
        { class: 'size-row', 'data-size': lv.size },
        h('div', { class: 'size-head' }, h('span', { class: 'size-name' }, t('sizeLabel', { w, h: hh })), h('span', { class: 'level-best' }, rec && rec.best_moves ? `${t('best')} ${rec.best_moves}` : '')),
        h('div', { class: 'chips' }, choices),
      );
    });
    return h('div', { class: 'size-list' }, rows);
  }

  g2048() {
    const rec = (this.list[0] && this.list[0].best) || recordFor(this.app, '2048', '2048');
    return h(
      'div',
      { class: 'g2048-start' },
      h('div', { class: 'stats' },
        h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, t('bestScore')), h('span', { class: 'stat-value' }, String((rec && rec.best_score) || 0))),
        h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, t('bestTile')), h('span', { class: 'stat-value' }, String((rec && rec.best_tile) || 0))),
      ),
      h('button', { class: 'btn primary wide', type: 'button', 'data-action': 'new-2048', onclick: () => this.start('') }, t('newGame')),
    );
  }

  onKey(e) {
    if (e.key === 'Escape') {
      this.app.go('home');
      return true;
    }
    return false;
  }

  destroy() {}
}
