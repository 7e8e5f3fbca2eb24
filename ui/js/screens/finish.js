// The finish dialog: moves against the optimum, time, stars, a new-record badge, share,
// next level / play again. Everything shown comes from the View's `finish` (Rust).

import { call, field, isWeb } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t, language, movesText } from '../i18n.js';
import { toast, announce } from '../feedback.js';
import { finishChallenge } from '../challenge.js';
import { analysisSection } from '../analysis.js';
import { cardPicture } from '../picture.js';
import { scopeOf } from './stats.js';
import { friendsBoard } from '../friends.js';

// Whether the player's last input was a key. The dialog focuses its main button for keyboard
// and screen-reader players; after a touch or a click (the winning move on the board) that
// focus gets no ring: Chromium draws one on a button focused by script after a touch.
let lastInputKey = false;
addEventListener('keydown', () => { lastInputKey = true; }, true);
addEventListener('pointerdown', () => { lastInputKey = false; }, true);

export class FinishDialog {
  constructor(game) {
    this.game = game;
    this.open = false;
    this.el = null;
  }

  show(view) {
    this.hide();
    const s = view.snapshot;
    const f = view.finish || {};
    const game = this.game.game;
    const won = s.status === 'won';
    const title = won ? t(game.finish.wonTitle) : t('gameOver');
    const stars = Number(field(f, 'stars') || 0);
    const maxStars = Number(field(f, 'max_stars') || 3);
    const moves = field(f, 'moves') ?? s.moves;
    // `record` is always there (the scope's record after this game); only `new_record` says it improved.
    const newRecord = field(f, 'new_record') === true;

    const rows = game.finish.rows(s, f).map(([label, value, key]) =>
      h('div', { class: 'fin-stat', 'data-fin': key }, h('span', { class: 'stat-label' }, t(label)), h('span', { class: 'stat-value' }, String(value))),
    );
    const flags = [];
    if (field(s, 'auto_solved')) flags.push(t('autoSolved'));
    if (field(s, 'undo_used')) flags.push(t('usedUndo'));
    const hints = Number(field(s, 'hints_used')) || 0;
    if (hints) flags.push(hints === 1 ? t('usedHint1') : t('usedHint', { n: hints }));

    let starRow = null;
    if (game.finish.stars) {
      starRow = h('div', { class: 'stars', role: 'img', 'aria-label': stars === 1 ? t('stars1') : t('stars', { n: stars }) });
      for (let i = 0; i < maxStars; i++) {
        const st = h('span', { class: i < stars ? 'star on' : 'star' });
        st.append(icon('star'));
        starRow.append(st);
      }
    }

    const next = field(f, 'next');
    const actions = this.actions(s, f, won, next);
    this.el = h(
      'div',
      { class: lastInputKey ? 'overlay' : 'overlay quiet-focus', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'finish-title', 'data-finish': won ? 'won' : 'lost' },
      h(
        'div',
        { class: 'sheet' },
        h('button', { class: 'icon-btn sheet-close', type: 'button', 'aria-label': t('close'), 'data-action': 'close', onclick: () => this.close() }, '×'),
        h('h2', { id: 'finish-title', tabindex: '-1' }, title),
        newRecord ? h('p', { class: 'badge', 'data-new-record': '1' }, t('newRecord')) : null,
        f.daily && f.daily.current ? h('p', { class: 'fin-streak', 'data-streak': String(f.daily.current) }, icon('flame'), (f.daily.current === 1 ? t('dailyStreakLong1') : t('dailyStreakLong', { n: f.daily.current }))) : null,
        starRow,
        h('div', { class: 'fin-stats' }, rows),
        flags.length ? h('p', { class: 'fin-flags' }, flags.join(' · ')) : null,
        finishChallenge(f),
        this.friendsBlock(s),
        (this.analysis = analysisSection(s.kind, view)) && this.analysis.el,
        h('div', { class: `fin-actions n${actions.length}` }, actions),
        h(
          'div',
          { class: 'fin-links' },
          h('button', { class: 'link-btn fin-records', type: 'button', 'data-action': 'records', onclick: () => this.records() }, icon('chart'), t('finRecords')),
          this.replayLink(s),
        ),
        // The web page only (a friend without the app): where to get it.
        isWeb() ? h('a', { class: 'link-btn fin-get-app', href: 'get-app.html', target: '_blank', rel: 'noopener', 'data-action': 'get-app' }, icon('next'), t('getApp')) : null,
      ),
    );
    this.game.el.append(this.el);
    this.open = true;
    this.game.app.openDialog(this);
    const primary = this.el.querySelector('.primary') || this.el.querySelector('[data-action="again"]');
    if (primary) primary.focus({ preventScroll: true });
    announce(`${title} ${won ? t('say.won', { moves: movesText(moves) }) : ''}`);
    // The analysis runs after the dialog is on screen (off the critical path).
    if (this.analysis) requestAnimationFrame(() => this.analysis && this.analysis.start());
  }

