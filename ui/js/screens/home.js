// Home: today's challenge first, as a hero card (the next puzzle's real board drawn
// small, a done mark per game, the streak, the one primary button), then each game as a tile
// with its own art (Continue a secondary action on it, its other unfinished games folded in),
// the picture puzzles one tap away (`[data-home-pictures]`), and quieter: the code box and the
// records.

import { friendsBoard } from '../friends.js';
import { call } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t, formatTime, formatDate, movesText } from '../i18n.js';
import { KINDS, gameOf } from '../boards/index.js';
import { loadLevels } from './records.js';
import { homePictures } from '../picture.js';

function mini(kind) {
  // A small decorative picture of each game, made of CSS boxes (cells from the descriptor).
  const cells = gameOf(kind).mini || [];
  if (kind === 'klotski') return klotskiMini(cells);
  const numeric = cells.some((c) => /^\d+$/.test(c));
  return h('div', { class: `mini mini-${kind}`, 'aria-hidden': 'true' }, cells.map((c) => h('span', { class: c && c !== '.' ? `m m-${/^\d+$/.test(c) ? 'n' : c}` : 'm empty' }, numeric ? c : '')));
}

/**
 * Klotski's picture: one box per piece (its letter's cells in the descriptor's 4-wide grid),
 * so that pieces of one colour (the generals) still read as separate pieces.
 */
