// Challenge to beat (issue 16): a share code may carry the sender's result `{moves, ms}`;
// the code screen and the game show "beat 85 moves · 3:23.4", the finish dialog says whether
// it was beaten (`finish.challenge.beaten`, decided by Rust).

import { call } from './ipc.js';
import { h, setText } from './dom.js';
import { t, formatTime, movesText } from './i18n.js';

/** "Beat 85 moves · 3:23.4", or '' without a result. `compact`: only the result ("85 moves ·
 *  3:23.4", and "✓ replayed" when verified), for a place that already says whose it is. */
export function challengeText(c, compact = false) {
  if (!c || c.moves === null || c.moves === undefined) return '';
  if (compact) {
    const result = `${movesText(c.moves)} · ${formatTime(c.ms, true)}`;
    return c.verified ? `${result} · ✓ ${t('friends.verified')}` : result;
  }
  const beat = t('chal.beat', { moves: movesText(c.moves), time: formatTime(c.ms, true) });
  // Issue 25: a result code names its sender and says whether its replay verified it.
  if (c.name === undefined && c.verified === undefined) return beat;
  const line = c.name ? t('chal.beatName', { name: c.name, moves: movesText(c.moves), time: formatTime(c.ms, true) }) : beat;
  return c.verified ? `${line} ✓ ${t('friends.verifiedLong')}` : line;
}

/** The game screen's line (hidden without a challenge); `update(c)` on every View. */
export function challengeLine() {
  const el = h('p', { class: 'challenge-line', 'data-challenge': '', hidden: true, 'aria-live': 'off' });
  return {
    el,
    update(c) {
      const text = challengeText(c);
      el.hidden = !text;
      setText(el, text);
      el.dataset.challenge = c && text ? `${c.moves}:${c.ms}` : '';
    },
  };
}

/** The finish dialog's comparison, or null when the game had no result to beat. */
export function finishChallenge(f) {
  const c = f && f.challenge;
  if (!c || c.moves === null || c.moves === undefined) return null;
  const mine = f.moves;
  let text;
  if (c.beaten) text = mine === c.moves ? t('chal.beatenTime', { moves: movesText(c.moves) }) : t('chal.beaten', { moves: movesText(c.moves), mine: movesText(mine) });
  else text = t('chal.notBeaten', { moves: movesText(c.moves), time: formatTime(c.ms, true) });
  return h('p', { class: `fin-challenge ${c.beaten ? 'beaten' : 'not-beaten'}`, 'data-challenge': `${c.moves}:${c.ms}`, 'data-beaten': c.beaten ? 'true' : 'false' }, text);
}

/**
 * The code screen's preview: after typing or pasting, Rust decodes the text and a code with a
 * result shows it (a bad code shows nothing here; opening it explains why).
 */
export function codePreview(input, onDecoded, { compact = false } = {}) {
  const el = h('p', { class: 'challenge-line code-challenge', 'data-challenge': '', hidden: true });
  let seq = 0;
  let timer = 0;
  const check = async () => {
    const mine = ++seq;
    const text = input.value.trim();
    let c = null;
    let d = null;
    if (text) {
      try {
        d = await call('decode_code', { text });
        c = d && d.challenge && { ...d.challenge, name: d.name, verified: d.verified };
      } catch (_) {
        c = null;
        d = null;
      }
    }
    if (mine !== seq) return;
    if (onDecoded) onDecoded(d);
    const line = challengeText(c, compact);
    el.hidden = !line;
    setText(el, line);
    el.dataset.challenge = line ? `${c.moves}:${c.ms}` : '';
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(check, 150);
  });
  return { el, check };
}
