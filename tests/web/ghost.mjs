// Racing a friend's ghost on the web page, in Debian's chromium with touch.
//
// 1. The sender (390×844, English) plays a 3×3 by taps a player's pause apart (the test
//    clock: 300–450 ms) and shares it (`result_code`): the code keeps every move's time
//    (`times: "moves"`), and its `decode_code.times_ms` are the times the game recorded
//    (`splits.times_ms`, from the first move) within 10 ms.
// 2. The friend opens that code in a fresh browser context: `[data-ghost]` is there and idle
//    (`data-ghost-state="idle"`, `data-ghost-moves="0"`) until their first move, and stays so
//    for a second of waiting. After the first move, every 250 ms through the sender's race,
//    `data-ghost-moves` equals the number of the sender's moves timed ≤ the elapsed time (the
//    core's game clock read just before and after) within one move, and the ghost's small
//    board shows `replay`'s view after that many moves. The friend then solves it: the first
//    split's chip (`[data-split]`) says "Row 1 · +6.3 s" / "第 1 行 · 慢 6.3 秒", its
//    difference the player's live split minus the ghost's; the finish lists the race split by
//    split (`[data-race]`), and its "Race your best" deals the board again with the
//    player's own run as the ghost (`[data-ghost="best"]`). `[data-action=ghost]` hides
//    and shows the ghost, kept in the `ghost` setting.
// 3. A result code with a move log but no times: no `[data-ghost]`, and the code screen
//    offers Watch (`[data-action=watch-replay]`).
// 4. A 7×7's timed code: the ghost is a lane (`data-ghost-mode="lane"`), idle until the first
//    move, then filled by the share of the sender's moves timed ≤ the elapsed time.
//
// Screenshots (tests/e2e/screenshots): web-<size>-<lang>-light-ghost-{race,split,finish}.png at
// 390×844 (en) and 360×780 (zh). Started by tests/tests/web_ghost.rs (HUARONG_GHOST_CASE:
// the board, its taps and the untimed code, made by the app core; HUARONG_SHOTS).

