// The finish dialog: moves against the optimum, time, stars, a new-record badge, share,
// next level / play again. Everything shown comes from the View's `finish` (Rust).

import { call, field } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t, formatTime, language } from '../i18n.js';
import { levelOf } from './records.js';
import { toast, announce } from '../feedback.js';

export class FinishDialog {
  constructor(game) {
    this.game = game;
    this.open = false;
    this.el = null;
  }

  show(view) {
    this.close();
    const s = view.snapshot;
    const f = view.finish || {};
    const kind = s.kind;
    const won = s.status === 'won';
    const title = !won ? t('gameOver') : kind === 'klotski' ? t('escaped') : kind === '2048' ? t('reached2048') : t('solved');
    const stars = Number(field(f, 'stars') || 0);
    const maxStars = Number(field(f, 'max_stars') || 3);
    const optimal = field(f, 'optimal');
    const moves = field(f, 'moves') ?? s.moves;
    const timeMs = field(f, 'time_ms') ?? field(f, 'elapsed_ms') ?? field(s, 'elapsed_ms');
    const newRecord = !!(field(f, 'new_record') || field(f, 'record'));

    const rows = [];
    const row = (label, value, key) => rows.push(h('div', { class: 'fin-stat', 'data-fin': key }, h('span', { class: 'stat-label' }, label), h('span', { class: 'stat-value' }, String(value))));
    if (kind === '2048') {
      row(t('score'), (s.counters && s.counters.score) || 0, 'score');
      row(t('bestTile'), Math.max(...s.board.split(',').map(Number)), 'tile');
      row(t('moves'), moves, 'moves');
    } else {
      row(t('yourMoves'), moves, 'moves');
      row(t('optimalMoves'), optimal === undefined || optimal === null ? t('noBest') : optimal, 'optimal');
      row(t('time'), formatTime(timeMs), 'time');
    }
    const flags = [];
    if (field(s, 'auto_solved')) flags.push(t('autoSolved'));
    if (field(s, 'undo_used')) flags.push(t('usedUndo'));
    if (field(s, 'hints_used')) flags.push(t('usedHint', { n: field(s, 'hints_used') }));

    const starRow = h('div', { class: 'stars', role: 'img', 'aria-label': t('stars', { n: stars }) });
    if (kind !== '2048') {
      for (let i = 0; i < maxStars; i++) {
        const st = h('span', { class: i < stars ? 'star on' : 'star' });
        st.append(icon('star'));
        starRow.append(st);
      }
    }

    const next = field(f, 'next');
    const actions = [
      h('button', { class: 'btn', type: 'button', 'data-action': 'share', onclick: () => this.share() }, icon('share'), t('share')),
    ];
    if (won && kind === '2048') {
      actions.push(h('button', { class: 'btn', type: 'button', 'data-action': 'keep', onclick: () => this.keepGoing() }, t('keepPlaying')));
    }
    actions.push(h('button', { class: 'btn', type: 'button', 'data-action': 'again', onclick: () => this.again() }, icon('restart'), t('again')));
    if (won && kind !== '2048') {
      actions.push(h('button', { class: 'btn primary', type: 'button', 'data-action': 'next', onclick: () => this.next(next) }, t('next'), icon('next')));
    }

    this.el = h(
      'div',
      { class: 'overlay', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'finish-title', 'data-finish': won ? 'won' : 'lost' },
      h(
        'div',
        { class: 'sheet' },
        h('button', { class: 'icon-btn sheet-close', type: 'button', 'aria-label': t('close'), 'data-action': 'close', onclick: () => this.close() }, '×'),
        h('h2', { id: 'finish-title', tabindex: '-1' }, title),
        newRecord ? h('p', { class: 'badge', 'data-new-record': '1' }, t('newRecord')) : null,
        f.daily && f.daily.current ? h('p', { class: 'fin-streak', 'data-streak': String(f.daily.current) }, `${t('dailyToday')} · ${t('dailyStreak', { n: f.daily.current })}`) : null,
        kind !== '2048' ? starRow : null,
        h('div', { class: 'fin-stats' }, rows),
        flags.length ? h('p', { class: 'fin-flags' }, flags.join(' · ')) : null,
        h('div', { class: 'fin-actions' }, actions),
      ),
    );
    this.game.el.append(this.el);
    this.open = true;
    const primary = this.el.querySelector('.primary') || this.el.querySelector('[data-action="again"]');
    if (primary) primary.focus({ preventScroll: true });
    announce(`${title} ${won ? t('say.won', { moves }) : ''}`);
  }

  close() {
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
    const level = s.kind === 'klotski' ? levelOf(app, s) : null;
    const btn = this.el && this.el.querySelector('[data-action=share]');
    if (btn) btn.disabled = true;
    try {
      const codeInfo = await call('encode_code', {
        id: s.id,
        daily: daily ? daily.number : null,
        classic: level && Number.isInteger(level.index) ? level.index - 1 : null,
      });
      const card = {
        code: codeInfo.code,
        lang: language(),
        moves: Number(f.moves ?? s.moves),
        seconds: Math.round(Number(f.time_ms ?? field(s, 'elapsed_ms') ?? 0) / 1000),
      };
      if (f.optimal !== null && f.optimal !== undefined) card.optimum = f.optimal;
      if (f.stars !== null && f.stars !== undefined) card.stars = f.stars;
      if (s.kind === '2048') {
        card.score = Number(f.score ?? (s.counters && s.counters.score) ?? 0);
        card.bestTile = Number(f.best_tile ?? (s.counters && s.counters.max_tile) ?? 0);
      }
      if (daily) card.date = daily.date;
      const res = await call('share_card', { card });
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(codeInfo.link).catch(() => {});
      this.lastShare = { code: codeInfo, result: res };
      if (this.el) {
        this.el.dataset.shared = codeInfo.code;
        if (res && res.saved) this.el.dataset.savedTo = res.saved;
      }
      toast(res && res.saved ? t('shared', { path: res.saved }) : t('sharedDone'), 5000);
    } catch (e) {
      app.error(e);
    } finally {
      if (btn) btn.disabled = false;
    }
  }

  /** 2048 after reaching the 2048 tile: the rules need `{keep_going: true}` to play on. */
  async keepGoing() {
    this.close();
    await this.game.play({ keep_going: true });
  }

  async again() {
    const id = this.game.view.snapshot.id;
    this.close();
    try {
      await this.game.app.openCode(id);
    } catch (e) {
      this.game.app.error(e);
    }
  }

  async next(next) {
    this.close();
    const app = this.game.app;
    const kind = this.game.kind;
    try {
      if (typeof next === 'string' && next) {
        await app.openCode(next);
        return;
      }
      if (kind === 'klotski') {
        const list = (app.levels && app.levels.klotski) || [];
        const i = list.findIndex((l) => l.id === this.game.view.snapshot.id);
        if (i >= 0 && i + 1 < list.length) {
          await app.openCode(list[i + 1].id);
          return;
        }
        await app.go('levels:klotski');
        return;
      }
      const m = /^slide:(\d+x\d+(?:\/\w+)?)/.exec(this.game.view.snapshot.id);
      const view = await call('new_game', { kind, params: m ? m[1] : '4x4' });
      await app.go(`game:${kind}`, { view });
    } catch (e) {
      app.error(e);
    }
  }

  onKey(e) {
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
    this.close();
  }
}
