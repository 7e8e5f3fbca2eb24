// The speedsolver's number slide on the web page. Run by tests/tests/web_chromium.rs
// (`web_speedsolving_runs_and_the_trail`) on a built web/dist, Debian's chromium, a 390×844
// touch phone, loopback only; the cases (HUARONG_SPEED_CASES) are made by the app core and the
// engine's solver:
// 1. a marathon of 5 3×3 solves (seeded, started through the page's own `new_game`, then the
//    page reloaded: the run comes back from IndexedDB), every solve played by taps on the
//    tiles; the run's bar says solve i of 5 and grows a split per solve; the finish lists 5
//    splits that add up to its time, and `records` holds the run under slide:3x3/marathon:5;
// 2. a relay from 3×3 started from the level screen's relay chip, each solve played by taps on
//    the tiles the hint names; the finish has the 3×3 and the 2×2 splits and slide/relay:3 its
//    record;
// 3. one finger drawn through three tiles moves each in turn (three moves, solved), with the
//    control setting at `both`; with `tap` the same gesture moves nothing.
// Screenshots: tests/e2e/screenshots/web-speed-{levels,marathon-play,marathon-finish,
// relay-finish,trail}.png. Waits are on conditions, never fixed sleeps.

import path from 'node:path';
import { suite, phone, until, call, tap, boardShown, board, check, EXIT_FAIL, humanStep } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const CASES = JSON.parse(process.env.HUARONG_SPEED_CASES || 'null');
if (!SHOTS || !CASES) {
  console.error('speed.mjs: HUARONG_SHOTS and HUARONG_SPEED_CASES must be set (cargo test -p huarong-tests --test web_chromium speed)');
  process.exit(EXIT_FAIL);
}

/** A screenshot once nothing moves (a dialog at rest, not fading in). */
async function shot(page, name) {
  await until(page, `${name} at rest`, () => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: path.join(SHOTS, `web-speed-${name}.png`) });
}
const runBar = (page) =>
  page.evaluate(() => {
    const b = document.querySelector('.slide-run');
    return b && !b.hidden ? { ...b.dataset, text: b.innerText } : null;
  });

/** Tap tile `n` and wait for Rust's answer (the move count grows, or the board changes). */
async function tapTile(page, n) {
  const before = await board(page);
  await tap(page, `[data-tile='${n}']`);
  await until(
    page,
    `the answer to tile ${n}`,
    (b) => {
      const el = document.querySelector('[data-game][data-state]');
      return el && (el.dataset.moves !== String(b.moves) || el.dataset.state !== b.state || el.dataset.id !== b.id);
    },
    { ...before, id: await page.evaluate(() => document.querySelector('[data-game]').dataset.id) },
  );
}

/** Finger down at a, through every point of `path`, lifted at the last (CDP touches, a frame each). */
async function trail(page, cdp, pts) {
  await humanStep(page);
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  const touch = (type, list) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: list.map((q) => ({ x: q.x, y: q.y, id: 0, radiusX: 4, radiusY: 4, force: 1 })) });
  await touch('touchStart', [pts[0]]);
  await frame();
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1];
    const b = pts[i];
    for (let k = 1; k <= 4; k++) {
      await touch('touchMove', [{ x: a.x + ((b.x - a.x) * k) / 4, y: a.y + ((b.y - a.y) * k) / 4 }]);
      await frame();
    }
  }
  await touch('touchEnd', []);
  await frame();
}

/** The page centre of cell `i` of the shown board. */
function cellCentre(page, i) {
  return page.evaluate((k) => {
    const grid = document.querySelector('.slide-grid');
    const cols = Number(document.querySelector('.slide-frame').dataset.cols);
    const r = grid.getBoundingClientRect();
    const cell = r.width / cols;
    return { x: r.left + (k % cols) * cell + cell / 2, y: r.top + Math.floor(k / cols) * cell + cell / 2 };
  }, i);
}

