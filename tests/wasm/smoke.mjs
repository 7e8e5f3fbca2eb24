// Smoke test of the engine built for wasm32-unknown-unknown (crates/web), run by `./dev.sh test`
// as `node --test tests/wasm/`. It loads the `wasm-bindgen --target nodejs` output from
// target/wasm-node (HUARONG_WASM_NODE overrides) and checks, with a fake clock injected
// through the global `huarongNow` the engine reads for every deadline:
// - a 4×4 hint within its budget, the deadline honoured through the injected clock;
// - a 2048 hint that is a legal move;
// - a Klotski solve of 横刀立马 of the optimal length (81 under the piece rule);
// - the app core: a game played to a win through the command table (`Core.dispatch`), its
//   record kept across a reload from the durable files, and bad input a typed error;
// - the tests' stand-in game played the same way (this wasm is a test build:
//   `--features huarong-web/stand-in`; the web page's never has it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.env.HUARONG_WASM_NODE || path.join(here, '..', '..', 'target', 'wasm-node');
const web = createRequire(import.meta.url)(path.join(dir, 'huarong_web.js'));

/** A clock that reads `step` ms later at every look, and counts the looks. */
function fakeClock(step) {
  const clock = { now: 0, reads: 0 };
  globalThis.huarongNow = () => {
    clock.reads += 1;
    clock.now += step;
    return clock.now;
  };
  return clock;
}

/**
 * Plays number-slide taps ({tile}: that tile and every tile between it and the blank slide
 * toward the blank) on a board `w` wide (0 = blank); fails on an illegal tap. Returns the
 * board and the tile moves made.
 */
function playSlide(w, tiles, taps) {
  const b = tiles.slice();
  let steps = 0;
  for (const { tile } of taps) {
    const at = b.indexOf(tile);
    const blank = b.indexOf(0);
    const [r, c, br, bc] = [Math.floor(at / w), at % w, Math.floor(blank / w), blank % w];
    assert.ok(tile > 0 && (r === br || c === bc), `tap ${tile} is not in the blank's line`);
    const step = r === br ? Math.sign(c - bc) : Math.sign(r - br) * w;
    for (let i = blank; i !== at; i += step) {
      b[i] = b[i + step];
      steps += 1;
    }
    b[at] = 0;
  }
  return { board: b, steps };
}

const ISSUE_80 = [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1];
const SOLVED = [...Array(15).keys()].map((i) => i + 1).concat([0]);

test('a 4x4 hint within its budget: the deadline is read on the injected clock', () => {
  // The 80-move board's proof needs minutes; at 1 ms per look the 200 ms budget (less its
  // 15 ms margin) is spent after about 185 looks, however fast the machine is.
  const clock = fakeClock(1);
  const hint = JSON.parse(web.slideHint(`4x4:${ISSUE_80.join(',')}`, 200));
  assert.equal(hint.optimal, false);
  assert.ok(clock.reads >= 150 && clock.reads <= 215, `${clock.reads} looks at the clock`);
  const end = playSlide(4, ISSUE_80, [hint.mv, ...hint.line]);
  assert.deepEqual(end.board, SOLVED, 'the hint starts a solution');
  assert.ok(end.steps >= 80, `${end.steps} tile moves: the optimum is 80`);
  // A clock that advances 10 ms a look ends the same budget after a tenth of the looks.
  const coarse = fakeClock(10);
  const quick = JSON.parse(web.slideHint(`4x4:${ISSUE_80.join(',')}`, 200));
  assert.ok(coarse.reads >= 15 && coarse.reads <= 25, `${coarse.reads} looks`);
  assert.deepEqual(playSlide(4, ISSUE_80, [quick.mv, ...quick.line]).board, SOLVED);
  // Bad input is a thrown error with the engine's code.
  assert.throws(() => web.slideHint('4x4:1,2', 200), /^Error: parse: /);
});

/** Whether sliding `dir` changes a 4×4 2048 board (row-major values, 0 = empty). */
function moves(cells, dir) {
  const line = (k, i) => {
    switch (dir) {
      case 'left': return cells[k * 4 + i];
      case 'right': return cells[k * 4 + 3 - i];
      case 'up': return cells[i * 4 + k];
      default: return cells[(3 - i) * 4 + k];
    }
  };
  for (let k = 0; k < 4; k++) {
    for (let i = 0; i < 3; i++) {
      const [a, b] = [line(k, i), line(k, i + 1)];
      if ((a === 0 && b !== 0) || (a !== 0 && a === b)) return true;
    }
  }
  return false;
}

