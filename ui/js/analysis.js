// Post-game analysis: the optimal distance to the goal after each of the player's
// moves, from `analysis {kind}` (Rust searches it off the main thread). Moves that did not
// bring the goal closer are marked; a line names the stretch where most moves were lost.

import { call } from './ipc.js';
import { h, svg } from './dom.js';
import { t } from './i18n.js';
import { gameOf } from './boards/index.js';

/**
 * The chart: distance after each move (move 0 = the start's optimum) as a step line; lost
 * moves are red dots. Attributes and classes only (the CSP forbids inline styles).
 */
/** `neutral`: someone else's moves (a friend's replay): the words say "moves", not "your moves". */
export function analysisChart(a, { neutral = false } = {}) {
  const k = (key) => (neutral ? `${key}.n` : key);
  const d = [Number(a.optimal_start) || 0, ...a.distances.map(Number)];
  const lost = new Set((a.lost || []).map(Number));
  const W = 340;
  const H = 150;
  const pad = { l: 30, r: 8, t: 20, b: 22 };
  const iw = W - pad.l - pad.r;
  const ih = H - pad.t - pad.b;
  const n = d.length - 1;
  const max = Math.max(1, ...d);
  const x = (i) => pad.l + (n ? (i / n) * iw : iw / 2);
  const y = (v) => pad.t + ih - (v / max) * ih;
  const root = svg('svg', {
    class: 'chart chart-analysis',
    'data-chart': 'analysis',
    'data-moves': n,
    'data-lost': lost.size,
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': `${t(k('ana.chart'))}. ${lost.size === 1 ? t(k('ana.lostCount1')) : t(k('ana.lostCount'), { n: lost.size })}`,
    preserveAspectRatio: 'xMidYMid meet',
    // The geometry a cursor needs (`chartCursor`, the replay screen).
    'data-x0': pad.l,
    'data-iw': iw,
    'data-top': pad.t,
    'data-bottom': pad.t + ih,
  });
  // The ideal: straight down from the optimum to 0 in optimal_start moves.
  root.append(svg('line', { class: 'axis', x1: pad.l, y1: pad.t + ih, x2: W - pad.r, y2: pad.t + ih }));
  root.append(svg('line', { class: 'axis', x1: pad.l, y1: pad.t, x2: pad.l, y2: pad.t + ih }));
  const ideal = Math.min(n, d[0]);
  root.append(svg('line', { class: 'ideal', x1: x(0), y1: y(d[0]), x2: x(ideal), y2: y(0) }));
  root.append(svg('polyline', { class: 'line', points: d.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ') }));
  // Dots: every lost move (all of them), and the others while there are few enough to see.
  d.forEach((v, i) => {
    if (i === 0) return;
    const bad = lost.has(i);
    if (!bad && n > 60) return;
    root.append(svg('circle', { class: bad ? 'dot lost' : 'dot', cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: bad ? 3.4 : 2.4, 'data-move': i }, svg('title', {}, `${i}: ${v}`)));
  });
  if (a.worst && a.worst.from) {
    const x0 = x(Number(a.worst.from) - 1);
    const x1 = x(Number(a.worst.to));
    root.insertBefore(svg('rect', { class: 'worst', x: x0.toFixed(1), y: pad.t, width: Math.max(2, x1 - x0).toFixed(1), height: ih }), root.firstChild);
  }
  // The axes say what they measure: moves still to go (up), the player's moves (along).
  root.append(svg('text', { class: 'tick', x: pad.l - 4, y: pad.t + 4, 'text-anchor': 'end' }, String(max)));
  root.append(svg('text', { class: 'tick', x: pad.l - 4, y: pad.t + ih, 'text-anchor': 'end' }, '0'));
  root.append(svg('text', { class: 'axis-title', x: pad.l, y: 11 }, `↑ ${t('ana.axisY')}`));
  root.append(svg('text', { class: 'tick', x: pad.l, y: H - 6 }, '0'));
  root.append(svg('text', { class: 'axis-title', x: pad.l + iw / 2, y: H - 6, 'text-anchor': 'middle' }, `${t(k('ana.axisX'))} →`));
  root.append(svg('text', { class: 'tick', x: W - pad.r, y: H - 6, 'text-anchor': 'end' }, String(n)));
  if (lost.size) {
    root.append(svg('circle', { class: 'legend-dot', cx: W - pad.r - 4, cy: 7, r: 3.4 }));
    root.append(svg('text', { class: 'axis-title', x: W - pad.r - 12, y: 11, 'text-anchor': 'end' }, t('ana.legendLost')));
  }
  return root;
}

/**
 * Put the chart's cursor on move `i` (0 = the start): a vertical line that follows a replay.
 * Creates it on first use; `data-cursor` says where it is.
 */
export function chartCursor(root, i) {
  if (!root) return;
  const n = Number(root.dataset.moves) || 0;
  const x0 = Number(root.dataset.x0);
  const iw = Number(root.dataset.iw);
  const x = x0 + (n ? (Math.max(0, Math.min(n, i)) / n) * iw : iw / 2);
  let line = root.querySelector('line.cursor');
  if (!line) {
    line = svg('line', { class: 'cursor', y1: root.dataset.top, y2: root.dataset.bottom });
    root.append(line);
  }
  line.setAttribute('x1', x.toFixed(1));
  line.setAttribute('x2', x.toFixed(1));
  root.dataset.cursor = String(i);
}

/** The summary line: where most moves were lost (`worst`), or that none was (not "perfect": only the finish says that, and a game played along hints loses no move either). */
export function worstLine(a, { neutral = false } = {}) {
  const w = a.worst;
  if (!w || !w.lost) return t('ana.perfect');
  const key = (w.from === w.to ? 'ana.worst1' : 'ana.worst') + (w.lost === 1 ? 'One' : '') + (neutral ? '.n' : '');
  return t(key, { from: w.from, to: w.to, lost: w.lost });
}

/**
 * The analysis section of a finish dialog. Returns null when the game has none, or when Rust
 * already says the game was perfect (`finish.perfect`: the dialog's verdict says it; a chart
 * would be the ideal diagonal). Else an element that shows a spinner, then the chart (or
 * removes itself: `unsupported`, cancelled, any error — the analysis is extra, never in the
 * way). `start()` asks Rust; the dialog calls it once on screen and once the finish's verdict
 * is final (not while Rust still searches the optimum). `stop()` cancels a search still running.
 */
export function analysisSection(kind, view) {
  const s = view.snapshot;
  // Whether the game has one is its descriptor's `analysis` (boards/; Rust answers `unsupported`
  // for the others).
  if (!gameOf(kind).analysis || s.status !== 'won' || !(s.moves > 0) || s.auto_solved) return null;
  const f = view.finish || {};
  if (f.perfect === true) return null;
  // While Rust searches, the section already takes the chart's box and its two lines, so the
  // dialog's buttons do not move under the player's thumb when the answer lands.
  const box = h(
    'div',
    { class: 'chart-box ana-box', 'data-chart-box': 'analysis' },
    h('p', { class: 'ana-wait' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('ana.running')),
  );
  const worst = h('p', { class: 'ana-worst' });
  const meta = h('p', { class: 'help ana-meta' });
  const el = h(
    'section',
    { class: 'analysis', 'data-analysis': 'running', 'aria-busy': 'true', 'aria-labelledby': 'ana-title' },
    h('h3', { id: 'ana-title', class: 'ana-title' }, t('ana.title')),
    box,
    worst,
    meta,
  );
  let running = false;
  let gone = false;
  let started = false;
  return {
    el,
    async start() {
      if (started) return;
      started = true;
      running = true;
      let a;
      try {
        a = await call('analysis', { kind });
      } catch (e) {
        running = false;
        el.remove();
        return;
      } finally {
        running = false;
      }
      if (gone || !a || !Array.isArray(a.distances)) {
        el.remove();
        return;
      }
      const lostN = (a.lost || []).length;
      el.dataset.analysis = 'done';
      el.removeAttribute('aria-busy');
      // A perfect game needs no chart (it would be the ideal diagonal): the line says it all.
      if (lostN) box.replaceChildren(analysisChart(a));
      else box.remove();
      el.classList.toggle('perfect', !lostN);
      worst.dataset.worst = a.worst ? `${a.worst.from}-${a.worst.to}:${a.worst.lost}` : 'none';
      worst.textContent = worstLine(a);
      meta.dataset.lostCount = lostN;
      const start = Number(a.optimal_start) === 1 ? t('ana.start1') : t('ana.start', { n: a.optimal_start });
      // Tiles per second (games counted in tile moves).
      const tps = a.tps === null || a.tps === undefined ? '' : ` · ${Number(a.tps).toFixed(2)} ${t('tps')}`;
      if (tps) meta.dataset.tps = String(a.tps);
      meta.textContent = (lostN ? `${lostN === 1 ? t('ana.lostCount1') : t('ana.lostCount', { n: lostN })} · ${start}` : start) + tps;
    },
    stop() {
      gone = true;
      if (running) call('cancel', { kind }).catch(() => {});
    },
  };
}