  /**
   * One main action per finish, and at most two more: a 2048 win → keep going; a friend's
   * challenge → send the result back; today's challenge → share it; a level → the next one;
   * anything else → a new game. The main one comes first in the markup and is `.primary`.
   */
  actions(s, f, won, next) {
    const game = this.game.game;
    const b = (action, label, iconName, onclick, primary) =>
      h('button', { class: primary ? 'btn primary' : 'btn', type: 'button', 'data-action': action, onclick }, iconName ? icon(iconName) : null, label);
    const share = (label, primary) => b('share', label, 'share', () => this.share(), primary);
    const fresh = (primary) => b('new', t('newGame'), 'new', () => this.newGame(), primary);
    const challenged = !!(f.challenge && f.challenge.moves !== undefined && f.challenge.moves !== null) || s.mode === 'challenge';
    if (won && game.finish.keepGoing) return [b('keep', t('keepPlaying'), 'next', () => this.keepGoing(), true), fresh(false), share(t('share'), false)];
    if (won && challenged) return [share(t('sendBack'), true), fresh(false)];
    if (won && s.mode === 'daily') return [share(t('shareToday'), true), fresh(false)];
    if (won && game.finish.next) return [b('next', t('next'), 'next', () => this.next(next), true), share(t('share'), false), b('again', t('again'), 'restart', () => this.again(), false)];
    return [fresh(true), share(t('share'), false)];
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
    if (this.analysis) this.analysis.stop();
    this.analysis = null;
    if (this.el) this.el.remove();
    this.el = null;
    if (this.open) {
      this.open = false;
      if (this.game.board) this.game.board.el.focus({ preventScroll: true });
    }
  }

  /** Share: a share code for this start position, then the score card (saved on desktop,
   *  the system share sheet on phones — both done by Rust). */
  async share() {
    const app = this.game.app;
    const view = this.game.view;
    const s = view.snapshot;
    const f = view.finish || {};
    const daily = app.daily && app.daily[s.kind] === s.id ? app.daily : null;
    const game = this.game.game;
    const classic = game.classicIndex ? game.classicIndex(app, s) : null;
    const btn = this.el && this.el.querySelector('[data-action=share]');
    if (btn) btn.disabled = true;
    try {
      // A won game carries the player's own result, so friends get a challenge to beat.
      const mine = s.status === 'won' && !field(s, 'auto_solved') && f.moves !== undefined && f.time_ms !== undefined;
      // Codes and cards count under the game's default rule (tile / piece moves), whatever
      // the player counts by: a friend's app compares the result under that rule.
      const dflt = Array.isArray(game.rules) && s.counters ? Number(s.counters[game.rules[0]]) : NaN;
      const moves = Number.isFinite(dflt) ? dflt : Number(f.moves ?? s.moves);
      const codeInfo = await call('encode_code', {
        id: s.id,
        daily: daily ? daily.number : null,
        classic,
        ...(mine ? { moves, ms: Number(f.time_ms) } : {}),
      });
      // Issue 25: a won game's result code (name, daily, the move log when it fits).
      const result = mine ? await this.resultCode(s) : null;
      const card = {
        code: this.cardCode(codeInfo, result),
        lang: language(),
        moves,
        seconds: Math.round(Number(f.time_ms ?? field(s, 'elapsed_ms') ?? 0) / 1000),
        // The card shows the finished board; the start travels in the code.
        board: s.board,
      };
      if (f.optimal !== null && f.optimal !== undefined) card.optimum = f.optimal;
      if (f.stars !== null && f.stars !== undefined) card.stars = f.stars;
      if (game.cardFields) Object.assign(card, game.cardFields(s, f));
      const picture = await cardPicture(s);
      if (picture) card.picture = picture;
      if (daily) card.date = daily.date;
      // A friend's result beaten: the card says so; its code carries this result to beat.
      const ch = f.challenge;
      if (mine && ch && ch.beaten) card.beat = { moves: Number(ch.moves), ms: Number(ch.ms) };
      const res = await call('share_card', { card });
      const sent = result || codeInfo;
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(sent.link).catch(() => {});
      this.lastShare = { code: sent, result: res };
      if (this.el) {
        this.el.dataset.shared = sent.code;
        this.el.dataset.sharedReplay = result && result.replay ? '1' : '0';
        this.el.dataset.cardPicture = card.picture ? '1' : '0';
        if (res && res.saved) this.el.dataset.savedTo = res.saved;
      }
      toast(res && res.saved ? t('shared', { path: res.saved }) : t('sharedDone'), 5000);
    } catch (e) {
      app.error(e);
    } finally {
      if (btn) btn.disabled = false;
    }
  }

  // ---- Issue 25: the share loop (friends' board, result codes) ----

  /** A daily's finish: its friends' board, the player ranked among friends. */
  friendsBlock(s) {
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

  /** Watch this game again (issue 25): its finish is the newest of its records history. */
  replayLink(s) {
    if (!s || !(s.moves > 0)) return null;
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

  /** `result_code` for this finish, or null (then the plain code is shared). */
  async resultCode(s) {
    try {
      return await call('result_code', { kind: s.kind });
    } catch (_) {
      return null;
    }
  }

  /** The card's QR code holds the link that is shared: the result code (with its move log
   *  when `result_code` put it in; a long one makes the core draw a taller card), else the
   *  plain code. */
  cardCode(codeInfo, result) {
    return result && result.code ? result.code : codeInfo.code;
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
      const items = [...this.el.querySelectorAll('button')];
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
