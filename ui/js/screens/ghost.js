// The ghost: a friend's (or the player's own best) timed run played beside the game, in the
// band above the counters. Rust says what the ghost is (`ghost {kind}`: its moves, the board
// after each, its times and splits) and where the player's splits fall (`splits {kind}`); the
// page only picks the ghost's position at the player's elapsed time and says who is ahead.
//
// - `[data-ghost]` exists only while the game has a ghost. It is idle (`data-ghost-state`)
//   until the player's first move, then shows the ghost after its moves timed ≤ the elapsed
//   time (`data-ghost-moves`).
// - Number slide up to 6×6 and Klotski: a small board (the game's `preview` of `views[k]`);
//   bigger slides and 2048: a lane (the share of the ghost's moves made, its last split or best tile).
// - A chip `[data-split]` at each of the player's splits (`live`): the player's time minus the
//   ghost's at the split of the same name.
// - `[data-action="ghost"]` hides or shows it (the `ghost` setting).

import { call } from '../ipc.js';
import { h, icon, setText, setData } from '../dom.js';
import { t, formatTime } from '../i18n.js';

/** A split's machine name in words: row2 → "Row 2", q3 → "¼ of the way", tile512 → "512". */
export function splitName(name) {
  const n = String(name || '');
  let m = /^row(\d+)$/.exec(n);
  if (m) return t('split.row', { k: m[1] });
  m = /^col(\d+)$/.exec(n);
  if (m) return t('split.col', { k: m[1] });
  m = /^q([123])$/.exec(n);
  if (m) return t(`split.q${m[1]}`);
  m = /^tile(\d+)$/.exec(n);
  if (m) return t('split.tile', { n: m[1] });
  return n;
}

/** "+1.2 s" (behind) / "−0.8 s" (ahead), or the zh "慢 1.2 秒" / "快 0.8 秒". */
export function diffText(ms) {
  const s = (Math.abs(Math.round(Number(ms) / 100)) / 10).toFixed(1);
  if (Math.round(Number(ms) / 100) === 0) return t('ghost.even');
  return Number(ms) > 0 ? t('ghost.behind', { s }) : t('ghost.ahead', { s });
}

