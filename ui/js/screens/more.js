// The game screen's "more" menu (`[data-action=more]`): the rare actions, away from
// Undo and Hint. Auto-solve (`[data-action=solve]`) lives here and asks first. In today's daily
// and in a friend's challenge (a code with their result to beat) it is not offered until the
// player gives the game up (`[data-action=give-up]`, asked first too), which then shows the
// solution. The menu is one history entry (back closes it), like every dialog.

import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
import { confirmDialog } from './dialog.js';
import { toggleSolve } from './autosolve.js';

/** Games given up this session, by slot and game ID (the menu then offers the solution). */
const givenUp = new Set();

function keyOf(s) {
  return `${s.slot || s.kind}|${s.id}`;
}

/** Whether auto-solve is held back for this game: a daily or a friend's result to beat, not given up. */
export function guarded(s) {
  if (!s) return false;
  const daily = s.mode === 'daily' || /:daily:/.test(s.slot || '');
  const friend = !!(s.challenge && s.challenge.moves !== undefined && s.challenge.moves !== null);
  return (daily || friend) && !givenUp.has(keyOf(s));
}

/** Auto-solve asked for (the menu's item, or `[data-action=solve]` while it runs = Stop). */
export async function askSolve(screen) {
  if (screen.solving) return toggleSolve(screen);
  const s = screen.view && screen.view.snapshot;
  if (!s || s.status !== 'playing' || screen.app.modal) return undefined;
  if (guarded(s)) return undefined;
  const machine = screen.game.solveLabel === 'autoPlay';
  const ok = await confirmDialog(screen.app, {
    title: machine ? t('autoPlay.title') : t('solve.title'),
    text: machine ? t('autoPlay.ask') : t('solve.ask'),
    confirm: t(screen.game.solveLabel),
  });
  if (!ok || screen.app.screen !== screen) return undefined;
  return toggleSolve(screen);
}

async function giveUp(screen) {
  const s = screen.view && screen.view.snapshot;
  if (!s || s.status !== 'playing') return;
  const daily = s.mode === 'daily' || /:daily:/.test(s.slot || '');
  const ok = await confirmDialog(screen.app, {
    title: t('giveUp.title'),
    text: daily ? t('giveUp.daily') : t('giveUp.friend'),
    confirm: t('giveUp'),
  });
  if (!ok || screen.app.screen !== screen) return;
  givenUp.add(keyOf(s));
  // Given up: the solution is what the player asked for.
  await toggleSolve(screen);
}

/** Open the menu (nothing while a solve runs or another dialog is open). */
export function openMore(screen) {
  const app = screen.app;
  if (app.modal || screen.solving || !screen.view) return;
  const s = screen.view.snapshot;
  let el = null;
  const before = document.activeElement;
  const menu = {
    hide() {
      if (!el) return;
      // The solve button belongs to the screen: take it back out of the sheet.
      if (screen.buttons.solve.parentNode && el.contains(screen.buttons.solve)) screen.buttons.solve.remove();
      el.remove();
      el = null;
      if (app.modal === menu) app.modal = null;
      if (before && before.isConnected) before.focus({ preventScroll: true });
    },
    onKey(e) {
      if (e.key === 'Escape') {
        app.closeDialog(menu);
        return true;
      }
      return false;
    },
  };
  const then = (f) => async () => {
    await app.closeDialog(menu);
    f();
  };
  const items = [];
  if (guarded(s)) {
    items.push(
      h('button', { class: 'ctl more-item', type: 'button', 'data-action': 'give-up', disabled: s.status !== 'playing', onclick: then(() => giveUp(screen)) }, icon('lost'), h('span', { class: 'ctl-label' }, t('giveUp'))),
    );
  } else {
    const b = screen.buttons.solve;
    b.classList.add('more-item');
    b.disabled = s.status !== 'playing';
    items.push(b);
  }
  el = h(
    'div',
    { class: 'overlay more', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'more-title', 'data-dialog': 'more', onclick: (e) => e.target === el && app.closeDialog(menu) },
    h(
      'div',
      { class: 'sheet more-sheet' },
      h('h2', { id: 'more-title', class: 'more-title', tabindex: '-1' }, t('more')),
      h('p', { class: 'more-note' }, guarded(s) ? (s.mode === 'daily' || /:daily:/.test(s.slot || '') ? t('more.guardedDaily') : t('more.guardedFriend')) : t('more.solveNote')),
      h('div', { class: 'more-items' }, items),
      h('button', { class: 'btn wide', type: 'button', 'data-action': 'close-more', onclick: () => app.closeDialog(menu) }, t('cancel')),
    ),
  );
  app.modal = menu;
  screen.el.append(el);
  app.openDialog(menu);
  el.querySelector('h2').focus({ preventScroll: true });
  screen.menuClose = () => app.closeDialog(menu);
  // Inside the menu, the solve item closes it first, then asks.
  screen.solveFromMenu = then(() => askSolve(screen));
}
