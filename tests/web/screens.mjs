// Everyday screens on the web page, in Debian's chromium with touch emulation: at
// 360×780 and 390×844, in English and Chinese, light and dark, it walks home, each game
// (number slide 4×4, Klotski, 2048), the levels of each game, the code screen, a finish, the
// records and the settings, and on every screen checks that
// - nothing sticks out sideways: `document.scrollingElement.scrollWidth <= innerWidth`, and no
//   scrolling box of the screen scrolls sideways either;
// - axe-core (pinned in tests/chromium/package.json, its axe.min.js injected with
//   `page.addScriptTag({path})`) reports no serious or critical violation, colour contrast
//   included;
// - home shows exactly one visible `.btn.primary` and the picture puzzles
//   (`[data-home-pictures]`);
// - on each game screen the gap between the board's bottom edge and the toolbar's top edge is at
//   most 12 % of the viewport's height, `[data-key-hints]` is not visible (a touch phone's
//   pointer is coarse), and no `[data-action="solve"]` is visible until `[data-action="more"]`
//   is tapped (then it is, in the menu, and the menu closes again; today's daily offers "give up"
//   there instead, `[data-action="give-up"]`, and no auto-solve);
// - the code screen draws a friend's code small (`[data-code-card]`); "Paste"
//   (`[data-action="paste-code"]`, the context granted the clipboard) says plainly when the
//   clipboard is empty, holds no code or may not be read, and opens a friend's link on it straight into the card
//   (her result, one Play button, the only primary action); a 3×3 won by touch shows its finish
//   dialog; after today's daily and three easy 4×4s (HUARONG_SCREENS_WINS, solved by the
//   engine, played through the core) the records lead with the personal best
//   (`[data-rec-hero]`), the daily's calendar (`[data-streak-calendar]`: 5 whole weeks, Monday
//   first, today outlined and solved, as `daily_calendar` says) and one trend line of the clean
//   times (`[data-trend]`, its points in the order of `records`' history, a text for screen
//   readers), the full statistics behind `[data-action="all-stats"]`;
// - Klotski's pieces and the number slide's tiles stand off their board at ≥ 3:1 in both
//   themes, and 2048's tiles too in the dark one (from the computed colours); each Klotski
//   piece wears its piece's colour (every general `--piece-g`, standing or lying), on the
//   board and in home's thumbnail;
// - the level screens read at a glance (`levelsChecks`): only a chosen chip is filled, the
//   chips that start a game are outlined with a play mark, a start button per marathon count,
//   Klotski's names in two lines at most with "22 moves at best" and the editor's entry in view,
//   2048's name once and no best of 0.
// Screenshots (`tests/e2e/screenshots/web-<W>x<H>-<lang>-<theme>-<screen>.png`) of two of the
// eight combinations: 390×844 English light and 360×780 Chinese dark.
//
// Started by tests/tests/web_chromium.rs (HUARONG_SHOTS). Exit codes as common.mjs.

