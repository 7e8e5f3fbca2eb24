// The Klotski layout editor on the web page, in Debian's chromium with touch at
// 390×844: from home to Klotski's levels to the editor by taps; a layout built piece by piece
// (pick a piece in the tray, tap a cell; one soldier dragged from the tray; a piece tapped
// away and put back; a 曹操 that cannot fit refused), the line under the board saying what is
// missing on the way and, once complete, valid, solvable and the optimum Rust computed; Share
// makes a code that decodes to the same board; Play opens it and it is solved by taps on the
// game board (each move from a hint), in exactly the optimum; the shared code opened as a
// link later starts the same layout again. In English, and in Chinese up to the verdict.
// Screenshots: web-<lang>-klotski-levels-editor.png (the way in), web-<lang>-klotski-editor-
// {empty,building,ready,shared}.png, web-en-klotski-editor-solved.png and
// web-zh-klotski-editor-{classic,landscape}.png. In Chinese, 横刀立马 built by hand wears its
// generals' names; a refusal's toast covers none of the board, verdict, tray or actions.
//
// Started by tests/tests/web_chromium.rs (HUARONG_EDITOR_CASE: the layout's pieces, its
// board text and optimum, from the engine; HUARONG_SHOTS). Exit codes as common.mjs.

import path from 'node:path';
import fs from 'node:fs';
import { EXIT_FAIL, check, suite, phone, until, board, call, tap, boardShown, humanStep } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const CASE = JSON.parse(process.env.HUARONG_EDITOR_CASE || 'null');
if (!SHOTS || !CASE) {
  console.error('editor.mjs: HUARONG_SHOTS and HUARONG_EDITOR_CASE must be set (run it through cargo test -p huarong-tests --test web_chromium)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });


async function shot(page, name) {
  // At rest: no shake or placing animation half-way.
  await until(page, `${name}: at rest`, () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity));
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** The editor's verdict line as the page shows it. */
function verdict(page) {
  return page.evaluate(() => {
    const s = document.querySelector('[data-editor-status]');
    return s ? { ...s.dataset, text: s.textContent } : null;
  });
}

/** Rust has answered the last change (no check in flight). */
function settled(page, what) {
  return until(page, `${what}: the verdict is in`, () => {
    const s = document.querySelector('[data-editor-status]');
    return s && s.dataset.checking === undefined && s.dataset.valid !== undefined;
  });
}

function placedCount(page) {
  return page.evaluate(() => document.querySelectorAll('[data-placed]').length);
}

/** The centre of the element matching `css`. */
async function centre(page, css) {
  const r = await page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) return null;
    const b = el.getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
  }, css);
  check(r, `nothing matches ${css}`);
  return r;
}

/** A one-finger drag from `a` to `b`, one touch move per frame. */
async function touchDrag(page, a, b, steps = 10) {
  await humanStep(page);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p) => ({ x: p.x, y: p.y, id: 0, radiusX: 4, radiusY: 4, force: 1 })) });
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  await touch('touchStart', [a]);
  await frame();
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    await touch('touchMove', [{ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }]);
    await frame();
  }
  await touch('touchEnd', []);
  await frame();
  await cdp.detach();
}

/** Place one piece by taps: its tool (when not chosen already), then its top-left cell. */
async function placeByTaps(page, p, n) {
  const pressed = await page.evaluate((s) => document.querySelector(`[data-tool="${s}"]`).getAttribute('aria-pressed'), p.shape);
  if (pressed !== 'true') {
    await tap(page, `[data-tool="${p.shape}"]`);
    await until(page, `${p.shape} chosen`, (s) => document.querySelector(`[data-tool="${s}"]`).getAttribute('aria-pressed') === 'true', p.shape);
  }
  await tap(page, `[data-cell="${p.row},${p.col}"]`);
  await until(page, `piece ${n} placed`, (k) => document.querySelectorAll('[data-placed]').length === k, n);
  await settled(page, `piece ${n}`);
}

