// The daily challenge's friends' board (issue 25): `friends {daily, kind?}` from Rust, best
// first, the player's own result among them ("me"), a verified mark on results whose move
// log Rust replayed. Shown on home's daily card and in a daily's finish dialog.

import { call } from './ipc.js';
import { h, icon } from './dom.js';
import { t, formatTime, movesText } from './i18n.js';

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

/** The name a board line shows: the player's own, "a friend", or the sender's. */
export function friendName(line) {
  if (line.me) return line.name ? `${line.name} (${t('friends.me')})` : t('friends.me');
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
        { class: line.me ? 'friend me' : 'friend', 'data-friend': line.name || '', 'data-me': line.me ? '1' : '0', 'data-rank': String(rank), 'data-verified': line.verified ? '1' : '0' },
        h('span', { class: 'friend-rank' }, String(rank)),
        h('span', { class: 'friend-name' }, friendName(line)),
        h('span', { class: 'friend-moves' }, movesText(line.moves)),
        h('span', { class: 'friend-time' }, formatTime(line.ms, true)),
        line.verified && !line.me
          ? h('span', { class: 'friend-mark verified', title: t('friends.verifiedLong'), 'aria-label': t('friends.verifiedLong') }, icon('check'), t('friends.verified'))
          : h('span', { class: 'friend-mark' }, line.me ? '' : t('friends.plain')),
      ),
    );
  }
  return h('ol', { class: 'friends-list' }, items);
}

/**
 * The board of daily `n` (one `kind`, or all when null): an element filled when Rust answers.
 * `hideEmpty`: remove itself when nobody is on it (home); else it says how to fill it.
 */
export function friendsBoard(n, kind, { hideEmpty = false } = {}) {
  featureStyle('css/friends.css');
  const el = h('section', { class: 'friends', 'data-friends': String(n), 'data-kind': kind || 'all', 'aria-labelledby': `friends-title-${kind || 'all'}` });
  const title = h('h3', { class: 'friends-title', id: `friends-title-${kind || 'all'}` }, icon('chart'), t('friends.title'));
  el.append(title);
  if (n === null || n === undefined) return el;
  call('friends', kind ? { daily: n, kind } : { daily: n })
    .then((lines) => {
      const list = Array.isArray(lines) ? lines : [];
      const friends = list.filter((l) => !l.me);
      if (!friends.length && hideEmpty) {
        el.remove();
        return;
      }
      el.dataset.count = String(list.length);
      const me = list.filter((l) => !kind || l.kind === kind).findIndex((l) => l.me);
      if (kind && me >= 0) el.append(h('p', { class: 'friends-rank', 'data-my-rank': String(me + 1) }, t('friends.rankOf', { n: me + 1, total: list.length })));
      const ol = boardList(list, !kind);
      if (ol) el.append(ol);
      if (!friends.length) el.append(h('p', { class: 'help friends-empty' }, t('friends.empty')));
    })
    .catch(() => el.remove());
  return el;
}
