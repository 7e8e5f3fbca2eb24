// The game screen, one for every game: board, counters, best record, undo / redo / restart /
// hint / auto-solve / new game, the finish dialog. Everything game-specific comes from the
// game's descriptor (boards/index.js); every input goes through a command, one at a time, in
// the order the player made it (the input queue), and the screen renders what Rust returns.

import { call, field, perf } from '../ipc.js';
import { h, icon, reducedMotion, setText, setData } from '../dom.js';
import { t, formatTime, movesText } from '../i18n.js';
import { feedback, announce, toast } from '../feedback.js';
import { gameOf } from '../boards/index.js';
import { boardView } from '../boards/common.js';
import { FinishDialog, celebrate } from './finish.js';
import { confirmDialog } from './dialog.js';
import { InputQueue } from '../queue.js';
import { toggleSolve } from './autosolve.js';
import { openMore, askSolve } from './more.js';
import { challengeLine } from '../challenge.js';
import { scopeOf } from './stats.js';
import { applyPicture, numbersToggle } from '../picture.js';
import { GhostBand } from './ghost.js';

const DIRS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

export class GameScreen {
  constructor(app, kind, opts) {
    this.app = app;
    this.kind = kind;
    this.game = gameOf(kind);
    this.opts = opts || {};
    this.name = `game:${kind}`;
    this.view = this.opts.view || null;
    this.queue = new InputQueue(() => this.app.screen === this, (e) => this.app.error(e));
    this.solving = null;
    this.timer = 0;
    this.finish = null;
    this.clockBase = { ms: 0, at: 0, running: false };
  }

  async prepare() {
    const extra = this.game.prepare ? this.game.prepare(this.app) : null;
    if (!this.view) {
      try {
        [this.view] = await Promise.all([call('snapshot', { kind: this.kind }), extra]);
      } catch (e) {
        if (this.opts.resume) return false;
        try {
          this.view = await this.app.confirmed('new_game', { kind: this.kind, params: this.game.defaultParams });
        } catch (e2) {
          this.app.error(e2);
          return false;
        }
      }
    }
    await extra;
    return !!(this.view && this.view.snapshot);
  }

