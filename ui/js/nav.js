// Back, the way phone apps do it: every screen and every dialog is one history entry, so the
// Android back gesture, the back button of a desktop window and `history.back()` close the
// open dialog or go back one screen (game → the screen it was opened from → home). Home is
// the first entry: back on home has nothing to pop and leaves the app. Nothing is lost on
// the way: a game stays in its slot in Rust.

import { h, icon } from './dom.js';
import { t } from './i18n.js';

/** Entries, oldest first: `{ screen: name }` or `{ dialog }` (an object with `hide()`). */
const stack = [];
let onScreen = null; // (name) => Promise: show a screen without touching history
let skip = 0; // popstates that our own history.go() calls will fire
let waiters = []; // resolved on the next popstate

function index() {
  return stack.length - 1;
}

function topScreen() {
  for (let i = stack.length - 1; i >= 0; i--) if (stack[i].screen) return stack[i].screen;
  return 'home';
}

async function popstate(e) {
  const st = e.state && Number.isInteger(e.state.huarong) ? e.state.huarong : 0;
  const done = waiters;
  waiters = [];
  if (skip > 0) {
    skip -= 1;
    done.forEach((f) => f());
    return;
  }
  if (st >= stack.length) {
    // Forward (a desktop browser's forward button): there is nothing to go forward to.
    history.replaceState({ huarong: index() }, '');
    done.forEach((f) => f());
    return;
  }
  const before = topScreen();
  while (stack.length - 1 > st) {
    const item = stack.pop();
    if (item.dialog) item.dialog.hide();
  }
  const now = topScreen();
  if (now !== before && onScreen) await onScreen(now);
  done.forEach((f) => f());
}

/** Move through history by `delta` ourselves (the popstate it fires is not a player's back). */
function traverse(delta) {
  return new Promise((resolve) => {
    skip += 1;
    waiters.push(resolve);
    history.go(delta);
  });
}

export const nav = {
  /** Start: the current history entry becomes home. `show(name)` renders a screen. */
  init(show) {
    onScreen = show;
    stack.length = 0;
    stack.push({ screen: 'home' });
    history.replaceState({ huarong: 0 }, '');
    window.addEventListener('popstate', popstate);
  },

  /**
   * A screen was shown by a forward navigation; resolves once history matches. `replace`: it
   * takes the current screen's entry. An open dialog's entry is reused (dialogs are modal, so
   * there is at most one).
   */
  async shown(name, replace) {
    let reuse = false;
    while (stack.length > 1 && stack[index()].dialog) {
      stack.pop().dialog.hide();
      reuse = true;
    }
    if (name === 'home') {
      // Home is always the first entry: unwind instead of piling entries up.
      const extra = index() + (reuse ? 1 : 0);
      stack.length = 1;
      if (extra > 0) await traverse(-extra);
      return;
    }
    if (reuse || (replace && stack.length > 1)) {
      if (!reuse) stack.pop();
      stack.push({ screen: name });
      history.replaceState({ huarong: index() }, '');
      return;
    }
    stack.push({ screen: name });
    history.pushState({ huarong: index() }, '');
  },

  /** The previous screen's name (where back goes), or null on home. */
  previous() {
    for (let i = stack.length - 2; i >= 0; i--) if (stack[i].screen) return stack[i].screen;
    return null;
  },

  /** Back one step (a dialog, else a screen). On home there is nothing to go back to. */
  back() {
    if (stack.length <= 1) return Promise.resolve(false);
    return new Promise((resolve) => {
      waiters.push(() => resolve(true));
      history.back();
    });
  },

  /** A dialog opened: one history entry, so back closes it. */
  openDialog(dialog) {
    stack.push({ dialog });
    history.pushState({ huarong: index() }, '');
  },

  /** Close a dialog through history (resolves once it is gone). */
  closeDialog(dialog) {
    const top = stack[index()];
    if (top && top.dialog === dialog) return this.back();
    const i = stack.findIndex((x) => x.dialog === dialog);
    if (i > 0) stack.splice(i, 1); // not on top (cannot happen with modal dialogs): drop it
    dialog.hide();
    return Promise.resolve(true);
  },

  /** How many entries (screens and dialogs) there are; the E2E tests read it. */
  depth() {
    return stack.length;
  },
};
window.__huarongNav = { depth: () => nav.depth(), stack: () => stack.map((x) => x.screen || 'dialog') };

/**
 * A screen whose only key is Escape, which goes back; it holds nothing to release and (unless
 * it says otherwise) needs nothing before it renders.
 */
export class BackScreen {
  constructor(app, name) {
    this.app = app;
    this.name = name;
  }

  async prepare() {
    return true;
  }

  /** The screen's bar: back, the title (focused after the screen change), nothing on the right. */
  backBar(title) {
    return h(
      'header',
      { class: 'bar' },
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': t('back'), 'data-action': 'back', onclick: () => this.app.back() }, icon('back')),
      h('div', { class: 'bar-title' }, h('h1', { class: 'title', tabindex: '-1' }, title)),
      h('span', { class: 'icon-btn-spacer' }),
    );
  }

  onKey(e) {
    if (e.key === 'Escape') {
      this.app.back();
      return true;
    }
    return false;
  }

  destroy() {}
}