import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { CheckFailed, EXIT_FAIL, EXIT_NO_DEPS, check, root, site, launch, until, tap, call, TEST_CLOCK, useTestClock } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const WINS = JSON.parse(process.env.HUARONG_SCREENS_WINS || 'null');
if (!SHOTS || !WINS) {
  console.error('screens.mjs: HUARONG_SHOTS and HUARONG_SCREENS_WINS must be set (run it through cargo test -p huarong-tests --test web_chromium)');
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

setTimeout(() => {
  console.error('screens.mjs: the run took over 540 s');
  process.exit(EXIT_FAIL);
}, 540_000).unref();

const SIZES = [
  [360, 780],
  [390, 844],
];
const SHOT_COMBOS = new Set(['390x844-en-light', '360x780-zh-dark']);
/** The screens walked, in order: the name `app.go` takes, the `#app[data-screen]` it shows, a file name. */
const SCREENS = [
  ['home', 'home', 'home'],
  ['game:slide', 'game', 'game-slide'],
  ['game:klotski', 'game', 'game-klotski'],
  ['game:2048', 'game', 'game-2048'],
  ['levels:slide', 'levels', 'levels-slide'],
  ['levels:klotski', 'levels', 'levels-klotski'],
  ['levels:2048', 'levels', 'levels-2048'],
  ['code', 'code', 'code'],
  ['finish', 'game', 'finish'],
  ['daily', 'game', 'daily'],
  ['records', 'records', 'records'],
  ['settings', 'settings', 'settings'],
];

const { server, origin } = await site();
const browser = await launch();
console.log(`chromium ${browser.version()} against ${origin}, axe-core ${JSON.parse(fs.readFileSync(path.join(path.dirname(AXE), 'package.json'), 'utf8')).version}`);

/** A touch phone (coarse pointer) of `w`×`h`. The page's CSP allows no inline script, and
 *  axe arrives as one: the context bypasses the CSP (the other suites check it). */
async function touchPhone(w, h, lang, theme) {
  const ctx = await browser.newContext({
    viewport: { width: w, height: h },
    screen: { width: w, height: h },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    colorScheme: theme,
    serviceWorkers: 'block',
    bypassCSP: true,
    // The code screen's "Paste" reads the clipboard on a tap (the test writes to it).
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  if (TEST_CLOCK) await useTestClock(ctx);
  return ctx;
}

/** Show `name` through the page's own router and wait until it is laid out and at rest.
 *  Klotski is reached as a player does: its level list, the first layout tapped. */
async function go(page, name, screen) {
  if (name === 'finish') {
    // A 3×3 two taps from solved, played by touch: the finish dialog (and a record for the
    // records screen after it).
    await go(page, 'code', 'code');
    await page.$eval('#code-input', (el) => {
      el.value = 'slide:3x3:1,2,3,4,5,6,0,7,8';
      el.dispatchEvent(new Event('input'));
    });
    // Decoded and settled: `open` stays where it is now (it may move into the code's card).
    await until(page, 'the code decoded', () => document.querySelector('#code-input[data-decoded]'));
    await tap(page, '[data-action="open"]');
    await until(page, 'the 3×3 is shown', () => {
      const b = document.querySelector('[data-game][data-state]');
      return b && b.dataset.state.startsWith('3x3') && b.dataset.moves === '0' && b.getBoundingClientRect().width > 100;
    });
    await settle(page);
    await tap(page, "[data-tile='7']");
    await until(page, 'one move made', () => document.querySelector('[data-game][data-state]').dataset.moves === '1');
    await settle(page);
    await tap(page, "[data-tile='8']");
    await until(page, 'the finish dialog', () => !!document.querySelector("[data-finish='won']"), null, 20_000);
    await settle(page);
    return;
  }
  if (name === 'daily') {
    // Today's daily from home's hero card: auto-solve is held back until the game is given up.
    await go(page, 'home', 'home');
    await tap(page, '[data-action="daily-play"]');
  } else if (name === 'game:klotski') {
    await go(page, 'levels:klotski', 'levels');
    await tap(page, '.level[data-level]:not(.locked)');
  } else if (name === 'game:2048') {
    await go(page, 'levels:2048', 'levels');
    await tap(page, '[data-action="new-2048"]');
  } else if (name === 'game:slide') {
    await go(page, 'levels:slide', 'levels');
    await tap(page, '[data-size="4x4"][data-diff="random"]');
  } else {
    // The screen the progress names is the one a start shows (as after a reload on a phone).
    const r = await call(page, 'set_screen', { screen: name });
    check(r.ok !== undefined, `set_screen ${name}: ${JSON.stringify(r.error)}`);
    await page.reload({ waitUntil: 'load' });
    await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1', null, 30_000);
  }
  await until(page, `the ${name} screen`, ([s]) => {
    const app = document.getElementById('app');
    return app && app.dataset.screen === s && !document.querySelector('.overlay');
  }, [screen]);
  if (screen === 'game') await until(page, `${name}: its board is laid out`, () => {
    const b = document.querySelector('[data-game][data-state]');
    return b && b.getBoundingClientRect().width > 100;
  });
  await settle(page);
}

/** Every animation finished (or infinite), the fonts in, two frames drawn. */
async function settle(page) {
  await until(page, 'the page at rest', () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity));
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
}

/** Whether the element of `css` is visible (laid out larger than a clipped 1 px box). */
function visible(page, css) {
  return page.evaluate((s) => {
    return [...document.querySelectorAll(s)].some((e) => {
      const r = e.getBoundingClientRect();
      const cs = getComputedStyle(e);
      return r.width > 1 && r.height > 1 && cs.visibility !== 'hidden' && cs.display !== 'none' && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
    });
  }, css);
}

/** Nothing sideways: the document, and every scrolling box of the screen. */
async function noSideways(page, what) {
  const r = await page.evaluate(() => {
    const doc = document.scrollingElement;
    const boxes = [...document.querySelectorAll('#app *')]
      .filter((e) => {
        const cs = getComputedStyle(e);
        return /(auto|scroll)/.test(cs.overflowX) && e.scrollWidth > e.clientWidth + 1;
      })
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${e.scrollWidth} > ${e.clientWidth})`);
    return { scrollWidth: doc.scrollWidth, width: innerWidth, boxes };
  });
  check(r.scrollWidth <= r.width, `${what}: the page is ${r.scrollWidth} px wide in a ${r.width} px window`);
  check(!r.boxes.length, `${what}: sideways scrolling in ${r.boxes.join(', ')}`);
}

/** axe-core on the page as it stands: no serious or critical violation. */
async function axe(page, what) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  const res = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${(n.failureSummary || '').split('\n').slice(1, 2).join(' ')}`) }))));
  const bad = res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  check(!bad.length, `${what}: axe-core finds ${bad.map((v) => `${v.impact} ${v.id} on ${v.nodes.join(' | ')}`).join('; ')}`);
  return res.length;
}

