// Shared by the web page's Chromium suite (web.mjs) and its measurements (measure.mjs): the
// static server over web/dist on a free loopback port, Debian's chromium through
// playwright-core (from tests/chromium/node_modules; never a downloaded browser), phone
// contexts with touch, and waits on conditions (never fixed sleeps).

import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serve } from '../../web/serve.mjs';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.join(here, '..', '..');
export const DIST = process.env.HUARONG_WEB_DIST || path.join(root, 'web', 'dist');
export const CHROMIUM = process.env.HUARONG_CHROMIUM || '/usr/bin/chromium';
export const EXIT_FAIL = 1;
export const EXIT_NO_BROWSER = 3;
export const EXIT_NO_DEPS = 4;

export class CheckFailed extends Error {}
export function check(cond, msg) {
  if (!cond) throw new CheckFailed(msg);
}

/** playwright-core from tests/chromium (npm ci --prefix tests/chromium). */
export function playwright() {
  const req = createRequire(path.join(root, 'tests', 'chromium', 'package.json'));
  try {
    return req('playwright-core');
  } catch (e) {
    console.error(`playwright-core is missing (npm ci --prefix tests/chromium): ${e.message}`);
    process.exit(EXIT_NO_DEPS);
  }
}

/** The site on a free loopback port (never 8790, the `./dev.sh web` port). */
export async function site(onSent = null) {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new CheckFailed(`${DIST} has no index.html: run ./dev.sh web build`);
  const server = await serve(DIST, 0, '127.0.0.1', onSent);
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { server, origin };
}

/** The flags that keep chromium off the network this machine cannot reach (docs: guide §6). */
export const CHROME_FLAGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Debian's chromium, headless, with the flags that keep it off the network. */
export async function launch() {
  const { chromium } = playwright();
  try {
    return await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      timeout: 60_000,
      args: CHROME_FLAGS,
    });
  } catch (e) {
    console.error(`chromium (${CHROMIUM}) could not start: ${e.message}`);
    process.exit(EXIT_NO_BROWSER);
  }
}

/**
 * A suite on the built site: a loopback server, a browser, and a watchdog that fails the run after
 * `seconds`; `body({origin, browser})` runs the checks. A failed check or an error is EXIT_FAIL.
 */
export async function suite(name, seconds, body) {
  const { server, origin } = await site();
  const browser = await launch();
  const watchdog = setTimeout(() => {
    console.error(`${name}: over ${seconds} s`);
    process.exit(EXIT_FAIL);
  }, seconds * 1000);
  try {
    await body({ origin, browser });
  } catch (e) {
    console.error(e instanceof CheckFailed ? `FAILED: ${e.message}` : e);
    process.exitCode = EXIT_FAIL;
  } finally {
    clearTimeout(watchdog);
    await browser.close();
    server.close();
  }
}

/** A phone: 390×844 (or `spec`), DPR 3, touch, mobile, in `locale` (`reducedMotion`: 'reduce' for
 *  a player who asked for less motion). */
export async function phone(browser, { width = 390, height = 844, locale = 'en-US', colorScheme = 'light', serviceWorkers = 'allow', reducedMotion = 'no-preference' } = {}) {
  const ctx = await browser.newContext({
    reducedMotion,
    viewport: { width, height },
    screen: { width, height },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale,
    colorScheme,
    serviceWorkers,
  });
  if (TEST_CLOCK) await useTestClock(ctx);
  await ctx.addInitScript(() => {
    const probe = { csp: [], errors: [] };
    Object.defineProperty(window, '__probe', { value: probe });
    document.addEventListener('securitypolicyviolation', (e) => probe.csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
    addEventListener('error', (e) => probe.errors.push(String(e.message)));
    addEventListener('unhandledrejection', (e) => probe.errors.push(`unhandled rejection: ${JSON.stringify(e.reason && (e.reason.message || e.reason))}`));
  });
  return ctx;
}

/** Wait until `fn(arg)` holds in the page (a timeout names `what`). */
export async function until(page, what, fn, arg = null, timeout = 15_000) {
  try {
    await page.waitForFunction(fn, arg, { timeout, polling: 'raf' });
  } catch (e) {
    const board = await page.evaluate(() => {
      const b = document.querySelector('[data-game][data-state]');
      return b ? { ...b.dataset } : document.body && document.body.innerText.slice(0, 200);
    }).catch(() => null);
    throw new CheckFailed(`timed out waiting until ${what} (board ${JSON.stringify(board)}): ${e.message.split('\n')[0]}`);
  }
}

/** The shown board: game, state, moves, status. */
export function board(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-game][data-state]');
    return b ? { game: b.dataset.game, state: b.dataset.state, moves: Number(b.dataset.moves), status: b.dataset.status } : null;
  });
}

