// The number slide shows a tap at once, before Rust's answer, and only the picture moves
// (slide.js `preview`; ARCHITECTURE.md, "A tap shows at once"). Run by tests/tests/web_preview.rs
// on a built web/dist, Debian's chromium, a 390×844 touch phone, loopback only.
//
// The page's messages to the board worker are held back (ipc.js exposes the worker as
// window.__huarongCoreWorker), so the state between the tap and the answer can be looked at:
// 1. a tap: the tile is laid out at its destination while `data-state` and the move count are
//    still the old ones; released, the answer keeps the tile there and the state changes;
// 2. two taps before either answer: the second is shown on top of the first, and the two
//    answers end with every tile where Rust says;
// 3. a refused move (the held `play` is changed to a tile Rust must refuse): the tile goes back.

import { suite, phone, until, call, tap, boardShown, check } from './common.mjs';

/** Seven moves from solved; none of the taps below solves it. */
const START = '3x3:4,1,3,7,2,5,8,0,6';

/** Where the page shows each tile, as a cell index (from the transform its style asks for: its
 *  transition may still be running). Installed on the page as window.__cellOf(n). */
function installCellOf(page) {
  return page.evaluate(() => {
    window.__cellOf = (t) => {
      const el = document.querySelector(`[data-tile='${t}']`);
      const cols = Number(document.querySelector('.slide-frame').dataset.cols);
      const cell = el.parentElement.getBoundingClientRect().width / cols;
      const m = /translate3d\(([-\d.]+)px, ([-\d.]+)px/.exec(el.style.transform);
      if (!m) return -1;
      return Math.round(Number(m[2]) / cell) * cols + Math.round(Number(m[1]) / cell);
    };
  });
}
const cellOf = (page, n) => page.evaluate((t) => window.__cellOf(t), n);
const shownAt = (page, what, n, c) => until(page, what, ([t, k]) => window.__cellOf(t) === k, [n, c]);

async function holdPlays(page) {
  await page.evaluate(() => {
    const w = window.__huarongCoreWorker.worker;
    const send = w.postMessage.bind(w);
    window.__held = [];
    window.__release = (edit) => {
      for (const m of window.__held.splice(0)) send(edit ? edit(m) : m);
    };
    w.postMessage = (m, t) => {
      if (m && m.cmd === 'play') window.__held.push(m);
      else send(m, t);
    };
  });
}

const state = (page) => page.evaluate(() => document.querySelector('[data-game]').dataset.state);
const moves = (page) => page.evaluate(() => Number(document.querySelector('[data-game]').dataset.moves));
const held = (page, n) => until(page, `${n} play held`, (k) => window.__held.length === k, n);

await suite('preview.mjs', 90, async ({ origin, browser }) => {
  const ctx = await phone(browser);
  const page = await ctx.newPage();
  await page.goto(`${origin}/`);
  await until(page, 'ready', () => document.body.dataset.ready === '1');
  const code = await call(page, 'encode_code', { id: `slide:${START}` });
  check(code.ok, `encode_code: ${JSON.stringify(code.error)}`);
  await page.goto(`${origin}/?c=${code.ok.code}`);
  await boardShown(page, START);
  await holdPlays(page);
  await installCellOf(page);

  // 1. One tap: shown at once, counted at the answer.
  await tap(page, "[data-tile='6']");
  await shownAt(page, 'tile 6 shown in the blank before the answer', 6, 7);
  await held(page, 1);
  check((await state(page)) === START && (await moves(page)) === 0, 'the state and the count wait for Rust');
  await page.evaluate(() => window.__release());
  await until(page, 'the answer', () => document.querySelector('[data-game]').dataset.state === '3x3:4,1,3,7,2,5,8,6,0');
  check((await moves(page)) === 1 && (await cellOf(page, 6)) === 7, 'the answer keeps tile 6 where it was shown');

  // 2. Two taps before an answer: the second is shown on top of the first.
  await tap(page, "[data-tile='6']"); // back: the blank in cell 7
  await shownAt(page, 'the first tap shown', 6, 8);
  await tap(page, "[data-tile='8']"); // then 8 right: the blank in cell 6
  await shownAt(page, 'the second tap shown on top of the first', 8, 7);
  await held(page, 1); // the second waits in the board's queue for the first's answer
  await page.evaluate(() => window.__release());
  await held(page, 1);
  check((await cellOf(page, 8)) === 7 && (await cellOf(page, 6)) === 8, "the first answer leaves the second tap's picture");
  check((await state(page)) === START && (await moves(page)) === 2, 'the first answer counted');
  await page.evaluate(() => window.__release());
  await until(page, 'both answers', () => document.querySelector('[data-game]').dataset.state === '3x3:4,1,3,7,2,5,0,8,6');
  check((await moves(page)) === 3 && (await cellOf(page, 8)) === 7 && (await cellOf(page, 6)) === 8, 'every tile where Rust says');

  // 3. Refused: the held move is changed to a tile that is not beside the blank.
  await tap(page, "[data-tile='8']"); // 8 left would be legal: shown in cell 6
  await shownAt(page, 'the tap shown', 8, 6);
  await held(page, 1);
  await page.evaluate(() => window.__release((m) => ({ ...m, args: { ...m.args, mv: { tile: 3 } } })));
  await shownAt(page, 'a refused move goes back', 8, 7);
  check((await moves(page)) === 3, 'a refused move is not counted');
  check((await state(page)) === '3x3:4,1,3,7,2,5,0,8,6', 'a refused move changes nothing');
  console.log('preview: a tap shown at once, counted at the answer, two taps in a row, a refused one goes back');
  await ctx.close();
});
