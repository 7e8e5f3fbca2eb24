// Play without looking on the web page, in Debian's chromium: a shuffled 3×3 number slide, the
// Klotski classic 横刀立马 and 20 moves of 2048 are played using only accessible names and
// actions — role locators (`getByRole`), `.press()` and `.focus()`, never a coordinate — and
// the page's own "What next" answers (the `hint` command, in words):
// - the board is a grid (`ariaSnapshot`: rows of gridcells named "7, row 2, column 3" /
//   "empty, …"), arrow keys move the focus cell by cell;
// - the number slide: an arrow key on the board itself still moves a tile (the keyboard play of
//   before); "What next" names a tile, its cell is activated (Enter);
// - Klotski: "What next" names a piece and one of its targets ("Zhang Fei, row 1, column 1 →
//   down 1"); the piece's cell is activated, and when it has several places to go, the target
//   button of that name;
// - 2048: the toolbar's move buttons, 20 moves, then a burst of two presses says only the last;
// - each move gives exactly one announcement (a node added to the live region #live) within
//   500 ms of the action;
// - axe-core (pinned in tests/chromium/package.json): no violation of any level on each game
//   screen, nor with the screen reader's toolbar open.
// Screenshots (390×844, English and Chinese): web-<lang>-a11y-<game>.png, a cell focused.
//
// Started by tests/tests/web_a11y.rs (HUARONG_A11Y_CASES, HUARONG_SHOTS). Exit codes as common.mjs.

import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { EXIT_FAIL, EXIT_NO_DEPS, check, root, suite, until, boardShown, board, useTestClock, TEST_CLOCK } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const CASES = JSON.parse(process.env.HUARONG_A11Y_CASES || 'null');
if (!SHOTS || !CASES) {
  console.error('a11y.mjs: HUARONG_SHOTS and HUARONG_A11Y_CASES must be set (run it through cargo test -p huarong-tests --test web_a11y)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });

let AXE;
try {
  AXE = createRequire(path.join(root, 'tests', 'chromium', 'package.json')).resolve('axe-core/axe.min.js');
} catch (e) {
  console.error(`axe-core is missing (npm ci --prefix tests/chromium): ${e.message}`);
  process.exit(EXIT_NO_DEPS);
}

/** The site's origin (set by the suite below). */
let ORIGIN = '';

/** A move's announcement comes within this (ms) of the action. */
const SAY_MS = 500;

const WORDS = {
  en: { next: 'What next', hint: /^(?:Optimal hint|Hint): (.*)$/, sep: ', ', tools: 'Screen reader tools', up: 'Move up', down: 'Move down', left: 'Move left', right: 'Move right', dir: { up: 'up', down: 'down', left: 'left', right: 'right' } },
  zh: { next: '下一步怎么走', hint: /^(?:最优提示|提示)：(.*)$/, sep: '，', tools: '读屏工具', up: '向上移', down: '向下移', left: '向左移', right: '向右移', dir: { up: '向上', down: '向下', left: '向左', right: '向右' } },
};

/** A phone (390×844, touch) in `lang`; axe arrives as an inline script, so the context bypasses
 *  the CSP (the other suites check it). Every node added to the live region is recorded. */
async function open(browser, lang, code) {
  const origin = ORIGIN;
  const ctx = await browser.newContext({
    viewport: { width: 390, height: 844 },
    screen: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    colorScheme: 'light',
    serviceWorkers: 'block',
    bypassCSP: true,
  });
  if (TEST_CLOCK) await useTestClock(ctx);
  await ctx.addInitScript(() => {
    const said = [];
    Object.defineProperty(window, '__said', { value: said });
    const watch = () => {
      const live = document.getElementById('live');
      if (!live) return void requestAnimationFrame(watch);
      new MutationObserver((list) => {
        for (const m of list) for (const n of m.addedNodes) said.push({ text: n.textContent, at: performance.now() });
      }).observe(live, { childList: true, characterData: true, subtree: true });
    };
    document.addEventListener('DOMContentLoaded', watch);
  });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(code)}`, { waitUntil: 'load' });
  return { ctx, page, errors };
}

/** The number of announcements so far and the page's clock. */
function mark(page) {
  return page.evaluate(() => ({ n: window.__said.length, at: performance.now() }));
}

/**
 * The announcements since `m`, once SAY_MS have passed since it (so that a second one would
 * have been seen): exactly one, within SAY_MS. Returns its text.
 */
async function oneSaid(page, m, what) {
  await until(page, `${what}: an announcement`, (n) => window.__said.length > n, m.n, 5000);
  const wait = await page.evaluate((at) => at + 500 + 20 - performance.now(), m.at);
  if (wait > 0) await page.waitForTimeout(wait); // the window of one announcement
  const said = await page.evaluate((n) => window.__said.slice(n), m.n);
  check(said.length === 1, `${what}: ${said.length} announcements (${said.map((s) => s.text).join(' | ')})`);
  const late = said[0].at - m.at;
  check(late <= SAY_MS, `${what}: announced after ${Math.round(late)} ms ("${said[0].text}")`);
  return said[0].text;
}

/** axe-core on the page: no violation of any level. */
async function axe(page, what) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  const res = await page.evaluate(() =>
    window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${(n.failureSummary || '').split('\n').slice(1, 2).join(' ')}`) }))),
  );
  check(!res.length, `${what}: axe-core finds ${res.map((v) => `${v.impact} ${v.id} on ${v.nodes.join(' | ')}`).join('; ')}`);
}

