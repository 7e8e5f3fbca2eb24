// The records screen: per record scope (game, size, level) the bests, wins and
// plays, the current and best averages of 5 and 12, and the last finishes as an SVG chart and
// a list. Every number comes from Rust (`records`); the UI only lays them out.

import { call } from '../ipc.js';
import { h, icon, clear, svg } from '../dom.js';
import { t, formatTime, formatDate, movesText, language } from '../i18n.js';
import { loadLevels } from './records.js';
import { BackScreen } from '../nav.js';
import { KINDS, gameOf } from '../boards/index.js';
import { historyButton } from './transfer.js';

/** Finishes drawn in the chart (the list below shows all the history Rust keeps). */
const CHART_MAX = 30;
/** Clean times drawn in the trend line. */
const TREND_MAX = 30;
/** Weeks of the daily's calendar. */
const CAL_WEEKS = 5;

export { svg };

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
  // Else the game's own descriptor says (boards/): its scope from the snapshot, or unknown.
  const game = KINDS.includes(s.kind) ? gameOf(s.kind) : null;
  return (game && game.scope && game.scope(app, s)) || null;
}

/** A scope as the player reads it: "Number slide 4×4", "Klotski · 横刀立马", "2048". */
export function scopeLabel(app, scope) {
  // `slide:4x4`, `klotski:<board>`, `2048`, a relay's `slide/relay:5`.
  const kind = scope.split(/[:/]/)[0];
  const rest = scope.slice(kind.length + 1);
  const game = KINDS.includes(kind) ? gameOf(kind) : null;
  return game && game.scopeLabel ? game.scopeLabel(app, rest, scope) : t(`game.${kind}`);
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

/**
 * One small trend line: the times of the last clean wins (no undo, no hint) of the history
 * Rust keeps, oldest to latest, lower is faster; no axes, the best and the latest in words,
 * and every time for screen readers. Null with fewer than two.
 */
export function trendEl(history) {
  const list = history.filter((e) => e.clean && e.won !== false && Number.isFinite(Number(e.ms)) && e.ms !== null).slice(-TREND_MAX);
  if (list.length < 2) return null;
  const ms = list.map((e) => Number(e.ms));
  const W = 300;
  const H = 64;
  const pad = 6;
  const lo = Math.min(...ms);
  const hi = Math.max(...ms);
  const span = Math.max(1, hi - lo);
  const pts = ms.map((v, i) => [pad + ((W - 2 * pad) * i) / (ms.length - 1), pad + ((H - 2 * pad) * (v - lo)) / span]);
  const best = ms.indexOf(lo);
  const [lx, ly] = pts[pts.length - 1];
  const [bx, by] = pts[best];
  const line = svg(
    'svg',
    { class: 'trend-line', viewBox: `0 0 ${W} ${H}`, 'aria-hidden': 'true', focusable: 'false' },
    svg('polyline', { class: 'trend-path', points: pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ') }),
    svg('circle', { class: 'trend-dot best', cx: bx.toFixed(1), cy: by.toFixed(1), r: 4 }),
    svg('circle', { class: 'trend-dot last', cx: lx.toFixed(1), cy: ly.toFixed(1), r: 4 }),
  );
  const text = (v) => formatTime(v, true);
  const sep = language() === 'zh' ? '、' : ', ';
  return h(
    'section',
    { class: 'rec-trend', 'data-trend': String(list.length) },
    h('div', { class: 'rec-card-head' }, h('h2', { class: 'rec-card-title' }, t('rec.trend', { n: list.length })), h('span', { class: 'rec-extra' }, t('rec.trendRange', { best: text(lo), last: text(ms[ms.length - 1]) }))),
    h('div', { class: 'trend-box' }, line),
    h('p', { class: 'rec-extra trend-how', 'aria-hidden': 'true' }, t('rec.trendHow')),
    h('p', { class: 'sr-only', 'data-trend-alt': '' }, t('rec.trendAlt', { n: list.length, list: ms.map(text).join(sep), best: text(lo) })),
  );
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
    // The level lists, for the names of level scopes (cached by the level screens).
    const names = Promise.all(KINDS.map((k) => loadLevels(this.app, k)));
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
    // The streak (get_progress) and the daily's calendar as they stand now.
    await Promise.all([this.app.refreshProgress(), this.loadCalendar()]);
    await names;
    return true;
  }

  /** The game of the shown scope, or null. */
  kind() {
    const kind = this.scope ? String(this.scope).split(/[:/]/)[0] : '';
    return KINDS.includes(kind) ? kind : null;
  }

  /** Rust's calendar of the days this game's daily was solved (`daily_calendar`). */
  async loadCalendar() {
    const kind = this.kind();
    if (!kind) {
      this.calendar = null;
      return;
    }
    if (this.calendar && this.calendar.kind === kind) return;
    try {
      this.calendar = await call('daily_calendar', { kind, weeks: CAL_WEEKS });
    } catch (_) {
      this.calendar = null;
    }
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
    // A game whose descriptor says its moves are no record (2048: the score is) has no best moves.
    const kind = String(d.scope).split(/[:/]/)[0];
    const noMoves = KINDS.includes(kind) && gameOf(kind).bestMoves === false;
    const has12 = d.ao12_ms !== null && d.ao12_ms !== undefined;
    // The personal best and the daily streak first; the full statistics (averages,
    // wins, the chart, every finish) behind one tap.
    this.body.append(this.hero(d, kind, noMoves));
    const cal = this.calendarEl();
    if (cal) this.body.append(cal);
    const trend = trendEl(hist);
    if (trend) this.body.append(trend);
    const full = h('div', { class: 'rec-full', id: 'rec-full', hidden: !this.app.recordsOpen });
    const more = h('button', { class: 'btn wide ghost rec-more', type: 'button', 'data-action': 'all-stats', 'aria-controls': 'rec-full', 'aria-expanded': this.app.recordsOpen ? 'true' : 'false' }, icon('chart'), t('rec.all'));
    more.addEventListener('click', () => {
      this.app.recordsOpen = full.hidden;
      full.hidden = !full.hidden;
      more.setAttribute('aria-expanded', full.hidden ? 'false' : 'true');
    });
    // Every finish of every puzzle out, as CSV (export_history).
    this.body.append(more, full, historyButton());
    const body = this.body;
    this.body = full;
    try {
      this.fillFull(d, hist, tile, avg, noMoves, has12);
    } finally {
      this.body = body;
    }
  }

  /** The personal best and the daily streak of this scope's game. */
  hero(d, kind, noMoves) {
    const streaks = (this.app.progress && this.app.progress.streaks) || {};
    const st = streaks[kind] || null;
    const big = (key, label, value, extra) => h('div', { class: 'rec-big', 'data-rec-hero': key }, h('span', { class: 'stat-label' }, label), h('span', { class: 'rec-big-value' }, value), extra ? h('span', { class: 'rec-extra' }, extra) : null);
    const cur = st ? Number(st.current) || 0 : 0;
    return h(
      'div',
      { class: 'rec-hero' },
      noMoves ? big('best_ms', t('rec.bestTime'), timeText(d.best_ms)) : big('best_moves', t('rec.bestMoves'), num(d.best_moves), d.best_ms !== null && d.best_ms !== undefined ? `${t('rec.bestTime')} ${timeText(d.best_ms)}` : null),
      big('streak', t('rec.streak'), cur === 1 ? t('dailyStreak1') : t('dailyStreak', { n: cur }), st && st.best ? t('rec.streakBest', { n: st.best }) : null),
    );
  }

  fillFull(d, hist, tile, avg, noMoves, has12) {
    this.body.append(
      h(
        'div',
        { class: 'rec-grid', 'data-records': d.scope },
        noMoves ? null : tile('best_moves', 'rec.bestMoves', num(d.best_moves)),
        tile('best_ms', 'rec.bestTime', timeText(d.best_ms)),
        tile('wins', 'rec.winsPlays', `${d.wins} / ${d.plays}`),
        avg('ao5', 'rec.ao5', d.ao5_ms, d.ao5_moves, d.best_ao5_ms, 5),
        has12 ? avg('ao12', 'rec.ao12', d.ao12_ms, d.ao12_moves, d.best_ao12_ms, 12) : null,
        // The long averages (number slide scopes) once the one before is there.
        has12 && 'ao50_ms' in d ? avg('ao50', 'rec.ao50', d.ao50_ms, null, d.best_ao50_ms, 50) : null,
        d.ao50_ms !== null && d.ao50_ms !== undefined ? avg('ao100', 'rec.ao100', d.ao100_ms, null, d.best_ao100_ms, 100) : null,
        d.best_tps !== null && d.best_tps !== undefined ? tile('best_tps', 'rec.bestTps', Number(d.best_tps).toFixed(2)) : null,
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

  /** A finish whose move log the app keeps can be watched. */
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

  /**
   * The daily's last weeks as a 7-column grid, Monday first (Rust's `daily_calendar`): the
   * days solved filled, today outlined, the rest of this week faint.
   */
  calendarEl() {
    const c = this.calendar;
    if (!c || !Array.isArray(c.days) || !c.days.length) return null;
    const short = t('rec.calWeek').split(',');
    const long = t('rec.calWeekLong').split(',');
    const rows = [];
    for (let w = 0; w < c.days.length / 7; w++) {
      rows.push(
        h(
          'tr',
          {},
          c.days.slice(w * 7, w * 7 + 7).map((d) => {
            const today = d.date === c.today;
            const cls = ['cal-day', d.done ? 'cal-done' : '', today ? 'cal-today' : '', d.future ? 'cal-future' : ''].filter(Boolean).join(' ');
            const words = [formatDate(d.date), today ? t('rec.calToday') : '', d.done ? t('rec.calDone') : ''].filter(Boolean).join(', ');
            return h(
              'td',
              { class: cls, 'data-day': d.date, 'data-done': d.done ? '1' : null, 'data-today': today ? '1' : null, 'aria-current': today ? 'date' : null },
              h('span', { 'aria-hidden': 'true' }, String(Number(String(d.date).slice(8)))),
              h('span', { class: 'sr-only' }, words),
            );
          }),
        ),
      );
    }
    return h(
      'section',
      { class: 'rec-cal', 'data-streak-calendar': c.kind, 'data-solved': String(c.solved) },
      h('div', { class: 'rec-card-head' }, h('h2', { class: 'rec-card-title', id: 'rec-cal-title' }, t('rec.cal', { n: c.weeks })), h('span', { class: 'rec-extra' }, t('rec.calCount', { n: c.solved }))),
      h(
        'table',
        { class: 'cal-grid', 'aria-labelledby': 'rec-cal-title' },
        h('thead', {}, h('tr', {}, short.map((d, i) => h('th', { scope: 'col', abbr: long[i] || d }, d)))),
        h('tbody', {}, rows),
      ),
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
    await this.loadCalendar();
    this.app.rerender();
  }
}
