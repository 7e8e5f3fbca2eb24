// The records screen (issue 16): per record scope (game, size, level) the bests, wins and
// plays, the current and best averages of 5 and 12, and the last finishes as an SVG chart and
// a list. Every number comes from Rust (`records`); the UI only lays them out.

import { call } from '../ipc.js';
import { h, icon, clear } from '../dom.js';
import { t, formatTime, formatDate, movesText } from '../i18n.js';
import { levelName } from './records.js';
import { loadLevels } from './levels.js';
import { BackScreen } from '../nav.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Finishes drawn in the chart (the list below shows all the history Rust keeps). */
const CHART_MAX = 30;

export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/**
 * The record scope of a game as Rust names it: the finish's `key` (`<scope>/<rule>`) when
 * finished, else what the level list says (`scope` of its entry), else the ID's own form.
 * Null when unknown (the screen then shows the scope list).
 */
export function scopeOf(app, view) {
  const s = view && view.snapshot;
  if (!s) return null;
  const key = view.finish && view.finish.key;
  if (typeof key === 'string' && key.includes('/')) return key.slice(0, key.lastIndexOf('/'));
  const levels = (app.levels && app.levels[s.kind]) || [];
  const level = levels.find((l) => l && l.id === s.id && l.scope);
  if (level) return level.scope;
  if (s.kind === '2048') return '2048';
  if (s.kind === 'slide') {
    const v = s.view || {};
    if (!v.w || !v.h) return null;
    return `slide:${v.w}x${v.h}${/\/picture:/.test(s.id) ? '/picture' : ''}`;
  }
  // A Klotski board given as a plain ID is its own scope; generated ones are known at the finish.
  if (s.kind === 'klotski' && /^klotski:[^#]*\//.test(s.id) && !s.id.includes('#')) return s.id;
  return null;
}

/** A scope as the player reads it: "Number slide 4×4", "Klotski · 横刀立马", "2048". */
export function scopeLabel(app, scope) {
  const [kind, rest = ''] = scope.split(/:(.*)/s);
  const name = t(`game.${kind}`);
  if (kind === 'slide') {
    const [size, pic] = rest.split('/');
    return `${name} ${size.replace('x', '×')}${pic ? ` · ${t('rec.picture')}` : ''}`;
  }
  if (kind === 'klotski') {
    const levels = (app.levels && app.levels.klotski) || [];
    const level = levels.find((l) => l && l.scope === scope);
    return `${name} · ${level ? levelName(level) : t('rec.board')}`;
  }
  return name;
}

function timeText(ms) {
  return ms === null || ms === undefined ? t('noBest') : formatTime(ms, true);
}

function num(v) {
  return v === null || v === undefined ? t('noBest') : String(v);
}

function movesAvg(v) {
  if (v === null || v === undefined) return '';
  return t('rec.movesBeside', { n: Number.isInteger(v) ? v : Number(v).toFixed(1) });
}

/** The marks of one finish (undo, hints, auto-solve, not won): kind, icon, words. */
const MARKS = [
  ['auto', 'solve', 'rec.markAutoLong', (e) => e.auto_solved],
  ['undo', 'undo', 'rec.markUndoLong', (e) => e.undo_used],
  ['hint', 'hint', 'rec.markHintLong', (e) => e.hints_used],
  ['lost', 'lost', 'rec.markLostLong', (e) => e.won === false],
];

function marks(e) {
  return MARKS.filter((m) => m[3](e));
}

/** One mark as an icon with its words for screen readers and a long press. */
function markEl([k, iconName, long]) {
  return h('span', { class: `mark mark-${k}`, role: 'img', title: t(long), 'aria-label': t(long), 'data-mark': k }, icon(iconName));
}

/**
 * The chart of the last finishes: time as bars (left axis), moves as a line with dots (right
 * axis), each axis titled and marked with 0 and its top value; along the bottom, older to the
 * latest, with the first and last dates when they differ. Marked finishes are pale.
 */
export function historyChart(history) {
  const list = history.slice(-CHART_MAX);
  const W = 340;
  const H = 160;
  const pad = { l: 40, r: 30, t: 22, b: 22 };
  const iw = W - pad.l - pad.r;
  const ih = H - pad.t - pad.b;
  const n = list.length;
  const maxMs = Math.max(1, ...list.map((e) => Number(e.ms) || 0));
  const maxMoves = Math.max(1, ...list.map((e) => Number(e.moves) || 0));
  const step = iw / Math.max(1, n);
  const bw = Math.max(2, Math.min(22, step * 0.62));
  const root = svg('svg', {
    class: 'chart chart-history',
    'data-chart': 'history',
    'data-count': n,
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': t('rec.chart', { n }),
    preserveAspectRatio: 'xMidYMid meet',
  });
  const base = pad.t + ih;
  root.append(svg('line', { class: 'axis', x1: pad.l, y1: base, x2: W - pad.r, y2: base }));
  root.append(svg('line', { class: 'axis', x1: pad.l, y1: pad.t, x2: pad.l, y2: base }));
  root.append(svg('line', { class: 'axis', x1: W - pad.r, y1: pad.t, x2: W - pad.r, y2: base }));
  const pts = [];
  list.forEach((e, i) => {
    const x = pad.l + step * i + step / 2;
    const hMs = ((Number(e.ms) || 0) / maxMs) * ih;
    const marked = marks(e).length > 0;
    root.append(
      svg(
        'rect',
        { class: `bar${marked ? ' marked' : ''}`, x: (x - bw / 2).toFixed(1), y: (base - hMs).toFixed(1), width: bw.toFixed(1), height: Math.max(1, hMs).toFixed(1), rx: 2, 'data-ms': e.ms },
        svg('title', {}, `${formatDate(e.date)} · ${formatTime(e.ms, true)} · ${movesText(e.moves)}`),
      ),
    );
    const y = base - ((Number(e.moves) || 0) / maxMoves) * ih;
    pts.push([x, y, marked]);
  });
  if (pts.length > 1) root.append(svg('polyline', { class: 'line', points: pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ') }));
  for (const [x, y, marked] of pts) root.append(svg('circle', { class: `dot${marked ? ' marked' : ''}`, cx: x.toFixed(1), cy: y.toFixed(1), r: 3.2 }));
  // Axis titles (with the series' own colour) and their scales: 0 and the top value.
  root.append(svg('rect', { class: 'legend-bar', x: 2, y: 5, width: 8, height: 10, rx: 1.5 }));
  root.append(svg('text', { class: 'axis-title', x: 13, y: 14 }, t('rec.chartTime')));
  root.append(svg('circle', { class: 'legend-mdot', cx: W - 6, cy: 10, r: 3.2 }));
  root.append(svg('text', { class: 'axis-title', x: W - 13, y: 14, 'text-anchor': 'end' }, t('rec.chartMoves')));
  root.append(svg('text', { class: 'tick', x: pad.l - 4, y: pad.t + 4, 'text-anchor': 'end' }, formatTime(maxMs, maxMs < 60000)));
  root.append(svg('text', { class: 'tick', x: pad.l - 4, y: base, 'text-anchor': 'end' }, '0'));
  root.append(svg('text', { class: 'tick', x: W - pad.r + 4, y: pad.t + 4 }, String(maxMoves)));
  root.append(svg('text', { class: 'tick', x: W - pad.r + 4, y: base }, '0'));
  if (n) {
    const first = formatDate(list[0].date);
    const last = formatDate(list[n - 1].date);
    const oldLabel = n > 1 && first !== last ? first : t('rec.chartOld');
    const newLabel = n > 1 && first !== last ? last : t('rec.chartNew');
    if (n > 1) root.append(svg('text', { class: 'tick', x: pad.l, y: H - 6 }, `← ${oldLabel}`));
    root.append(svg('text', { class: 'tick', x: W - pad.r, y: H - 6, 'text-anchor': 'end' }, `${newLabel} →`));
  }
  return root;
}

export class StatsScreen extends BackScreen {
  constructor(app, opts) {
    super(app);
    this.name = 'records';
    this.scope = (opts && 'scope' in opts ? opts.scope : app.recordsScope) || null;
    this.scopes = [];
    this.data = null;
  }

  async prepare() {
    // Level names for the Klotski scopes (cached by the level screens).
    const names = loadLevels(this.app, 'klotski');
    try {
      this.scopes = (await call('records', {})) || [];
    } catch (e) {
      this.app.error(e);
      return false;
    }
    if (!this.scope && this.scopes.length) this.scope = this.scopes[0].scope;
    this.app.recordsScope = this.scope;
    if (this.scope) {
      try {
        this.data = await call('records', { scope: this.scope });
      } catch (e) {
        this.scope = null;
        this.data = null;
      }
    }
    await names;
    return true;
  }

  render() {
    const app = this.app;
    const header = h(
      'header',
      { class: 'bar' },
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('back'), 'data-action': 'back', onclick: () => app.back() }, icon('back')),
      h('div', { class: 'bar-title' }, h('h1', { class: 'title', tabindex: '-1' }, t('rec.title')), this.scope ? h('p', { class: 'subtitle', 'data-scope-title': '1' }, scopeLabel(app, this.scope)) : null),
      h('span', { class: 'icon-btn-spacer' }),
    );
    this.body = h('div', { class: 'scroll records-body' });
    this.fill();
    return h('section', { class: 'screen records-screen' }, header, this.body);
  }

  fill() {
    const app = this.app;
    clear(this.body);
    // The scopes the player has, plus the one asked for (it may have no finish yet).
    const known = this.scopes.map((s) => s.scope);
    if (this.scope && !known.includes(this.scope)) known.unshift(this.scope);
    if (known.length > 1) {
      this.body.append(
        h(
          'div',
          { class: 'chips scope-chips', role: 'group', 'aria-label': t('rec.scopes') },
          known.map((sc) =>
            h('button', { class: sc === this.scope ? 'chip primary' : 'chip', type: 'button', 'data-scope': sc, 'aria-pressed': sc === this.scope ? 'true' : 'false', onclick: () => this.select(sc) }, scopeLabel(app, sc)),
          ),
        ),
      );
    }
    const d = this.data;
    if (!d) {
      this.body.append(h('p', { class: 'help rec-empty' }, t('rec.none')));
      return;
    }
    const tile = (key, label, value, extra) =>
      h('div', { class: 'rec-tile', 'data-rec': key }, h('span', { class: 'stat-label' }, t(label)), h('span', { class: 'stat-value' }, value), extra ? h('span', { class: 'rec-extra' }, extra) : null);
    const hist = Array.isArray(d.history) ? d.history : [];
    // An average needs 5 (12) clean wins: until then the first card says how many more, and
    // the second is not shown at all.
    const clean = hist.filter((e) => e.clean && e.won !== false).length;
    const avg = (key, label, cur, curMoves, best, need) => {
      if (cur === null || cur === undefined) {
        const more = Math.max(1, need - clean);
        return h('div', { class: 'rec-tile rec-avg rec-wait', 'data-rec': key }, h('span', { class: 'stat-label' }, t(label)), h('span', { class: 'rec-extra' }, more === 1 ? t('rec.avgLater1') : t('rec.avgLater', { n: more })));
      }
      return h(
        'div',
        { class: 'rec-tile rec-avg', 'data-rec': key },
        h('span', { class: 'stat-label' }, t(label)),
        h('span', { class: 'stat-value', 'data-rec-value': 'current' }, timeText(cur)),
        curMoves !== null && curMoves !== undefined ? h('span', { class: 'rec-extra' }, movesAvg(curMoves)) : null,
        best !== null && best !== undefined ? h('span', { class: 'rec-best', 'data-rec-value': 'best' }, t('rec.bestAvg', { time: timeText(best) })) : null,
      );
    };
    const is2048 = String(d.scope).startsWith('2048');
    const has12 = d.ao12_ms !== null && d.ao12_ms !== undefined;
    this.body.append(
      h(
        'div',
        { class: 'rec-grid', 'data-records': d.scope },
        is2048 ? null : tile('best_moves', 'rec.bestMoves', num(d.best_moves)),
        tile('best_ms', 'rec.bestTime', timeText(d.best_ms)),
        tile('wins', 'rec.winsPlays', `${d.wins} / ${d.plays}`),
        avg('ao5', 'rec.ao5', d.ao5_ms, d.ao5_moves, d.best_ao5_ms, 5),
        has12 ? avg('ao12', 'rec.ao12', d.ao12_ms, d.ao12_moves, d.best_ao12_ms, 12) : null,
      ),
    );
    if (d.ao5_ms !== null && d.ao5_ms !== undefined) this.body.append(h('p', { class: 'help rec-avg-how' }, t('rec.avgHow')));
    const rule = t(`rule.${d.rule}`);
    this.body.append(h('p', { class: 'help' }, t('rec.rule', { rule: rule === `rule.${d.rule}` ? d.rule : rule })));
    this.body.append(h('h2', { class: 'section-title' }, t('rec.history')));
    if (!hist.length) {
      this.body.append(h('p', { class: 'help rec-empty' }, t('rec.none')));
      return;
    }
    this.body.append(h('div', { class: 'chart-box' }, historyChart(hist)));
    const rows = hist
      .map((e, index) => [e, index])
      .reverse()
      .map(([e, index]) =>
        h(
          'tr',
          { 'data-finish-row': '1', 'data-clean': e.clean ? '1' : '0', 'data-index': String(index) },
          h('td', { class: 'rec-date' }, formatDate(e.date)),
          h('td', { class: 'num' }, num(e.moves)),
          h('td', { class: 'num' }, timeText(e.ms)),
          h('td', { class: 'num' }, num(e.optimal)),
          h('td', { class: 'rec-marks' }, marks(e).map(markEl), this.replayButton(d.scope, e, index)),
        ),
      );
    this.body.append(
      h(
        'table',
        { class: 'rec-table', 'data-history': String(hist.length) },
        h('thead', {}, h('tr', {}, ['rec.date', 'rec.moves', 'rec.time', 'rec.optimal', 'rec.marks'].map((k) => h('th', { scope: 'col' }, t(k))))),
        h('tbody', {}, rows),
      ),
      this.legend(hist),
    );
  }

  /** Issue 25: a finish whose move log the app keeps can be watched. */
  replayButton(scope, e, index) {
    if (!e.replay) return null;
    return h('button', { class: 'icon-btn rec-replay', type: 'button', 'data-action': 'watch-replay', 'data-index': String(index), 'aria-label': t('replay.watch'), title: t('replay.watch'), onclick: () => this.app.go('replay', { history: { scope, index } }) }, icon('eye'));
  }

  /** What the marks in this history mean (only those it has), and that they never count. */
  legend(hist) {
    const used = MARKS.filter((m) => hist.some((e) => m[3](e)));
    if (!used.length) return null;
    return h(
      'p',
      { class: 'help rec-legend' },
      used.map((m) => h('span', { class: 'legend-item' }, markEl(m), t(m[2]))),
      h('span', { class: 'legend-note' }, t('rec.legendNote')),
    );
  }

  async select(scope) {
    try {
      this.data = await call('records', { scope });
      this.scope = scope;
      this.app.recordsScope = scope;
    } catch (e) {
      this.app.error(e);
      return;
    }
    this.app.rerender();
  }
}
