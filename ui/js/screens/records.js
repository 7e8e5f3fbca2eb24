// Reading the player's records and the level list that Rust keeps (get_progress, levels).
// Record keys are `<scope>/<rule>`: scope `klotski:<level>`, `slide:<W>x<H>` or `2048`.
// (Which scope a game uses is its descriptor's business, in boards/.)

import { call } from '../ipc.js';
import { language, t } from '../i18n.js';

export function ruleOf(app, kind) {
  const rules = (app.settings && app.settings.rules) || {};
  // The default rules are Rust's: `get_settings` always names the rule of every game.
  return rules[kind] || '';
}

/** The Klotski level whose start is this game ID, from the cached level list. */
export function levelOf(app, snapshot) {
  const list = (app.levels && app.levels[snapshot.kind]) || [];
  return list.find((l) => l.id === snapshot.id) || null;
}

export function levelName(level) {
  if (!level) return '';
  if (language() === 'en') return level.name_en || level.nameEn || level.name || level.name_zh || '';
  return level.name_zh || level.nameZh || level.name || level.name_en || '';
}

export function recordFor(app, scope, kind) {
  const recs = (app.progress && app.progress.records) || {};
  return recs[`${scope}/${ruleOf(app, kind)}`] || null;
}

/** A record's best move count as shown, or the no-record dash. */
export function bestText(rec) {
  const best = rec && rec.best_moves;
  return best === undefined || best === null ? t('noBest') : String(best);
}

/** The level list of `kind` from Rust (`levels`), kept in `app.levels` until a refresh. */
export async function loadLevels(app, kind) {
  app.levels = app.levels || {};
  if (app.levels[kind]) return app.levels[kind];
  try {
    const res = await call('levels', { kind });
    const list = Array.isArray(res) ? res : (res && res.levels) || [];
    app.levels[kind] = list;
    app.levelsRaw = { ...(app.levelsRaw || {}), [kind]: res };
  } catch (_) {
    app.levels[kind] = [];
  }
  return app.levels[kind];
}
