// Home: the three games (play / continue), today's daily challenges, settings and the code box.

import { call } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t } from '../i18n.js';

const KINDS = ['slide', 'klotski', '2048'];

function mini(kind) {
  // A small decorative picture of each game, made of CSS boxes.
  const cells = kind === 'klotski' ? ['a', 'C', 'C', 'b', 'a', 'C', 'C', 'b', 'c', 'd', 'd', 'e', 'c', 's', 't', 'e', 'u', '.', '.', 'v']
    : kind === 'slide' ? ['1', '2', '3', '4', '5', '6', '7', '8', '']
    : ['2', '', '4', '', '', '8', '', '2', '16', '', '', '', '', '2', '', '4'];
  return h('div', { class: `mini mini-${kind}`, 'aria-hidden': 'true' }, cells.map((c) => h('span', { class: c && c !== '.' ? `m m-${/^\d+$/.test(c) ? 'n' : c}` : 'm empty' }, kind === 'klotski' ? '' : c)));
}

export class HomeScreen {
  constructor(app) {
    this.app = app;
    this.name = 'home';
    this.current = {};
    this.daily = null;
  }

  async prepare() {
    if (this.app.screen) await this.app.refreshProgress(); // at start-up it is fresh already
    const games = (this.app.progress && this.app.progress.games) || {};
    for (const k of KINDS) {
      const snap = games[k];
      if (snap && typeof snap === 'object' && snap.status === 'playing' && (snap.moves > 0 || snap.can_undo)) this.current[k] = snap;
    }
    try {
      // The app works out the day from the local time (UTC ms shifted by the zone offset).
      const localMs = Date.now() - new Date().getTimezoneOffset() * 60000;
      this.daily = await call('daily_info', { localMs });
      this.app.daily = this.daily;
    } catch (_) {
      this.daily = null;
    }
    return true;
  }

  render() {
    const app = this.app;
    const header = h(
      'header',
      { class: 'bar home-bar' },
      h('div', { class: 'brand' }, h('h1', { class: 'brand-name', tabindex: '-1' }, h('span', { class: 'seal', 'aria-hidden': 'true' }, '华容'), h('span', { class: 'brand-text' }, t('appName'))), h('p', { class: 'subtitle' }, t('appTagline'))),
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('settings'), 'data-action': 'settings', onclick: () => app.go('settings') }, icon('settings')),
    );

    const cards = KINDS.map((kind) => {
      const cur = this.current[kind];
      const buttons = [];
      if (cur) {
        buttons.push(
          h('button', { class: 'btn primary', type: 'button', 'data-action': `continue-${kind}`, onclick: () => app.go(`game:${kind}`) }, cur.moves === 1 ? t('continueAt1') : t('continueAt', { moves: cur.moves })),
        );
      }
      buttons.push(
        h('button', { class: cur ? 'btn' : 'btn primary', type: 'button', 'data-action': `play-${kind}`, onclick: () => app.go(`levels:${kind}`) }, cur ? t('levels') : t('play')),
      );
      return h(
        'article',
        { class: `game-card card-${kind}`, 'data-kind': kind },
        mini(kind),
        h('div', { class: 'card-body' }, h('h2', null, t(`game.${kind}`)), h('p', { class: 'card-desc' }, t(`gameDesc.${kind}`)), h('div', { class: 'card-actions' }, buttons)),
      );
    });

    const dailyItems = this.dailyList();
    const daily = dailyItems.length
      ? h(
          'section',
          { class: 'daily', 'aria-labelledby': 'daily-title' },
          h('h2', { id: 'daily-title', class: 'section-title' }, icon('calendar'), t('dailyToday')),
          h(
            'div',
            { class: 'daily-row' },
            dailyItems.map((d) =>
              h(
                'button',
                { class: `daily-item${d.done ? ' done' : ''}`, type: 'button', 'data-action': `daily-${d.kind}`, onclick: () => this.openDaily(d) },
                h('span', { class: 'daily-game' }, t(`game.${d.kind}`)),
                h('span', { class: 'daily-sub' }, d.done ? t('dailyDone') : d.label || ''),
                d.streak ? h('span', { class: 'daily-streak' }, t('dailyStreak', { n: d.streak })) : null,
              ),
            ),
          ),
        )
      : null;

    return h(
      'section',
      { class: 'screen home-screen' },
      header,
      h(
        'div',
        { class: 'scroll' },
        daily,
        h('div', { class: 'cards' }, cards),
        h('button', { class: 'btn wide ghost', type: 'button', 'data-action': 'code', onclick: () => app.go('code') }, icon('code'), t('enterCode')),
      ),
    );
  }

  /** Today's three puzzles from `daily_info`, with the player's streaks. */
  dailyList() {
    const d = this.daily;
    if (!d || !d.date) return [];
    const streaks = (this.app.progress && this.app.progress.streaks) || {};
    return KINDS.filter((k) => typeof d[k] === 'string' && d[k]).map((kind) => {
      const st = streaks[kind] || {};
      const size = /^slide:(\d+)x(\d+)/.exec(d[kind]);
      return {
        kind,
        id: d[kind],
        done: st.last === d.date,
        streak: st.current || 0,
        label: size ? `${size[1]}×${size[2]} · #${d.number}` : `#${d.number}`,
      };
    });
  }

  async openDaily(d) {
    try {
      await this.app.openCode(d.id);
    } catch (e) {
      this.app.error(e);
    }
  }

  onKey() {
    return false;
  }

  destroy() {}
}
