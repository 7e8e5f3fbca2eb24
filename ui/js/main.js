// Start-up, the screen router, settings (language, theme, feedback) and global keys.

// First: it listens for the web worker's storage events before any can arrive.
import './storage-banner.js';
import { applySystemBars } from './platform.js';
import { call, available, isWeb, AppError } from './ipc.js';
import { setLanguage, t, missingKeys, language } from './i18n.js';
import { configure as configureFeedback, toast, warmSounds } from './feedback.js';
import { clear, h } from './dom.js';
import { confirmDialog } from './screens/dialog.js';
import { nav } from './nav.js';
import { KINDS, boardStyles } from './boards/index.js';
import { HomeScreen } from './screens/home.js';
import { GameScreen } from './screens/game.js';
import { LevelsScreen } from './screens/levels.js';
import { SettingsScreen } from './screens/settings.js';
import { CodeScreen } from './screens/code.js';
import { StatsScreen } from './screens/stats.js';
import { ReplayScreen } from './screens/replay.js';
import { KlotskiEditorScreen } from './screens/klotski-editor.js';
import { GroupScreen } from './screens/group.js';

export const app = {
  settings: {},
  progress: {},
  screen: null,
  screenName: '',
  root: null,
  navChain: Promise.resolve(),
  /** The open confirmation dialog, if any (boards take no input meanwhile). */
  modal: null,
  /** Today's daily puzzles from Rust (`daily_info`): `date` is the one notion of "today". */
  daily: null,

  async refreshProgress() {
    try {
      this.progress = (await call('get_progress')) || {};
    } catch (_) {
      /* keep the last copy */
    }
    return this.progress;
  },

  async saveSettings(patch) {
    const next = { ...this.settings, ...patch };
    try {
      this.settings = (await call('set_settings', { settings: next })) || next;
    } catch (e) {
      this.error(e);
      return;
    }
    this.applySettings();
  },

  applySettings() {
    const s = this.settings || {};
    setLanguage(s.language);
    // "system" follows the system's preference (the listener in start() re-applies on change).
    const systemDark = !!(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
    const dark = s.theme === 'dark' || (s.theme !== 'light' && systemDark);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    applySystemBars(dark ? 'dark' : 'light'); // Android: status-bar icons follow the app's theme
    configureFeedback(s);
  },

  /**
   * Show a screen: `home`, `game:<kind>`, `levels:<kind>`, `settings`, `code` — a new history
   * entry (home unwinds to the first one). `opts.replace`: take the current screen's entry.
   * Navigations run one at a time, in order.
   */
  go(name, opts = {}) {
    const run = this.navChain.then(() => this.show(name, opts, true));
    this.navChain = run.catch(() => null);
    return run;
  },

  /** Back one step: close the open dialog, or go to the screen this one was opened from. */
  back() {
    return nav.back();
  },

  async show(name, opts, forward) {
    const [base, arg] = name.split(':');
    let screen;
    if (base === 'game' && KINDS.includes(arg)) screen = new GameScreen(this, arg, opts);
    else if (base === 'levels' && KINDS.includes(arg)) screen = new LevelsScreen(this, arg);
    else if (base === 'settings') screen = new SettingsScreen(this);
    else if (base === 'code') screen = new CodeScreen(this);
    else if (base === 'records') screen = new StatsScreen(this, opts);
    else if (base === 'replay') screen = new ReplayScreen(this, opts);
    else if (base === 'klotski-editor' && KINDS.includes('klotski')) screen = new KlotskiEditorScreen(this);
    else if (base === 'group' && /^[0-9a-f]{12}$/.test(arg || '')) screen = new GroupScreen(this, arg, opts);
    else screen = new HomeScreen(this);
    const prepared = await screen.prepare();
    if (prepared === false && screen.name !== 'home') return this.show('home', {}, forward);
    if (this.screen) this.screen.destroy();
    this.screen = screen;
    this.screenName = screen.name;
    clear(this.root);
    this.root.dataset.screen = screen.name.split(':')[0];
    this.root.append(screen.render());
    if (screen.mounted) screen.mounted();
    const focusTarget = this.root.querySelector('[data-autofocus]') || this.root.querySelector('h1');
    if (focusTarget) focusTarget.focus({ preventScroll: true });
    call('set_screen', { screen: screen.name }).catch(() => {});
    if (forward) await nav.shown(screen.name, !!opts.replace);
    return screen;
  },

  /** A dialog opened on the current screen (one history entry; back closes it). */
  openDialog(dialog) {
    nav.openDialog(dialog);
  },

  closeDialog(dialog) {
    return nav.closeDialog(dialog);
  },

  /** Re-render the current screen in place (after a language change). */
  rerender() {
    if (!this.screen) return;
    clear(this.root);
    this.root.append(this.screen.render());
    if (this.screen.mounted) this.screen.mounted();
  },

  /** Open a game ID / share code and show its game screen (`opts.replace`: instead of this screen). */
  async openCode(code, opts = {}) {
    const view = await this.confirmed('open_game', { id: code });
    if (!view) return null;
    const kind = view && view.snapshot && view.snapshot.kind;
    const shown = await this.go(`game:${kind}`, { ...opts, view });
    // An invite or board code opens its puzzle (`open_game`) and keeps its group; `group_open`
    // says whether it was one (else `bad_code`), and then the group's screen takes the game's
    // place. Asked after the game shows, so an ordinary link opens as fast as before.
    if (!view.snapshot.challenge) this.groupOf(code, shown);
    return shown;
  },

  async groupOf(code, shown) {
    let g = null;
    try {
      g = await call('group_open', { code });
    } catch (_) {
      return;
    }
    if (g && g.group && this.screen === shown) await this.go(`group:${g.group}`, { replace: true, view: g });
  },

  /**
   * `new_game` / `open_game` that asks first when it would replace an unfinished game with
   * moves (`would_replace`): on confirm it is called again with `replace: true`. Resolves to
   * the View, or null when the player kept the old game.
   */
  async confirmed(cmd, args) {
    try {
      return await call(cmd, args);
    } catch (e) {
      if (e.code !== 'would_replace') throw e;
      // Rust's message names the game and its moves (in English); Chinese gets the general words.
      const text = language() === 'en' ? e.message : t('replace.ask');
      const ok = await confirmDialog(this, { title: t('replace.title'), text, confirm: t('replace.confirm') });
      if (!ok) return null;
      return call(cmd, { ...args, replace: true });
    }
  },

  /** Today's date and daily puzzles, as Rust decides them (cached for the screen's life). */
  async today() {
    this.daily = await call('daily_info').catch(() => this.daily);
    return this.daily;
  },

  error(e) {
    const err = e instanceof AppError ? e : new AppError(e && e.code, e && e.message);
    const key = `err.${err.code}`;
    const text = t(key, { message: err.message });
    toast(text === key ? t('err.generic', { message: err.message }) : text);
  },
};

function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target && e.target.tagName) || '';
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
  if (app.modal) {
    if (app.modal.onKey(e)) e.preventDefault();
    return;
  }
  if (app.screen && app.screen.onKey && app.screen.onKey(e)) e.preventDefault();
}