/** Home: exactly one primary action in view, and the picture puzzles. */
async function homeChecks(page, what) {
  const primaries = await page.evaluate(() =>
    [...document.querySelectorAll('.btn.primary')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 1 && r.height > 1 && r.bottom > 0 && r.top < innerHeight && getComputedStyle(e).visibility !== 'hidden';
      })
      .map((e) => e.dataset.action || e.textContent.trim()),
  );
  check(primaries.length === 1, `${what}: ${primaries.length} primary actions in view (${primaries.join(', ')}), not one`);
  check(await page.evaluate(() => !!document.querySelector('[data-home-pictures] [data-picture]')), `${what}: no picture puzzles on home ([data-home-pictures])`);
  check(await page.evaluate(() => !!document.querySelector('.today [data-preview] .pv')), `${what}: the daily's board is not drawn on the hero card`);
}

/**
 * A level screen read at a glance: a chip filled in (ink or accent) is a chosen one
 * (`aria-pressed="true"`), every chosen one is filled, and the chips that start a game are
 * outlined buttons with a play mark; the number slide has a start button for each marathon
 * count; Klotski's names take at most two lines, its fewest moves say so in words ("22 moves
 * at best", "最少 22 步", not "min 22"), and the editor's entry is in view unscrolled; 2048
 * names itself once and shows no best of 0.
 */
