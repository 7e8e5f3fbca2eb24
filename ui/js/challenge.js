// Challenge to beat: a share code may carry the sender's result `{moves, ms}`;
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
  // A result code names its sender and says whether its replay verified it.
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

/**
 * The finish's comparison with a friend's result, one sentence that cannot argue: Rust's
 * `outcome` (`beaten` / `tied` / `lost`, moves first, then the time at the tenth shown) and
 * `diff_ms`; a tie is called a tie, and a perfect game that lost on time says both in one
 * sentence. Null when the game had no result to beat.
 */
export function finishChallenge(f) {
  const c = f && f.challenge;
  const outcome = challengeOutcome(f);
  if (!outcome) return null;
  const name = c.name || (c.ghost === 'best' ? t('ghost.bestName') : t('chal.friend'));
  const mine = Number(f.moves);
  // Rust's difference (rounded to 0.1 s); a core without it: the two times as shown.
  const s = seconds(c.diff_ms ?? (f.time_ms !== undefined && c.ms !== undefined ? Math.floor(Number(f.time_ms) / 100) * 100 - Math.floor(Number(c.ms) / 100) * 100 : null));
  let text;
  if (c.score !== undefined && c.score !== null) {
    text = outcome === 'beaten' ? t('chal.wonScore', { name, mine: Number(f.score ?? 0), score: c.score }) : outcome === 'tied' ? t('chal.tied', { name, moves: movesText(c.moves), time: formatTime(c.ms, true) }) : t('chal.lostScore', { name, score: c.score });
  } else if (outcome === 'beaten') {
    text = mine < Number(c.moves) || s === null ? t('chal.wonMoves', { name, mine: movesText(mine), moves: movesText(c.moves) }) : t('chal.wonTime', { name, moves: movesText(c.moves), s });
  } else if (outcome === 'tied') {
    text = t('chal.tied', { name, moves: movesText(c.moves), time: formatTime(c.ms, true) });
  } else if (f.status === 'won' && mine === Number(c.moves) && s !== null) {
    text = f.perfect === true && f.assisted !== true ? t('chal.perfectSlower', { name, s }) : t('chal.slower', { name, moves: movesText(c.moves), s });
  } else {
    text = t('chal.lost', { name, moves: movesText(c.moves), time: formatTime(c.ms, true) });
  }
  return h('p', { class: `fin-challenge ${outcome}`, 'data-challenge': `${c.moves}:${c.ms}`, 'data-beaten': outcome === 'beaten' ? 'true' : 'false', 'data-outcome': outcome }, text);
}

/** A finish's outcome against a friend's result (`beaten` / `tied` / `lost`), or null. */
export function challengeOutcome(f) {
  const c = f && f.challenge;
  if (!c || c.moves === null || c.moves === undefined) return null;
  return c.outcome || (c.beaten ? 'beaten' : 'lost');
}

/** |`ms`| in seconds to the tenth ("0.3"), or null without one. */
function seconds(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(Number(ms))) return null;
  return (Math.abs(Number(ms)) / 1000).toFixed(1);
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