function noMenus(e) {
  // No long-press / right-click menu inside the app, except in text fields.
  const tag = (e.target && e.target.tagName) || '';
  if (tag !== 'INPUT' && tag !== 'TEXTAREA') e.preventDefault();
}

/** Uncaught errors, kept for the E2E tests (a script error is a bug, never the player's). */
const errors = [];
window.__huarongErrors = errors;
window.addEventListener('error', (e) => errors.length < 50 && errors.push(String(e.message || e.error)));
window.addEventListener('unhandledrejection', (e) => errors.length < 50 && errors.push(String((e.reason && (e.reason.stack || e.reason.message)) || e.reason)));

/** Start-up milestones (ms since navigation start), read by the E2E figures. */
const boot = { modules: performance.now() };
window.__huarongBoot = boot;
window.__huarongI18n = { missing: missingKeys() };

/** The newest notice (a restored save, a link that could not be opened) as a toast. */
function showNotices(p) {
  const notices = Array.isArray(p.notices) ? p.notices : [];
  if (!notices.length) return;
  const n = notices[notices.length - 1];
  const code = typeof n === 'string' ? n : n && n.code;
  toast(code === 'restored' ? t('restored') : String((n && n.message) || n), 6000);
  call('dismiss_notices').catch(() => {});
}