async function levelsChecks(page, what, name) {
  const r = await page.evaluate(() => {
    const shown = (e) => {
      const b = e.getBoundingClientRect();
      return b.width > 1 && b.height > 1 && getComputedStyle(e).visibility !== 'hidden';
    };
    const root = getComputedStyle(document.documentElement);
    const probe = document.createElement('span');
    document.body.append(probe);
    const rgb = (v) => {
      probe.style.color = v;
      return getComputedStyle(probe).color;
    };
    const fills = new Set([rgb(root.getPropertyValue('--accent')), rgb(root.getPropertyValue('--text'))]);
    probe.remove();
    const chips = [...document.querySelectorAll('.levels-screen .chip')].filter(shown).map((e) => ({
      label: e.textContent.trim(),
      pressed: e.getAttribute('aria-pressed'),
      filled: fills.has(getComputedStyle(e).backgroundColor),
      mark: getComputedStyle(e, '::before').content,
      mode: e.dataset.mode || '',
      run: !!e.closest('.run-sizes'),
    }));
    const names = [...document.querySelectorAll('.level-name')].filter(shown).map((e) => ({
      text: e.textContent,
      lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)),
    }));
    const metas = [...document.querySelectorAll('.level-meta[data-min]')].map((e) => ({ min: e.dataset.min, text: e.textContent }));
    const entry = document.querySelector('[data-action="klotski-editor"]');
    const eb = entry && entry.getBoundingClientRect();
    const title = (document.querySelector('.levels-screen .bar .title') || {}).textContent || '';
    const subtitle = (document.querySelector('.levels-screen .bar .subtitle') || {}).textContent || '';
    const zeros = [...document.querySelectorAll('.levels-screen .stat-value')].filter((e) => shown(e) && e.textContent.trim() === '0').length;
    return { chips, names, metas, entry: eb ? { top: eb.top, bottom: eb.bottom } : null, h: innerHeight, title, subtitle, zeros };
  });
  const odd = r.chips.filter((c) => c.filled !== (c.pressed === 'true'));
  check(!odd.length, `${what}: chips filled without being chosen, or chosen without the fill: ${JSON.stringify(odd)}`);
  const unmarked = r.chips.filter((c) => c.pressed === null && (c.mark === 'none' || c.mark === 'normal'));
  check(!unmarked.length, `${what}: start chips without their play mark: ${unmarked.map((c) => c.label).join(', ')}`);
  if (name === 'levels:slide') {
    const counts = ((await call(page, 'levels', { kind: 'slide' })).ok || {}).modes?.marathon || [5, 10, 42, 100];
    const starts = r.chips.filter((c) => c.mode.startsWith('marathon:') && c.pressed === null);
    check(starts.length === counts.length, `${what}: ${starts.length} marathon start buttons for the counts ${counts}`);
    const sizes = r.chips.filter((c) => c.run);
    check(sizes.length > 1 && sizes.filter((c) => c.pressed === 'true').length === 1, `${what}: not one chosen marathon size: ${JSON.stringify(sizes)}`);
  }
  if (name === 'levels:klotski') {
    const long = r.names.filter((n) => n.lines > 2);
    check(r.names.length >= 10 && !long.length, `${what}: level names over two lines: ${JSON.stringify(long)}`);
    const bad = r.metas.filter((m) => m.min !== '' && (!m.text.includes(m.min) || /^min\b/i.test(m.text)));
    check(r.metas.length >= 10 && !bad.length, `${what}: the fewest moves not said in words: ${JSON.stringify(bad.slice(0, 3))}`);
    check(r.entry && r.entry.top >= 0 && r.entry.bottom <= r.h, `${what}: the editor's entry is not in view unscrolled (${JSON.stringify(r.entry)} in ${r.h})`);
  }
  if (name === 'levels:2048') {
    check(r.title.trim() !== r.subtitle.trim(), `${what}: the header says "${r.title}" twice`);
    check(r.zeros === 0, `${what}: ${r.zeros} bests of 0 shown before any game`);
  }
  return ` ${r.chips.length} chips (${r.chips.filter((c) => c.pressed === 'true').length} chosen)`;
}

/**
 * One colour per Klotski piece, by what it is and not by how it lies: on the game board
 * every general's face (standing or lying) is `--piece-g`, 曹操's `--piece-c`, a soldier's
 * `--piece-s`; home's Klotski thumbnail paints its generals (Guan Yu lying among them) the same.
 */
function pieceColours(page) {
  return page.evaluate(() => {
    const root = getComputedStyle(document.documentElement);
    const probe = document.createElement('span');
    document.body.append(probe);
    const want = {};
    for (const [role, v] of [['cao', '--piece-c'], ['general', '--piece-g'], ['soldier', '--piece-s']]) {
      probe.style.color = root.getPropertyValue(v);
      want[role] = getComputedStyle(probe).color;
    }
    probe.remove();
    const bad = [];
    for (const p of document.querySelectorAll('[data-game] .piece[data-role]')) {
      const got = getComputedStyle(p.querySelector('.face')).backgroundColor;
      if (want[p.dataset.role] && got !== want[p.dataset.role]) bad.push(`${p.dataset.piece} (${p.dataset.role}, ${p.dataset.shape}) ${got}`);
    }
    for (const m of document.querySelectorAll('.mini-klotski :is(.m-a, .m-b, .m-c, .m-d, .m-e)')) {
      const got = getComputedStyle(m).backgroundColor;
      if (got !== want.general) bad.push(`home thumbnail ${m.className} ${got}`);
    }
    const shapes = new Set([...document.querySelectorAll('[data-game] .piece[data-role="general"]')].map((p) => p.dataset.shape));
    return { bad, want, shapes: [...shapes], pieces: document.querySelectorAll('[data-game] .piece').length, minis: document.querySelectorAll('.mini-klotski .m').length };
  });
}

