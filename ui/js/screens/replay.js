// The replay screen: a finish from the records history, or a friend's result code
// with its move log, played move by move on the game's own board module. Rust gives the
// moves and the board after each one (`replay`), so nothing here touches the player's games
// or records. Play / pause, a step each way, speeds 1× / 2× / 4×; the analysis chart's cursor
// follows the replay where the game has an analysis.

import { call } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
import { gameOf } from '../boards/index.js';
import { BackScreen } from '../nav.js';
import { analysisChart, chartCursor, worstLine } from '../analysis.js';
import { featureStyle } from '../friends.js';

const SPEEDS = [1, 2, 4];
/** Milliseconds a move stays on screen at 1×. */
const STEP_MS = 700;

export class ReplayScreen extends BackScreen {
  /** `opts`: `{ code }` or `{ history: {scope, index} }`, and `name` (whose replay). */
  constructor(app, opts = {}) {
    super(app, 'replay');
    this.opts = opts;
    this.data = null;
    this.at = 0;
    this.speed = 0;
    this.timer = 0;
    this.playing = false;
  }

  async prepare() {
    featureStyle('css/replay.css');
    if (!this.opts.code && !this.opts.history) return false;
    const args = this.opts.code ? { code: this.opts.code } : { history: this.opts.history };
    try {
      this.data = await call('replay', args);
    } catch (e) {
      this.app.error(e);
      return false;
    }
    return !!(this.data && Array.isArray(this.data.views));
  }

  render() {
    const d = this.data;
    const game = gameOf(d.kind);
    const ctx = {
      app: this.app,
      play: async () => false,
      blocked: () => {},
      busy: () => true,
      targets: async () => [],
    };
    if (this.board) this.board.destroy();
    this.board = new game.Board(ctx);
    const bel = this.board.el;
    bel.classList.add('board', 'replay-board');
    bel.setAttribute('role', 'img');
    bel.dataset.game = d.kind;
    const title = this.opts.name ? t('replay.of', { name: this.opts.name }) : t('replay.title');
    const b = (action, label, iconName, onclick, extra = {}) =>
      h('button', { class: 'btn replay-btn', type: 'button', 'data-action': action, 'aria-label': label, title: label, onclick, ...extra }, iconName ? icon(iconName) : null, h('span', { class: 'replay-btn-text' }, label));
    this.pos = h('p', { class: 'replay-pos', 'aria-live': 'polite', 'data-replay-at': '0' });
    this.playBtn = b('replay-play', t('replay.play'), 'solve', () => this.play());
    this.pauseBtn = b('replay-pause', t('replay.pause'), 'stop', () => this.pause(), { hidden: true });
    this.speedBtn = h('button', { class: 'btn replay-btn replay-speed', type: 'button', 'data-action': 'replay-speed', 'data-speed': '1', onclick: () => this.cycleSpeed() }, t('replay.speed', { x: 1 }));
    const controls = h(
      'div',
      { class: 'replay-controls', role: 'toolbar', 'aria-label': t('replay.title') },
      b('replay-step-back', t('replay.stepBack'), 'undo', () => this.go(this.at - 1), { class: 'btn replay-btn icon-only' }),
      this.playBtn,
      this.pauseBtn,
      b('replay-step', t('replay.step'), 'redo', () => this.go(this.at + 1), { class: 'btn replay-btn icon-only' }),
      this.speedBtn,
    );
    this.chart = null;
    let analysis = null;
    const a = onLog(d.analysis, d.counts, d.moves.length);
    if (a && Array.isArray(a.distances) && a.distances.length) {
      // A friend's code: their moves, not the player's.
      const words = { neutral: !!this.opts.code };
      this.chart = analysisChart(a, words);
      analysis = h('section', { class: 'analysis replay-analysis', 'data-analysis': 'done' }, h('div', { class: 'chart-box ana-box' }, this.chart), h('p', { class: 'ana-worst' }, worstLine(a, words)));
    }
    const body = h(
      'div',
      { class: 'scroll replay-body', 'data-replay': d.id, 'data-moves': String(d.moves.length) },
      h('div', { class: 'board-wrap replay-wrap' }, bel),
      this.pos,
      controls,
      analysis,
    );
    const root = h('section', { class: 'screen replay-screen' }, this.backBar(title), body);
    this.go(this.at);
    return root;
  }