/** A command through the page's own ipc.js (the worker back end). A `play` is a move input:
 *  a player's pause comes first on the test clock. */
export async function call(page, cmd, args = {}) {
  if (cmd === 'play') await humanStep(page);
  return page.evaluate(
    ([c, a]) => import('./js/ipc.js').then((m) => m.call(c, a)).then((ok) => ({ ok }), (e) => ({ error: { code: e.code, message: e.message } })),
    [cmd, args],
  );
}

/** Whether the suite plays on the settable clock (`HUARONG_TEST_CLOCK=1`: every suite that takes
 *  screenshots, tests/tests/web_chromium.rs). Then each move input first moves the core's clocks
 *  on by a player's pause ([`humanStep`]), so that screenshots show a person's times and pace. */
export const TEST_CLOCK = process.env.HUARONG_TEST_CLOCK === '1';

/** Open the context's pages with the test clock on: boot.js reads the flag before the page's
 *  first script and turns the core worker's clock offset on (web/src/host.js). */
export function useTestClock(ctx) {
  return ctx.addInitScript(() => Object.defineProperty(window, '__huarongTestClock', { value: true }));
}

let steps = 0;
/** The next pause of a player between moves: 300–450 ms, the same sequence on every run. */
export function humanPauseMs() {
  steps += 1;
  return 300 + ((steps * 67) % 151);
}

/** A player's pause before a move input, on the test clock (nothing when it is off). A tab whose
 *  core has gone to another tab (`storage`) has no clock of its own left to move. */
export async function humanStep(page) {
  if (!TEST_CLOCK) return;
  const r = await call(page, 'test_clock', { advance_ms: humanPauseMs() });
  check(!r.error || r.error.code === 'storage', `test_clock failed: ${JSON.stringify(r.error)}`);
}

/**
 * Wait (up to 3 s) until `css`'s element is at rest, as the app's E2E harness does before a
 * click (`wait_at_rest`): no finite animation or transition runs on it, inside it or on an
 * ancestor (a sheet still rising), and its box is where it was two frames ago. A touch placed
 * from a box measured mid-move lands where the target no longer is.
 */
export async function atRest(page, css, timeout = 3000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    const busy = await page.evaluate((s) => new Promise((done) => {
      const e = document.querySelector(s);
      if (!e || !document.getAnimations) return done(false);
      const moving = document.getAnimations().some((a) => {
        const t = a.effect && a.effect.target;
        return a.playState === 'running' && t && a.effect.getTiming().iterations !== Infinity && (t === e || t.contains(e) || e.contains(t));
      });
      if (moving) return done(true);
      const box = () => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].join(); };
      const before = box();
      requestAnimationFrame(() => requestAnimationFrame(() => done(box() !== before)));
    }), css).catch(() => false);
    if (!busy) return;
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** A touch tap at the centre of `css` (after a player's pause on the test clock). */
export async function tap(page, css) {
  await humanStep(page);
  await atRest(page, css);
  const r = await page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) return null;
    // Out of view (below a long list): scrolled to first, as a player's thumb would.
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const b = el.getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
  }, css);
  check(r, `nothing matches ${css}`);
  await page.touchscreen.tap(r.x, r.y);
}

/** The page is started and shows a laid-out board of `state`. */
export async function boardShown(page, state, timeout = 15_000) {
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1', null, timeout);
  await until(
    page,
    `the board ${state || ''} is shown`,
    (s) => {
      const el = document.querySelector('[data-game][data-state]');
      return el && (!s || el.dataset.state === s) && el.getBoundingClientRect().width > 100;
    },
    state || null,
    timeout,
  );
}
