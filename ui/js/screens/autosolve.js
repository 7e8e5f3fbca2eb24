// Auto-solve (Klotski, number slide: Rust's whole optimal solution, replayed move by move
// through the input queue, stoppable) and auto-play (2048: the AI's hint, move after move).

import { call } from '../ipc.js';
import { h, icon, reducedMotion } from '../dom.js';
import { t, movesText } from '../i18n.js';
import { announce } from '../feedback.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function toggleSolve(screen) {
  if (screen.solving) {
    screen.solving.stopped = true;
    return;
  }
  if (screen.view.snapshot.status !== 'playing') return;
  const run = { stopped: false };
  screen.solving = run;
  setSolving(screen, true, true);
  try {
    let moves = null;
    try {
      const res = await call('solve', { kind: screen.kind });
      moves = (res && res.moves) || [];
    } catch (e) {
      if (e.code !== 'unsupported') throw e;
    }
    setSolving(screen, true, false);
    if (run.stopped) return;
    if (moves) {
      announce(t('say.solving', { moves: movesText(moves.length) }));
      const pace = moves.length <= 40 ? 320 : moves.length <= 200 ? 160 : 60;
      for (const mv of moves) {
        if (run.stopped) break;
        const ok = await screen.play(mv, { auto: true });
        if (!ok) break;
        await sleep(reducedMotion() ? Math.max(pace, 250) : pace);
      }
    } else {
      // No whole solution for this game (2048): let the AI play its hint, move by move.
      while (!run.stopped && screen.view.snapshot.status === 'playing') {
        const res = await call('hint', { kind: screen.kind });
        if (run.stopped || !res || !res.mv) break;
        if (!(await screen.play(res.mv, { auto: true }))) break;
        await sleep(140);
      }
    }
    if (run.stopped) announce(t('say.stopped'));
  } catch (e) {
    if (e.code !== 'cancelled') screen.app.error(e);
  } finally {
    screen.solving = null;
    if (screen.app.screen === screen) {
      setSolving(screen, false, false);
      screen.apply(screen.view);
    }
  }
}

export function setSolving(screen, on, thinking) {
  const b = screen.buttons.solve;
  const idle = t(screen.game.solveLabel);
  b.replaceChildren(icon(on ? 'stop' : 'solve'), h('span', { class: 'ctl-label' }, on ? (thinking ? t('thinking') : t('stop')) : idle));
  b.setAttribute('aria-label', on ? t('stop') : idle);
  b.classList.toggle('active', on);
  b.disabled = false;
  // Auto-solve lives in the "more" menu; while it runs its Stop takes the menu button's place.
  const more = screen.moreBtn;
  b.classList.remove('more-item');
  if (on && more && more.isConnected) more.replaceWith(b);
  else if (!on && more && b.isConnected && !more.isConnected) b.replaceWith(more);
  screen.el.classList.toggle('solving', on);
  for (const k of ['undo', 'redo', 'restart', 'hint']) if (on) screen.buttons[k].disabled = true;
}
