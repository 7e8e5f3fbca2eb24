// A friend's shared board is playable before the app core has arrived: the first core
// (crates/web-first) answers while the board's wasm downloads, and what it answered is replayed
// into the core once the core is up, compared, and stored. Run by tests/tests/web_first.rs on a
// built web/dist, Debian's chromium, a 390×844 touch phone, loopback only.
//
// The board's wasm is held back (a route that answers only when the test says), so the first
// core's time lasts as long as the test needs:
// 1. a shared 4×4: the board is shown and four taps move it with no core; the page says nothing
//    is wrong. Released: the core replays every command, every reply is the same, one more tap is
//    the core's, and a reload resumes the game with all five moves;
// 2. a shared 3×3 one move from solved: the winning tap waits for the core (no finish without
//    it); released, the core finishes the game and the finish dialog shows it;
// 3. a visit without a link fetches no first wasm (its first screen needs the core anyway).

import { suite, phone, until, call, tap, boardShown, check } from './common.mjs';

const FOUR = '4x4:2,0,3,4,1,5,7,8,9,6,10,12,13,14,11,15';
/** From FOUR, each legal in turn: 5 down, 6 up, 6 down, 5 up (back where it started), 3 left. */
const TAPS = [5, 6, 6, 5];
const THREE = '3x3:1,2,3,4,5,6,7,0,8';

/** A context of `browser` whose page gets the board's wasm only once `release()` is called. */
async function held(browser) {
  const ctx = await phone(browser);
  let release;
  const gate = new Promise((r) => (release = r));
  let asked = 0;
  await ctx.route(/\/assets\/board-[0-9a-f]+\.wasm$/, async (route) => {
    asked += 1;
    await gate;
    await route.continue();
  });
  return { ctx, release, asked: () => asked };
}

const worker = (page) => page.evaluate(() => (window.__huarongPerf && window.__huarongPerf.worker) || null);
const moves = (page) => page.evaluate(() => Number(document.querySelector('[data-game]').dataset.moves));
const state = (page) => page.evaluate(() => document.querySelector('[data-game]').dataset.state);

await suite('first.mjs', 150, async ({ origin, browser }) => {
  // The codes, made by the core in a throwaway page.
  const codes = await (async () => {
    const ctx = await phone(browser);
    const page = await ctx.newPage();
    await page.goto(`${origin}/`);
    await until(page, 'ready', () => document.body.dataset.ready === '1', null, 60_000);
    const four = await call(page, 'encode_code', { id: `slide:${FOUR}`, moves: 60, ms: 41_300 });
    const three = await call(page, 'encode_code', { id: `slide:${THREE}` });
    await ctx.close();
    check(four.ok && three.ok, `codes: ${JSON.stringify([four.error, three.error])}`);
    return { four: four.ok.code, three: three.ok.code };
  })();

  // 1. Four moves on the first core, a fifth on the core, all five kept.
  {
    const { ctx, release, asked } = await held(browser);
    const page = await ctx.newPage();
    await page.goto(`${origin}/?c=${codes.four}`);
    await boardShown(page, FOUR, 30_000);
    check(asked() === 1 && (await worker(page)) === null, 'the board is shown before the core has started');
    for (const [i, t] of TAPS.entries()) {
      // `tap` waits for the tile at rest: a tile still sliding from the last move is not where
      // its box was measured by the time the touch lands (tap 3 taps the tile tap 2 moved).
      await tap(page, `[data-tile='${t}']`);
      try {
        await until(page, `tap ${i + 1} counted by the first core`, (n) => Number(document.querySelector('[data-game]').dataset.moves) === n, i + 1);
      } catch (e) {
        // What the page asked (a command the first core left to the core holds every later one).
        const asked = await page.evaluate(() => window.__huarongPerf.invokes.map(([c]) => c));
        throw new Error(`${e.message}; the page's commands: ${asked.join(', ')}`);
      }
    }
    check((await state(page)) === FOUR && (await worker(page)) === null, 'four moves with no core');
    check(!(await page.$('[data-storage-warning]')), 'no storage warning while the first core answers');
    release();
    await until(page, 'the core started', () => !!(window.__huarongPerf && window.__huarongPerf.worker), null, 30_000);
    const w = await worker(page);
    check(w.replay && w.replay.differed.length === 0, `every replayed reply is the first core's: ${JSON.stringify(w.replay)}`);
    // get_settings, get_progress, open_game, levels, set_screen and the four moves at least.
    check(w.replay.replayed >= 9, `every answered command was replayed (${w.replay.replayed})`);
    await tap(page, "[data-tile='3']");
    await until(page, 'the fifth move, the core\'s', () => Number(document.querySelector('[data-game]').dataset.moves) === 5);
    const after = await state(page);
    // A reload (the link is no longer in the address) resumes the game from storage.
    await page.reload();
    await boardShown(page, after, 30_000);
    check((await moves(page)) === 5, `the reload resumes all five moves (${await moves(page)})`);
    // With games saved, a visit does not fetch the first core's wasm (it would not be used).
    const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\/first-[0-9a-f]+\.wasm$/.test(n)));
    check(fetched.length === 0, `the reload fetched no first wasm: ${fetched}`);
    check((await worker(page)).replay === null, 'the reload started the core without a first core');
    const r = await call(page, 'snapshot', { kind: 'slide' });
    check(r.ok && r.ok.challenge && r.ok.challenge.moves === 60, `the friend's result is kept: ${JSON.stringify(r.ok && r.ok.challenge)}`);
    check((await page.evaluate(() => window.__huarongErrors)).length === 0, 'no script error');
    await ctx.close();
  }

  // 2. The winning tap waits for the core.
  {
    const { ctx, release } = await held(browser);
    const page = await ctx.newPage();
    await page.goto(`${origin}/?c=${codes.three}`);
    await boardShown(page, THREE, 30_000);
    await tap(page, "[data-tile='8']");
    await page.waitForTimeout(800);
    check((await moves(page)) === 0 && !(await page.$('[data-finish]')), 'no finish without the core');
    release();
    await until(page, 'the core finished the game', () => !!document.querySelector('[data-finish="won"]'), null, 30_000);
    check((await moves(page)) === 1, 'the winning move counted once');
    const w = await worker(page);
    check(w.replay && w.replay.differed.length === 0, `replayed as answered: ${JSON.stringify(w.replay)}`);
    await ctx.close();
  }
  // 3. A visit without a link: the first screen needs the core anyway, so no first wasm.
  {
    const ctx = await phone(browser);
    const page = await ctx.newPage();
    await page.goto(`${origin}/`);
    await until(page, 'home is ready', () => document.body.dataset.ready === '1', null, 30_000);
    const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\/first-[0-9a-f]+\.wasm$/.test(n)));
    check(fetched.length === 0, `a visit without a link fetched no first wasm: ${fetched}`);
    await ctx.close();
  }
  console.log('first: a shared board played on the first core, replayed into the core and kept; a winning move waits for the core; no first wasm without a link');
});
