// Home: the three games (play / continue), today's daily challenges, settings and the code box.

import { call } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t, formatTime } from '../i18n.js';
import { KINDS, gameOf } from '../boards/index.js';

function mini(kind) {
  // A small decorative picture of each game, made of CSS boxes (cells from the descriptor).
  const cells = gameOf(kind).mini || [];
  const numeric = cells.some((c) => /^\d+$/.test(c));
  return h('div', { class: `mini mini-${kind}`, 'aria-hidden': 'true' }, cells.map((c) => h('span', { class: c && c !== '.' ? `m m-${/^\d+$/.test(c) ? 'n' : c}` : 'm empty' }, numeric ? c : '')));
}

/** Every slot from Rust (`list_games`, most recent first); an older back end: one per game. */
async function listGames(app) {
  try {
    const rows = await call('list_games');
    if (Array.isArray(rows)) return rows;
  } catch (_) {
    /* fall through */
  }
  const games = (app.progress && app.progress.games) || {};
  return KINDS.filter((k) => games[k] && typeof games[k] === 'object').map((k) => ({
    slot: null,
    kind: k,
    id: games[k].id,
    moves: games[k].moves,
    status: games[k].status,
    elapsed_ms: games[k].elapsed_ms,
    updated_ms: null,
    mode: null,
  }));
}

export class HomeScreen {
  constructor(app) {
    this.app = app;
    this.name = 'home';
    this.current = {};
    this.unfinished = [];
    this.daily = null;
  }

  async prepare() {
    if (this.app.screen) await this.app.refreshProgress(); // at start-up it is fresh already
    const [rows, daily] = await Promise.all([listGames(this.app), this.app.today().catch(() => null)]);
    this.unfinished = rows.filter((g) => g && g.status === 'playing' && g.moves > 0);
    // "Continue": the most recently played unfinished game of each kind.
    for (const g of this.unfinished) if (KINDS.includes(g.kind) && !this.current[g.kind]) this.current[g.kind] = g;
    this.daily = daily;
    return true;
  }

  /** Open a slot's game (undo history included) on the game screen. */
  async resume(g) {
    try {
      const view = g.slot ? await call('resume_game', { slot: g.slot }) : null;
      await this.app.go(`game:${g.kind}`, view ? { view } : {});
    } catch (e) {
      this.app.error(e);
    }
  }

  async start(args) {
    try {
      const view = await this.app.confirmed('new_game', args);
      if (view) await this.app.go(`game:${view.snapshot.kind}`, { view });
    } catch (e) {
      this.app.error(e);
    }
  }

  /** The list of every unfinished game: game, moves, time, last played. */
  unfinishedList() {
    if (!this.unfinished.length) return null;
    const date = (ms) => (ms ? new Date(ms).toLocaleDateString(t('locale'), { month: 'short', day: 'numeric' }) : '');
    return h(
      'section',
      { class: 'slots', 'aria-labelledby': 'slots-title' },
      h('h2', { id: 'slots-title', class: 'section-title' }, t('unfinished')),
      h(
        'ul',
        { class: 'slot-list' },
        this.unfinished.map((g) =>
          h(
            'li',
            null,
            h(
              'button',
              { class: 'slot-item', type: 'button', 'data-action': 'resume', 'data-slot': g.slot || g.kind, 'data-kind': g.kind, onclick: () => this.resume(g) },
              h('span', { class: 'slot-game' }, t(`game.${g.kind}`), g.mode ? h('span', { class: 'slot-mode' }, t(`mode.${g.mode}`)) : null),
              h('span', { class: 'slot-meta' }, g.moves === 1 ? t('moves1') : t('movesN', { n: g.moves }), ' · ', formatTime(g.elapsed_ms), g.updated_ms ? ` · ${date(g.updated_ms)}` : ''),
            ),
          ),
        ),
      ),
    );
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
      const game = gameOf(kind);
      const extra = game.homeExtra ? game.homeExtra((args) => this.start(args)) : null;
      const buttons = [];
      if (cur) {
        buttons.push(
          h('button', { class: 'btn primary', type: 'button', 'data-action': `continue-${kind}`, 'data-slot': cur.slot || kind, onclick: () => this.resume(cur) }, cur.moves === 1 ? t('continueAt1') : t('continueAt', { moves: cur.moves })),
        );
      }
      buttons.push(
        h('button', { class: cur ? 'btn' : 'btn primary', type: 'button', 'data-action': `play-${kind}`, onclick: () => app.go(`levels:${kind}`) }, cur ? t('levels') : t('play')),
      );
      return h(
        'article',
        { class: `game-card card-${kind}`, 'data-kind': kind },
        mini(kind),
        h(
          'div',
          { class: 'card-body' },
          h('h2', null, t(`game.${kind}`)),
          h('p', { class: 'card-desc' }, t(`gameDesc.${kind}`)),
          h('div', { class: 'card-actions' }, buttons),
          extra ? h('div', { class: 'card-extra' }, h('p', { class: 'card-extra-title' }, t('band.random')), extra) : null,
        ),
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
        this.unfinishedList(),
        h('div', { class: 'cards' }, cards),
        h('button', { class: 'btn wide ghost', type: 'button', 'data-action': 'code', onclick: () => app.go('code') }, icon('code'), t('enterCode')),
        h('button', { class: 'btn wide ghost', type: 'button', 'data-action': 'records', onclick: () => app.go('records', { scope: null }) }, icon('chart'), t('records')),
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