/** Show the screen the saved progress names (home if it cannot be shown), then its notices. */
async function showSaved(p) {
  const last = p.last_screen || p.lastScreen || p.screen;
  const target = typeof last === 'string' && last ? last : 'home';
  let shown = null;
  try {
    shown = await app.go(target, { resume: true });
  } catch (_) {
    shown = null;
  }
  if (!shown) await app.go('home');
  showNotices(p);
  return shown;
}

async function reopen() {
  await showSaved((await app.refreshProgress()) || {});
}

/**
 * The web page only: a shared link `<page>?c=<code>` names the puzzle to open. Read once at
 * start and taken out of the address (history keeps the screens, not the link), so a reload
 * resumes the game instead of opening the link again. The app reads its links in Rust.
 */
function linkedCode() {
  if (!isWeb()) return null;
  const url = new URL(location.href);
  const code = url.searchParams.get('c');
  if (!code) return null;
  url.searchParams.delete('c');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  return code.slice(0, 4096);
}

/** Open a linked code (the friend's puzzle, with its challenge), else the saved screen. */
async function openLinked(code) {
  try {
    const shown = await app.openCode(code);
    if (shown) return shown;
  } catch (e) {
    app.error(e);
  }
  return showSaved(app.progress || {});
}

async function start() {
  const t0 = performance.now();
  const code = linkedCode();
  app.root = document.getElementById('app');
  nav.init((name) => {
    const run = app.navChain.then(() => app.show(name, { resume: true }, false));
    app.navChain = run.catch(() => null);
    return run;
  });
  document.addEventListener('keydown', onKey);
  document.addEventListener('contextmenu', noMenus);
  document.addEventListener('gesturestart', (e) => e.preventDefault());
  document.addEventListener('dblclick', (e) => e.preventDefault());
  if (!available()) {
    setLanguage('system');
    clear(app.root); // the first paint's shell (index.html)
    app.root.append(h('p', { class: 'fatal', role: 'alert' }, 'Huarong needs its Tauri back end, or a browser with Web Workers, WebAssembly and IndexedDB.'));
    return;
  }
  // Settings and progress are independent: ask for both at once. The first screen also waits
  // for the board stylesheets (no board is ever drawn unstyled), and on the web page for the
  // stylesheet its boot added after the first paint (web/src/boot.js).
  const [settings, , unstyled, webStyles] = await Promise.all([call('get_settings').catch(() => ({})), app.refreshProgress(), boardStyles(), window.__huarongStyles || null]);
  for (const e of unstyled.concat(webStyles || [])) errors.length < 50 && errors.push(String(e.message));
  app.settings = settings || {};
  app.applySettings();
  boot.settings = performance.now();
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => app.applySettings());
  boot.progress = performance.now();
  if (code) await openLinked(code);
  else await showSaved(app.progress || {});
  // A deep link that arrives while the app runs: Rust has opened its game (or noted why not)
  // and says so with this event; show what the saved state now says.
  window.addEventListener('huarong-opened', reopen);
  // The web page only: a newer tab took the game over (one core writes the browser's storage).
  window.addEventListener('huarong-elsewhere', () => toast(t('elsewhere'), 10000));
  // Stop the game clocks and park background searches while the window is hidden (the next
  // move starts the clock again); visible again, the screen's game goes on where it stopped.
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) call('pause', {}).catch(() => {});
    else if (app.screenName) call('set_screen', { screen: app.screenName }).catch(() => {});
  });
  boot.ready = performance.now();
  document.body.dataset.ready = '1';
  setTimeout(warmSounds, 1500);
  window.__huarongReadyMs = performance.now() - t0;
  window.__huarongReadyAt = performance.now();
}

start();