function klotskiMini(cells) {
  const boxes = new Map();
  cells.forEach((c, i) => {
    if (!c || c === '.') return;
    const [r, col] = [Math.floor(i / 4), i % 4];
    const b = boxes.get(c) || { r0: r, c0: col, r1: r, c1: col };
    boxes.set(c, { r0: Math.min(b.r0, r), c0: Math.min(b.c0, col), r1: Math.max(b.r1, r), c1: Math.max(b.c1, col) });
  });
  return h(
    'div',
    { class: 'mini mini-klotski', 'aria-hidden': 'true' },
    [...boxes].map(([c, b]) => {
      const el = h('span', { class: `m m-${c}` });
      el.style.gridArea = `${b.r0 + 1} / ${b.c0 + 1} / ${b.r1 + 2} / ${b.c1 + 2}`;
      return el;
    }),
  );
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
    // The next daily's real start board, drawn small on the hero card (no game is opened).
    const next = this.dailyList().find((x) => !x.done);
    const [pv] = await Promise.all([next ? call('preview', { id: next.id }).catch(() => null) : null, loadLevels(this.app, 'slide')]);
    this.preview = pv && next && pv.kind === next.kind ? { kind: next.kind, view: pv.view } : null;
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

  /** The other unfinished games of a kind (the most recent one is the card's Continue). */
  moreRows(kind) {
    const cur = this.current[kind];
    const rest = this.unfinished.filter((g) => g.kind === kind && g !== cur);
    if (!rest.length) return null;
    return h(
      'ul',
      { class: 'slot-list', 'aria-label': t('unfinishedOf', { game: t(`game.${kind}`) }) },
      rest.map((g) =>
        h(
          'li',
          null,
          h(
            'button',
            { class: 'slot-item', type: 'button', 'data-action': 'resume', 'data-slot': g.slot || g.kind, 'data-kind': g.kind, onclick: () => this.resume(g) },
            h('span', { class: 'slot-game' }, g.mode ? t(`modeTitle.${g.mode}`) : t('continue')),
            h('span', { class: 'slot-meta' }, `${movesText(g.moves)}${g.updated_ms ? ` · ${formatDate(g.updated_ms)}` : ` · ${formatTime(g.elapsed_ms)}`}`),
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
      h('div', { class: 'brand' }, h('h1', { class: 'brand-name', tabindex: '-1' }, h('span', { class: 'seal', 'aria-hidden': 'true' }, '华容'), h('span', { class: 'brand-text' }, t('appName')), h('span', { class: 'sr-only' }, ` · ${t('appTagline')}`))),
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('settings'), 'data-action': 'settings', onclick: () => app.go('settings') }, icon('settings')),
    );

    // One primary action in view: today's next puzzle; when all are done, the most recent
    // game's Continue (or the first game's Play).
    const heroPlays = this.dailyList().some((x) => !x.done);
    const lead = heroPlays ? null : KINDS.find((k) => this.current[k]) || KINDS[0];
    const cards = KINDS.map((kind) => {
      const cur = this.current[kind];
      const buttons = [];
      if (cur) {
        buttons.push(
          h('button', { class: `btn btn-two tile-continue${lead === kind ? ' primary' : ''}`, type: 'button', 'data-action': `continue-${kind}`, 'data-slot': cur.slot || kind, 'data-mode': cur.mode || '', onclick: () => this.resume(cur) }, h('span', { class: 'btn-main' }, t('continue')), h('span', { class: 'btn-detail' }, `${movesText(cur.moves)} · ${formatTime(cur.elapsed_ms)}`)),
        );
      }
      buttons.push(
        h('button', { class: `btn tile-play${lead === kind && !cur ? ' primary' : ''}`, type: 'button', 'data-action': `play-${kind}`, onclick: () => app.go(`levels:${kind}`) }, cur ? t('levels') : t('play')),
      );
      return h(
        'article',
        { class: `game-card card-${kind}`, 'data-kind': kind },
        h('div', { class: 'tile-art' }, mini(kind)),
        h(
          'div',
          { class: 'card-body' },
          h('h2', null, t(`game.${kind}`)),
          h('p', { class: 'card-desc' }, cur && cur.mode && cur.mode !== 'free' ? t('continueWhat', { mode: t(`modeTitle.${cur.mode}`) }) : t(`gameDesc.${kind}`)),
          h('div', { class: 'card-actions' }, buttons),
        ),
        this.moreRows(kind) ? h('div', { class: 'card-more' }, this.moreRows(kind)) : null,
      );
    });

    return h(
      'section',
      { class: 'screen home-screen' },
      header,
      h(
        'div',
        { class: 'scroll' },
        this.todayCard(),
        h('div', { class: 'cards' }, cards),
        homePictures(app, (params) => this.start({ kind: 'slide', params })),
        h(
          'div',
          { class: 'home-links' },
          h('button', { class: 'btn ghost', type: 'button', 'data-action': 'code', onclick: () => app.go('code') }, icon('code'), t('enterCode')),
          h('button', { class: 'btn ghost', type: 'button', 'data-action': 'records', onclick: () => app.go('records', { scope: null }) }, icon('chart'), t('records')),
        ),
      ),
    );
  }

  /**
   * Today's challenge: the date, the three puzzles each with its done mark, the streak and one
   * big button for the first puzzle not done yet (or "all done").
   */
  todayCard() {
    const list = this.dailyList();
    if (!list.length) return null;
    const d = this.daily;
    const streak = this.streak();
    const next = list.find((x) => !x.done);
    const items = list.map((x) =>
      h(
        'button',
        {
          class: `daily-item${x.done ? ' done' : ''}${x.playing ? ' playing' : ''}`,
          type: 'button',
          'data-action': `daily-${x.kind}`,
          'data-done': x.done ? '1' : '0',
          onclick: () => this.openDaily(x),
        },
        // Its name is its words (axe: the visible label is in the accessible name), the state
        // spelled out for screen readers where the line shows a count or a size instead.
        h('span', { class: 'daily-mark', 'aria-hidden': 'true' }, x.done ? icon('check') : null),
        h('span', { class: 'daily-game' }, t(`gameShort.${x.kind}`)),
        h('span', { class: 'daily-sub' }, x.done ? t('dailyDone') : x.playing ? movesText(x.playing.moves) : x.label || t('dailyToPlay')),
        x.done ? null : h('span', { class: 'sr-only' }, ` · ${x.playing ? t('dailyPlaying') : t('dailyNotYet')}`),
      ),
    );
    const play = next
      ? h(
          'button',
          { class: 'btn primary wide btn-two today-play', type: 'button', 'data-action': 'daily-play', 'data-kind': next.kind, onclick: () => this.openDaily(next) },
          icon('solve'),
          h('span', { class: 'btn-words' }, h('span', { class: 'btn-main' }, next.playing ? t('today.continue') : t('today.play')), h('span', { class: 'btn-detail' }, [t(`game.${next.kind}`), next.playing ? movesText(next.playing.moves) : next.label].filter(Boolean).join(' · '))),
        )
      : h('p', { class: 'today-done', 'data-today': 'done' }, icon('check'), t('today.allDone'));
    return h(
      'section',
      { class: 'today', 'aria-labelledby': 'daily-title', 'data-daily': d.date },
      h(
        'div',
        { class: 'today-head' },
        h('h2', { id: 'daily-title', class: 'today-title' }, icon('calendar'), h('span', { class: 'today-name' }, t('dailyToday')), h('span', { class: 'today-date' }, formatDate(d.date, { weekday: true, thisYear: d.date.slice(0, 4) }))),
        streak ? h('p', { class: 'today-streak', 'data-streak': String(streak), title: streak === 1 ? t('dailyStreakLong1') : t('dailyStreakLong', { n: streak }), 'aria-label': streak === 1 ? t('dailyStreakLong1') : t('dailyStreakLong', { n: streak }) }, icon('flame'), streak === 1 ? t('dailyStreak1') : t('dailyStreak', { n: streak })) : null,
      ),
      h('div', { class: `today-body${this.preview ? ' with-board' : ''}` }, this.heroBoard(), h('div', { class: 'daily-row' }, items)),
      play,
      // Today's friends' board, when a friend has sent a result.
      friendsBoard(d.number, null, { hideEmpty: true }),
    );
  }

  /** The next daily's start board, small (decorative: the button names the puzzle). */
  heroBoard() {
    const pv = this.preview;
    if (!pv || !pv.view) return null;
    const game = gameOf(pv.kind);
    if (!game.preview) return null;
    try {
      return h('div', { class: 'today-board', 'data-preview': pv.kind }, game.preview(pv.view));
    } catch (_) {
      return null;
    }
  }

  /** The longest daily streak still alive (its last solve today or yesterday); 0 when none. */
  streak() {
    const d = this.daily;
    const streaks = (this.app.progress && this.app.progress.streaks) || {};
    const [y, m, dd] = d.date.split('-').map(Number);
    const yest = new Date(Date.UTC(y, m - 1, dd - 1)).toISOString().slice(0, 10);
    let best = 0;
    for (const k of KINDS) {
      const st = streaks[k];
      if (st && (st.last === d.date || st.last === yest)) best = Math.max(best, Number(st.current) || 0);
    }
    return best;
  }

  /** Today's three puzzles from `daily_info`, each with whether it is done or under way. */
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
        playing: this.unfinished.find((g) => g.kind === kind && g.id === d[kind]) || null,
        label: size ? `${size[1]}×${size[2]}` : '',
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