/** How many of `times` are ≤ `ms` (times ascending). */
export function movesAt(times, ms) {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class GhostBand {
  constructor(screen) {
    this.screen = screen;
    this.kind = screen.kind;
    this.data = null;
    this.key = '';
    this.shownMoves = -1;
    this.chipped = new Set();
    this.splitsBusy = false;
    this.timer = 0;
    this.nameEl = h('span', { class: 'ghost-name' });
    this.toggleEl = h('button', { class: 'ghost-toggle', type: 'button', 'data-action': 'ghost', onclick: () => this.toggle() });
    this.bodyEl = h('div', { class: 'ghost-body' });
    this.chipsEl = h('div', { class: 'ghost-chips', role: 'status', 'aria-live': 'polite' });
    this.el = h('div', { class: 'ghost', role: 'group' }, h('div', { class: 'ghost-head' }, this.nameEl, this.toggleEl), this.bodyEl, this.chipsEl);
  }

  /** Whether the setting shows the ghost. */
  on() {
    const s = this.screen.app.settings;
    return !s || s.ghost !== 'off';
  }

  /** Every View of the game: a game with a ghost loads it (once per slot and game). */
  update(s) {
    const c = s && s.challenge;
    const key = c && c.ghost ? `${s.slot}|${s.id}|${c.ghost}` : '';
    if (key !== this.key) {
      this.key = key;
      this.data = null;
      this.detach();
      if (key) this.load(key);
    }
    if (!this.data) return;
    if (s.moves === 0) this.resetChips();
    this.tick();
    if (s.moves > 0) this.checkSplits();
  }

  async load(key) {
    let g = null;
    try {
      g = await call('ghost', { kind: this.kind });
    } catch (e) {
      if (e.code !== 'cancelled') this.screen.app.error(e);
      return;
    }
    if (key !== this.key || !g || !Array.isArray(g.views) || !Array.isArray(g.times_ms)) return;
    this.data = g;
    this.shownMoves = -1;
    this.resetChips();
    this.attach();
    this.tick();
  }

  attach() {
    const g = this.data;
    const el = this.el;
    el.setAttribute('data-ghost', g.source);
    const v = g.views[0] || {};
    const small = this.kind === 'klotski' || (this.kind === 'slide' && Number(v.w) <= 6 && Number(v.h) <= 6);
    this.mode = small ? 'board' : 'lane';
    setData(el, 'ghostMode', this.mode);
    const title = g.source === 'best' ? t('ghost.best') : t('ghost.friend', { name: g.name || t('chal.friend') });
    setText(this.nameEl, title);
    el.setAttribute('aria-label', title);
    this.bodyEl.replaceChildren();
    if (this.mode === 'lane') {
      this.fillEl = h('div', { class: 'ghost-fill' });
      this.laneText = h('span', { class: 'ghost-lane-text' });
      this.bodyEl.append(h('div', { class: 'ghost-lane' }, this.fillEl), this.laneText);
    }
    this.applyShown();
    if (!el.isConnected && this.screen.ghostSlot) this.screen.ghostSlot.prepend(el);
    clearInterval(this.timer);
    this.timer = setInterval(() => this.tick(), 100);
  }

  detach() {
    clearInterval(this.timer);
    this.timer = 0;
    this.el.removeAttribute('data-ghost');
    this.el.remove();
  }

  applyShown() {
    const on = this.on();
    setData(this.el, 'ghostShown', on ? 'on' : 'off');
    this.bodyEl.hidden = !on;
    this.chipsEl.hidden = !on;
    setText(this.toggleEl, on ? t('ghost.hide') : t('ghost.show'));
    this.toggleEl.setAttribute('aria-pressed', on ? 'true' : 'false');
  }

  async toggle() {
    const ghost = this.on() ? 'off' : 'on';
    try {
      const settings = await call('set_settings', { settings: { ghost } });
      this.screen.app.settings = settings;
    } catch (e) {
      this.screen.app.error(e);
      return;
    }
    this.applyShown();
    if (this.screen.measureSizes) this.screen.measureSizes();
  }

  /** The player's elapsed time (the game's clock, as the counter shows it) and whether it runs. */
  elapsed() {
    const c = this.screen.clockBase || { ms: 0 };
    return c.ms + (c.running ? performance.now() - c.at : 0);
  }

  tick() {
    const g = this.data;
    if (!g) return;
    const s = this.screen.view && this.screen.view.snapshot;
    const started = !!s && (s.moves > 0 || (this.screen.clockBase && this.screen.clockBase.running));
    const k = started ? movesAt(g.times_ms, this.elapsed()) : 0;
    const state = !started ? 'idle' : k >= g.times_ms.length ? 'done' : 'racing';
    setData(this.el, 'ghostState', state);
    if (k === this.shownMoves) return;
    this.shownMoves = k;
    setData(this.el, 'ghostMoves', k);
    const view = g.views[Math.min(k, g.views.length - 1)];
    if (this.mode === 'board') {
      const pv = this.screen.game.preview ? this.screen.game.preview(view) : null;
      if (pv) {
        pv.classList.add('ghost-board');
        this.bodyEl.replaceChildren(pv);
      }
    } else {
      const n = g.times_ms.length || 1;
      this.fillEl.style.setProperty('--ghost-p', String(k / n));
      const done = (g.splits || []).filter((sp) => sp.moves !== undefined && this.movesOf(k) >= sp.moves);
      // 2048: the ghost's best tile so far; a number slide: its last split.
      const cells = view && Array.isArray(view.cells) ? view.cells.flat() : null;
      const tile = cells && cells.length ? Math.max(...cells) : null;
      const last = done.length ? splitName(done[done.length - 1].name) : '';
      const words = tile !== null ? t('split.tile', { n: tile }) : last;
      setText(this.laneText, words ? `${words} · ${t('ghost.moves', { k, n: g.times_ms.length })}` : t('ghost.moves', { k, n: g.times_ms.length }));
    }
  }

  /** The ghost's move count (default rule) after its first `k` moves, as its splits count. */
  movesOf(k) {
    const c = this.data && this.data.counts;
    return c ? c[k] : k;
  }

  resetChips() {
    this.chipped.clear();
    this.chipsEl.replaceChildren();
    this.mine = [];
  }

  /** After a move: the player's splits so far; a chip for each new one. */
  async checkSplits() {
    if (this.splitsBusy || !this.data) return;
    this.splitsBusy = true;
    let r = null;
    try {
      r = await call('splits', { kind: this.kind });
    } catch (_) {
      r = null;
    } finally {
      this.splitsBusy = false;
    }
    if (!r || !this.data) return;
    this.mine = r.splits || [];
    for (const sp of r.live || []) {
      if (this.chipped.has(sp.name) || sp.ms === null || sp.ms === undefined) continue;
      this.chipped.add(sp.name);
      this.chip(sp);
    }
  }

  chip(sp) {
    const theirs = (this.data.splits || []).find((x) => x.name === sp.name);
    const el = h('span', { class: 'ghost-chip', 'data-split': sp.name });
    let text = `${splitName(sp.name)} · ${formatTime(sp.ms, true)}`;
    if (theirs && theirs.ms !== null && theirs.ms !== undefined) {
      const diff = Number(sp.ms) - Number(theirs.ms);
      el.dataset.splitDiff = String(diff);
      el.dataset.splitAhead = diff < 0 ? 'me' : diff > 0 ? 'ghost' : 'even';
      text = `${splitName(sp.name)} · ${diffText(diff)}`;
    }
    setText(el, text);
    this.chipsEl.append(el);
    // The newest few only: the band keeps its height.
    while (this.chipsEl.children.length > 3) this.chipsEl.firstChild.remove();
  }

  /** The finish of a race: each split, the player's time against the ghost's. */
  raceBlock(f) {
    const g = this.data;
    const mine = (f && Array.isArray(f.splits) && f.splits) || [];
    if (!g || !mine.length) return null;
    const rows = mine.map((sp) => {
      const theirs = (g.splits || []).find((x) => x.name === sp.name);
      const has = theirs && theirs.ms !== null && theirs.ms !== undefined && sp.ms !== null && sp.ms !== undefined;
      const diff = has ? Number(sp.ms) - Number(theirs.ms) : null;
      return h(
        'li',
        { class: 'race-split', 'data-race-split': sp.name, 'data-split-diff': diff === null ? '' : String(diff) },
        h('span', { class: 'race-name' }, splitName(sp.name)),
        h('span', { class: 'race-time' }, sp.ms === null || sp.ms === undefined ? '—' : formatTime(sp.ms, true)),
        h('span', { class: `race-diff${diff === null ? '' : diff < 0 ? ' ahead' : diff > 0 ? ' behind' : ''}` }, diff === null ? '' : diffText(diff)),
      );
    });
    return h('section', { class: 'race', 'data-race': g.source }, h('h3', { class: 'race-title' }, t('ghost.raceTitle')), h('ol', { class: 'race-list' }, rows));
  }

  destroy() {
    this.detach();
  }
}

/** The finish's "Race your best": the same board again, the player's best kept run as the ghost. */
export function raceBestLink(screen, s, f) {
  if (!s || s.status !== 'won' || (f && f.assisted) || s.run) return null;
  return h(
    'button',
    {
      class: 'link-btn fin-race',
      type: 'button',
      'data-action': 'race-best',
      onclick: async () => {
        try {
          const view = await call('race_best', { kind: s.kind, replace: true });
          screen.load(view);
        } catch (e) {
          screen.app.error(e);
        }
      },
    },
    icon('restart'),
    t('ghost.raceBest'),
  );
}
