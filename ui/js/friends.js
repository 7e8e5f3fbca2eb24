// The daily challenge's friends' board: `friends {daily, kind?}` from Rust, best
// first, the player's own result among them ("me"), a verified mark on results whose move
// log Rust replayed. Shown on home's daily card and in a daily's finish dialog.

import { call } from './ipc.js';
import { h, icon } from './dom.js';
import { t, formatTime, movesText, language } from './i18n.js';

const loaded = new Set();

/** Load a stylesheet of this feature once (a `<link>`: the CSP allows the app's own files). */
export function featureStyle(href) {
  if (loaded.has(href)) return;
  loaded.add(href);
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  const marker = document.querySelector('meta[name="board-styles"]');
  if (marker) marker.after(link);
  else document.head.append(link);
}

/** The name a board line shows: the player's own (their name, or "Me"), "a friend", or the sender's. */
export function friendName(line) {
  if (line.me) return line.name || t('friends.me');
  return line.name || t('friends.aFriend');
}

/** The list of `lines` (one game's board), or null when empty. */
export function boardList(lines, kinds) {
  if (!lines.length) return null;
  let rank = 0;
  let lastKind = null;
  const items = [];
  for (const line of lines) {
    if (line.kind !== lastKind) {
      rank = 0;
      lastKind = line.kind;
      if (kinds) items.push(h('li', { class: 'friends-kind', 'data-kind': line.kind }, t(`gameShort.${line.kind}`)));
    }
    rank += 1;
    items.push(
      h(
        'li',
        { class: line.me ? 'friend me' : 'friend', 'data-friend': line.name || '', 'data-me': line.me ? '1' : '0', 'data-rank': String(rank), 'data-verified': line.verified ? '1' : '0', 'data-assisted': line.assisted ? '1' : '0' },
        // A crown for #1; the player's own row carries the same "Me" tag in every language beside
        // their name (a row without a name reads "Me" once, not "Me Me"); a ✓ on verified rows
        // only (its words for screen readers), nothing on others.
        h('span', { class: `friend-rank${rank === 1 ? ' first' : ''}` }, rank === 1 ? [icon('crown'), h('span', { class: 'sr-only' }, t('friends.rank', { n: 1 }))] : String(rank)),
        h('span', { class: 'friend-name' }, h('span', { class: 'friend-name-text' }, friendName(line)), line.me && line.name ? h('span', { class: 'friend-you' }, t('friends.me')) : null,
          // A result helped by hints or undo: a small word after the name (the core ranks it
          // after clean results).
          line.assisted ? h('span', { class: 'friend-assisted', title: t('friends.assistedLong') }, t('friends.assisted')) : null),
        h('span', { class: 'friend-moves' }, movesText(line.moves)),
        // A friend's time is their claim (only the moves are replayed): marked so.
        line.ms_claimed
          ? h('span', { class: 'friend-time claimed', 'data-claimed': '1', title: t('friends.claimedTime'), 'aria-label': `${formatTime(line.ms, true)}, ${t('friends.claimedTime')}` }, formatTime(line.ms, true))
          : h('span', { class: 'friend-time', 'data-claimed': '0' }, formatTime(line.ms, true)),
        line.verified && !line.me
          ? h('span', { class: 'friend-mark verified', title: t('friends.verifiedLong') }, icon('check'), h('span', { class: 'sr-only' }, t('friends.verified')))
          : h('span', { class: 'friend-mark' }),
      ),
    );
  }
  return h('ol', { class: 'friends-list' }, items);
}

/** The board's frame: its section and title (`n`: the daily's number). */
function boardFrame(n, kind) {
  featureStyle('css/friends.css');
  const el = h('section', { class: 'friends', 'data-friends': String(n), 'data-kind': kind || 'all', 'aria-labelledby': `friends-title-${kind || 'all'}` });
  el.append(h('h3', { class: 'friends-title', id: `friends-title-${kind || 'all'}` }, icon('chart'), t('friends.title')));
  return el;
}

/** Fill `el` with the board `lines` (Rust's order); false when it stays empty of friends. */
function fill(el, lines, kind, placed = false) {
  const list = Array.isArray(lines) ? lines : [];
  const friends = list.filter((l) => !l.me);
  el.dataset.count = String(list.length);
  // A finish states the place in its own sentence (`placeLine`); elsewhere the board says it.
  const me = list.filter((l) => !kind || l.kind === kind).findIndex((l) => l.me);
  if (kind && me >= 0 && !placed) el.append(h('p', { class: 'friends-rank', 'data-my-rank': String(me + 1) }, t('friends.rankOf', { n: me + 1, total: list.length })));
  const ol = boardList(list, !kind);
  if (ol) el.append(ol);
  if (!friends.length) el.append(h('p', { class: 'help friends-empty' }, t('friends.empty')));
  return friends.length > 0;
}

/**
 * The board of daily `n` (one `kind`, or all when null): an element filled when Rust answers.
 * `hideEmpty`: remove itself when nobody is on it (home); else it says how to fill it.
 */
export function friendsBoard(n, kind, { hideEmpty = false } = {}) {
  const el = boardFrame(n, kind);
  if (n === null || n === undefined) return el;
  call('friends', kind ? { daily: n, kind } : { daily: n })
    .then((lines) => {
      const list = Array.isArray(lines) ? lines : [];
      if (!list.some((l) => !l.me) && hideEmpty) {
        el.remove();
        return;
      }
      fill(el, list, kind);
    })
    .catch(() => el.remove());
  return el;
}

/** The board of daily `n` and game `kind` as Rust gave it with a finish (`finish.friends`):
 *  the player's line is that finish. */
export function friendsBoardOf(n, kind, lines, placed = false) {
  const el = boardFrame(n, kind);
  fill(el, lines, kind, placed);
  return el;
}

/**
 * A daily finish's place on its whole friends' board (Rust's `friends.place`: `{rank, of,
 * beat}`), one sentence: "You beat 2 of 3 friends" / "第 2 名，共 4 人" — never a comparison
 * with the one friend whose link was opened.
 */
export function placeLine(place) {
  const rank = Number(place.rank);
  const of = Number(place.of);
  const beat = Number(place.beat);
  const text = beat > 0 || language() === 'zh' ? t('friends.place', { rank, of, beat, friends: of - 1 }) : t('friends.placeNone', { rank, of });
  return h('p', { class: `fin-challenge fin-place${rank === 1 ? ' first' : ''}`, 'data-place': `${rank}/${of}`, 'data-beat': String(beat) }, text);
}