await suite('speed.mjs', 240, async ({ origin, browser }) => {
  const ctx = await phone(browser);
  const page = await ctx.newPage();
  await page.goto(`${origin}/`);
  await until(page, 'ready', () => document.body.dataset.ready === '1');

  // 1. The marathon, seeded through the page's core, then the page reloaded onto it.
  const m = CASES.marathon;
  const started = await call(page, 'new_game', { kind: 'slide', params: '3x3', mode: 'marathon:5', seed: m.seed });
  check(started.ok && started.ok.snapshot.run, `new_game marathon: ${JSON.stringify(started.error)}`);
  check(started.ok.snapshot.id === m.solves[0].id, `the run's first puzzle is the engine's (${started.ok.snapshot.id})`);
  await page.goto(`${origin}/`);
  await boardShown(page, m.solves[0].board);
  let bar = await runBar(page);
  check(bar && bar.run === 'marathon:5' && bar.solve === '1' && bar.of === '5' && bar.splits === '0', `the run's bar at the start: ${JSON.stringify(bar)}`);
  for (let i = 0; i < 5; i++) {
    const solve = m.solves[i];
    await boardShown(page, solve.board);
    for (const t of solve.taps) await tapTile(page, t);
    if (i < 4) {
      await until(page, `solve ${i + 2} shown`, (s) => document.querySelector('[data-game]').dataset.state === s, m.solves[i + 1].board);
      bar = await runBar(page);
      check(bar && bar.splits === String(i + 1) && bar.solve === String(i + 2), `the bar after solve ${i + 1}: ${JSON.stringify(bar)}`);
      check((await board(page)).status === 'playing', 'the run goes on between solves');
      if (i === 2) await shot(page, 'marathon-play');
    }
  }
  await until(page, 'the marathon finish', () => !!document.querySelector('[data-finish="won"] [data-splits]'));
  const fin = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('[data-finish] .split-list li')].map((li) => Number(li.dataset.ms));
    const time = document.querySelector('[data-finish] [data-fin="time"]');
    return { rows, title: document.querySelector('#finish-title').innerText, tps: !!document.querySelector('[data-fin="tps"]'), time: time && time.innerText };
  });
  check(fin.rows.length === 5, `5 splits in the finish: ${JSON.stringify(fin)}`);
  const actions = await page.evaluate(() => [...document.querySelectorAll('[data-finish] .fin-actions button')].map((b) => b.dataset.action));
  check(JSON.stringify(actions) === '["new-run"]', `a run's finish has one action, another run: ${actions}`);
  check(fin.tps, 'the finish shows TPS');
  const rec = await call(page, 'records', { scope: 'slide:3x3/marathon:5' });
  check(rec.ok && rec.ok.wins === 1 && rec.ok.plays === 1, `the marathon's record: ${JSON.stringify(rec)}`);
  const row = rec.ok.history[rec.ok.history.length - 1];
  check(row.splits.length === 5 && JSON.stringify(row.splits) === JSON.stringify(fin.rows), `the record keeps the splits shown: ${JSON.stringify(row.splits)} vs ${JSON.stringify(fin.rows)}`);
  check(row.ms === fin.rows.reduce((a, b) => a + b, 0), 'one timer: the splits add up to the run');
  check(row.moves === m.moves, `the run's moves: ${row.moves}, expected ${m.moves}`);
  check(rec.ok.best_ms === row.ms, 'a clean run sets the best time');
  await shot(page, 'marathon-finish');
  console.log(`speed: a marathon of 5 3×3 solves by taps, splits ${fin.rows.join(', ')} ms, ${row.moves} moves`);

  // 2. A relay from 3×3, from the level screen; each solve by taps on the hinted tile.
  await page.goto(`${origin}/`);
  await until(page, 'ready', () => document.body.dataset.ready === '1');
  await call(page, 'set_screen', { screen: 'levels:slide' });
  await page.goto(`${origin}/`);
  await until(page, 'the level screen', () => !!document.querySelector('[data-modes="slide"] [data-mode="relay:3"]'));
  // The modes sit below the sizes: scrolled into view as a thumb would.
  await page.evaluate(() => document.querySelector('[data-modes="slide"]').scrollIntoView({ block: 'center' }));
  await until(page, 'the modes in view', () => {
    const r = document.querySelector('[data-mode="relay:3"]').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  });
  await shot(page, 'levels');
  await tap(page, '[data-mode="relay:3"]');
  await until(page, 'the relay started', () => {
    const el = document.querySelector('[data-game][data-state]');
    return el && el.dataset.slot === 'slide:relay:3' && el.dataset.state.startsWith('3x3:');
  });
  let guard = 0;
  while ((await board(page)).status === 'playing') {
    check(guard++ < 60, 'the relay ends within 60 taps');
    const hint = await call(page, 'hint', { kind: 'slide' });
    check(hint.ok && hint.ok.mv, `a hint: ${JSON.stringify(hint)}`);
    await tapTile(page, hint.ok.mv.tile);
  }
  await until(page, 'the relay finish', () => !!document.querySelector('[data-finish="won"] [data-splits="2"]'));
  const sizes = await page.evaluate(() => [...document.querySelectorAll('[data-finish] .split-list .split-size')].map((e) => e.innerText));
  check(JSON.stringify(sizes) === JSON.stringify(['3×3', '2×2']), `the relay's splits: ${sizes}`);
  const relay = await call(page, 'records', { scope: 'slide/relay:3' });
  check(relay.ok && relay.ok.wins === 1 && relay.ok.history[0].splits.length === 2, `the relay's record: ${JSON.stringify(relay)}`);
  await shot(page, 'relay-finish');
  console.log('speed: a relay from 3×3 by taps, its 2 splits and record');

  // 3. The trail: one finger through 4, 7 and 8 (the blank beside 4) moves all three.
  const t = CASES.trail;
  const code = await call(page, 'encode_code', { id: `slide:${t.board}` });
  check(code.ok, `encode_code: ${JSON.stringify(code.error)}`);
  await page.goto(`${origin}/?c=${code.ok.code}`);
  await boardShown(page, t.board);
  const cdp = await ctx.newCDPSession(page);
  const pts = [];
  for (const c of t.cells) pts.push(await cellCentre(page, c));
  // With `tap`, the same gesture is no tap and no run-drag: nothing moves.
  await call(page, 'set_settings', { settings: { slide_control: 'tap' } });
  await page.reload();
  await boardShown(page, t.board);
  await trail(page, cdp, pts);
  await until(page, 'the tiles settle back', () => !document.querySelector('.tile.dragging'));
  let b = await board(page);
  check(b.state === t.board && b.moves === 0, `with tap control a trail moves nothing: ${JSON.stringify(b)}`);
  // With `both` (the default) and with `trail` (where the tile the finger lands on is
  // reached at once), the gesture moves 4, 7 and 8, one move each, and solves the board.
  for (const control of ['both', 'trail']) {
    await call(page, 'set_settings', { settings: { slide_control: control } });
    await page.goto(`${origin}/?c=${code.ok.code}`);
    await boardShown(page, t.board);
    await trail(page, cdp, pts);
    await until(page, `three tiles moved by one gesture (${control})`, (s) => {
      const el = document.querySelector('[data-game]');
      return el.dataset.state === s && el.dataset.moves === '3';
    }, t.solved);
    b = await board(page);
    check(b.status === 'won', `the trail solved it (${control}): ${JSON.stringify(b)}`);
    await until(page, 'the finish', () => !!document.querySelector('[data-finish="won"]'));
    if (control === 'both') await shot(page, 'trail');
    // An exact board from a code keeps a scope of its own: the finish's.
    const finished = await call(page, 'finish', { kind: 'slide' });
    check(finished.ok && finished.ok.key, `the finish: ${JSON.stringify(finished)}`);
    const hist = await call(page, 'records', { scope: finished.ok.key.slice(0, finished.ok.key.lastIndexOf('/')) });
    const last = hist.ok.history[hist.ok.history.length - 1];
    check(last.moves === 3, `the journal had each of the trail's moves (${control}): ${JSON.stringify(last)}`);
  }
  const errors = await page.evaluate(() => window.__probe.errors.concat(window.__probe.csp));
  check(errors.length === 0, `page errors: ${errors.join('; ')}`);
  console.log('speed: a trail through three tiles moved them in one gesture (3 moves) with both and trail controls; with tap control it moved none');
  await ctx.close();
});
