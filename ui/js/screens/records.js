// Reading the player's records and the level list that Rust keeps (get_progress, levels).
// Record keys are `<scope>/<rule>`: scope `klotski:<level>`, `slide:<W>x<H>` or `2048`.

import { language, t } from '../i18n.js';

export function ruleOf(app, kind) {
  const rules = (app.settings && app.settings.rules) || {};
  return rules[kind] || { slide: 'tile', klotski: 'piece', 2048: 'moves' }[kind];
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

/** The player's best for the game on screen (a Klotski level's own, a size's, or 2048's). */
export function bestRecord(app, snapshot) {
  if (snapshot.kind === 'klotski') {
    const level = levelOf(app, snapshot);
    return level ? level.best || null : null;
  }
  if (snapshot.kind === 'slide') {
    const m = /^(\d+x\d+)/.exec(snapshot.board);
    return m ? recordFor(app, `slide:${m[1]}`, 'slide') : null;
  }
  return recordFor(app, '2048', '2048');
}

/** The subtitle of a game screen: the level name, the board size, or the daily tag. */
export function levelTitle(app, snapshot) {
  if (snapshot.kind === 'klotski') {
    const level = levelOf(app, snapshot);
    if (level) return levelName(level);
    return '';
  }
  if (snapshot.kind === 'slide') {
    const m = /^(\d+)x(\d+)/.exec(snapshot.board);
    const diff = /\/(easy|medium|hard|expert)/.exec(snapshot.id);
    return m ? `${m[1]}×${m[2]}${diff ? ` · ${t(`diff.${diff[1]}`)}` : ''}` : '';
  }
  return '';
}
