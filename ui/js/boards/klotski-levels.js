// Klotski's level list (the classics, from `levels`) and the difficulty bands of generated
// levels (the engine's band grammar: `MIN-MAX` or `MIN+` optimal moves).

import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
import { levelName } from '../screens/records.js';
import { call } from '../ipc.js';

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
        { class: 'chip go', type: 'button', 'data-band': b.params, 'aria-label': `${t('band.random')} · ${t(`band.${b.params}`)}`, onclick: () => start(b.params) },
        t(`band.${b.params}`),
      ),
    ),
  );
}

/**
 * Each layout's pieces drawn small: `preview` for every level's start, a few at a
 * time, each filled into its slot as it arrives (the list shows at once without them).
 */
function fillPreviews(slots, draw, alive) {
  const queue = [...slots];
  const next = async () => {
    while (queue.length) {
      const [slot, id] = queue.shift();
      if (!alive()) return;
      try {
        const pv = await call('preview', { id });
        if (pv && pv.view) slot.replaceChildren(draw(pv.view));
      } catch (_) {
        // No picture for this one; its name and numbers still say what it is.
      }
    }
  };
  for (let i = 0; i < 4; i++) next();
}

/**
 * The level screen's body: the way into the layout editor first (in view without a scroll),
 * then the classics, one to a row (number, layout, name, fewest moves, stars and best), then
 * the random bands.
 */
export function klotskiLevels(screen) {
  const slots = [];
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
      level.id && screen.game.preview ? slotFor(slots, level.id) : null,
      h('span', { class: 'level-name' }, levelName(level)),
      h('span', { class: 'level-meta', 'data-min': min ?? '' }, min === null || min === undefined ? t('noSolution') : t('minMoves', { n: min })),
      // A locked layout says so, without stars it cannot have yet.
      h('span', { class: 'level-foot' }, locked ? null : starsEl(Number((rec && rec.stars) || 0)), h('span', { class: 'level-best' }, locked ? t('locked') : best ? `${t('best')} ${best}` : '')),
    );
  });
  if (screen.game.preview) fillPreviews(slots, (v) => screen.game.preview(v), () => screen.app.screen === screen);
  return h(
    'div',
    null,
    // The layout editor (screens/klotski-editor.js).
    h(
      'button',
      { class: 'editor-entry', type: 'button', 'data-action': 'klotski-editor', onclick: () => screen.app.go('klotski-editor') },
      h('span', { class: 'editor-entry-mark', 'aria-hidden': 'true' }, icon('new')),
      h('span', { class: 'editor-entry-words' }, h('span', { class: 'editor-entry-name' }, t('editor.open')), h('span', { class: 'editor-entry-desc' }, t('editor.openDesc'))),
      icon('next'),
    ),
    h('div', { class: 'level-grid' }, items),
    h('section', { class: 'band-box' }, h('h2', { class: 'section-title' }, t('band.random')), bandChips((p) => screen.start(p))),
  );
}

function slotFor(slots, id) {
  const el = h('span', { class: 'level-preview', 'aria-hidden': 'true' });
  slots.push([el, id]);
  return el;
}
