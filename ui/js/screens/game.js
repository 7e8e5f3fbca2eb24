// The game screen, one for every game: board, counters, best record, undo / redo / restart /
// hint / auto-solve, the finish dialog. Every input goes through a command; the screen only
// renders the snapshot Rust returns.

import { call, field, perf } from '../ipc.js';
import { h, icon, reducedMotion, setText, setData } from '../dom.js';
import { t, formatTime } from '../i18n.js';
import { feedback, announce, toast } from '../feedback.js';
import { SlideBoard } from '../boards/slide.js';
import { KlotskiBoard } from '../boards/klotski.js';
import { G2048Board } from '../boards/g2048.js';
import { FinishDialog } from './finish.js';
import { levelTitle, bestRecord } from './records.js';
import { loadLevels } from './levels.js';

const SWIPE_MIN_PX = 24;
const DIRS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class GameScreen {
  constructor(app, kind, opts) {
    this.app = app;
    this.kind = kind;
    this.opts = opts || {};
    this.name = `game:${kind}`;
    this.view = this.opts.view || null;
    this.inFlight = false;
    this.solving = null;
    this.timer = 0;
    this.finish = null;
    this.clockBase = { ms: 0, at: 0, running: false };
  }

  async prepare() {
    const levels = this.kind === 'klotski' ? loadLevels(this.app, 'klotski') : null;
    if (!this.view) {
      try {
        [this.view] = await Promise.all([call('snapshot', { kind: this.kind }), levels]);
      } catch (e) {
        if (this.opts.resume) return false;
        try {
          this.view = await call('new_game', { kind: this.kind, params: defaultParams(this.kind) });
        } catch (e2) {
          this.app.error(e2);
          return false;
        }
      }
    }
    await levels;
    return !!(this.view && this.view.snapshot);
  }

  render() {
    // Rendering again (a language change) replaces the board and the clock.
    if (this.board) this.board.destroy();
    clearInterval(this.timer);
    const ctx = {
      play: (mv) => this.play(mv),
      blocked: (el) => this.blocked(el),
      busy: () => this.inFlight || !!this.solving || this.finishOpen(),
      targets: (piece) => call('klotski_targets', { piece }),
    };
    this.board = this.kind === 'slide' ? new SlideBoard(ctx) : this.kind === 'klotski' ? new KlotskiBoard(ctx) : new G2048Board(ctx);
    this.board.el.classList.add('board');
    this.board.el.setAttribute('role', 'group');
    this.board.el.setAttribute('tabindex', '0');
    this.board.el.setAttribute('aria-describedby', 'keys-help');

    this.titleEl = h('h1', { class: 'title', tabindex: '-1' });
    this.subEl = h('p', { class: 'subtitle' });
    const header = h(
      'header',
      { class: 'bar' },
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('back'), 'data-action': 'back', onclick: () => this.leave('home') }, icon('back')),
      h('div', { class: 'bar-title' }, this.titleEl, this.subEl),
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('levels'), 'data-action': 'levels', onclick: () => this.leave(`levels:${this.kind}`) }, icon('levels')),
    );

    const stat = (key, label) => {
      const v = h('span', { class: 'stat-value', 'data-stat': key }, '0');
      return [h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, label), v), v];
    };
    let stats;
    if (this.kind === '2048') {
      const [a, score] = stat('score', t('score'));
      const [b, tile] = stat('tile', t('bestTile'));
      const [c, best] = stat('best', t('bestShort'));
      const [d, moves] = stat('moves', t('moves'));
      this.statEls = { score, tile, best, moves };
      stats = h('div', { class: 'stats four' }, a, b, c, d);
    } else {
      const [a, moves] = stat('moves', t('moves'));
      const [b, time] = stat('time', t('time'));
      const [c, best] = stat('best', t('best'));
      this.statEls = { moves, time, best };
      stats = h('div', { class: 'stats' }, a, b, c);
    }

    const btn = (action, label, iconName, onclick) =>
      h('button', { class: 'ctl', type: 'button', 'data-action': action, 'aria-label': label, onclick }, icon(iconName), h('span', { class: 'ctl-label' }, label));
    this.buttons = {
      undo: btn('undo', t('undo'), 'undo', () => this.step('undo')),
      redo: btn('redo', t('redo'), 'redo', () => this.step('redo')),
      restart: btn('restart', t('restart'), 'restart', () => this.step('restart')),
      hint: btn('hint', t('hint'), 'hint', () => this.hint()),
      solve: btn('solve', this.kind === '2048' ? t('autoPlay') : t('solve'), 'solve', () => this.toggleSolve()),
    };
    const controls = h('nav', { class: 'controls', 'aria-label': t('controlsLabel') }, Object.values(this.buttons));

    this.playArea = h('div', { class: 'play-area' }, this.board.el);
    if (this.kind === '2048') this.bindSwipes(this.playArea);
    this.keysHelp = h('p', { id: 'keys-help', class: 'keys-help' }, t('keysHelp'));

    this.el = h(
      'section',
      { class: `screen game-screen game-${this.kind}`, 'aria-labelledby': 'game-title' },
      header,
      h('div', { class: 'game-side' }, stats),
      this.playArea,
      h('div', { class: 'game-foot' }, controls, this.keysHelp),
    );
    this.titleEl.id = 'game-title';
    this.apply(this.view, { initial: true });
    this.timer = setInterval(() => this.tickClock(), 500);
    return this.el;
  }

  mounted() {
    this.board.el.focus({ preventScroll: true });
  }

  finishOpen() {
    return !!(this.finish && this.finish.open);
  }

  /** Render a View from Rust. */
  apply(view, how = {}) {
    if (!view || !view.snapshot) return;
    const prev = this.view && this.view.snapshot;
    this.view = view;
    const s = view.snapshot;
    const el = this.board.el;
    if (!this.board.update(s.board, how.initial ? null : view.effect)) {
      toast(t('err.parse', { message: s.board }));
    }
    setData(el, 'game', s.kind);
    setData(el, 'state', s.board);
    setData(el, 'moves', s.moves);
    setData(el, 'status', s.status);
    setData(el, 'id', s.id);
    setText(this.titleEl, t(`game.${this.kind}`));
    setText(this.subEl, levelTitle(this.app, s) || '');
    setText(this.statEls.moves, String(s.moves));
    this.renderBest(s);
    this.clockBase = { ms: Number(field(s, 'elapsed_ms') || 0), at: performance.now(), running: s.status === 'playing' && s.moves > 0 };
    this.tickClock();
    const solving = !!this.solving;
    const able = (b, off) => {
      if (b.disabled !== off) b.disabled = off;
    };
    able(this.buttons.undo, solving || !field(s, 'can_undo'));
    able(this.buttons.redo, solving || !field(s, 'can_redo'));
    able(this.buttons.restart, solving || (s.moves === 0 && !field(s, 'can_undo')));
    able(this.buttons.hint, solving || s.status !== 'playing');
    able(this.buttons.solve, !solving && s.status !== 'playing');
    if (!how.initial && prev && prev.status === 'playing' && s.status !== 'playing') this.finished(view);
    else if (how.initial && s.status !== 'playing' && view.finish) this.finished(view, true);
  }

  renderBest(s) {
    const counters = s.counters || {};
    const rec = bestRecord(this.app, s);
    if (this.kind === '2048') {
      const score = Number(counters.score || 0);
      setText(this.statEls.score, String(score));
      const maxTile = Math.max(0, ...s.board.split(',').map(Number).filter(Number.isFinite));
      setText(this.statEls.tile, String(counters.max_tile || maxTile));
      const bestScore = Math.max(score, Number((rec && rec.best_score) || 0));
      setText(this.statEls.best, String(bestScore));
    } else {
      const best = rec && rec.best_moves;
      setText(this.statEls.best, best === undefined || best === null ? t('noBest') : String(best));
    }
  }

  tickClock() {
    if (!this.statEls || !this.statEls.time) return;
    const c = this.clockBase;
    const ms = c.ms + (c.running ? performance.now() - c.at : 0);
    setText(this.statEls.time, formatTime(ms));
  }

  /** Play one move through Rust. Returns true when the move was legal. */
  async play(mv, opts = {}) {
    if (this.inFlight || (this.solving && !opts.auto) || this.finishOpen()) return false;
    this.inFlight = true;
    this.board.clearHint();
    const t0 = performance.now();
    let view;
    try {
      view = await call('play', { kind: this.kind, mv });
    } catch (e) {
      this.inFlight = false;
      if (e.code === 'illegal_move') this.blocked();
      else this.app.error(e);
      return false;
    }
    const before = this.view.snapshot;
    const tIpc = performance.now();
    this.apply(view);
    const tApply = performance.now();
    void this.board.el.offsetHeight; // force style + layout so the figure includes them
    const tDom = performance.now();
    requestAnimationFrame(() => {
      perf.moves.push({ kind: this.kind, rt: tDom - t0, frame: performance.now() - t0, ipc: tIpc - t0, apply: tApply - tIpc, layout: tDom - tApply });
      if (perf.moves.length > 2000) perf.moves.splice(0, 1000);
    });
    this.inFlight = false;
    const s = view.snapshot;
    if (s.status === 'won') {
      feedback('win');
      announce(t('say.won', { moves: s.moves }));
    } else if (s.status === 'lost') {
      feedback('lose');
      announce(t('say.lost', { score: (s.counters && s.counters.score) || 0 }));
    } else if (this.kind === '2048' && Number((s.counters || {}).score || 0) > Number((before.counters || {}).score || 0)) {
      feedback('merge');
      const vals = s.board.split(',').map(Number);
      announce(t('say.merged', { value: Math.max(...vals) }));
    } else {
      feedback('move');
      if (!opts.auto) announce(t('say.moved', { moves: s.moves }));
    }
    return true;
  }

  blocked(el) {
    feedback('blocked');
    announce(t('say.blocked'));
    const target = el || this.board.el;
    if (reducedMotion()) return;
    target.classList.remove('shake');
    void target.offsetWidth;
    target.classList.add('shake');
    setTimeout(() => target.classList.remove('shake'), 300);
  }

  async step(cmd) {
    if (this.inFlight || this.solving) return;
    this.inFlight = true;
    try {
      const view = await call(cmd, { kind: this.kind });
      this.board.clearHint();
      this.apply(view);
      const s = view.snapshot;
      announce(cmd === 'restart' ? t('say.restart') : t(`say.${cmd}`, { moves: s.moves }));
      feedback('move');
    } catch (e) {
      if (e.code === 'nothing_to_undo' || e.code === 'nothing_to_redo') this.blocked();
      else this.app.error(e);
    } finally {
      this.inFlight = false;
    }
  }

  async hint() {
    if (this.inFlight || this.solving) return;
    const b = this.buttons.hint;
    b.classList.add('working');
    b.setAttribute('aria-busy', 'true');
    try {
      const res = await call('hint', { kind: this.kind });
      const text = this.board.showHint(res && res.mv);
      if (text) announce(t('say.hint', { what: text }));
    } catch (e) {
      // A move made while the hint was thinking cancels it: nothing to say.
      if (e.code !== 'cancelled') this.app.error(e);
    } finally {
      b.classList.remove('working');
      b.removeAttribute('aria-busy');
    }
  }

  async toggleSolve() {
    if (this.solving) {
      this.solving.stopped = true;
      return;
    }
    if (this.inFlight || this.view.snapshot.status !== 'playing') return;
    const run = { stopped: false };
    this.solving = run;
    this.setSolving(true, true);
    try {
      let moves = null;
      try {
        const res = await call('solve', { kind: this.kind });
        moves = (res && res.moves) || [];
      } catch (e) {
        if (e.code !== 'unsupported') throw e;
      }
      this.setSolving(true, false);
      if (run.stopped) return;
      if (moves) {
        announce(t('say.solving', { n: moves.length }));
        const pace = moves.length <= 40 ? 320 : moves.length <= 200 ? 160 : 60;
        for (const mv of moves) {
          if (run.stopped) break;
          const ok = await this.play(mv, { auto: true });
          if (!ok) break;
          await sleep(reducedMotion() ? Math.max(pace, 250) : pace);
        }
      } else {
        // No whole solution for this game (2048): let the AI play its hint, move by move.
        while (!run.stopped && this.view.snapshot.status === 'playing') {
          const res = await call('hint', { kind: this.kind });
          if (run.stopped || !res || !res.mv) break;
          if (!(await this.play(res.mv, { auto: true }))) break;
          await sleep(140);
        }
      }
      if (run.stopped) announce(t('say.stopped'));
    } catch (e) {
      if (e.code !== 'cancelled') this.app.error(e);
    } finally {
      this.solving = null;
      this.setSolving(false, false);
      this.apply(this.view);
    }
  }

  setSolving(on, thinking) {
    const b = this.buttons.solve;
    b.replaceChildren(icon(on ? 'stop' : 'solve'), h('span', { class: 'ctl-label' }, on ? (thinking ? t('thinking') : t('stop')) : this.kind === '2048' ? t('autoPlay') : t('solve')));
    b.setAttribute('aria-label', on ? t('stop') : this.kind === '2048' ? t('autoPlay') : t('solve'));
    b.classList.toggle('active', on);
    b.disabled = false;
    this.el.classList.toggle('solving', on);
    for (const k of ['undo', 'redo', 'restart', 'hint']) if (on) this.buttons[k].disabled = true;
  }

  finished(view, quiet) {
    if (!this.finish) this.finish = new FinishDialog(this);
    const delay = quiet || reducedMotion() ? 0 : 420;
    setTimeout(() => {
      if (this.app.screen === this && this.view === view) this.finish.show(view);
    }, delay);
    // Records changed: reload them (and the level list that carries Klotski bests).
    if (this.app.levels) delete this.app.levels[this.kind];
    Promise.all([this.app.refreshProgress(), this.kind === 'klotski' ? loadLevels(this.app, 'klotski') : null]).then(() => {
      if (this.app.screen === this && this.view) this.renderBest(this.view.snapshot);
    });
  }

  bindSwipes(area) {
    let start = null;
    area.addEventListener('pointerdown', (e) => {
      if (start || (e.pointerType === 'mouse' && e.button !== 0)) return void (start = null); // a second finger: no swipe
      if (this.finishOpen()) return;
      start = { id: e.pointerId, x: e.clientX, y: e.clientY, t: performance.now() };
      try {
        area.setPointerCapture(e.pointerId);
      } catch (_) {
        /* gone */
      }
      e.preventDefault();
    });
    const end = (e, cancelled) => {
      if (!start || e.pointerId !== start.id) return;
      const s = start;
      start = null;
      if (cancelled) return;
      const dx = e.clientX - s.x;
      const dy = e.clientY - s.y;
      const ax = Math.abs(dx);
      const ay = Math.abs(dy);
      const cell = (this.board.grid && this.board.grid.cell) || 80;
      const dist = Math.max(ax, ay);
      const speed = dist / Math.max(1, performance.now() - s.t);
      const far = dist >= Math.max(SWIPE_MIN_PX, cell * 0.3);
      const flick = dist >= 12 && speed > 0.45;
      if (!far && !flick) return;
      if (Math.max(ax, ay) < 1.5 * Math.min(ax, ay)) return; // no clearly dominant axis
      const dir = ax > ay ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up';
      this.play({ dir });
    };
    area.addEventListener('pointerup', (e) => end(e, false));
    area.addEventListener('pointercancel', (e) => end(e, true));
  }

  onKey(e) {
    if (this.finishOpen()) return this.finish.onKey(e);
    const dir = DIRS[e.key];
    if (dir) {
      if (this.solving || this.inFlight) return true;
      this.board.key(dir);
      return true;
    }
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey) {
      this.step('undo');
      return true;
    }
    if (k === 'y' || (k === 'z' && e.shiftKey)) {
      this.step('redo');
      return true;
    }
    if (k === 'h') {
      this.hint();
      return true;
    }
    if (k === 'escape') {
      if (this.solving) this.solving.stopped = true;
      else this.leave('home');
      return true;
    }
    return false;
  }

  leave(where) {
    if (this.solving) this.solving.stopped = true;
    this.app.go(where);
  }

  destroy() {
    clearInterval(this.timer);
    if (this.solving) this.solving.stopped = true;
    this.board.destroy();
    if (this.finish) this.finish.destroy();
  }
}

export function defaultParams(kind) {
  return kind === 'slide' ? '4x4' : '';
}