/** The lowest contrast ratio between a piece's (tile's) face and the board's floor under it. */
function faceContrast(page) {
  return page.evaluate(() => {
    const rgb = (c) => (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const floor = document.querySelector('.slide-grid, .klotski-grid, .g2048-frame');
    if (!floor) return null;
    const lf = lum(rgb(getComputedStyle(floor).backgroundColor));
    let worst = Infinity;
    for (const f of floor.querySelectorAll('.tile .face, .piece .face, .cell:not([data-value="0"]) .face, .gtile:not(.idle) .face')) {
      const l = lum(rgb(getComputedStyle(f).backgroundColor));
      worst = Math.min(worst, (Math.max(l, lf) + 0.05) / (Math.min(l, lf) + 0.05));
    }
    return worst === Infinity ? null : worst;
  });
}

/** A game screen: the board low, no key hints, auto-solve only behind "more"; pieces and
 *  tiles that stand off the board (≥ 3:1: the number slide and Klotski in both themes, 2048
 *  in the dark one; the light 2048 keeps its classic pale tiles). */
async function gameChecks(page, what, shootMenu, dark) {
  const contrast = await faceContrast(page);
  const held = dark || !what.endsWith('game:2048');
  check(contrast !== null, `${what}: no tile or piece face on the board to measure`);
  check(!held || contrast >= 3, `${what}: a tile or piece against the board at ${contrast && contrast.toFixed(2)}:1, under 3:1`);
  const g = await page.evaluate(() => {
    const b = document.querySelector('[data-game][data-state]').getBoundingClientRect();
    const c = document.querySelector('.controls').getBoundingClientRect();
    return { gap: c.top - b.bottom, h: innerHeight, board: b.height, controls: c.top };
  });
  check(g.gap >= 0, `${what}: the board (bottom ${g.controls - g.gap}) runs into the toolbar (${g.controls})`);
  check(g.gap <= 0.12 * g.h, `${what}: ${g.gap.toFixed(1)} px between board and toolbar, over 12 % of ${g.h}`);
  check(!(await visible(page, '[data-key-hints]')), `${what}: the keyboard hints show on a touch phone`);
  check(await page.evaluate(() => !!document.querySelector('[data-key-hints]')), `${what}: no [data-key-hints] element`);
  check(!(await visible(page, '[data-action="solve"]')), `${what}: auto-solve is in view before "more" is tapped`);
  await tap(page, '[data-action="more"]');
  await until(page, `${what}: the "more" menu`, () => !!document.querySelector('[data-dialog="more"]'));
  await settle(page);
  check(await visible(page, '[data-action="solve"]'), `${what}: no auto-solve in the "more" menu`);
  await axe(page, `${what}, its "more" menu`);
  if (shootMenu) await page.screenshot({ path: path.join(SHOTS, shootMenu) });
  await tap(page, '[data-action="close-more"]');
  await until(page, `${what}: the menu closed`, () => !document.querySelector('[data-dialog="more"]'));
  check(!(await visible(page, '[data-action="solve"]')), `${what}: auto-solve stays in view after the menu closed`);
  return { ...g, contrast };
}

/** Today's daily number slide and three easy 4×4s won through the core (solutions from the
 *  engine): the records' calendar and trend line then have something to show. */
async function winSome(page, what) {
  const info = (await call(page, 'daily_info')).ok;
  check(info && info.slide, `${what}: daily_info`);
  const day = WINS.dailies.find((d) => d.id === info.slide);
  check(day, `${what}: no solution for the page's daily ${info.slide}`);
  for (const g of [day, ...WINS.easy]) {
    const o = await call(page, 'open_game', { id: g.id, replace: true });
    check(o.ok, `${what}: open_game ${g.id}: ${JSON.stringify(o.error)}`);
    let last = null;
    for (const mv of g.solution) {
      last = await call(page, 'play', { kind: 'slide', mv });
      check(last.ok, `${what}: play ${JSON.stringify(mv)} in ${g.id}: ${JSON.stringify(last.error)}`);
    }
    check(last.ok.snapshot.status === 'won', `${what}: ${g.id} is not won after its solution`);
  }
}

/** The records after those wins: the daily's calendar as `daily_calendar` says, today outlined
 *  and solved; one trend line of the clean times in `records`' order, no axes, a text for screen
 *  readers. */
async function recordsChecks(page, what) {
  const today = (await call(page, 'get_progress')).ok.today;
  const cal = (await call(page, 'daily_calendar', { kind: 'slide' })).ok;
  check(cal && Array.isArray(cal.days), `${what}: daily_calendar ${JSON.stringify(cal)}`);
  check(await visible(page, '[data-streak-calendar]'), `${what}: no calendar of the daily`);
  const c = await page.evaluate(() => {
    const el = document.querySelector('[data-streak-calendar]');
    const cells = [...el.querySelectorAll('[data-day]')];
    const t = el.querySelector('[data-today]');
    return {
      kind: el.dataset.streakCalendar,
      solved: Number(el.dataset.solved),
      days: cells.map((x) => x.dataset.day),
      done: cells.filter((x) => x.dataset.done === '1').map((x) => x.dataset.day),
      today: t && t.dataset.day,
      outline: t && getComputedStyle(t).borderTopColor,
      heads: el.querySelectorAll('thead th').length,
      rows: [...el.querySelectorAll('tbody tr')].map((r) => r.querySelectorAll('[data-day]').length),
    };
  });
  check(c.kind === 'slide', `${what}: the calendar is ${c.kind}'s, not the number slide's`);
  check(c.heads === 7 && c.rows.length === 5 && c.rows.every((n) => n === 7), `${what}: the calendar is not 5 weeks of 7 days: ${c.heads} heads, rows ${c.rows}`);
  const ms = c.days.map((d) => Date.parse(`${d}T00:00:00Z`));
  check(new Date(ms[0]).getUTCDay() === 1, `${what}: the calendar starts on ${c.days[0]}, not a Monday`);
  check(ms.every((m, i) => i === 0 || m - ms[i - 1] === 86_400_000), `${what}: the calendar's days are not consecutive: ${c.days}`);
  check(c.today === today && c.days.indexOf(today) >= 28, `${what}: today ${today} is not the outlined day of the last week (${c.today})`);
  check(c.outline && c.outline !== 'rgba(0, 0, 0, 0)', `${what}: today is not outlined (${c.outline})`);
  const want = cal.days.filter((d) => d.done).map((d) => d.date);
  check(c.done.includes(today), `${what}: today's won daily is not marked done: ${c.done}`);
  check(JSON.stringify(c.done) === JSON.stringify(want) && c.solved === want.length, `${what}: the calendar marks ${c.done}, Rust says ${want}`);

  const rec = (await call(page, 'records', { scope: 'slide:4x4' })).ok;
  const times = rec.history.filter((e) => e.clean && e.won !== false && e.ms !== null).slice(-30).map((e) => e.ms);
  check(times.length >= 4, `${what}: ${times.length} clean wins in slide:4x4`);
  check(await visible(page, '[data-trend]'), `${what}: no trend line`);
  const tr = await page.evaluate(() => {
    const el = document.querySelector('[data-trend]');
    const box = el.querySelector('svg').viewBox.baseVal;
    return {
      n: Number(el.dataset.trend),
      pts: el.querySelector('polyline').getAttribute('points').trim().split(/\s+/).map((p) => p.split(',').map(Number)),
      w: box.width,
      h: box.height,
      clutter: el.querySelectorAll('line, text, rect').length,
      alt: (el.querySelector('[data-trend-alt]') || {}).textContent || '',
      altShown: (() => {
        const a = el.querySelector('[data-trend-alt]');
        return a ? a.getBoundingClientRect().width > 1 : false;
      })(),
    };
  });
  check(tr.n === times.length && tr.pts.length === times.length, `${what}: the trend has ${tr.pts.length} points (says ${tr.n}), the history ${times.length} clean times`);
  check(tr.pts.every(([x, y], i) => x >= 0 && x <= tr.w && y >= 0 && y <= tr.h && (i === 0 || x > tr.pts[i - 1][0])), `${what}: trend points outside the line's box or out of order: ${JSON.stringify(tr.pts)}`);
  for (let i = 0; i < times.length; i++) {
    for (let j = 0; j < times.length; j++) {
      if (times[i] < times[j]) check(tr.pts[i][1] < tr.pts[j][1], `${what}: the faster time ${times[i]} ms is not drawn higher than ${times[j]} ms`);
    }
  }
  check(tr.clutter === 0, `${what}: the trend line has axes or labels drawn in it`);
  check(tr.alt.includes(String(times.length)) && !tr.altShown, `${what}: the trend's text for screen readers: ${JSON.stringify(tr.alt)}`);
  return ` calendar ${c.done.length} of 35 days done, trend of ${times.length} clean times`;
}

/** Paste on the code screen: an empty clipboard, one without a code and a refused read are
 *  said plainly (no error); Mei's result code on it opens her card: her name, her result, one
 *  Play button. */
async function pasteChecks(page, what) {
  await page.$eval('#code-input', (el) => {
    el.value = '';
    el.dispatchEvent(new Event('input'));
  });
  await until(page, `${what}: the card goes with the code`, () => document.querySelector('[data-code-card]').hidden);
  for (const [text, note] of [['', 'empty'], ['see you at 8', 'none']]) {
    await page.evaluate((x) => navigator.clipboard.writeText(x), text);
    await tap(page, '[data-action="paste-code"]');
    await until(page, `${what}: Paste says "${note}"`, (n) => {
      const el = document.querySelector('[data-paste-note]');
      return el && !el.hidden && el.dataset.pasteNote === n && el.textContent.length > 10;
    }, note);
    const err = await page.$eval('#code-error', (el) => el.textContent);
    check(!err, `${what}: Paste of "${text}" shows an error: ${err}`);
    await axe(page, `${what}, Paste says "${note}"`);
  }
  // A platform that will not read the clipboard (the permission taken away): said plainly.
  await page.context().clearPermissions();
  await tap(page, '[data-action="paste-code"]');
  await until(page, `${what}: Paste says the clipboard cannot be read`, () => {
    const el = document.querySelector('[data-paste-note]');
    return el && !el.hidden && el.dataset.pasteNote === 'refused';
  });
  check(!(await page.$eval('#code-error', (el) => el.textContent)), `${what}: a refused clipboard shows an error`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((x) => navigator.clipboard.writeText(x), WINS.mei);
  await tap(page, '[data-action="paste-code"]');
  await until(page, `${what}: Mei's card from the clipboard`, (code) => {
    const card = document.querySelector('[data-code-card]:not([hidden])');
    const note = document.querySelector('[data-paste-note]');
    return card && card.querySelector('.pv-klotski') && card.querySelector('[data-code-result="40:95000"]') && /Mei/.test(card.textContent) && document.getElementById('code-input').value === code && note.hidden;
  }, WINS.mei);
  await settle(page);
  const primaries = await page.evaluate(() =>
    [...document.querySelectorAll('.btn.primary')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 1 && r.height > 1;
      })
      .map((e) => !!e.closest('[data-code-card]')),
  );
  check(primaries.length === 1 && primaries[0], `${what}: the card's Play is not the one primary action (${JSON.stringify(primaries)})`);
  await noSideways(page, `${what} with Mei's card`);
  await axe(page, `${what} with Mei's card`);
}

const figures = [];
const failures = [];
let failed = null;
try {
  for (const [w, h] of SIZES) {
    for (const lang of ['en', 'zh']) {
      for (const theme of ['light', 'dark']) {
        const combo = `${w}x${h}-${lang}-${theme}`;
        const ctx = await touchPhone(w, h, lang, theme);
        const page = await ctx.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(String(e.message)));
        await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
        await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1', null, 30_000);
        check(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), `${combo}: the emulated phone's pointer is not coarse`);
        for (const [name, screen, file] of SCREENS) {
          const what = `${combo} ${name}`;
          try {
            if (name === 'records') await winSome(page, what);
            await go(page, name, screen);
            await noSideways(page, what);
            const minor = await axe(page, what);
            let extra = '';
            if (name === 'home') {
              await homeChecks(page, what);
              const pc = await pieceColours(page);
              check(pc.minis > 0 && !pc.bad.length, `${what}: Klotski's thumbnail not in the pieces' colours: ${pc.bad.join('; ')}`);
            }
            if (screen === 'levels') extra += await levelsChecks(page, what, name);
            if (name === 'game:klotski') {
              const pc = await pieceColours(page);
              check(pc.pieces >= 10 && !pc.bad.length, `${what}: pieces not in their piece's colour: ${pc.bad.join('; ')}`);
              check(pc.shapes.length > 0, `${what}: no general on the board to look at`);
              extra += ` generals (${pc.shapes.join(', ')}) in ${pc.want.general}`;
            }
          if (name === 'code' && SHOT_COMBOS.has(combo)) {
            // The code screen as it opens (no card yet): its shot before the code goes in.
            await settle(page);
            await page.screenshot({ path: path.join(SHOTS, `web-${combo}-code.png`) });
          }
          if (name === 'code') {
            // A friend's code with their result: the puzzle drawn small, whose challenge it is.
            const c = (await call(page, 'encode_code', { id: 'klotski:sCCt/uCCv/.aa./bcde/bcde', moves: 40, ms: 95000 })).ok;
            check(c && c.link, `${what}: encode_code ${JSON.stringify(c)}`);
            await page.$eval('#code-input', (el, text) => {
              el.value = text;
              el.dispatchEvent(new Event('input'));
            }, c.link);
            await until(page, `${what}: the code's card`, () => !!document.querySelector('[data-code-card]:not([hidden]) .pv-klotski'));
            await settle(page);
            await noSideways(page, `${what} with a friend's code`);
            await axe(page, `${what} with a friend's code`);
            await pasteChecks(page, what);
            if (SHOT_COMBOS.has(combo)) await page.screenshot({ path: path.join(SHOTS, `web-${combo}-code-card.png`) });
          }
          if (name === 'records') {
            check(await visible(page, '[data-rec-hero="best_moves"]'), `${what}: the personal best does not lead the records`);
            check(await visible(page, '[data-action="all-stats"]'), `${what}: no "all statistics" tap`);
            check(!(await visible(page, '[data-history]')), `${what}: the full history shows before the tap`);
            extra = await recordsChecks(page, what);
          }
            if (name === 'daily') {
            check(!(await visible(page, '[data-action="solve"]')), `${what}: auto-solve in view`);
            await tap(page, '[data-action="more"]');
            await until(page, `${what}: the "more" menu`, () => !!document.querySelector('[data-dialog="more"]'));
            await settle(page);
            check(await visible(page, '[data-action="give-up"]'), `${what}: no "give up" in the daily's menu`);
            check(!(await visible(page, '[data-action="solve"]')), `${what}: auto-solve offered in the daily before giving up`);
            await axe(page, `${what}, its "more" menu`);
            if (SHOT_COMBOS.has(combo)) await page.screenshot({ path: path.join(SHOTS, `web-${combo}-daily-more.png`) });
            await tap(page, '[data-action="close-more"]');
            await until(page, `${what}: the menu closed`, () => !document.querySelector('[data-dialog="more"]'));
          } else if (screen === 'game' && name !== 'finish') {
              const g = await gameChecks(page, what, SHOT_COMBOS.has(combo) && name === 'game:klotski' ? `web-${combo}-more.png` : null, theme === 'dark');
              extra = ` gap ${g.gap.toFixed(0)} px (${((100 * g.gap) / g.h).toFixed(1)} %), board ${g.board.toFixed(0)} px high${g.contrast ? `, faces against the board ≥ ${g.contrast.toFixed(2)}:1` : ''}`;
              figures.push({ combo, name, gap: g.gap, pct: (100 * g.gap) / g.h });
            }
            // (The code screen's own shot was taken before its card.)
            if (SHOT_COMBOS.has(combo) && name !== 'code') {
              await page.evaluate(() => document.querySelector('.scroll') && document.querySelector('.scroll').scrollTo(0, 0));
              await settle(page);
              await page.screenshot({ path: path.join(SHOTS, `web-${combo}-${file}.png`) });
            }
            console.log(`ok ${what}: no sideways overflow, axe 0 serious/critical (${minor} minor/moderate)${extra}`);
          } catch (e) {
            // Every screen is walked; the run fails at the end with all that failed.
            if (!(e instanceof CheckFailed)) throw e;
            console.error(`FAIL ${e.message}`);
            failures.push(e.message);
            await page.goto(`${origin}/index.html`, { waitUntil: 'load' }).catch(() => {});
          }
        }
        check(!errors.length, `${combo}: script errors ${errors.join(' | ')}`);
        await ctx.close();
      }
    }
  }
  check(!failures.length, `${failures.length} screens failed:\n${failures.join('\n')}`);
  const worst = figures.reduce((a, b) => (b.pct > a.pct ? b : a), { pct: -1 });
  console.log(`board-to-toolbar gap: worst ${worst.gap.toFixed(1)} px = ${worst.pct.toFixed(1)} % of the height (${worst.combo} ${worst.name}); limit 12 %`);
} catch (e) {
  failed = e;
} finally {
  await browser.close().catch(() => {});
  server.close();
}
if (failed) {
  console.error(failed instanceof CheckFailed ? `FAILED: ${failed.message}` : failed);
  process.exit(EXIT_FAIL);
}
console.log('screens.mjs: every screen passed');
