// Klotski's level list (the classics, from `levels`) and the difficulty bands of generated
// levels (the engine's band grammar: `MIN-MAX` or `MIN+` optimal moves).

import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
import { levelName } from '../screens/records.js';

/** The generated-level bands offered on home and the level screen, easiest first. */
export const klotskiBands = [
  { params: '10-30', name: 'easy' },
  { params: '30-60', name: 'medium' },
  { params: '60-90', name: 'hard' },
  { params: '90+', name: 'expert' },
];

export function starsEl(n, max = 3) {
  const el = h('span', { class: 'stars small', role: 'img', 'aria-label': n === 1 ? t('stars1') : t('stars', { n }) });
  for (let i = 0; i < max; i++) {
    const s = h('span', { class: i < n ? 'star on' : 'star' });
    s.append(icon('star'));
    el.append(s);
  }
  return el;
}

/** A row of "random level of this band" buttons; `start(params)` starts one. */
export function bandChips(start) {
  return h(
    'div',
    { class: 'chips bands', role: 'group', 'aria-label': t('band.random') },
    klotskiBands.map((b) =>
      h(
        'button',
        { class: 'chip', type: 'button', 'data-band': b.params, 'aria-label': `${t('band.random')} · ${t(`band.${b.params}`)}`, onclick: () => start(b.params) },
        t(`band.${b.params}`),
      ),
    ),
  );
}

/** The level screen's body: the random bands, then the classics with stars and bests. */
export function klotskiLevels(screen) {
  const items = screen.list.map((level, i) => {
    const no = level.index ?? i + 1;
    const rec = level.best || null;
    const locked = level.unlocked === false;
    const min = level.optimal ?? level.min_moves;
    const best = rec && rec.best_moves;
    return h(
      'button',
      { class: `level${locked ? ' locked' : ''}`, type: 'button', 'data-level': String(no), 'data-id': level.id, disabled: locked, onclick: () => screen.openLevel(level) },
      h('span', { class: 'level-no' }, String(no)),
      h('span', { class: 'level-name' }, levelName(level)),
      h('span', { class: 'level-meta' }, min === null || min === undefined ? t('noSolution') : t('minMoves', { n: min })),
      h('span', { class: 'level-foot' }, starsEl(Number((rec && rec.stars) || 0)), h('span', { class: 'level-best' }, locked ? t('locked') : best ? `${t('best')} ${best}` : '')),
    );
  });
  return h(
    'div',
    null,
    h('section', { class: 'band-box' }, h('h2', { class: 'section-title' }, t('band.random')), bandChips((p) => screen.start(p))),
    h('div', { class: 'level-grid' }, items),
  );
}
