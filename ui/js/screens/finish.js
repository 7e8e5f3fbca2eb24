// The win moment: the board's own celebration, then the finish dialog. Everything
// the dialog says comes from the View's `finish` (Rust): the moves, the optimum, the stars,
// the time as recorded, whether the game was perfect. While Rust still searches the start's
// optimum the finish is `pending`: the dialog says the best solution is being found instead
// of showing stars, and fills in stars, optimum and analysis in place when Rust says it has
// them (the DOM event `huarong-finish`, then `finish {kind}`).
//
// Layout: a sheet that rises from the bottom while the solved board moves up and stays wholly
// in view above it (game.css, `.game-screen.finishing`). The sheet is compact: a head (a grab
// handle, the title, ✕), the one big number with the stars and the verdict, the one primary
// action (Rust's `finish.next`) and its secondaries; the details (the friends' board, the
// analysis, records, replay) are below, reached by scrolling inside the sheet. Back, ✕, a tap
// above the sheet or a swipe down closes it and leaves the solved board.

import { call, field, isWeb } from '../ipc.js';
import { h, icon, reducedMotion } from '../dom.js';
import { t, language, movesText } from '../i18n.js';
import { toast, announce } from '../feedback.js';
import { finishChallenge, challengeOutcome } from '../challenge.js';
import { raceBestLink } from './ghost.js';
import { analysisSection } from '../analysis.js';
import { cardPicture } from '../picture.js';
import { scopeOf } from './stats.js';
import { friendsBoard, friendsBoardOf, placeLine } from '../friends.js';
import { startGroup } from './group.js';

// Whether the player's last input was a key. The dialog focuses its main button for keyboard
// and screen-reader players; after a touch or a click (the winning move on the board) that
// focus gets no ring: Chromium draws one on a button focused by script after a touch.
let lastInputKey = false;
addEventListener('keydown', () => { lastInputKey = true; }, true);
addEventListener('pointerdown', () => { lastInputKey = false; }, true);

/** Longest a celebration may hold the dialog back whatever its animations do (they take
 *  1–2 s; this only guards against one that never ends). */
const CELEBRATION_MAX_MS = 6000;

/**
 * The celebration of a win, played by the board's own module (`board.celebrate`) at the
 * winning move, before the dialog: `[data-celebration]` covers the screen while it plays and a
 * tap (or a key) skips it. Resolves when it is over or skipped. With reduced motion the board
 * plays its short version (nothing over 200 ms).
 */
export function celebrate(screen, view) {
  const board = screen.board;
  const reduced = reducedMotion();
  const c = board && board.celebrate ? board.celebrate({ reduced }) : null;
  if (!c) return Promise.resolve();
  const layer = h('div', { class: 'celebration', 'data-celebration': view.snapshot.kind, 'aria-hidden': 'true' });
  let skip = null;
  const skipped = new Promise((resolve) => (skip = resolve));
  layer.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    skip();
  });
  screen.el.append(layer);
  screen.celebrating = { skip: () => skip() };
  const timer = new Promise((resolve) => setTimeout(resolve, CELEBRATION_MAX_MS));
  return Promise.race([c.done, skipped, timer]).then(() => {
    c.skip();
    layer.remove();
    screen.celebrating = null;
  });
}

export class FinishDialog {
  constructor(game) {
    this.game = game;
    this.open = false;
    this.el = null;
    this.onFinishEvent = (e) => this.refresh(e);
  }