/** The board's grid: its accessibility tree has `rows` rows of `cols` named cells. */
async function gridChecks(page, lang, cols, rows) {
  const grid = page.getByRole('grid');
  const tree = await grid.ariaSnapshot();
  const cells = tree.split('\n').filter((l) => /^\s*- gridcell "/.test(l));
  const rowLines = tree.split('\n').filter((l) => /^\s*- row\b/.test(l));
  check(rowLines.length === rows && cells.length === rows * cols, `the grid reads ${rowLines.length} rows and ${cells.length} cells:\n${tree}`);
  const where = lang === 'en' ? /row \d+, column \d+"/ : /第 \d+ 行第 \d+ 列"/;
  check(cells.every((l) => where.test(l)), `a cell is not named by its place:\n${tree}`);
  // Arrow keys move the focus cell by cell (the roving tabindex).
  const first = grid.getByRole('gridcell').first();
  await first.focus();
  await first.press('ArrowRight');
  const name = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  const want = lang === 'en' ? /row 1, column 2$/ : /第 1 行第 2 列$/;
  check(want.test(name || ''), `ArrowRight from the first cell focuses "${name}"`);
  await page.keyboard.press('ArrowDown');
  const name2 = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  check((lang === 'en' ? /row 2, column 2$/ : /第 2 行第 2 列$/).test(name2 || ''), `ArrowDown focuses "${name2}"`);
  check(await page.evaluate(() => document.querySelectorAll('[role="gridcell"][tabindex="0"]').length === 1), 'more than one cell is in the tab order');
}

/** Ask "What next" (the toolbar's button, by its name) and read the hint's words. */
async function whatNext(page, lang) {
  const m = await mark(page);
  await page.getByRole('button', { name: WORDS[lang].next, exact: true }).press('Enter');
  await until(page, 'the hint is said', (n) => window.__said.length > n, m.n, 20_000);
  const text = await page.evaluate((n) => window.__said[window.__said.length - 1].text, m.n);
  const got = WORDS[lang].hint.exec(text);
  check(got, `"What next" says "${text}"`);
  return got[1];
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** The 3×3 number slide, tile by tile as "What next" names them, to the win. */
async function playSlide(browser, lang) {
  const { ctx, page, errors } = await open(browser, lang, CASES.slide.code);
  await boardShown(page, CASES.slide.board);
  await gridChecks(page, lang, 3, 3);
  await shot(page, `web-${lang}-a11y-slide.png`);
  await axe(page, `${lang} number slide`);
  // The keyboard play of before stays: an arrow on the board itself moves the tile beside the
  // blank (here the blank is at row 3, column 1: ArrowDown brings 1 down), said once.
  const group = page.getByRole('group', { name: lang === 'en' ? '3 by 3 number slide board' : '3×3 数字华容道棋盘', exact: true });
  await group.focus();
  const mk = await mark(page);
  await page.keyboard.press('ArrowDown');
  const keySaid = await oneSaid(page, mk, 'an arrow key on the board');
  check((await board(page)).state === '3x3:2,4,3,0,8,5,1,7,6', `ArrowDown on the board left ${(await board(page)).state}`);
  check(keySaid.startsWith('1'), `ArrowDown is said as "${keySaid}"`);
  let moves = 1;
  while ((await board(page)).status === 'playing') {
    check(moves < 40, 'the 3×3 is not solved in 40 moves');
    const what = await whatNext(page, lang);
    const tile = /(\d+)\s*$/.exec(what);
    check(tile, `the hint names no tile: "${what}"`);
    const cell = page.getByRole('gridcell', { name: new RegExp(`^${tile[1]}${WORDS[lang].sep}`) });
    const before = (await board(page)).moves;
    const m = await mark(page);
    await cell.press('Enter');
    const said = await oneSaid(page, m, `slide move ${moves + 1}`);
    const now = await board(page);
    check(now.moves > before, `activating tile ${tile[1]} made no move`);
    check(said.startsWith(tile[1]), `the move is said as "${said}", not about tile ${tile[1]}`);
    moves += 1;
  }
  check((await board(page)).status === 'won', 'the 3×3 is not won');
  console.log(`${lang}: number slide 3×3 won in ${moves} moves through the grid`);
  check(!errors.length, `page errors: ${errors.join('; ')}`);
  await ctx.close();
}

/** 横刀立马 by the piece-target actions, following "What next" to the exit. */
async function playKlotski(browser, lang) {
  const { ctx, page, errors } = await open(browser, lang, CASES.klotski.code);
  await boardShown(page, null);
  await gridChecks(page, lang, 4, 5);
  await shot(page, `web-${lang}-a11y-klotski.png`);
  await axe(page, `${lang} Klotski`);
  let moves = 0;
  let lists = 0;
  while ((await board(page)).status === 'playing') {
    check(moves < 200, '横刀立马 is not solved in 200 moves');
    const what = await whatNext(page, lang);
    const [piece, step] = what.split(' → ');
    check(piece && step, `the hint is not "piece → step": "${what}"`);
    const before = (await board(page)).moves;
    let m = await mark(page);
    await page.getByRole('gridcell', { name: piece, exact: true }).press('Enter');
    // One place to go: the piece went; several: its places are listed, one button each.
    const target = page.getByRole('button', { name: what, exact: true });
    await until(page, `"${piece}" moved or listed its places`, ([n, name]) =>
      Number(document.querySelector('[data-game]').dataset.moves) !== n || [...document.querySelectorAll('.a11y-targets button')].some((b) => b.textContent === name), [before, what]);
    if ((await board(page)).moves === before) {
      lists += 1;
      check((await page.evaluate(() => window.__said.length)) === m.n, 'listing the places announced something');
      if (lists === 1) {
        await axe(page, `${lang} Klotski with a piece's places listed`);
        await shot(page, `web-${lang}-a11y-klotski-targets.png`);
      }
      m = await mark(page);
      await target.press('Enter');
    }
    const said = await oneSaid(page, m, `Klotski move ${moves + 1}`);
    check(said.startsWith(what), `the move is said as "${said}", not "${what}"`);
    moves += 1;
  }
  const end = await board(page);
  check(end.status === 'won', '横刀立马 is not won');
  check(end.moves === CASES.klotski.optimum, `横刀立马 won in ${end.moves} moves, not its optimum ${CASES.klotski.optimum}`);
  console.log(`${lang}: 横刀立马 won in ${end.moves} moves through the targets (${lists} lists opened)`);
  check(!errors.length, `page errors: ${errors.join('; ')}`);
  await ctx.close();
}

/** 20 moves of 2048 by the toolbar's move buttons, then a burst that says only its last. */
async function play2048(browser, lang) {
  const { ctx, page, errors } = await open(browser, lang, CASES['2048'].code);
  await boardShown(page, null);
  await gridChecks(page, lang, 4, 4);
  await shot(page, `web-${lang}-a11y-2048.png`);
  await axe(page, `${lang} 2048`);
  const order = ['down', 'left', 'right', 'up'];
  let moves = 0;
  let presses = 0;
  let k = 0;
  while (moves < 20) {
    check(presses < 80, '2048: not 20 moves in 80 presses');
    const dir = order[k % order.length];
    const before = (await board(page)).moves;
    const m = await mark(page);
    await page.getByRole('button', { name: WORDS[lang][dir], exact: true }).press('Enter');
    const said = await oneSaid(page, m, `2048 press ${presses + 1}`);
    presses += 1;
    const now = await board(page);
    if (now.moves > before) {
      moves += 1;
      check(said.startsWith(WORDS[lang].dir[dir]), `the 2048 move ${dir} is said as "${said}"`);
      k = 0; // down-left-right first, as a player might
    } else k += 1;
  }
  if (presses === 20) console.log(`${lang}: 2048, 20 moves in 20 presses`);
  else console.log(`${lang}: 2048, 20 moves in ${presses} presses (the others blocked, each said once)`);
  // A burst: two moves pressed at once are said once, the latter.
  const m = await mark(page);
  const down = page.getByRole('button', { name: WORDS[lang].down, exact: true });
  const left = page.getByRole('button', { name: WORDS[lang].left, exact: true });
  await down.focus();
  await page.keyboard.press('Enter');
  await left.focus();
  await page.keyboard.press('Enter');
  await page.waitForTimeout(SAY_MS + 300);
  const said = await page.evaluate((n) => window.__said.slice(n).map((s) => s.text), m.n);
  check(said.length === 1, `a burst of two moves says ${said.length} things: ${said.join(' | ')}`);
  check(said[0].startsWith(WORDS[lang].dir.left) || /Can't|走不动/.test(said[0]), `a burst's announcement is not its last move: "${said[0]}"`);
  await axe(page, `${lang} 2048 after 20 moves`);
  check(!errors.length, `page errors: ${errors.join('; ')}`);
  await ctx.close();
}

await suite('a11y.mjs', 420, async ({ origin, browser }) => {
  ORIGIN = origin;
  console.log(`chromium ${browser.version()} against ${origin}`);
  for (const lang of ['en', 'zh']) {
    await playSlide(browser, lang);
    await play2048(browser, lang);
    await playKlotski(browser, lang);
  }
});