import path from 'node:path';
import fs from 'node:fs';
import { EXIT_FAIL, check, suite, phone, until, call, tap, boardShown } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const CASE = JSON.parse(process.env.HUARONG_GHOST_CASE || 'null');
if (!SHOTS || !CASE) {
  console.error('ghost.mjs: HUARONG_SHOTS and HUARONG_GHOST_CASE must be set (run it through cargo test -p huarong-tests --test web_ghost)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function shot(page, name) {
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** How many of `times` are ≤ `ms`. */
const upTo = (times, ms) => times.filter((t) => t <= ms).length;

/** Tap each tile of `taps` on the shown board. */
async function tapLine(page, taps) {
  for (const n of taps) {
    const before = await page.$eval('[data-game][data-state]', (el) => el.dataset.moves);
    await tap(page, `[data-game] [data-tile="${n}"]`);
    await until(page, `tile ${n} moved`, (b) => document.querySelector('[data-game][data-state]').dataset.moves !== b, before);
  }
}

/** The sender: play the board, share it; the code and the times the game recorded. */
async function send(browser, origin) {
  const ctx = await phone(browser, { width: 390, height: 844, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(CASE.share)}`, { waitUntil: 'load' });
  await boardShown(page, CASE.board);
  const r = await call(page, 'set_settings', { settings: { name: 'Mei' } });
  check(r.ok, `set_settings: ${JSON.stringify(r.error)}`);
  await tapLine(page, CASE.taps);
  await until(page, 'the sender won', () => document.querySelector('[data-game][data-status="won"]'));
  const own = await call(page, 'splits', { kind: 'slide' });
  check(own.ok && Array.isArray(own.ok.times_ms), `splits: ${JSON.stringify(own)}`);
  const first = own.ok.times_ms[0];
  const recorded = own.ok.times_ms.map((t) => t - first);
  const rc = await call(page, 'result_code', { kind: 'slide' });
  check(rc.ok && rc.ok.times === 'moves', `result_code keeps the move times: ${JSON.stringify(rc)}`);
  const dec = await call(page, 'decode_code', { text: rc.ok.code });
  check(dec.ok && Array.isArray(dec.ok.times_ms), `decode_code: ${JSON.stringify(dec)}`);
  const got = dec.ok.times_ms;
  check(got.length === recorded.length && got.every((t, i) => Math.abs(t - recorded[i]) <= 10), `decode_code.times_ms ${JSON.stringify(got)} against the recorded ${JSON.stringify(recorded)}`);
  const gaps = recorded.slice(1).map((t, i) => t - recorded[i]);
  // Each gap is the test clock's pause (300–450 ms) plus the real time the tap took.
  check(gaps.every((g) => g >= 290), `the taps were a player's pause apart: ${JSON.stringify(gaps)}`);
  console.log(`sender: ${CASE.taps.length} taps, times ${JSON.stringify(recorded)}; code ${rc.ok.code.length} chars, decode_code within 10 ms`);
  await ctx.close();
  return { code: rc.ok.code, times: got };
}

/** The ghost as the page shows it: its state, its move count and its small board's cells. */
function ghostNow(page) {
  return page.evaluate(() => {
    const g = document.querySelector('[data-ghost]');
    if (!g) return null;
    return {
      state: g.dataset.ghostState,
      moves: Number(g.dataset.ghostMoves),
      cells: [...g.querySelectorAll('.pv-item')].map((c) => (c.textContent === '' ? 0 : Number(c.textContent))),
    };
  });
}

async function elapsed(page) {
  const s = await call(page, 'snapshot', { kind: 'slide' });
  check(s.ok, `snapshot: ${JSON.stringify(s.error)}`);
  return Number(s.ok.snapshot.elapsed_ms);
}

/** The friend: race the ghost of `code` at one size and language. */
async function race(browser, origin, sent, { width, height, lang }) {
  const tag = `${width}×${height} ${lang}`;
  const ctx = await phone(browser, { width, height, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(sent.code)}`, { waitUntil: 'load' });
  await boardShown(page, CASE.board);
  await until(page, `${tag}: the ghost is shown`, () => document.querySelector('[data-ghost] .pv-item'));
  const rep = await call(page, 'replay', { code: sent.code });
  check(rep.ok && Array.isArray(rep.ok.views), `replay: ${JSON.stringify(rep.error)}`);
  const views = rep.ok.views.map((v) => v.tiles);
  let g = await ghostNow(page);
  check(g.state === 'idle' && g.moves === 0, `${tag}: the ghost waits for the first move: ${JSON.stringify(g)}`);
  check(JSON.stringify(g.cells) === JSON.stringify(views[0]), `${tag}: the idle ghost shows the start ${JSON.stringify(g.cells)}`);
  await sleep(1000);
  g = await ghostNow(page);
  check(g.state === 'idle' && g.moves === 0, `${tag}: still idle a second later: ${JSON.stringify(g)}`);
  // Hide and show: the choice is the `ghost` setting.
  await tap(page, '[data-ghost] [data-action="ghost"]');
  await until(page, `${tag}: the ghost hidden`, () => document.querySelector('[data-ghost][data-ghost-shown="off"] .ghost-body[hidden]'));
  let set = await call(page, 'get_settings');
  check(set.ok && set.ok.ghost === 'off', `${tag}: hidden is kept: ${JSON.stringify(set)}`);
  await tap(page, '[data-ghost] [data-action="ghost"]');
  await until(page, `${tag}: the ghost shown`, () => document.querySelector('[data-ghost][data-ghost-shown="on"] .ghost-body:not([hidden])'));
  set = await call(page, 'get_settings');
  check(set.ok && set.ok.ghost === 'on', `${tag}: shown is kept: ${JSON.stringify(set)}`);

  // The first move starts the race.
  await tap(page, `[data-game] [data-tile="${CASE.taps[0]}"]`);
  await until(page, `${tag}: the first move`, () => document.querySelector('[data-game][data-state]').dataset.moves === '1');
  const end = sent.times[sent.times.length - 1] + 800;
  let samples = 0;
  let shotTaken = false;
  const t0 = Date.now();
  let last = 0;
  const gaps = [];
  for (;;) {
    const e0 = await elapsed(page);
    g = await ghostNow(page);
    const e1 = await elapsed(page);
    const lo = upTo(sent.times, e0);
    const hi = upTo(sent.times, e1);
    check(g.moves >= lo - 1 && g.moves <= hi + 1, `${tag}: at ${e0}–${e1} ms the ghost has ${g.moves} moves; the sender's made ${lo}–${hi}`);
    check(JSON.stringify(g.cells) === JSON.stringify(views[g.moves]), `${tag}: the ghost's board after ${g.moves} moves ${JSON.stringify(g.cells)} is not the replay's ${JSON.stringify(views[g.moves])}`);
    check(g.state === (g.moves >= sent.times.length ? 'done' : 'racing'), `${tag}: state ${g.state} at ${g.moves} moves`);
    samples += 1;
    if (!shotTaken && g.moves >= Math.floor(sent.times.length / 2)) {
      shotTaken = true;
      await shot(page, `web-${width}x${height}-${lang}-light-ghost-race.png`);
    }
    if (e0 > end) break;
    // The next sample on the 250 ms grid from the first (a slow round skips a slot, never drifts).
    const now = Date.now() - t0;
    const next = (Math.floor(now / 250) + 1) * 250;
    gaps.push(next - last);
    last = next;
    await sleep(next - now);
  }
  const slots = Math.floor((Date.now() - t0) / 250);
  check(samples >= Math.ceil(slots * 0.6), `${tag}: ${samples} samples in ${slots} slots of 250 ms`);
  console.log(`${tag}: ${samples} samples on a 250 ms grid (${slots} slots, longest gap ${Math.max(...gaps)} ms), the ghost within one move of the sender's times and on replay's board`);

  // The rest of the line. At the player's first split a chip says who is ahead, by the
  // difference of the two splits' times as Rust gives them.
  await tapLine(page, CASE.taps.slice(1, -1));
  await until(page, `${tag}: a split chip`, () => document.querySelector('[data-ghost] [data-split]'));
  const chip = await page.$eval('[data-ghost] [data-split]', (e) => ({ name: e.dataset.split, diff: Number(e.dataset.splitDiff), text: e.textContent }));
  const live = await call(page, 'splits', { kind: 'slide' });
  const ghost = await call(page, 'ghost', { kind: 'slide' });
  const mine = live.ok.live.find((x) => x.name === chip.name);
  const theirs = ghost.ok.splits.find((x) => x.name === chip.name);
  check(mine && theirs && chip.diff === mine.ms - theirs.ms, `${tag}: chip ${JSON.stringify(chip)} against ${JSON.stringify({ mine, theirs })}`);
  const words = lang === 'zh' ? /^第 1 (行|列) · (快|慢) \d+\.\d 秒$/ : /^(Row|Column) 1 · [+−]\d+\.\d s$/;
  check(words.test(chip.text), `${tag}: the chip says ${JSON.stringify(chip.text)}`);
  await sleep(400);
  await shot(page, `web-${width}x${height}-${lang}-light-ghost-split.png`);
  // The win: the finish says the race split by split.
  await tapLine(page, CASE.taps.slice(-1));
  await until(page, `${tag}: the finish's race`, () => document.querySelector('[data-finish] [data-race] [data-race-split]'), null, 20_000);
  const rows = await page.$$eval('[data-finish] [data-race-split]', (els) => els.map((e) => ({ name: e.dataset.raceSplit, diff: e.dataset.splitDiff, text: e.textContent })));
  check(rows.length > 0 && rows.every((r) => r.diff !== ''), `${tag}: the race's splits ${JSON.stringify(rows)}`);
  console.log(`${tag}: finish splits ${JSON.stringify(rows)}`);
  await sleep(600);
  await page.$eval('[data-finish] [data-race]', (el) => el.scrollIntoView({ block: 'center' }));
  await sleep(200);
  await shot(page, `web-${width}x${height}-${lang}-light-ghost-finish.png`);
  // Race your best: the same board at move 0, the player's own run as the ghost.
  await tap(page, '[data-finish] [data-action="race-best"]');
  await until(page, `${tag}: racing the best`, (b) => {
    const el = document.querySelector('[data-game][data-state]');
    return el && el.dataset.state === b && el.dataset.moves === '0' && document.querySelector('[data-ghost="best"][data-ghost-state="idle"] .pv-item');
  }, CASE.board);
  const best = await call(page, 'ghost', { kind: 'slide' });
  check(best.ok && best.ok.source === 'best' && best.ok.times_ms.length === CASE.taps.length, `${tag}: the best's ghost ${JSON.stringify(best)}`);
  check(errors.length === 0, `${tag}: page errors ${JSON.stringify(errors)}`);
  await ctx.close();
}

/** A result with a log but no times: no ghost, and Watch. */
async function untimed(browser, origin) {
  const ctx = await phone(browser, { width: 390, height: 844, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(CASE.untimed)}`, { waitUntil: 'load' });
  await boardShown(page, CASE.board);
  await until(page, 'the challenge line', () => document.querySelector('[data-challenge]:not([hidden])'));
  await sleep(1500);
  check(!(await page.$('[data-ghost]')), 'a code without times shows no ghost');
  const dec = await call(page, 'decode_code', { text: CASE.untimed });
  check(dec.ok && dec.ok.replay === true && dec.ok.times_ms === null, `the untimed code: ${JSON.stringify(dec)}`);
  const r = await call(page, 'set_screen', { screen: 'code' });
  check(r.ok !== undefined, `set_screen code: ${JSON.stringify(r.error)}`);
  await page.reload({ waitUntil: 'load' });
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');
  await page.$eval('#code-input', (el, c) => {
    el.value = c;
    el.dispatchEvent(new Event('input'));
  }, CASE.untimed);
  await until(page, 'the code offers Watch', () => {
    const b = document.querySelector("[data-action='watch-replay']");
    return b && !b.hidden && document.querySelector('#code-input[data-decoded]');
  });
  await tap(page, "[data-action='watch-replay']");
  await until(page, 'the replay screen', () => document.querySelector('[data-replay] [data-tile]'));
  console.log('untimed code: no ghost, Watch replays it');
  await ctx.close();
}

/** A 7×7's ghost is a lane: the share of its moves made, idle until the first move. */
async function lane(browser, origin) {
  const L = CASE.lane;
  const ctx = await phone(browser, { width: 390, height: 844, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(L.code)}`, { waitUntil: 'load' });
  await boardShown(page, L.board);
  await until(page, 'the lane', () => document.querySelector('[data-ghost][data-ghost-mode="lane"] .ghost-lane'));
  const read = () => page.evaluate(() => {
    const g = document.querySelector('[data-ghost]');
    return { state: g.dataset.ghostState, moves: Number(g.dataset.ghostMoves), p: Number(g.querySelector('.ghost-fill').style.getPropertyValue('--ghost-p')), text: g.querySelector('.ghost-lane-text').textContent };
  });
  let g = await read();
  check(g.state === 'idle' && g.moves === 0 && g.p === 0, `the lane waits: ${JSON.stringify(g)}`);
  await tap(page, `[data-game] [data-tile="${L.taps[0]}"]`);
  await until(page, 'the 7×7 first move', () => document.querySelector('[data-game][data-state]').dataset.moves === '1');
  const t0 = Date.now();
  let shotTaken = false;
  while (Date.now() - t0 < 2400) {
    const e0 = await elapsed(page);
    g = await read();
    const e1 = await elapsed(page);
    const lo = upTo(L.times, e0);
    const hi = upTo(L.times, e1);
    check(g.moves >= lo - 1 && g.moves <= hi + 1, `the lane at ${e0}–${e1} ms has ${g.moves} moves; the sender's made ${lo}–${hi}`);
    check(Math.abs(g.p - g.moves / L.times.length) < 1e-9, `the lane's fill ${g.p} for ${g.moves} moves`);
    check(g.text.includes(`${g.moves}/${L.times.length}`), `the lane says ${JSON.stringify(g.text)}`);
    if (!shotTaken && g.moves >= 2) {
      shotTaken = true;
      await shot(page, 'web-390x844-en-light-ghost-lane.png');
    }
    await sleep(250);
  }
  check(g.state === 'done' && g.moves === L.times.length, `the lane at its end: ${JSON.stringify(g)}`);
  console.log('7×7: the ghost is a lane, idle until the first move, then the sender\'s moves by the clock');
  await ctx.close();
}

await suite('ghost.mjs', 300, async ({ origin, browser }) => {
  const sent = await send(browser, origin);
  await race(browser, origin, sent, { width: 390, height: 844, lang: 'en' });
  await race(browser, origin, sent, { width: 360, height: 780, lang: 'zh' });
  await untimed(browser, origin);
  await lane(browser, origin);
});