  show(view) {
    this.hide();
    const s = view.snapshot;
    const f = view.finish || {};
    this.f = f;
    const game = this.game.game;
    const won = s.status === 'won';
    // Against a friend the verdict is the headline (a lost challenge never reads "Solved!").
    const title = challengeTitle(f) || (won ? t(game.finish.wonTitle, game.finish.wonParams ? game.finish.wonParams(s) : undefined) : t('gameOver'));
    const moves = field(f, 'moves') ?? s.moves;
    // An assisted win (a hint, auto-solve, a redo of the solution) never says record or perfect.
    const assisted = field(f, 'assisted') === true;
    const newRecord = field(f, 'new_record') === true && !assisted;

    // The one big number: moves, or 2048's score; its other figures as small chips.
    const [big, ...rest] = game.finish.rows(s, f);
    const [bigLabel, bigValue, bigKey] = big;
    this.chips = {};
    const chips = rest.map(([label, value, key]) => {
      const v = h('span', { class: 'stat-value' }, String(value));
      const chip = h('div', { class: 'fin-stat', 'data-fin': key }, h('span', { class: 'stat-label' }, t(label)), v);
      this.chips[key] = chip;
      return chip;
    });
    if (this.chips.time) this.chips.time.dataset.ms = String(Number(f.time_ms ?? field(s, 'elapsed_ms') ?? 0));

    const flags = [];
    // A run's marks are its solves' together (Rust adds them up in the finish).
    const marked = f.run ? { auto_solved: f.counted === false, undo_used: f.undo_used, hints_used: f.hints_used } : s;
    if (field(marked, 'auto_solved')) flags.push(t('autoSolved'));
    if (field(marked, 'undo_used')) flags.push(t('usedUndo'));
    const hints = Number(field(marked, 'hints_used')) || 0;
    if (hints) flags.push(hints === 1 ? t('usedHint1') : t('usedHint', { n: hints }));

    const tags = [];
    if (newRecord) tags.push(h('span', { class: 'badge', 'data-new-record': '1', 'data-fin': 'record' }, icon('star'), t('newRecord')));
    if (f.daily && f.daily.current) {
      tags.push(h('span', { class: 'fin-streak', 'data-streak': String(f.daily.current) }, icon('flame'), f.daily.current === 1 ? t('fin.streak1') : t('fin.streak', { n: f.daily.current })));
    }

    this.starBox = game.finish.stars ? h('div', { class: 'fin-verdict' }) : null;
    const next = nextOf(s, f, won, game);
    const [primary, ...others] = this.actions(s, f, next);
    // No analysis where the optimum could not be found: it searches the same optimum.
    // Nor for a speedsolving run (its one finish is many solves; their splits say it).
    this.analysis = unrated(f, game) || f.run ? null : analysisSection(s.kind, view);
    const head = h(
      'div',
      { class: 'sheet-head' },
      h('span', { class: 'sheet-grab', 'aria-hidden': 'true' }),
      h('h2', { id: 'finish-title', tabindex: '-1' }, title),
      h('button', { class: 'icon-btn sheet-close', type: 'button', 'aria-label': t('close'), 'data-action': 'close', onclick: () => this.close() }, '×'),
    );
    const hero = h(
      'div',
      { class: 'fin-hero' },
      tags.length ? h('div', { class: 'fin-tags' }, tags) : null,
      h('div', { class: 'fin-big', 'data-fin': bigKey }, h('span', { class: 'stat-value' }, String(bigValue)), h('span', { class: 'stat-label' }, t(bigLabel))),
      this.starBox,
      chips.length ? h('div', { class: `fin-stats n${chips.length}` }, chips) : null,
    );
    const links = h(
      'div',
      { class: 'fin-links' },
      h('button', { class: 'link-btn fin-records', type: 'button', 'data-action': 'records', onclick: () => this.records() }, icon('chart'), t('finRecords')),
      this.replayLink(s),
      raceBestLink(this.game, s, f),
      // The web page only (a friend without the app): where to get it.
      isWeb() ? h('a', { class: 'link-btn fin-get-app', href: 'get-app.html', target: '_blank', rel: 'noopener', 'data-action': 'get-app' }, icon('next'), t('getApp')) : null,
    );
    // While the verdict is pending the analysis waits (it would search the same optimum): it
    // joins the details, below the actions, once the verdict says the game was not perfect.
    this.links = links;
    const details = h(
      'div',
      { class: 'fin-details' },
      // A game's own extra (a run's splits): a detail, under the actions.
      game.finish.extra ? game.finish.extra(s, f) : null,
      this.game.ghostBand ? this.game.ghostBand.raceBlock(f) : null,
      flags.length ? h('p', { class: 'fin-flags' }, flags.join(' · ')) : null,
      this.friendsBlock(s, f),
      this.analysis && !f.pending ? this.analysis.el : null,
      links,
      // The same puzzle for a group chat, with a deadline: outlined, never the primary.
      s.id && !f.run && !s.run ? h('button', { class: 'btn fin-group', type: 'button', 'data-action': 'group-new', onclick: () => this.startGroup(s) }, icon('share'), h('span', { class: 'btn-label' }, t('group.start'))) : null,
    );
    this.actionsEl = h('div', { class: 'fin-actions' }, primary, others.length ? h('div', { class: `fin-more n${others.length}` }, others) : null);
    this.sheet = h(
      'div',
      { class: 'sheet' },
      head,
      h('div', { class: 'sheet-body' }, hero, verdictLine(f, s), this.actionsEl, details),
    );
    this.el = h(
      'div',
      {
        class: lastInputKey ? 'overlay finish' : 'overlay finish quiet-focus',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': 'finish-title',
        'data-finish': won ? 'won' : 'lost',
        'data-game': s.kind,
        'data-next': next.action,
        'data-next-from': next.from,
        'data-assisted': assisted ? '1' : '0',
      },
      this.sheet,
    );
    // A tap above the sheet closes it (the solved board stays); a swipe down on its head too.
    this.el.addEventListener('pointerdown', (e) => {
      if (e.target === this.el) {
        e.preventDefault();
        this.close();
      }
    });
    swipeDown(head, this.sheet, () => this.close());
    this.verdict(f, false);
    this.game.el.append(this.el);
    this.open = true;
    this.game.app.openDialog(this);
    this.fit();
    primary.focus({ preventScroll: true });
    announce(`${title} ${won ? t('say.won', { moves: movesText(moves) }) : ''}`);
    // Rust says when the verdict changes (a pending optimum arrived, or an analysis found the
    // optimum the finish lacked); it may have arrived during the celebration.
    window.addEventListener('huarong-finish', this.onFinishEvent);
    if (f.pending) this.refresh(null);
    else if (this.analysis) {
      // The analysis runs after the dialog is on screen (off the critical path).
      requestAnimationFrame(() => this.analysis && this.analysis.start());
    }
  }