async function run({ origin, browser }, lang, full) {
  const ctx = await phone(browser, { locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  const tag = `editor ${lang}`;
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1');

  // Home → Klotski's levels → the editor, by taps.
  await tap(page, '[data-action="play-klotski"]');
  await until(page, 'the levels screen', () => document.querySelector('[data-action="klotski-editor"]'));
  await shot(page, `web-${lang}-klotski-levels-editor.png`);
  await tap(page, '[data-action="klotski-editor"]');
  await until(page, 'the editor', () => document.querySelector('#app[data-screen="klotski-editor"] [data-editor-board]'));
  await settled(page, 'the empty board');
  let v = await verdict(page);
  check(v.valid === 'false' && v.error === 'no_cao_cao', `${tag}: the empty board's verdict ${JSON.stringify(v)}`);
  check(await page.evaluate(() => document.querySelector('[data-action="editor-play"]').disabled), `${tag}: Play is enabled on an empty board`);
  await shot(page, `web-${lang}-klotski-editor-empty.png`);

  // Build it: every piece by taps but the last, which is dragged from the tray.
  const pieces = CASE.pieces;
  for (const [i, p] of pieces.slice(0, -1).entries()) {
    await placeByTaps(page, p, i + 1);
    v = await verdict(page);
    if (i === 0) check(v.error === 'empty_cells', `${tag}: after 曹操 the verdict is ${JSON.stringify(v)}`);
    if (i < pieces.length - 2) check(v.valid === 'false', `${tag}: incomplete but valid after ${i + 1} pieces: ${JSON.stringify(v)}`);
  }
  check(v.error === 'empty_cells', `${tag}: one piece short: ${JSON.stringify(v)}`);
  await shot(page, `web-${lang}-klotski-editor-building.png`);

  // A piece tapped away, then put back.
  const last = pieces[pieces.length - 2];
  const n = pieces.length - 1;
  await tap(page, `[data-placed="${n - 1}"]`);
  await until(page, 'the piece removed', (k) => document.querySelectorAll('[data-placed]').length === k, n - 1);
  await settled(page, 'removed');
  await placeByTaps(page, last, n);

  // The last one dragged from the tray onto its cell.
  const final = pieces[pieces.length - 1];
  check(final.shape === 'soldier', 'the case ends with a soldier (dragged)');
  const from = await centre(page, '[data-tool="soldier"]');
  const to = await centre(page, `[data-cell="${final.row},${final.col}"]`);
  await touchDrag(page, from, to);
  await until(page, 'the dragged soldier placed', (k) => document.querySelectorAll('[data-placed]').length === k, pieces.length);
  await settled(page, 'complete');
  const placed = await page.evaluate(() => [...document.querySelectorAll('[data-placed]')].map((e) => `${e.dataset.shape}@${e.dataset.at}`).sort());
  const wanted = pieces.map((p) => `${p.shape}@${p.row},${p.col}`).sort();
  check(JSON.stringify(placed) === JSON.stringify(wanted), `${tag}: placed ${placed} instead of ${wanted}`);

  // Complete: valid, solvable, Rust's optimum.
  v = await verdict(page);
  check(v.valid === 'true' && v.solvable === 'true' && v.optimal === String(CASE.optimal), `${tag}: the verdict ${JSON.stringify(v)} (optimum ${CASE.optimal})`);
  check(v.text.includes(String(CASE.optimal)), `${tag}: the line does not say ${CASE.optimal}: ${v.text}`);
  const id = await page.evaluate(() => document.querySelector('[data-editor-board]').dataset.id);
  check(id === `klotski:${CASE.board}`, `${tag}: the layout's id ${id}, expected klotski:${CASE.board}`);

  // A placed piece dragged to an empty cell moves there (Rust's verdict follows), and back.
  const moved = pieces[pieces.length - 1];
  const [er, ec] = CASE.empty[1];
  await touchDrag(page, await centre(page, `[data-placed][data-at="${moved.row},${moved.col}"]`), await centre(page, `[data-cell="${er},${ec}"]`));
  await until(page, 'the soldier moved', (at) => document.querySelector(`[data-placed][data-at="${at}"]`), `${er},${ec}`);
  await settled(page, 'moved');
  v = await verdict(page);
  check(v.valid === 'true' && v.optimal !== '' === (v.solvable === 'true'), `${tag}: after a move ${JSON.stringify(v)}`);
  const movedId = await page.evaluate(() => document.querySelector('[data-editor-board]').dataset.id);
  check(movedId !== id, `${tag}: the moved layout has the same id ${movedId}`);
  await touchDrag(page, await centre(page, `[data-placed][data-at="${er},${ec}"]`), await centre(page, `[data-cell="${moved.row},${moved.col}"]`));
  await until(page, 'the soldier moved back', (at) => document.querySelector(`[data-placed][data-at="${at}"]`), `${moved.row},${moved.col}`);
  await settled(page, 'moved back');
  v = await verdict(page);
  check(v.optimal === String(CASE.optimal) && (await page.evaluate(() => document.querySelector('[data-editor-board]').dataset.id)) === id, `${tag}: moved back ${JSON.stringify(v)}`);

  // A 曹操 where none fits is refused: nothing changes.
  await tap(page, '[data-tool="cao"]');
  await tap(page, `[data-cell="${CASE.empty[0][0]},${CASE.empty[0][1]}"]`);
  await until(page, 'the refusal shows', () => document.querySelector('[data-editor-board]').classList.contains('refused'));
  await settled(page, 'refused');
  check((await placedCount(page)) === pieces.length, `${tag}: a 曹操 on a full board was placed`);
  v = await verdict(page);
  check(v.valid === 'true' && v.optimal === String(CASE.optimal), `${tag}: a refusal changed the verdict ${JSON.stringify(v)}`);
  // Its notice shows clear of the board, the verdict, the tray and the actions it is about.
  const covered = await page.evaluate(() => {
    const t = document.getElementById('toast');
    if (!t || !t.classList.contains('show')) return ['no toast'];
    const a = t.getBoundingClientRect();
    const hit = (e) => {
      const b = e.getBoundingClientRect();
      return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    };
    return ['[data-editor-board]', '[data-editor-status]', '[data-tool]', '.editor-actions'].filter((s) => [...document.querySelectorAll(s)].some(hit));
  });
  check(!covered.length, `${tag}: the refusal's toast covers ${covered.join(', ')}`);
  await shot(page, `web-${lang}-klotski-editor-ready.png`);
  const layoutOk = await page.evaluate(() => {
    const W = innerWidth;
    const H = innerHeight;
    const inView = (e) => {
      const b = e.getBoundingClientRect();
      return b.width > 0 && b.left >= -1 && b.right <= W + 1 && b.top >= -1 && b.bottom <= H + 1;
    };
    const primary = [...document.querySelectorAll('.btn.primary')].filter(inView);
    const need = ['[data-editor-board]', '[data-editor-status]', '[data-tool="cao"]', '[data-tool="soldier"]', '[data-action="editor-play"]', '[data-action="editor-share"]'];
    const out = need.filter((s) => !inView(document.querySelector(s)));
    const tools = [...document.querySelectorAll('[data-tool]')].every((e) => e.getBoundingClientRect().height >= 44);
    const thumb = document.querySelector('[data-action="editor-play"]').getBoundingClientRect().top > H / 2;
    return { primary: primary.length, out, tools, thumb, wide: document.documentElement.scrollWidth <= W };
  });
  check(layoutOk.primary === 1 && !layoutOk.out.length && layoutOk.tools && layoutOk.thumb && layoutOk.wide, `${tag}: layout ${JSON.stringify(layoutOk)}`);

  // Share: a code that decodes to this layout.
  await tap(page, '[data-action="editor-share"]');
  await until(page, 'the share code', () => {
    const c = document.querySelector('[data-share-code]');
    return c && c.textContent.trim().length > 4 && !c.closest('[hidden]');
  });
  const code = await page.evaluate(() => document.querySelector('[data-share-code]').textContent.trim());
  const decoded = await call(page, 'decode_code', { text: code });
  check(decoded.ok && decoded.ok.kind === 'klotski', `${tag}: decode_code ${code}: ${JSON.stringify(decoded)}`);
  const again = await call(page, 'klotski_check', { board: decoded.ok.board });
  check(again.ok && again.ok.valid && again.ok.optimal === CASE.optimal, `${tag}: the decoded board ${decoded.ok.board}: ${JSON.stringify(again)}`);
  check(decoded.ok.id === id, `${tag}: the code ${code} is ${decoded.ok.id}, not ${id}`);
  await shot(page, `web-${lang}-klotski-editor-shared.png`);

  if (full) {
    // Play: the game board with this layout; solved by taps, each move from a hint.
    await tap(page, '[data-action="editor-play"]');
    await boardShown(page, CASE.board);
    for (let i = 0; i < CASE.optimal; i++) {
      const hint = await call(page, 'hint', { kind: 'klotski' });
      check(hint.ok && hint.ok.mv, `${tag}: hint ${i + 1}: ${JSON.stringify(hint)}`);
      const { piece, to } = hint.ok.mv;
      const before = (await board(page)).moves;
      await tap(page, `[data-game] [data-piece="${piece}"]`);
      // One place to go: the tap played it; several: the places are shown, tap the hinted one.
      await until(page, `move ${i + 1}: played or its places shown`, (b) => Number(document.querySelector('[data-game][data-state]').dataset.moves) > b || document.querySelector('[data-game] .target'), before);
      if ((await board(page)).moves === before) {
        const at = await page.evaluate(([r, c]) => {
          const grid = document.querySelector('[data-game] .grid');
          const g = grid.getBoundingClientRect();
          const cell = g.width / 4;
          const hit = [...grid.querySelectorAll('.target')].find((m) => {
            const b = m.getBoundingClientRect();
            return Math.abs(b.left - (g.left + c * cell)) < 2 && Math.abs(b.top - (g.top + r * cell)) < 2;
          });
          if (!hit) return null;
          const b = hit.getBoundingClientRect();
          return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
        }, to);
        check(at, `${tag}: move ${i + 1}: no place shown at ${to} for ${piece}`);
        await humanStep(page);
        await page.touchscreen.tap(at.x, at.y);
      }
      await until(page, `move ${i + 1} counted`, (k) => Number(document.querySelector('[data-game][data-state]').dataset.moves) === k, before + 1);
    }
    const end = await board(page);
    check(end.status === 'won' && end.moves === CASE.optimal, `${tag}: after the hinted line ${JSON.stringify(end)}`);
    await until(page, 'the finish dialog', () => document.querySelector('[data-finish="won"]') && !document.querySelector('[data-celebration]'), null, 20_000);
    await until(page, 'the dialog at rest', () => {
      const d = document.querySelector('[data-finish]');
      return d && d.getAnimations({ subtree: true }).every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity);
    });
    await shot(page, `web-${lang}-klotski-editor-solved.png`);

    // The shared code, opened as a link later, starts this layout again.
    await page.goto(`${origin}/?c=${encodeURIComponent(code)}`, { waitUntil: 'load' });
    await boardShown(page, CASE.board);
    const fresh = await board(page);
    check(fresh.moves === 0 && fresh.status !== 'won', `${tag}: the shared layout opened ${JSON.stringify(fresh)}`);
  }

  if (!full) {
    // A classic built by hand wears the game board's names (Rust's `names`): 横刀立马's lying
    // general is 关羽, the standing ones 张飞, 赵云, 马超, 黄忠.
    await tap(page, '[data-action="editor-clear"]');
    await until(page, 'the board cleared', () => document.querySelectorAll('[data-placed]').length === 0);
    const hdlm = [
      { shape: 'cao', row: 0, col: 1 },
      { shape: 'vertical', row: 0, col: 0 },
      { shape: 'vertical', row: 0, col: 3 },
      { shape: 'vertical', row: 2, col: 0 },
      { shape: 'vertical', row: 2, col: 3 },
      { shape: 'horizontal', row: 2, col: 1 },
      { shape: 'soldier', row: 3, col: 1 },
      { shape: 'soldier', row: 3, col: 2 },
      { shape: 'soldier', row: 4, col: 0 },
      { shape: 'soldier', row: 4, col: 3 },
    ];
    for (const [i, p] of hdlm.entries()) await placeByTaps(page, p, i + 1);
    await until(page, "the classic's names", () => (document.querySelector('[data-placed][data-shape="horizontal"]') || {}).textContent === '关羽');
    const named = await page.evaluate(() => [...document.querySelectorAll('[data-placed]:is([data-shape="vertical"], [data-shape="horizontal"])')].map((e) => e.textContent).sort());
    check(JSON.stringify(named) === JSON.stringify(['关羽', '张飞', '赵云', '马超', '黄忠'].sort()), `${tag}: 横刀立马's generals read ${named}`);
    await shot(page, `web-${lang}-klotski-editor-classic.png`);

    // On its side: the board and the controls side by side, all in view.
    await page.setViewportSize({ width: 844, height: 390 });
    await until(page, 'the landscape layout', () => {
      const b = document.querySelector('[data-editor-board]').getBoundingClientRect();
      const p = document.querySelector('[data-action="editor-play"]').getBoundingClientRect();
      return b.height > 250 && p.bottom <= innerHeight && p.left >= b.right;
    });
    await shot(page, `web-${lang}-klotski-editor-landscape.png`);
  }

  const probe = await page.evaluate(() => window.__probe);
  const appErrors = await page.evaluate(() => window.__huarongErrors || []);
  check(!errors.length && !probe.errors.length && !probe.csp.length && !appErrors.length, `${tag}: errors ${JSON.stringify([...errors, ...probe.errors, ...probe.csp, ...appErrors])}`);
  await ctx.close();
  console.log(`${tag}: passed (optimum ${CASE.optimal}, code ${code})`);
}

await suite('editor.mjs', 240, async (site) => {
  console.log(`chromium ${site.browser.version()} against ${site.origin}`);
  await run(site, 'en', true);
  await run(site, 'zh', false);
});
