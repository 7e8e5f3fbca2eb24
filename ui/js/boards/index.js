// The one registry of games in the UI. Each board module exports `game`, a descriptor that owns
// everything game-specific (its board, input, counters, finish rows, new game, level list, home
// thumbnail), `strings` (its own zh and en strings) and `stylesheet` (its file under css/).
// Screens only ever ask this registry. Adding a game: one module under boards/ (with its
// strings file and stylesheet) and one line here.

import { addStrings } from '../i18n.js';
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

const GAMES = MODULES.map((m) => ({ ...DEFAULTS, ...m.game }));

export const KINDS = GAMES.map((g) => g.kind);

/** The descriptor of a kind (throws for an unknown kind: a bug, never player input). */
export function gameOf(kind) {
  const g = GAMES.find((x) => x.kind === kind);
  if (!g) throw new Error(`unknown game ${kind}`);
  return g;
}

/** What each game must bring: the strings the screens ask for by kind, and a stylesheet. */
function checked(m) {
  const kind = m.game.kind;
  const keys = [`game.${kind}`, `gameDesc.${kind}`, `levels.${kind}`].concat(m.game.rules ? [`rule.${kind}`] : []);
  for (const lang of ['zh', 'en']) {
    const missing = keys.filter((k) => !(m.strings && m.strings[lang] && k in m.strings[lang]));
    if (missing.length) throw new Error(`game ${kind}: no ${lang} strings ${missing.join(', ')}`);
  }
  if (typeof m.stylesheet !== 'string' || !m.stylesheet.startsWith('css/')) throw new Error(`game ${kind}: no stylesheet under css/`);
  return m;
}

for (const m of MODULES) addStrings(checked(m).strings);

/**
 * One board stylesheet: a `<link>` put where index.html keeps the board styles (before the
 * layout rules that override them). Resolves when it has loaded, or with the error when not.
 */
function addStylesheet(href) {
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

// Asked for as soon as this module runs, so they load while start-up talks to Rust.
const styles = Promise.all(MODULES.map((m) => addStylesheet(m.stylesheet)));

/** Resolves, once every board stylesheet has loaded or failed, to the failures (errors). */
export async function boardStyles() {
  return (await styles).filter(Boolean);
}
