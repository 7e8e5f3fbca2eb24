// The one registry of games in the UI: each game's board module exports `game`, a descriptor
// that owns everything game-specific (its board, input, counters, finish rows, new game,
// level list, home thumbnail). Screens only ever ask this registry. Adding a game: one
// module under boards/ and one line here.

import { game as slide } from './slide.js';
import { game as klotski } from './klotski.js';
import { game as g2048 } from './g2048.js';

const GAMES = [slide, klotski, g2048];

export const KINDS = GAMES.map((g) => g.kind);

/** The descriptor of a kind (throws for an unknown kind: a bug, never player input). */
export function gameOf(kind) {
  const g = GAMES.find((x) => x.kind === kind);
  if (!g) throw new Error(`unknown game ${kind}`);
  return g;
}