  render() {
    // Rendering again (a language change) replaces the board and the clock.
    if (this.board) this.board.destroy();
    clearInterval(this.timer);
    const ctx = {
      app: this.app,
      play: (mv, opts) => this.play(mv, opts),
      blocked: (el) => this.blocked(el),
      busy: () => !!this.solving || this.finishOpen() || !!this.celebrating || !!this.app.modal,
      targets: (piece) => call('klotski_targets', { piece }),
      hint: () => this.hint(),
    };
    this.board = new this.game.Board(ctx);
    const bel = this.board.el;
    bel.classList.add('board');
    bel.setAttribute('role', 'group');
    bel.setAttribute('tabindex', '0');
    bel.setAttribute('aria-describedby', 'keys-help');

    this.titleEl = h('h1', { class: 'title', tabindex: '-1' });
    this.subEl = h('p', { class: 'subtitle' });
    const header = h(
      'header',
      { class: 'bar' },
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('back'), 'data-action': 'back', onclick: () => this.leave() }, icon('back')),
      h('div', { class: 'bar-title' }, this.titleEl, this.subEl),
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('newGame'), 'data-action': 'new', onclick: () => this.newGame() }, icon('new')),
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('levels'), 'data-action': 'levels', onclick: () => this.leave(`levels:${this.kind}`) }, icon('levels')),
    );

    this.statEls = {};
    const stats = h(
      'div',
      { class: `stats${this.game.stats.length === 4 ? ' four' : ''}` },
      this.game.stats.filter(([key]) => !(key === 'time' && this.app.settings && this.app.settings.clock === 'off')).map(([key, label]) => {
        const v = h('span', { class: 'stat-value', 'data-stat': key }, '0');
        this.statEls[key] = v;
        // The best opens this game's records screen.
        if (key === 'best') return h('button', { class: 'stat stat-link', type: 'button', 'data-action': 'records', onclick: () => this.openRecords() }, h('span', { class: 'stat-label' }, t(label)), v);
        return h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, t(label)), v);
      }),
    );

    const btn = (action, label, iconName, onclick, extra = '') =>
      h('button', { class: `ctl${extra}`, type: 'button', 'data-action': action, 'aria-label': label, onclick }, icon(iconName), h('span', { class: 'ctl-label' }, label));
    // Undo and Hint are the big ones, under the thumb; redo and restart beside them; auto-solve
    // lives in the "more" menu (more.js), asked first, and appears here only as Stop while it runs.
    this.buttons = {
      restart: btn('restart', t('restart'), 'restart', () => this.step('restart'), ' ctl-small'),
      undo: btn('undo', t('undo'), 'undo', () => this.step('undo'), ' ctl-main'),
      hint: btn('hint', t('hint'), 'hint', () => this.hint(), ' ctl-main ctl-hint'),
      redo: btn('redo', t('redo'), 'redo', () => this.step('redo'), ' ctl-small'),
      solve: btn('solve', t(this.game.solveLabel), 'solve', () => this.solveTapped(), ' ctl-small'),
    };
    this.moreBtn = h('button', { class: 'ctl ctl-small ctl-more', type: 'button', 'data-action': 'more', 'aria-label': t('more'), 'aria-haspopup': 'dialog', onclick: () => openMore(this) }, icon('more'), h('span', { class: 'ctl-label' }, t('more')));
    const { solve: _solve, ...shown } = this.buttons;
    const controls = h('nav', { class: 'controls', 'aria-label': t('controlsLabel') }, Object.values(shown), this.moreBtn);
    this.controls = controls;

    this.playArea = h('div', { class: 'play-area' }, bel);
    if (this.board.bindArea) this.board.bindArea(this.playArea);
    const pad = this.board.pad ? this.board.pad(this.app.settings || {}) : null;
    this.keysHelp = h('p', { id: 'keys-help', class: 'keys-help', 'data-key-hints': '' }, t('keysHelp'));

    this.el = h(
      'section',
      { class: `screen game-screen game-${this.kind}${pad ? ' with-pad' : ''}`, 'aria-labelledby': 'game-title' },
      header,
      h('div', { class: 'game-side' }, stats, (this.challenge = challengeLine()).el, (this.picToggle = numbersToggle(() => this.board && this.board.el)).el),
      this.playArea,
      h('div', { class: 'game-foot' }, pad, controls, this.keysHelp),
    );
    this.titleEl.id = 'game-title';
    // The counters sit on the board's top edge (game.css): both heights as CSS variables.
    if (this.sizes) this.sizes.disconnect();
    const side = this.el.querySelector('.game-side');
    // The ghost of a race sits above the counters (ghost.js), once the game has one.
    if (this.ghostBand) this.ghostBand.destroy();
    this.ghostSlot = side;
    this.ghostBand = new GhostBand(this);
    this.measureSizes = () => {
      this.el.style.setProperty('--side-h', `${side.offsetHeight}px`);
      this.el.style.setProperty('--board-h', `${bel.offsetHeight}px`);
    };
    this.sizes = new ResizeObserver(this.measureSizes);
    this.sizes.observe(side);
    this.sizes.observe(bel);
    this.apply(this.view, { initial: true });
    return this.el;
  }

  mounted() {
    // The screen's first frame has the counters on the board and the tiles in place: measured
    // now, in the DOM, not first in the resize observers' callbacks, which a page under load
    // can run a frame late (a layout shift of 0.13 on a throttled phone: tests/web/measure.mjs).
    this.measureSizes();
    if (this.board.grid) this.board.grid.measure();
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
    if (!this.board.update(boardView(s), how.initial ? null : view.effect, how, s)) {
      toast(t('err.parse', { message: s.board }));
    }
    setData(el, 'game', s.kind);
    setData(el, 'state', s.board);
    setData(el, 'moves', s.moves);
    setData(el, 'status', s.status);
    setData(el, 'id', s.id);
    if (s.slot) setData(el, 'slot', s.slot);
    setText(this.titleEl, (this.game.title && this.game.title(this.app, s)) || t(`game.${this.kind}`));
    setText(this.subEl, this.game.subtitle(this.app, s) || '');
    this.renderStats(s);
    this.challenge.update(s.challenge);
    if (s.kind === 'slide') applyPicture(el, s);
    this.picToggle.update(s);
    // A speedsolving run's clock runs from its first move to its last solve (one timer).
    const runOn = !!(s.run && !s.run.done && s.run.splits.length > 0);
    this.clockBase = { ms: Number(field(s, 'elapsed_ms') || 0), at: performance.now(), running: s.status === 'playing' && (s.moves > 0 || runOn) };
    this.tickClock();
    this.ghostBand.update(s);
    const solving = !!this.solving;
    const able = (b, off) => {
      if (b.disabled !== off) b.disabled = off;
    };
    able(this.buttons.undo, solving || !field(s, 'can_undo'));
    able(this.buttons.redo, solving || !field(s, 'can_redo'));
    able(this.buttons.restart, solving || (s.moves === 0 && !field(s, 'can_undo')));
    able(this.buttons.hint, solving || s.status !== 'playing');
    able(this.buttons.solve, !solving && s.status !== 'playing');
    const ended = !how.initial && prev && prev.status === 'playing' && s.status !== 'playing';
    if (ended) {
      this.dropQueue();
      this.finished(view, false);
    } else if (how.initial && s.status !== 'playing' && view.finish) this.finished(view, true);
  }

  renderStats(s) {
    const values = this.game.statValues(this.app, s);
    for (const [key, v] of Object.entries(values)) if (this.statEls[key]) setText(this.statEls[key], String(v));
  }

  tickClock() {
    if (!this.statEls.time) return;
    const c = this.clockBase;
    const ms = c.ms + (c.running ? performance.now() - c.at : 0);
    // Tenths while under a minute: the clock ticks ten times a second then, twice after.
    setText(this.statEls.time, formatTime(ms, ms < 60000));
    const every = c.running && ms < 60000 ? 100 : 500;
    if (every !== this.tickEvery) {
      clearInterval(this.timer);
      this.tickEvery = every;
      this.timer = setInterval(() => this.tickClock(), every);
    }
  }

  enqueue(job) {
    return this.queue.push(job);
  }

  dropQueue() {
    this.queue.drop();
  }

  /**
   * Play a move through Rust (queued). `mv` is a move, or a function giving one when its turn
   * comes (a key press reads the board as it is then); null = nothing to play. Resolves true
   * when the move was legal.
   */
  play(mv, opts = {}) {
    if ((this.solving && !opts.auto) || this.finishOpen() || this.app.modal) return Promise.resolve(false);
    return this.enqueue(async () => {
      const m = typeof mv === 'function' ? await mv() : mv;
      if (!m || (this.solving && !opts.auto) || this.finishOpen()) return false;
      return this.playNow(m, opts);
    });
  }

  async playNow(mv, opts) {
    this.board.clearHint();
    const t0 = performance.now();
    let view;
    try {
      view = await call('play', { kind: this.kind, mv });
    } catch (e) {
      if (e.code === 'illegal_move') this.blocked();
      else this.app.error(e);
      return false;
    }
    if (this.app.screen !== this) return false;
    const before = this.view.snapshot;
    const tIpc = performance.now();
    this.apply(view);
    const tApply = performance.now();
    void this.board.el.offsetHeight; // force style + layout so the figure includes them
    const tDom = performance.now();
    const pv = opts.shown;
    requestAnimationFrame(() => {
      const m = { kind: this.kind, rt: tDom - t0, frame: performance.now() - t0, ipc: tIpc - t0, apply: tApply - tIpc, layout: tDom - tApply };
      // The board showed the move before the answer (slide.js, `preview`): tap → laid out there.
      if (pv) Object.assign(m, { shown: pv.laidOut - pv.start, shownFrame: pv.frame === null ? null : pv.frame - pv.start });
      perf.moves.push(m);
      if (perf.moves.length > 2000) perf.moves.splice(0, 1000);
    });
    const s = view.snapshot;
    // One announcement per move: the board's words for it (a11y.js), then what it ended.
    const words = this.board.moveWords ? this.board.moveWords(mv, view.effect, before, s) : null;
    const with_ = (text) => (words && words.text ? `${words.text}${t('a11y.sep')}${text}` : text);
    if (s.status === 'won') {
      feedback('win');
      announce(with_(t('say.won', { moves: movesText(s.moves) })));
    } else if (s.status === 'lost') {
      feedback('lose');
      announce(with_(t('say.lost', { score: (s.counters && s.counters.score) || 0 })));
    } else {
      const said = this.game.moveSaid ? this.game.moveSaid(before, s) : null;
      feedback(said ? said.sound : words && words.placed ? 'placed' : 'move');
      if (!opts.auto) announce(words && words.text ? words.text : said ? said.text : t('say.moved', { moves: s.moves }));
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

  /** Undo / redo / restart, queued behind the moves made before them. */
  step(cmd) {
    if (this.solving || this.app.modal) return Promise.resolve(false);
    return this.enqueue(async () => {
      try {
        const view = await call(cmd, { kind: this.kind });
        if (this.app.screen !== this) return false;
        this.board.clearHint();
        this.apply(view, { step: cmd });
        const s = view.snapshot;
        announce(cmd === 'restart' ? t('say.restart') : t(`say.${cmd}`, { moves: movesText(s.moves) }));
        feedback('move');
        return true;
      } catch (e) {
        if (e.code === 'nothing_to_undo' || e.code === 'nothing_to_redo') this.blocked();
        else this.app.error(e);
        return false;
      }
    });
  }

  /** `[data-action=new]`: a new game like this one (asks first if this one would be lost). */
  newGame() {
    if (this.app.modal) return Promise.resolve(false);
    if (this.solving) this.solving.stopped = true;
    return this.enqueue(async () => {
      const s = this.view.snapshot;
      const next = this.game.newGame(this.app, s);
      let args = next.args;
      if (next.sameSlot && s.status === 'playing' && (s.moves > 0 || field(s, 'can_undo'))) {
        const ok = await confirmDialog(this.app, {
          title: t('newGame.title'),
          text: t('newGame.ask', { moves: movesText(s.moves) }),
          confirm: t('newGame'),
        });
        if (!ok) return false;
        args = { ...args, replace: true };
      }
      const view = await this.app.confirmed(next.cmd, args);
      if (!view || this.app.screen !== this) return false;
      this.load(view);
      return true;
    });
  }

  /** Show another game on this screen (new game, again, next level): no animation between. */
  load(view) {
    if (this.finish) this.finish.hide();
    if (view.snapshot.kind !== this.kind) return this.app.go(`game:${view.snapshot.kind}`, { view, replace: true });
    this.board.clearHint();
    this.apply(view, { initial: true });
    call('set_screen', { screen: this.name }).catch(() => {});
    return null;
  }

  async hint() {
    if (this.solving) return;
    const b = this.buttons.hint;
    b.classList.add('working');
    b.setAttribute('aria-busy', 'true');
    try {
      const res = await call('hint', { kind: this.kind });
      const text = this.board.showHint(res && res.mv);
      if (text) announce(t('say.hint', { what: text }));
      // Not proven optimal within the budget: Rust keeps proving and says when it has.
      b.dataset.hint = res && res.optimal ? 'optimal' : 'approx';
      if (res && res.pending) this.awaitProof();
    } catch (e) {
      // A move made while the hint was thinking cancels it: nothing to say.
      if (e.code !== 'cancelled') this.app.error(e);
    } finally {
      b.classList.remove('working');
      b.removeAttribute('aria-busy');
    }
  }

  /** A background proof of the shown hint: when `huarong-hint` names this game, show the proven move. */
  awaitProof() {
    this.stopProofWait();
    this.proofWait = async (e) => {
      if (e.detail !== this.kind) return;
      this.stopProofWait();
      try {
        const res = await call('hint_status', { kind: this.kind });
        if (!res || !res.optimal || this.solving) return;
        this.buttons.hint.dataset.hint = 'optimal';
        const text = this.board.showHint(res.mv);
        if (text) announce(t('say.hintOptimal', { what: text }));
      } catch (_) {
        // The game moved on meanwhile: nothing to show.
      }
    };
    window.addEventListener('huarong-hint', this.proofWait);
  }

  stopProofWait() {
    if (this.proofWait) window.removeEventListener('huarong-hint', this.proofWait);
    this.proofWait = null;
  }

  toggleSolve() {
    return toggleSolve(this);
  }

  /** `[data-action=solve]`: in the "more" menu it asks first (more.js); while solving it is Stop. */
  solveTapped() {
    if (this.solving) return toggleSolve(this);
    if (this.app.modal && this.solveFromMenu && this.buttons.solve.closest('.more')) {
      const f = this.solveFromMenu;
      this.solveFromMenu = null;
      return f();
    }
    return askSolve(this);
  }

  /** The game ended: a win's celebration on the board (finish.js, `celebrate`), then the
   *  finish dialog. `quiet`: shown again without the moment (a finished game reopened). */
  finished(view, quiet) {
    if (!this.finish) this.finish = new FinishDialog(this);
    const show = () => {
      if (this.app.screen === this && this.view === view && !this.app.modal) this.finish.show(view);
    };
    // (Never synchronously: a screen being shown takes its history entry first.)
    if (quiet) setTimeout(show, 0);
    else if (view.snapshot.status === 'won') celebrate(this, view).then(show);
    else setTimeout(show, reducedMotion() ? 0 : 420);
    // Records changed: reload them (and whatever else the game keeps, e.g. Klotski levels).
    const extra = this.game.refresh ? this.game.refresh(this.app) : null;
    Promise.all([this.app.refreshProgress(), extra]).then(() => {
      if (this.app.screen === this && this.view) this.renderStats(this.view.snapshot);
    });
  }

  onKey(e) {
    if (this.celebrating) {
      // Any key skips the celebration (as a tap does).
      this.celebrating.skip();
      return true;
    }
    if (this.finishOpen()) return this.finish.onKey(e);
    const dir = DIRS[e.key];
    if (dir) {
      if (this.solving) return true;
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
    if (k === 'n') {
      this.newGame();
      return true;
    }
    if (k === 'escape') {
      if (this.solving) this.solving.stopped = true;
      else this.leave();
      return true;
    }
    return false;
  }

  /** Back (to the screen this game was opened from), or forward to `where`. */
  /** The records screen of this game's scope. */
  openRecords() {
    if (this.solving) this.solving.stopped = true;
    this.app.go('records', { scope: scopeOf(this.app, this.view) });
  }

  leave(where) {
    if (this.solving) this.solving.stopped = true;
    if (where) this.app.go(where);
    else this.app.back();
  }

  destroy() {
    clearInterval(this.timer);
    if (this.ghostBand) this.ghostBand.destroy();
    if (this.sizes) this.sizes.disconnect();
    this.dropQueue();
    this.stopProofWait();
    // A hint or solve still thinking for this game is of no use any more.
    if (this.solving || this.buttons.hint.classList.contains('working')) call('cancel', { kind: this.kind }).catch(() => {});
    if (this.solving) this.solving.stopped = true;
    this.board.destroy();
    if (this.finish) this.finish.destroy();
  }
}
