// The one registry of games in the UI. Each board module exports `game`, a descriptor that owns
// everything game-specific (its board, input, counters, finish rows, new game, level list, record
// scope, home thumbnail), `strings` (its own zh and en strings) and `stylesheet` (its file under
// css/, the thumbnail's style too). Screens only ever ask this registry. Adding a game: one module
// under boards/ (with its strings file and stylesheet) and one line here.
//
// The tests' stand-in game (Lights Out, `boards/lights.js`) is no line here: the page loads it
// with `?test-game=lights`, and only when the core has that game (a test build of the engine).

import { addStrings } from '../i18n.js';
import { call } from '../ipc.js';
import * as slide from './slide.js';
import * as klotski from './klotski.js';
import * as g2048 from './g2048.js';

const MODULES = [slide, klotski, g2048];

/** What a descriptor leaves out: no params, an auto-solve button, moves / time / best. */
const DEFAULTS = {
  defaultParams: '',
  solveLabel: 'solve',
  stats: [['moves', 'moves'], ['time', 'time'], ['best', 'best']],
};

const GAMES = [];

/** The kinds of the registered games, in order (a test game joins before the first screen). */
export const KINDS = [];

/** The descriptor of a kind (throws for an unknown kind: a bug, never player input). */
export function gameOf(kind) {
  const g = GAMES.find((x) => x.kind === kind);
  if (!g) throw new Error(`unknown game ${kind}`);
  return g;
}

/** What each game must bring: the strings the screens ask for by kind, and a stylesheet. */
function checked(m) {
  const kind = m.game.kind;
  const keys = [`game.${kind}`, `gameShort.${kind}`, `gameDesc.${kind}`, `levels.${kind}`].concat(m.game.rules ? [`rule.${kind}`] : []);
  for (const lang of ['zh', 'en']) {
    const missing = keys.filter((k) => !(m.strings && m.strings[lang] && k in m.strings[lang]));
    if (missing.length) throw new Error(`game ${kind}: no ${lang} strings ${missing.join(', ')}`);
  }
  if (typeof m.stylesheet !== 'string' || !m.stylesheet.startsWith('css/')) throw new Error(`game ${kind}: no stylesheet under css/`);
  return m;
}

/** Adds a board module to the registry: its strings now, its stylesheet (a promise). */
function register(m) {
  addStrings(checked(m).strings);
  GAMES.push({ ...DEFAULTS, ...m.game });
  KINDS.push(m.game.kind);
  return addStylesheet(m.stylesheet);
}

/**
 * One board stylesheet: a `<link>` put where index.html keeps the board styles (before the
 * layout rules that override them). Resolves when it has loaded, or with the error when not.
 */
function addStylesheet(href) {
  // The web build's one stylesheet (web/build.mjs) already has every board's.
  if (document.querySelector('link[rel="stylesheet"][data-bundle]')) return Promise.resolve(null);
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.addEventListener('load', () => resolve(null), { once: true });
    link.addEventListener('error', () => resolve(new Error(`stylesheet ${href} did not load`)), { once: true });
    const marker = document.querySelector('meta[name="board-styles"]');
    if (marker) marker.before(link);
    else document.head.append(link);
  });
}

/**
 * A stand-in game of the tests: `?test-game=<kind>` loads `boards/<kind>.js` when the core has
 * that game (`levels` answers for it: the engine's `stand-in` feature, which no shipped build
 * has). Anywhere else the flag does nothing. Resolves to its stylesheet's error, or null.
 */
async function testGame() {
  const kind = new URLSearchParams(window.location.search).get('test-game');
  if (!kind || !/^[a-z]+$/.test(kind) || KINDS.includes(kind)) return null;
  try {
    await call('levels', { kind });
  } catch (_) {
    return null; // not a game of this core
  }
  try {
    return await register(await import(`./${kind}.js`));
  } catch (e) {
    return e;
  }
}

// Asked for as soon as this module runs, so they load while start-up talks to Rust.
const styles = Promise.all([...MODULES.map(register), testGame()]);

/**
 * Resolves, once every board stylesheet has loaded or failed (and a test game has joined), to
 * the failures (errors). The first screen waits for it.
 */
export async function boardStyles() {
  return (await styles).filter(Boolean);
}