  /**
   * Show the verdict of `f` — stars (`data-stars`), optimum, "perfect" — or that it is still
   * being found. `arrived`: it replaced a pending one (the stars pop in).
   */
  verdict(f, arrived) {
    const el = this.el;
    if (!el) return;
    const game = this.game.game;
    const optimal = f.optimal === null || f.optimal === undefined ? null : Number(f.optimal);
    const opt = this.chips && this.chips.optimal;
    if (opt) {
      const v = opt.querySelector('.stat-value');
      v.replaceChildren(f.pending ? h('span', { class: 'spinner small', 'aria-label': t('fin.finding') }) : String(optimal ?? t('noBest')));
      opt.dataset.pending = f.pending ? '1' : '0';
    }
    if (f.pending) el.dataset.stars = 'pending';
    else if (game.finish.stars && f.stars !== null && f.stars !== undefined) el.dataset.stars = String(Number(f.stars));
    else delete el.dataset.stars;
    const box = this.starBox;
    if (!box) return;
    if (f.pending) {
      box.replaceChildren(h('p', { class: 'fin-finding', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('fin.finding')));
      return;
    }
    const stars = f.stars === null || f.stars === undefined ? null : Number(f.stars);
    const parts = [];
    if (stars !== null) {
      const row = h('div', { class: arrived ? 'stars fin-stars arrived' : 'stars fin-stars', role: 'img', 'data-on': String(stars), 'aria-label': stars === 1 ? t('stars1') : t('stars', { n: stars }) });
      for (let i = 0; i < 3; i++) row.append(h('span', { class: i < stars ? 'star on' : 'star' }, icon('star')));
      parts.push(row);
    }
    // The optimum could not be found (its search gave up): no stars, and the reason why.
    if (unrated(f, game)) parts.push(h('p', { class: 'fin-over', 'data-unrated': '1' }, t('fin.unrated')));
    // "Perfect" beside a friend's better result is said in the one sentence that says both
    // (challenge.js); never for an assisted win.
    const outcome = challengeOutcome(f);
    if (f.perfect === true && f.assisted !== true && outcome !== 'lost' && outcome !== 'tied') parts.push(h('p', { class: 'fin-perfect', 'data-perfect': '1' }, t('fin.perfect')));
    else if (f.perfect === false && optimal !== null) {
      const over = Number(f.moves) - optimal;
      // Not perfect in the fewest moves: hints showed the way (Rust's rule, registry::perfect).
      if (over <= 0) parts.push(h('p', { class: 'fin-over', 'data-over': '0', 'data-hinted': '1' }, t('fin.hinted')));
      else parts.push(h('p', { class: 'fin-over', 'data-over': String(over) }, over === 1 ? t('fin.over1') : t('fin.over', { n: over, best: optimal })));
    }
    box.replaceChildren(...parts);
    if (arrived && stars !== null) announce(`${stars === 1 ? t('stars1') : t('stars', { n: stars })}${f.perfect ? ` · ${t('fin.perfect')}` : ''}`);
  }

  /** Rust resolved a pending finish (`huarong-finish`), or it may have: read it and show it. */
  async refresh(e) {
    const kind = this.game.kind;
    if (e && e.detail !== kind) return;
    const was = this.f;
    let f;
    try {
      f = await call('finish', { kind });
    } catch (_) {
      return;
    }
    if (!this.el || this.f !== was || !f || f.pending || Number(f.at_ms) !== Number(was.at_ms)) return;
    this.f = f;
    const view = this.game.view;
    if (view && view.finish && Number(view.finish.at_ms) === Number(f.at_ms)) view.finish = f;
    this.verdict(f, !!was.pending);
    if (this.analysis && was.pending) {
      // A perfect game needs no chart: the verdict says it; nor one whose optimum could not be
      // found. Otherwise the analysis runs now (not before: it would compete with the search).
      if (f.perfect || unrated(f, this.game.game)) this.analysis = null;
      else {
        this.links.before(this.analysis.el);
        this.analysis.start();
      }
    }
  }

  /**
   * The actions: exactly one primary, the `next` Rust chose for this context (the only filled
   * button, `[data-action="<next>"]`), then the secondaries, outlined: Share wherever a result
   * exists (unless the primary already shares), and for 2048 a new game beside "Keep going".
   */
  actions(s, f, next) {
    const b = (action, label, iconName, onclick, primary) =>
      h('button', { class: primary ? 'btn primary' : 'btn', type: 'button', 'data-action': action, onclick }, iconName ? icon(iconName) : null, h('span', { class: 'btn-label' }, label));
    const a = next.action;
    const primary = b(a, this.nextLabel(s, f, next), NEXT_ICON[a] || 'next', () => this.go(next), true);
    const others = [];
    const result = !f.run && (s.status === 'won' || (f.score !== null && f.score !== undefined));
    if (result && a !== 'share' && a !== 'send-back') others.push(b('share', t('fin.share'), 'share', () => this.share(), false));
    if (a === 'keep') others.push(b('new', t('newGame'), 'new', () => this.newGame(), false));
    return [primary, ...others];
  }

  /** The primary's words (the contract's table). */
  nextLabel(s, f, next) {
    const tg = next.target || {};
    if (next.action === 'next-daily') return t('next.next-daily', { game: t(`gameShort.${tg.kind}`), n: tg.n, of: tg.of });
    if (next.action === 'retry' && s.kind === '2048' && !(f.challenge && f.challenge.moves !== undefined)) return t('next.retry.2048');
    return t(`next.${next.action}`);
  }

  /** Do what the primary says. */
  async go(next) {
    const app = this.game.app;
    const tg = next.target || {};
    switch (next.action) {
      case 'share':
      case 'send-back':
        return this.share();
      case 'keep':
        return this.keepGoing();
      case 'again':
      case 'new-run':
        return this.newGame();
      case 'edit':
        await this.close();
        return app.go('klotski-editor');
      case 'next-level':
      case 'next-daily':
      case 'retry':
        if (tg.id) {
          await this.close();
          return this.load(() => app.confirmed('open_game', { id: tg.id }));
        }
        return next.action === 'retry' ? this.again() : this.next(null);
      default:
        return this.newGame();
    }
  }

  /**
   * The sheet's height: its compact part (head, hero, verdict line, actions) and a glimpse of
   * the details under them, which scroll inside it; the game screen gives the board the
   * height above (`--fin-sheet-h`, game.css) and the board moves up into it.
   */
  fit() {
    const sheet = this.sheet;
    const screen = this.game.el;
    if (!sheet || !screen) return;
    const body = sheet.querySelector('.sheet-body');
    // The actions' bottom edge in the sheet (the sheet is their offset parent: head included).
    const bottom = this.actionsEl.offsetTop + this.actionsEl.offsetHeight;
    const peek = 18;
    const pad = parseFloat(getComputedStyle(body).paddingBottom) || 0;
    sheet.style.setProperty('--fin-compact', `${Math.ceil(bottom + Math.max(pad, peek))}px`);
    const before = this.game.board && this.game.board.el.getBoundingClientRect();
    const measure = () => screen.style.setProperty('--fin-sheet-h', `${sheet.offsetHeight}px`);
    measure();
    // A new size (rotation, a language change) keeps the board clear of the sheet.
    if (this.sized) this.sized.disconnect();
    this.sized = new ResizeObserver(measure);
    this.sized.observe(sheet);
    screen.classList.add('finishing');
    // The board glides from where it was to its place above the sheet.
    const bel = this.game.board && this.game.board.el;
    if (bel && before && bel.animate && !reducedMotion()) {
      const after = bel.getBoundingClientRect();
      if (after.width > 0) {
        const k = before.width / after.width;
        bel.animate(
          [{ transform: `translate(${before.left - after.left}px, ${before.top - after.top}px) scale(${k})`, transformOrigin: '0 0' }, { transform: 'none', transformOrigin: '0 0' }],
          { duration: 260, easing: 'cubic-bezier(0.2, 0.8, 0.3, 1)' },
        );
      }
    }
  }

  /** This game's records screen (the dialog's history entry is reused by the screen). */
  records() {
    const app = this.game.app;
    app.go('records', { scope: scopeOf(app, this.game.view) });
  }

  /** Close through history (back closes it the same way). */
  close() {
    if (!this.open) return Promise.resolve(true);
    return this.game.app.closeDialog(this);
  }

  /** Remove the dialog (called by history once its entry is gone). */
  hide() {
    window.removeEventListener('huarong-finish', this.onFinishEvent);
    if (this.analysis) this.analysis.stop();
    this.analysis = null;
    if (this.el) this.el.remove();
    this.el = null;
    this.sheet = null;
    if (this.sized) this.sized.disconnect();
    this.sized = null;
    if (this.game.el && this.game.el.classList.contains('finishing')) {
      this.game.el.classList.remove('finishing');
      this.game.el.style.removeProperty('--fin-sheet-h');
    }
    if (this.open) {
      this.open = false;
      if (this.game.board) this.game.board.el.focus({ preventScroll: true });
    }
  }

  /** "Start a group challenge": this puzzle, 24 hours, its invite copied; the group's screen. */
  async startGroup(s) {
    await this.close();
    return startGroup(this.game.app, s.id);
  }

  /** Share: a share code for this start position, then the score card (saved on desktop,
   *  the system share sheet on phones — both done by Rust). */
  async share() {
    const app = this.game.app;
    const s = this.game.view.snapshot;
    const btn = this.el && this.el.querySelector('[data-action=share],[data-action=send-back]');
    if (btn) btn.disabled = true;
    try {
      // One call: Rust builds the share code, the result code, the card and its text from the
      // slot's own finish. The page says only how to say it, and draws a picture puzzle's
      // picture (the card shows it).
      const args = { kind: s.kind, lang: language(), theme: document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light' };
      const picture = await cardPicture(s);
      if (picture) args.picture = picture;
      const res = await call('share', args);
      const card = res.card || {};
      const saved = res.saved || card.saved;
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(res.link).catch(() => {});
      this.lastShare = res;
      if (this.el) {
        this.el.dataset.shared = (res.result && res.result.code) || res.code.code;
        this.el.dataset.sharedReplay = res.result && res.result.replay ? '1' : '0';
        this.el.dataset.cardPicture = res.picture ? '1' : '0';
        if (saved) this.el.dataset.savedTo = saved;
      }
      toast(saved ? t('shared', { path: saved }) : t('sharedDone'), 5000);
    } catch (e) {
      app.error(e);
    } finally {
      if (btn) btn.disabled = false;
    }
  }

  // ---- Issue 25: the share loop (friends' board, result codes) ----

  /** A daily's finish: its friends' board as Rust left it at this finish (the player's line
   *  is this game), else the day's board read now. */
  friendsBlock(s, f) {
    if (f.friends && Array.isArray(f.friends.lines)) return friendsBoardOf(f.friends.daily, s.kind, f.friends.lines, !!f.friends.place);
    if (s.mode !== 'daily') return null;
    const app = this.game.app;
    const daily = app.daily && app.daily[s.kind] === s.id ? app.daily : null;
    if (daily) return friendsBoard(daily.number, s.kind);
    // Not read yet this session (the app reopened on the game): ask, then fill in.
    const slot = h('div', { class: 'fin-friends' });
    app.today().then((d) => {
      if (d && d[s.kind] === s.id && slot.isConnected) slot.replaceWith(friendsBoard(d.number, s.kind));
      else slot.remove();
    }).catch(() => slot.remove());
    return slot;
  }

  /** Watch this game again: its finish is the newest of its records history. */
  replayLink(s) {
    // A run keeps no move log (its finish is many solves).
    if (!s || !(s.moves > 0) || s.run) return null;
    return h('button', { class: 'link-btn fin-replay', type: 'button', 'data-action': 'watch-replay', onclick: () => this.watchReplay() }, icon('eye'), t('replay.watch'));
  }

  async watchReplay() {
    const app = this.game.app;
    const scope = scopeOf(app, this.game.view);
    try {
      const d = await call('records', { scope });
      const hist = Array.isArray(d && d.history) ? d.history : [];
      const index = hist.map((e) => !!e.replay).lastIndexOf(true);
      if (index < 0) return toast(t('replay.none'));
      await this.close();
      app.go('replay', { history: { scope, index } });
    } catch (e) {
      app.error(e);
    }
  }

  /** 2048 after reaching the 2048 tile: the rules need `{keep_going: true}` to play on. */
  async keepGoing() {
    await this.close();
    await this.game.play({ keep_going: true });
  }

  /** The same start again (its slot resumes it if unfinished; a finished one starts over). */
  async again() {
    const id = this.game.view.snapshot.id;
    await this.close();
    await this.load(() => this.game.app.confirmed('open_game', { id }));
  }

  /** A new game like this one (finished, so nothing to confirm). */
  async newGame() {
    await this.close();
    await this.game.newGame();
  }

  async next(next) {
    await this.close();
    const app = this.game.app;
    const s = this.game.view.snapshot;
    const step = typeof next === 'string' && next ? { cmd: 'open_game', args: { id: next } } : this.game.game.newGame(app, s);
    await this.load(() => app.confirmed(step.cmd, step.args));
  }

  async load(get) {
    try {
      const view = await get();
      if (view) this.game.load(view);
    } catch (e) {
      this.game.app.error(e);
    }
  }

  onKey(e) {
    // A key press: focus is the keyboard's now, and shows.
    if (this.el) this.el.classList.remove('quiet-focus');
    if (e.key === 'Escape') {
      this.close();
      return true;
    }
    if (e.key === 'Tab' && this.el) {
      const items = [...this.el.querySelectorAll('button, a[href]')];
      const i = items.indexOf(document.activeElement);
      const j = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
      items[j].focus();
      return true;
    }
    return false;
  }

  destroy() {
    this.hide();
  }
}

/** A win the game would rate under its default rule, whose optimum could not be found (its
 *  search gave up): final, without stars. */
function unrated(f, game) {
  if (f.run) return false; // a run has no optimum to find
  const rules = game.rules || [];
  return !f.pending && f.status === 'won' && game.finish.stars && f.rule === rules[0] && (f.optimal === null || f.optimal === undefined) && (f.stars === null || f.stars === undefined);
}

/** The primary action's icon, by `next`. */
const NEXT_ICON = { 'next-level': 'next', again: 'restart', 'next-daily': 'next', share: 'share', 'send-back': 'share', retry: 'restart', keep: 'next', 'new-run': 'restart', edit: 'back' };

const NEXTS = new Set(Object.keys(NEXT_ICON));

/**
 * The one next step of this finish: `{ action, target, from }`. Rust decides it
 * (`finish.next`, `finish.next_target`); a core that does not say yet gets the step this page
 * can tell on its own (`from: 'ui'`, which the browser test refuses).
 */
function nextOf(s, f, won, game) {
  const rust = field(f, 'next');
  if (typeof rust === 'string' && NEXTS.has(rust)) return { action: rust, target: field(f, 'next_target') || null, from: 'core' };
  const challenged = !!(f.challenge && f.challenge.moves !== undefined && f.challenge.moves !== null);
  let action = 'again';
  if (f.run) action = 'new-run';
  else if (won && game.finish.keepGoing && s.status === 'won') action = 'keep';
  else if (challenged) action = f.challenge.beaten ? 'send-back' : 'retry';
  else if (!won) action = 'retry';
  else if (s.mode === 'daily') action = 'share';
  else if (game.finish.next) action = 'next-level';
  return { action, target: action === 'retry' ? { kind: s.kind, id: s.id } : null, from: 'ui' };
}

/** The headline of a finish against a friend's result (Rust's `challenge.outcome`), or null. */
function challengeTitle(f) {
  const c = f.challenge;
  const outcome = challengeOutcome(f);
  if (!c || !outcome) return null;
  const name = c.name || (c.ghost === 'best' ? t('ghost.bestName') : t('chal.friend'));
  const text = t(`fin.title.${outcome}`, { name });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The one sentence under the hero that compares this finish with others: a daily's place on
 * its whole friends' board (`friends.place`), else a friend's challenge (challenge.js), else
 * nothing.
 */
function verdictLine(f, s) {
  const place = f.friends && f.friends.place;
  // A board with no friend on it has nothing to compare with.
  if (place && Number(place.of) > 1) return placeLine(place);
  return finishChallenge(f, s);
}

/**
 * A swipe down on `handle` drags `sheet` with the finger; let go past a third of its height
 * (or flicked) and `close()` runs, else it springs back.
 */
function swipeDown(handle, sheet, close) {
  let start = null;
  handle.addEventListener('pointerdown', (e) => {
    if (e.button > 0 || e.target.closest('button')) return;
    start = { y: e.clientY, t: performance.now(), id: e.pointerId, dy: 0 };
    handle.setPointerCapture(e.pointerId);
  });
  handle.addEventListener('pointermove', (e) => {
    if (!start || e.pointerId !== start.id) return;
    start.dy = Math.max(0, e.clientY - start.y);
    sheet.style.transform = start.dy ? `translateY(${start.dy}px)` : '';
  });
  const end = (e) => {
    if (!start || e.pointerId !== start.id) return;
    const { dy, t: t0 } = start;
    start = null;
    const fast = dy > 24 && dy / Math.max(1, performance.now() - t0) > 0.6;
    if (dy > sheet.offsetHeight / 3 || fast) {
      close();
      return;
    }
    if (dy && sheet.animate && !reducedMotion()) sheet.animate([{ transform: `translateY(${dy}px)` }, { transform: 'none' }], { duration: 180, easing: 'ease-out' });
    sheet.style.transform = '';
  };
  handle.addEventListener('pointerup', end);
  handle.addEventListener('pointercancel', end);
}