test('a 2048 hint is a legal move', () => {
  const boards = [
    [2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [2, 4, 8, 16, 4, 8, 16, 32, 8, 16, 32, 64, 16, 32, 64, 64],
    [1024, 512, 256, 128, 2, 4, 8, 16, 0, 0, 2, 0, 0, 0, 0, 4],
  ];
  for (const cells of boards) {
    const clock = fakeClock(1);
    const hint = JSON.parse(web.g2048Hint(cells.join(','), 100));
    assert.ok(['left', 'right', 'up', 'down'].includes(hint.mv.dir), JSON.stringify(hint));
    assert.ok(moves(cells, hint.mv.dir), `${hint.mv.dir} does not move ${cells}`);
    for (const [dir] of hint.values) assert.ok(moves(cells, dir), `${dir} has a value`);
    assert.ok(clock.reads >= 1 && clock.reads <= 110, `${clock.reads} looks`);
  }
  assert.throws(() => web.g2048Hint('2,2,2', 100), /^Error: parse: /);
});

test('Klotski: 横刀立马 is solved in 81 moves under the piece rule', () => {
  const sol = JSON.parse(web.klotskiSolve('aCCb/aCCb/cdde/cste/u..v', 'piece'));
  assert.equal(sol.moves, 81);
  assert.equal(sol.line.length, 81);
  assert.ok(sol.line.every((m) => typeof m.piece === 'string' && Array.isArray(m.to)));
  assert.throws(() => web.klotskiSolve('aCCb/aCCb/cdde/cste/u..v', 'diagonal'), /^Error: parse: /);
});

test('the app core plays a game to a win through the command table and keeps it across a reload', () => {
  fakeClock(1);
  globalThis.huarongWallMs = () => Date.UTC(2026, 11, 1, 20);
  globalThis.huarongUtcOffset = () => 480; // China: already 2 December
  globalThis.huarongRandom = () => 0.5;
  const call = (core, name, args) => {
    const out = JSON.parse(core.dispatch(name, JSON.stringify(args)));
    assert.ok('ok' in out, `${name}(${JSON.stringify(args)}): ${JSON.stringify(out)}`);
    return out.ok;
  };
  const core = new web.Core('{}');
  // 4x4, three tile moves from solved; the hint line is followed through `play` to the win.
  let view = call(core, 'open_game', { id: 'slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,0,14,15' });
  assert.equal(view.snapshot.status, 'playing');
  for (let i = 0; i < 10 && view.snapshot.status === 'playing'; i++) {
    const hint = call(core, 'hint', { kind: 'slide' });
    assert.equal(hint.pending, false, 'no background proof without threads');
    view = call(core, 'play', { kind: 'slide', mv: hint.mv });
  }
  assert.equal(view.snapshot.status, 'won');
  assert.equal(view.finish.moves, 2);
  const bad = JSON.parse(core.dispatch('play', JSON.stringify({ kind: 'chess' })));
  assert.equal(bad.error.code, 'bad_argument');
  const unknown = JSON.parse(core.dispatch('no_such_command', '{}'));
  assert.equal(unknown.error.code, 'bad_argument');
  // A reload: a new core on the files the page kept has the record and the finished game.
  const again = new web.Core(core.files());
  const progress = call(again, 'get_progress', {});
  assert.equal(progress.today, '2026-12-02');
  // An exact board (not dealt by the app) has a record scope of its own (issue 35).
  const own = Object.keys(progress.records).find((k) => k.startsWith('slide:4x4/board:') && k.endsWith('/tile'));
  assert.ok(own, JSON.stringify(progress.records));
  // Won along hints: a win, and no best (an assisted finish sets no record).
  assert.equal(progress.records[own].wins, 1);
  assert.equal(progress.records[own].best_moves, null);
  assert.equal(progress.records['slide:4x4/tile'], undefined);
  assert.equal(progress.games.slide.status, 'won');
  const daily = call(again, 'daily_info', {});
  assert.equal(daily.date, '2026-12-02');
});


test("the tests' stand-in game (Lights Out) is played through the wasm core's command table", () => {
  fakeClock(1);
  globalThis.huarongWallMs = () => Date.UTC(2026, 11, 1, 20);
  globalThis.huarongUtcOffset = () => 480;
  globalThis.huarongRandom = () => 0.25;
  const core = new web.Core('{}');
  const out = (name, args) => JSON.parse(core.dispatch(name, JSON.stringify(args)));
  const levels = out('levels', { kind: 'lights' });
  assert.ok('ok' in levels, `no stand-in in this wasm (dev.sh builds it with --features huarong-web/stand-in): ${JSON.stringify(levels)}`);
  let view = out('new_game', { kind: 'lights', params: '7', seed: 5 }).ok;
  assert.equal(view.snapshot.view.lights.length, 7);
  for (let i = 0; i < 16 && view.snapshot.status === 'playing'; i++) {
    const hint = out('hint', { kind: 'lights' }).ok;
    assert.equal(hint.optimal, true);
    view = out('play', { kind: 'lights', mv: hint.mv }).ok;
  }
  assert.equal(view.snapshot.status, 'won');
  assert.equal(view.finish.key, 'lights:7/moves');
  assert.ok(view.snapshot.view.lights.every((on) => !on));
});