  mounted() {
    // The board measures itself once it is in the document.
    this.go(this.at);
  }

  /** Show the board after `i` moves (clamped); stops at the end. */
  go(i) {
    const d = this.data;
    const n = d.moves.length;
    this.at = Math.max(0, Math.min(n, i));
    this.board.update(d.views[this.at], null, { initial: true });
    this.board.el.dataset.replayAt = String(this.at);
    this.pos.textContent = t('replay.position', { i: this.at, n });
    this.pos.dataset.replayAt = String(this.at);
    // The counter and the chart share one axis: the moves of the replayed log (`onLog`).
    chartCursor(this.chart, this.at);
    const back = this.app.root.querySelector('[data-action=replay-step-back]');
    const fwd = this.app.root.querySelector('[data-action=replay-step]');
    if (back) back.disabled = this.at === 0;
    if (fwd) fwd.disabled = this.at === n;
    if (this.at === n && this.playing) this.pause();
  }

  play() {
    if (this.at >= this.data.moves.length) this.go(0);
    this.playing = true;
    this.playBtn.hidden = true;
    this.pauseBtn.hidden = false;
    this.pauseBtn.focus({ preventScroll: true });
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    if (!this.playing) return;
    this.timer = setTimeout(() => {
      this.go(this.at + 1);
      this.schedule();
    }, STEP_MS / SPEEDS[this.speed]);
  }

  pause() {
    this.playing = false;
    clearTimeout(this.timer);
    this.playBtn.hidden = false;
    this.pauseBtn.hidden = true;
    if (document.activeElement === this.pauseBtn || !document.activeElement || document.activeElement === document.body) this.playBtn.focus({ preventScroll: true });
  }

  cycleSpeed() {
    this.speed = (this.speed + 1) % SPEEDS.length;
    const x = SPEEDS[this.speed];
    this.speedBtn.textContent = t('replay.speed', { x });
    this.speedBtn.dataset.speed = String(x);
    this.schedule();
  }

  onKey(e) {
    if (e.key === ' ') {
      if (this.playing) this.pause();
      else this.play();
      return true;
    }
    if (e.key === 'ArrowRight') {
      this.go(this.at + 1);
      return true;
    }
    if (e.key === 'ArrowLeft') {
      this.go(this.at - 1);
      return true;
    }
    return super.onKey(e);
  }

  destroy() {
    this.playing = false;
    clearTimeout(this.timer);
    if (this.board) this.board.destroy();
  }
}

/**
 * The analysis `a` (counted under the game's default rule, where a slide tap of a run counts
 * each tile) on the replayed log's axis: one point per move of the log, so the chart's axis
 * runs 0..n as the counter does. `counts[i]`: the default-rule count after log move i.
 */
function onLog(a, counts, n) {
  if (!a || !Array.isArray(a.distances) || !Array.isArray(counts) || counts.length !== n + 1) return a;
  const c = counts.map(Number);
  if (c[n] === n && a.distances.length === n) return a; // one count a move already
  const at = (k) => a.distances[Math.max(0, Math.min(a.distances.length, k) - 1)];
  const distances = [];
  for (let i = 1; i <= n; i++) distances.push(c[i] > 0 ? at(c[i]) : Number(a.optimal_start) || 0);
  // A log move is lost when any count it covers was.
  const lostCounts = new Set((a.lost || []).map(Number));
  const lost = [];
  for (let i = 1; i <= n; i++) {
    for (let k = c[i - 1] + 1; k <= c[i]; k++) {
      if (lostCounts.has(k)) {
        lost.push(i);
        break;
      }
    }
  }
  const logOf = (k) => Math.max(1, c.findIndex((v) => v >= k));
  const w = a.worst;
  const worst = w && w.lost ? { ...w, from: logOf(Number(w.from)), to: logOf(Number(w.to)) } : w;
  return { ...a, distances, lost, worst };
}
