// The real ui/ in Debian's chromium, driven with touch, against the real command layer.
//
// Started by tests/tests/chromium_touch.rs once per phone (HUARONG_PHONE, e.g. 390x844), each
// time with a fresh app (its own data folder) on tauri's mock runtime behind a loopback HTTP
// bridge (tests/src/bridge.rs) whose address is HUARONG_BRIDGE. Screenshots go to
// HUARONG_SHOTS (tests/e2e/screenshots), a failed scenario's to HUARONG_FAILED_SHOTS
// (tests/e2e/out, not kept in git).
// The page gets `window.__TAURI__.core.invoke` from an init script that POSTs each call to
// the bridge; everything else is the shipped ui/ under the shipped CSP.
//
// Input is touch only: multi-step drags and two-finger touches go through CDP
// `Input.dispatchTouchEvent`, taps through Playwright's touchscreen. Waits are on conditions
// (the board's data-* hooks, the bridge's answers, animation frames), never fixed sleeps.
//
// Exit codes: 0 passed, 1 a check failed, 3 chromium could not start, 4 playwright-core is
// not installed (npm ci in tests/chromium).

import path from 'node:path';
import fs from 'node:fs';

const EXIT_FAIL = 1;
const EXIT_NO_BROWSER = 3;
const EXIT_NO_DEPS = 4;

const BRIDGE = process.env.HUARONG_BRIDGE;
const CHROMIUM = process.env.HUARONG_CHROMIUM || '/usr/bin/chromium';
const OUT = process.env.HUARONG_SHOTS;
const FAILED_OUT = process.env.HUARONG_FAILED_SHOTS || OUT;
const PHONE = process.env.HUARONG_PHONE;
const WAIT_MS = 10_000;

const PHONES = [
  { width: 390, height: 844, locale: 'en-US', colorScheme: 'light' },
  { width: 360, height: 780, locale: 'zh-CN', colorScheme: 'dark' },
];
const SPEC = PHONES.find((p) => `${p.width}x${p.height}` === PHONE);

if (!BRIDGE || !OUT || !SPEC) {
  console.error(`touch.mjs: HUARONG_BRIDGE, HUARONG_SHOTS and HUARONG_PHONE (${PHONES.map((p) => `${p.width}x${p.height}`).join(' or ')}) must be set (run it through cargo test)`);
  process.exit(EXIT_FAIL);
}

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.error(`touch.mjs: playwright-core is missing (npm ci --prefix tests/chromium): ${e.message}`);
  process.exit(EXIT_NO_DEPS);
}

// A watchdog: one phone's run must end inside the Rust side's deadline (120 s).
setTimeout(() => {
  console.error(`touch.mjs: the ${PHONE} run took over 100 s`);
  process.exit(EXIT_FAIL);
}, 100_000).unref();

class CheckFailed extends Error {}
function check(cond, msg) {
  if (!cond) throw new CheckFailed(msg);
}
function eq(got, want, msg) {
  check(JSON.stringify(got) === JSON.stringify(want), `${msg}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

/** A command called straight on the bridge (set-up and checks; the page calls the same way). */
async function invoke(cmd, args = {}) {
  const r = await fetch(new URL('__invoke', BRIDGE), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cmd, args }),
  });
  const j = await r.json();
  if (!('ok' in j)) throw new CheckFailed(`${cmd}(${JSON.stringify(args)}) failed: ${JSON.stringify(j.error)}`);
  return j.ok;
}

/**
 * What Tauri gives the page (withGlobalTauri, freezePrototype), backed by the bridge; and a
 * probe that counts what must not happen (pointercancel, scrolls, CSP violations, errors)
 * and the pointer types seen (touch only).
 */
function initScript() {
  const post = async (cmd, args) => {
    const r = await fetch('/__invoke', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cmd, args: args === undefined ? {} : args }),
    });
    const j = await r.json();
    if ('ok' in j) return j.ok;
    throw j.error;
  };
  const internals = { invoke: (cmd, args) => post(cmd, args), metadata: { currentWindow: { label: 'main' }, currentWebview: { label: 'main', windowLabel: 'main' } } };
  Object.defineProperty(window, '__TAURI_INTERNALS__', { value: internals });
  Object.defineProperty(window, '__TAURI__', { value: Object.freeze({ core: Object.freeze({ invoke: (cmd, args) => internals.invoke(cmd, args) }) }) });
  const probe = { cancels: [], scrolls: 0, csp: [], errors: [], pointerTypes: {}, downs: 0 };
  Object.defineProperty(window, '__probe', { value: probe });
  addEventListener('pointercancel', (e) => probe.cancels.push(`${e.pointerType} on ${e.target && e.target.tagName}`), true);
  addEventListener('pointerdown', (e) => {
    probe.downs += 1;
    probe.pointerTypes[e.pointerType] = (probe.pointerTypes[e.pointerType] || 0) + 1;
  }, true);
  document.addEventListener('scroll', () => { probe.scrolls += 1; }, true);
  document.addEventListener('securitypolicyviolation', (e) => probe.csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  addEventListener('error', (e) => probe.errors.push(String(e.message)));
  addEventListener('unhandledrejection', (e) => probe.errors.push(`unhandled rejection: ${JSON.stringify(e.reason)}`));
  // Tauri's freezePrototype: a UI that writes to Object.prototype breaks in the real app too.
  Object.freeze(Object.prototype);
}

class Phone {
  constructor(browser, spec) {
    this.browser = browser;
    this.spec = spec;
    this.tag = `${spec.width}x${spec.height}`;
    this.pageErrors = [];
  }

  async open() {
    const { width, height, locale, colorScheme } = this.spec;
    this.ctx = await this.browser.newContext({
      viewport: { width, height },
      screen: { width, height },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
      locale,
      colorScheme,
      reducedMotion: 'no-preference',
    });
    await this.ctx.addInitScript(initScript);
    this.page = await this.ctx.newPage();
    this.page.on('pageerror', (e) => this.pageErrors.push(String(e)));
    // The browser's own favicon request is not the UI's (the app has no such request).
    const favicon = (u) => new URL(u).pathname === '/favicon.ico';
    this.page.on('response', (r) => {
      if (r.status() >= 400 && !favicon(r.url())) this.pageErrors.push(`HTTP ${r.status()} for ${r.url()}`);
    });
    this.page.on('console', (m) => {
      const loc = m.location() || {};
      if (m.type() === 'error' && !(loc.url && favicon(loc.url))) this.pageErrors.push(`console: ${m.text()} (${loc.url || ''})`);
    });
    this.cdp = await this.ctx.newCDPSession(this.page);
    this.fingers = null;
  }

  async close() {
    await this.ctx.close();
  }

  /** Load the UI fresh (with the page's `query`, e.g. `?test-game=lights`); it shows the screen Rust has saved. */
  async load(query = '') {
    await this.page.goto(new URL(query, BRIDGE).href, { waitUntil: 'load' });
    await this.until('the UI is ready', () => document.body && document.body.dataset.ready === '1');
    await this.page.evaluate(() => document.fonts.ready.then(() => true));
  }

  /** Open a game ID through the real `open_game`, make its screen the saved one, load the UI. */
  async openGame(id, query = '') {
    const view = await invoke('open_game', { id });
    const kind = view.snapshot.kind;
    await invoke('set_screen', { screen: `game:${kind}` });
    await this.load(query);
    await this.until(
      `the ${kind} board ${view.snapshot.board} is shown`,
      ([k, b]) => {
        const el = document.querySelector('[data-game][data-state]');
        return el && el.dataset.game === k && el.dataset.state === b;
      },
      [kind, view.snapshot.board],
    );
    // The board has laid itself out (its cells have a size).
    await this.until('the board is laid out', () => {
      const el = document.querySelector('[data-game]');
      const r = el && el.getBoundingClientRect();
      return r && r.width > 100;
    });
    return this.board();
  }

  async board() {
    return this.page.evaluate(() => {
      const b = document.querySelector('[data-game][data-state]');
      return b ? { game: b.dataset.game, state: b.dataset.state, moves: Number(b.dataset.moves), status: b.dataset.status } : null;
    });
  }

  /** Wait until `fn(arg)` is truthy in the page; a timeout fails with `what` and the probe. */
  async until(what, fn, arg = null) {
    try {
      await this.page.waitForFunction(fn, arg, { timeout: WAIT_MS });
    } catch (e) {
      const probe = await this.page.evaluate(() => window.__probe && { cancels: window.__probe.cancels, scrolls: window.__probe.scrolls }).catch(() => null);
      throw new CheckFailed(`${this.tag}: timed out waiting until ${what}; board ${JSON.stringify(await this.board().catch(() => null))}, probe ${JSON.stringify(probe)}`);
    }
  }

  /** Wait until the board's state is `state` (and, if given, the move count `moves`). */
  async waitState(state, moves) {
    try {
      await this.page.waitForFunction(
        ([s, m]) => {
          const b = document.querySelector('[data-game][data-state]');
          return b && b.dataset.state === s && (m === null || b.dataset.moves === String(m));
        },
        [state, moves === undefined ? null : moves],
        { timeout: WAIT_MS },
      );
    } catch (e) {
      throw new CheckFailed(`board did not reach ${state} (moves ${moves}); it is ${JSON.stringify(await this.board())}`);
    }
    return this.board();
  }

  /** Wait until the board's state differs from `state`. */
  async waitChange(state) {
    try {
      await this.page.waitForFunction(
        (s) => {
          const b = document.querySelector('[data-game][data-state]');
          return b && b.dataset.state !== s;
        },
        state,
        { timeout: WAIT_MS },
      );
    } catch (e) {
      throw new CheckFailed(`board stayed at ${state}`);
    }
    return this.board();
  }

  /** How many times the page called `cmd` (the UI's own invoke log). */
  async invoked(cmd) {
    return this.page.evaluate((c) => window.__huarongPerf.invokes.filter((x) => x[0] === c).length, cmd);
  }

  /** Wait until the page has had `n` answers to `cmd`. */
  async waitInvoked(cmd, n) {
    await this.until(`${n} answers to ${cmd}`, ([c, k]) => window.__huarongPerf.invokes.filter((x) => x[0] === c).length >= k, [cmd, n]);
  }

  async rect(css) {
    const r = await this.page.evaluate((s) => {
      const e = document.querySelector(s);
      if (!e) return null;
      const b = e.getBoundingClientRect();
      return { x: b.left, y: b.top, w: b.width, h: b.height, cx: b.left + b.width / 2, cy: b.top + b.height / 2 };
    }, css);
    check(r, `no element matches ${css}`);
    return r;
  }

  /**
   * One board cell in CSS px: the grid's width over its columns. (Not a piece's width: the
   * first Klotski piece may be 曹操, two cells wide.)
   */
  async cell(cols) {
    const w = await this.page.evaluate(() => {
      const g = document.querySelector('[data-game] .grid');
      return g ? g.getBoundingClientRect().width : 0;
    });
    check(w > 0, `${this.tag}: the board has no laid-out grid`);
    return w / cols;
  }

  /** The next animation frame has been painted (input pacing: one touch move per frame). */
  async frame() {
    await this.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  }

  async touch(type, points) {
    await this.cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: points.map((p, i) => ({ x: p.x, y: p.y, id: p.id === undefined ? i : p.id, radiusX: 4, radiusY: 4, force: 1 })),
    });
  }

  /** Put one finger down at `p`. */
  async press(p) {
    this.fingers = { x: p.x, y: p.y };
    await this.touch('touchStart', [p]);
    await this.frame();
  }

  /** Move the finger that is down to `p` in `steps` touch moves, one per frame. */
  async moveTo(p, steps = 6) {
    const a = this.fingers;
    for (let i = 1; i <= steps; i++) {
      const t = i / steps;
      await this.touch('touchMove', [{ x: a.x + (p.x - a.x) * t, y: a.y + (p.y - a.y) * t }]);
      await this.frame();
    }
    this.fingers = { x: p.x, y: p.y };
  }

  async lift() {
    await this.touch('touchEnd', []);
    this.fingers = null;
    await this.frame();
  }

  /** A drag through `points` (first = press, last = release). */
  async drag(points, steps = 6) {
    await this.press(points[0]);
    for (const p of points.slice(1)) await this.moveTo(p, steps);
    await this.lift();
  }

  /** A tap at the centre of the element matching `css` (Playwright's touchscreen). */
  async tap(css) {
    const r = await this.rect(css);
    await this.page.touchscreen.tap(r.cx, r.cy);
  }

  /**
   * Two fingers down at once on `a` and `b`, moved by (dx, dy) each (apart when they differ),
   * then lifted together.
   */
  async twoFingers(a, b, da = { x: 0, y: 0 }, db = { x: 0, y: 0 }) {
    await this.touch('touchStart', [{ ...a, id: 0 }, { ...b, id: 1 }]);
    await this.frame();
    for (let i = 1; i <= 4; i++) {
      const t = i / 4;
      await this.touch('touchMove', [
        { x: a.x + da.x * t, y: a.y + da.y * t, id: 0 },
        { x: b.x + db.x * t, y: b.y + db.y * t, id: 1 },
      ]);
      await this.frame();
    }
    await this.touch('touchEnd', []);
    await this.frame();
  }

  /**
   * What must hold after every gesture: nothing scrolled (window or any element), no
   * pointercancel, no zoom, no horizontal overflow, no CSP violation or page error, and
   * every pointer was a touch.
   */
  async settled(what) {
    const s = await this.page.evaluate(() => {
      const d = document.documentElement;
      const scrolled = [];
      for (const e of document.querySelectorAll('*')) if (e.scrollTop || e.scrollLeft) scrolled.push(`${e.tagName}.${e.className}: ${e.scrollLeft},${e.scrollTop}`);
      return {
        scroll: [window.scrollX, window.scrollY],
        scrolled,
        scrollEvents: window.__probe.scrolls,
        cancels: window.__probe.cancels,
        csp: window.__probe.csp,
        errors: window.__probe.errors,
        types: window.__probe.pointerTypes,
        zoom: window.visualViewport ? [window.visualViewport.scale, window.visualViewport.offsetLeft, window.visualViewport.offsetTop] : [1, 0, 0],
        overflow: [d.scrollWidth, d.clientWidth, document.body.scrollWidth, document.body.clientWidth],
        width: window.innerWidth,
      };
    });
    const at = `${this.tag} after ${what}`;
    eq(s.width, this.spec.width, `${at}: the layout viewport is the phone's width`);
    eq(s.scroll, [0, 0], `${at}: the page scrolled`);
    eq(s.scrolled, [], `${at}: an element scrolled`);
    eq(s.scrollEvents, 0, `${at}: scroll events fired`);
    eq(s.cancels, [], `${at}: pointercancel fired (the browser took the gesture)`);
    eq(s.zoom, [1, 0, 0], `${at}: the page zoomed or panned (visual viewport)`);
    check(s.overflow[0] <= s.overflow[1] && s.overflow[2] <= s.overflow[3], `${at}: horizontal overflow ${JSON.stringify(s.overflow)}`);
    eq(s.csp, [], `${at}: CSP violations`);
    eq(s.errors, [], `${at}: page errors`);
    eq(this.pageErrors, [], `${at}: page errors or console errors`);
    check(Object.keys(s.types).every((t) => t === 'touch'), `${at}: a pointer that was not a touch: ${JSON.stringify(s.types)}`);
  }

  async finishWon(what) {
    try {
      await this.page.waitForSelector('[data-finish="won"]', { timeout: WAIT_MS });
    } catch (e) {
      throw new CheckFailed(`${this.tag} ${what}: no finish dialog`);
    }
    // Wait until its entrance animation has ended, then check it lies inside the viewport.
    await this.until('the finish dialog has stopped animating', () => {
      const el = document.querySelector('[data-finish]');
      return el && el.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
    });
    // Every button is in view, or below it in the sheet's body, which scrolls inside the
    // viewport (the details under the actions); the one primary is always in view.
    const inside = await this.page.evaluate(() => {
      const out = [];
      const body = document.querySelector('[data-finish] .sheet-body');
      const bb = body && body.getBoundingClientRect();
      const scrolls = !!bb && bb.top >= -0.5 && bb.bottom <= innerHeight + 0.5 && body.scrollHeight > body.clientHeight;
      for (const e of document.querySelectorAll('[data-finish] button')) {
        const r = e.getBoundingClientRect();
        const sideways = r.left < -0.5 || r.right > innerWidth + 0.5;
        const away = r.top < -0.5 || r.bottom > innerHeight + 0.5;
        const reachable = scrolls && body.contains(e) && !e.classList.contains('primary');
        if (sideways || (away && !reachable)) out.push(e.getAttribute('data-action') || e.textContent);
      }
      return out;
    });
    eq(inside, [], `${this.tag} ${what}: finish dialog buttons outside the viewport (and out of the sheet's scroll)`);
    // Each button's label is on one line (not "Play / again" stacked beside its icon).
    const wrapped = await this.page.evaluate(() => {
      const out = [];
      for (const b of document.querySelectorAll('[data-finish] button')) {
        // Every text in it (a label may be a line of its own, e.g. a detail under the main
        // word): none runs onto a second line.
        const walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode()) {
          if (!n.textContent.trim()) continue;
          const tops = new Set();
          const range = document.createRange();
          range.selectNodeContents(n);
          for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
          if (tops.size > 1) out.push(`${b.dataset.action}: ${n.textContent.trim()} on ${tops.size} lines`);
        }
      }
      return out;
    });
    eq(wrapped, [], `${this.tag} ${what}: finish dialog labels wrap`);
    // The dialog took focus (for keyboard and screen-reader players), but a touch win shows no
    // focus ring on it.
    const focus = await this.focusRing();
    check(focus.inDialog, `${this.tag} ${what}: focus is not in the finish dialog (${focus.what})`);
    check(!focus.ring, `${this.tag} ${what}: a focus ring shows on ${focus.what} after a touch win`);
  }

  /** The focused element, whether it is in the finish dialog, and whether it draws a ring. */
  async focusRing() {
    return this.page.evaluate(() => {
      const e = document.activeElement;
      const st = e ? getComputedStyle(e) : null;
      return {
        what: e ? `${e.tagName} ${e.dataset.action || e.className}` : 'nothing',
        inDialog: !!(e && e.closest('[data-finish]')),
        ring: !!(st && st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0),
      };
    });
  }

  async shot(name) {
    const file = path.join(OUT, `chromium-${this.tag}-${name}.png`);
    // The last move has settled: no finite animation of the board running, and no 2048 cell
    // still hidden while the tiles slide in (its 120 ms timer, not an animation).
    await this.until('the board has settled', () => {
      const b = document.querySelector('[data-game]');
      if (!b) return true;
      if (b.querySelector('.arriving')) return false;
      return b.getAnimations({ subtree: true }).every((a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity);
    });
    await this.page.evaluate(() => document.fonts.ready.then(() => true));
    await this.frame();
    // CSS-pixel size (390×844, 360×780): what the layout is, at a size fit to keep in git.
    const png = await this.page.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
    // The shots are kept in git: one that shows the same picture as the kept file (raster
    // noise, a clock a tenth of a second off) leaves the file alone, so a run does not dirty
    // the tree; a changed layout, colour or text block replaces it.
    const old = fs.existsSync(file) ? fs.readFileSync(file) : null;
    if (!old || !(await this.samePicture(old, png))) fs.writeFileSync(file, png);
  }

  /**
   * Whether two PNGs are the same picture: same size, and at most 0.2 % of the pixels differ
   * by more than 16 levels in a channel (about two clock digits). Decoded in the app's page,
   * which it leaves alone (a second page would put this one in the background, where its
   * animation frames stop).
   */
  async samePicture(a, b) {
    return this.page.evaluate(async ([x, y]) => {
      const decode = async (b64) => {
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const g = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
        g.drawImage(bmp, 0, 0);
        return g.getImageData(0, 0, bmp.width, bmp.height);
      };
      const [p, q] = await Promise.all([decode(x), decode(y)]);
      if (p.width !== q.width || p.height !== q.height) return false;
      let differ = 0;
      for (let i = 0; i < p.data.length; i += 4) {
        for (let k = 0; k < 3; k++) {
          if (Math.abs(p.data[i + k] - q.data[i + k]) > 16) {
            differ += 1;
            break;
          }
        }
      }
      return differ <= p.width * p.height * 0.002;
    }, [a.toString('base64'), b.toString('base64')]);
  }
}

const at = (r, dx = 0, dy = 0) => ({ x: r.cx + dx, y: r.cy + dy });

/** The transform offset (px) of an element from where it was (its rect). */
async function moved(phone, css, from) {
  const r = await phone.rect(css);
  return { dx: r.x - from.x, dy: r.y - from.y };
}

// ---------------------------------------------------------------- number slide

async function slideTapsUndoTwoFingers(p) {
  await p.openGame('slide:3x3:1,2,3,4,0,6,7,5,8');
  await p.settled('open');
  // Tap: 6 slides left into the blank.
  await p.tap("[data-tile='6']");
  await p.waitState('3x3:1,2,3,4,6,0,7,5,8', 1);
  await p.settled('a tap');
  // Two fingers at once on tiles that could move (3 above the blank, 8 below): ignored.
  // (No wait for "nothing": the single tap after it is answered in order, so a move made by
  // the two fingers would show in the state and in the play count.)
  const plays = await p.invoked('play');
  const r3 = await p.rect("[data-tile='3']");
  const r8 = await p.rect("[data-tile='8']");
  await p.twoFingers(at(r3), at(r8));
  // …and a pinch (fingers apart) on the board neither zooms nor moves anything.
  const r1 = await p.rect("[data-tile='1']");
  const r7 = await p.rect("[data-tile='7']");
  await p.twoFingers(at(r1), at(r7), { x: -20, y: -30 }, { x: 20, y: 30 });
  // …and two fingers whose first lands on the blank (no tile to drag) and second on 8, which
  // a tap would move up: still a two-finger touch, nothing moves.
  const r6 = await p.rect("[data-tile='6']");
  await p.twoFingers({ x: r6.cx + r6.w, y: r6.cy }, at(r8));
  await p.settled('two-finger touches');
  // Nothing is stuck: the next single tap works (6 back right).
  await p.tap("[data-tile='6']");
  await p.waitState('3x3:1,2,3,4,0,6,7,5,8', 2);
  eq(await p.invoked('play'), plays + 1, `${p.tag}: only the single tap played (two-finger touches are ignored)`);
  await p.settled('the tap after two fingers');
  // Undo (a touch on the button).
  await p.tap("[data-action='undo']");
  await p.waitState('3x3:1,2,3,4,6,0,7,5,8', 1);
  await p.settled('undo');
  // A drag that starts vertically on the board: 3 down into the blank, following the finger.
  const cell = await p.cell(3);
  const s3 = await p.rect("[data-tile='3']");
  await p.press(at(s3));
  await p.moveTo(at(s3, 0, cell * 0.5), 6);
  await p.until(
    'tile 3 follows the finger half a cell down',
    ([y0, d]) => Math.abs(document.querySelector("[data-tile='3']").getBoundingClientRect().top - y0 - d) < 4,
    [s3.y, cell * 0.5],
  );
  const mid = await moved(p, "[data-tile='3']", s3);
  check(Math.abs(mid.dx) < 0.5, `${p.tag}: the tile left its column mid-drag (${mid.dx})`);
  await p.shot('slide-drag');
  await p.moveTo(at(s3, 2, cell * 0.95), 4);
  await p.lift();
  await p.waitState('3x3:1,2,0,4,6,3,7,5,8', 2);
  await p.settled('a vertical drag');
  await p.shot('slide-play');
}

async function slideRunDragWins(p) {
  await p.openGame('slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,0,13,14,15');
  const plays = await p.invoked('play');
  const cell = await p.cell(4);
  const r = {};
  for (const n of [13, 14, 15]) r[n] = await p.rect(`[data-tile='${n}']`);
  // Drag the far tile of the run: 13, 14 and 15 follow the finger together.
  await p.press(at(r[15]));
  await p.moveTo(at(r[15], -cell * 0.5, 0), 6);
  await p.until(
    'the run 13-14-15 follows the finger half a cell left',
    ([x0, d]) => Math.abs(x0 - document.querySelector("[data-tile='13']").getBoundingClientRect().left - d) < 4,
    [r[13].x, cell * 0.5],
  );
  for (const n of [13, 14, 15]) {
    const m = await moved(p, `[data-tile='${n}']`, r[n]);
    check(Math.abs(-m.dx - cell * 0.5) < 4 && Math.abs(m.dy) < 0.5, `${p.tag}: tile ${n} of the run did not follow: ${JSON.stringify(m)}`);
  }
  await p.moveTo(at(r[15], -cell, 0), 4);
  await p.lift();
  const b = await p.waitState('4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0');
  eq([b.status, b.moves], ['won', 3], `${p.tag}: the run drag solved the board (tile count)`);
  eq(await p.invoked('play'), plays + 1, `${p.tag}: one play for the whole run`);
  const snap = await invoke('snapshot', { kind: 'slide' });
  eq([snap.snapshot.counters.line, snap.snapshot.counters.tile], [1, 3], `${p.tag}: one line move, three tile moves`);
  await p.finishWon('slide win');
  await p.settled('the slide win');
  await p.shot('slide-won');
  // From the keyboard, focus shows again: Tab moves it to the next button, with its ring.
  await p.page.keyboard.press('Tab');
  const focus = await p.focusRing();
  check(focus.inDialog && focus.ring, `${p.tag}: Tab in the finish dialog shows no focus ring (${JSON.stringify(focus)})`);
}

// ---------------------------------------------------------------- Klotski

const pieceAt = (body, id) => {
  const rows = body.split('/');
  for (let r = 0; r < rows.length; r++) {
    const c = rows[r].indexOf(id);
    if (c >= 0) return [r, c];
  }
  return null;
};

async function klotskiCornerTapUndo(p) {
  const b0 = await p.openGame('klotski:aCCb/aCCb/cdde/cs.e/t..u');
  eq(pieceAt(b0.state, 's'), [3, 1], 'klotski start');
  const targets = await p.invoked('klotski_targets');
  const plays = await p.invoked('play');
  const cell = await p.cell(4);
  const r = await p.rect("[data-piece='s']");
  // Down one cell, then right one cell, finger held: the piece has come round the corner.
  await p.press(at(r));
  await p.moveTo(at(r, 0, cell), 6);
  await p.moveTo(at(r, cell, cell), 6);
  await p.waitInvoked('klotski_targets', targets + 1);
  await p.until(
    'piece s follows the finger down and round the corner',
    ([x0, y0, c]) => {
      const b = document.querySelector("[data-piece='s']").getBoundingClientRect();
      return Math.abs(b.left - x0 - c) < 3 && Math.abs(b.top - y0 - c) < 3;
    },
    [r.x, r.y, cell],
  );
  await p.shot('klotski-drag');
  await p.moveTo(at(r, cell * 1.05, cell * 1.05), 2);
  await p.lift();
  const b1 = await p.waitChange(b0.state);
  eq(pieceAt(b1.state, 's'), [4, 2], `${p.tag}: s went round the corner (${b1.state})`);
  eq(b1.moves, 1, `${p.tag}: an L-shaped drag is one move`);
  eq(await p.invoked('play'), plays + 1, `${p.tag}: one play for the L-shaped drag`);
  await p.settled('the corner drag');
  // A tap on a piece with one place to go moves it: d (2,1) down into (3,1).
  await p.tap("[data-piece='d']");
  const b2 = await p.waitChange(b1.state);
  eq([pieceAt(b2.state, 'd'), b2.moves], [[3, 1], 2], `${p.tag}: the tapped piece moved (${b2.state})`);
  await p.settled('a tap');
  // Two fingers, the first on d (which a tap would move back up): ignored; then undo by touch.
  const plays2 = await p.invoked('play');
  const rd = await p.rect("[data-piece='d']");
  const ra = await p.rect("[data-piece='a']");
  await p.twoFingers(at(rd), at(ra));
  await p.tap("[data-action='undo']");
  const b3 = await p.waitState(b1.state, 1);
  eq(await p.invoked('play'), plays2, `${p.tag}: two fingers on pieces played nothing`);
  eq(pieceAt(b3.state, 'd'), [2, 1], `${p.tag}: undo put d back`);
  await p.settled('two fingers and undo');
  await p.shot('klotski-play');
}

async function klotskiWin(p) {
  // 曹操 one cell above the exit: a vertical drag that starts on the board wins.
  const b0 = await p.openGame('klotski:abde/fghi/jCCl/mCCo/p..k');
  const cell = await p.cell(4);
  const r = await p.rect("[data-piece='C']");
  await p.drag([at(r), at(r, 0, cell * 0.5), at(r, 1, cell)], 6);
  const b = await p.waitChange(b0.state);
  eq([b.status, b.moves], ['won', 1], `${p.tag}: 曹操 out in one move`);
  await p.finishWon('klotski win');
  await p.settled('the klotski win');
  await p.shot('klotski-won');
}

// ---------------------------------------------------------------- 2048

async function g2048SwipesUndo(p) {
  const start = '2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0';
  const b0 = await p.openGame(`2048:${start}#5`);
  eq(b0.state, start, '2048 start');
  const r = await p.rect('[data-game]');
  // Swipe left across the board: 2 + 2 merge at the left, one tile spawns.
  await p.drag([at(r, r.w * 0.3, 0), at(r, -r.w * 0.3, 0)], 5);
  const b1 = await p.waitChange(start);
  const v1 = b1.state.split(',');
  eq([b1.moves, v1[0]], [1, '4'], `${p.tag}: 2+2 merged at the left`);
  eq(v1.filter((v) => v !== '0').length, 2, `${p.tag}: one tile spawned (${b1.state})`);
  eq(await p.page.evaluate(() => document.querySelector('[data-game] [data-value="4"]') !== null), true, `${p.tag}: a cell shows 4`);
  await p.settled('a swipe left');
  // A swipe that starts vertically on the board (down): a move, not a scroll.
  await p.drag([at(r, 0, -r.h * 0.3), at(r, 0, r.h * 0.3)], 5);
  const b2 = await p.waitChange(b1.state);
  const v2 = b2.state.split(',');
  eq([b2.moves, v2[12]], [2, '4'], `${p.tag}: the 4 went down to the bottom row (${b2.state})`);
  await p.settled('a swipe down');
  await p.shot('2048-play');
  // Two fingers swiping together: ignored; then undo by touch.
  const plays = await p.invoked('play');
  await p.twoFingers(at(r, -r.w * 0.15, 0), at(r, r.w * 0.15, 0), { x: 0, y: -r.h * 0.3 }, { x: 0, y: -r.h * 0.3 });
  await p.tap("[data-action='undo']");
  await p.waitState(b1.state, 1);
  eq(await p.invoked('play'), plays, `${p.tag}: a two-finger swipe played nothing`);
  await p.settled('two fingers and undo');
}

async function g2048Win(p) {
  const start = '1024,1024,0,0,0,0,0,0,0,0,0,0,0,0,0,0';
  await p.openGame(`2048:${start}#5`);
  const r = await p.rect('[data-game]');
  await p.drag([at(r, r.w * 0.3, r.h * 0.1), at(r, -r.w * 0.3, r.h * 0.1)], 5);
  const b = await p.waitChange(start);
  eq([b.status, b.state.split(',')[0], b.moves], ['won', '2048', 1], `${p.tag}: 1024 + 1024 made 2048`);
  await p.finishWon('2048 win');
  await p.settled('the 2048 win');
  await p.shot('2048-won');
}

// ---------------------------------------------------------------- the tests' stand-in

/**
 * The tests' stand-in game (Lights Out on one row: the engine's `stand-in` feature, which this
 * test build of the app has): its board module joins the page only with `?test-game=lights`,
 * gets a card on home with its thumbnail, and is played by touch to a win.
 */
async function standInLights(p) {
  await invoke('set_screen', { screen: 'home' });
  await p.load();
  await p.until('home is shown', () => document.getElementById('app').dataset.screen === 'home');
  eq(await p.page.evaluate(() => document.querySelector('.game-card[data-kind="lights"]') !== null), false, `${p.tag}: no stand-in without the test flag`);
  await p.load('?test-game=lights');
  await p.until('home shows the stand-in', () => document.querySelector('.game-card[data-kind="lights"] .mini-lights .m-on') !== null);
  const card = await p.page.evaluate(() => {
    const c = document.querySelector('.game-card[data-kind="lights"]');
    const on = c.querySelector('.mini-lights .m-on');
    return { title: c.querySelector('h2').textContent, on: getComputedStyle(on).backgroundColor, off: getComputedStyle(c.querySelector('.mini-lights .m:not(.m-on)')).backgroundColor };
  });
  check(card.title.length > 0 && !card.title.startsWith('game.'), `${p.tag}: the stand-in's card has no name (${card.title})`);
  check(card.on !== card.off, `${p.tag}: the thumbnail's lights are not styled (${JSON.stringify(card)})`);
  // lights:10110 goes out with two taps: lights 1 and 3 (each flips itself and its neighbours).
  const b0 = await p.openGame('lights:10110', '?test-game=lights');
  eq([b0.game, b0.state], ['lights', '10110'], `${p.tag}: the stand-in's board`);
  eq(await p.page.evaluate(() => [...document.querySelectorAll('[data-light]')].map((e) => e.dataset.on).join('')), '10110', `${p.tag}: the lights as Rust says`);
  await p.tap("[data-light='0']");
  const b1 = await p.waitState('01110', 1);
  eq(b1.status, 'playing', `${p.tag}: one tap flipped light 1 and its neighbour`);
  await p.settled('a tap on a light');
  await p.shot('lights-play');
  await p.tap("[data-light='2']");
  const b2 = await p.waitState('00000', 2);
  eq(b2.status, 'won', `${p.tag}: every light out`);
  await p.finishWon('the stand-in win');
  await p.settled('the stand-in win');
  await p.shot('lights-won');
}

async function homeScreen(p) {
  await invoke('set_screen', { screen: 'home' });
  await p.load();
  await p.until('home is shown', () => document.getElementById('app').dataset.screen === 'home');
  await p.settled('home');
  // Laid out for good first: the 2048 card's button where it was three frames ago (the cards
  // fill in as the screen's data arrives; under load a measure could catch them half done).
  await p.until('home is laid out', () => new Promise((done) => {
    const b = document.querySelector('.game-card[data-kind="2048"] .card-actions .btn');
    if (!b) return done(false);
    const y = () => b.getBoundingClientRect().bottom;
    const y0 = y();
    requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => done(y() === y0))));
  }));
  // Today's challenge leads, and the 2048 card's button is still on the first screen.
  const home = await p.page.evaluate(() => {
    const first = document.querySelector('.scroll > *');
    const b = document.querySelector('.game-card[data-kind="2048"] .card-actions .btn');
    return { first: first && first.className, bottom: b ? b.getBoundingClientRect().bottom : null, h: innerHeight };
  });
  eq(home.first, 'today', `${p.tag}: home does not start with today's challenge`);
  check(home.bottom !== null && home.bottom <= home.h, `${p.tag}: the 2048 card's button is below the first screen (${home.bottom} > ${home.h})`);
  await p.shot('home');
}

/**
 * The checks can fail: a planted scroll box that lets the browser pan (touch-action: pan-y)
 * makes a vertical touch drag scroll and fire pointercancel, and a planted inline style is a
 * CSP violation; `settled` must report each. (So "no pointercancel, no scroll" on the boards
 * means the boards kept the gesture, not that CDP touches never pan.)
 */
async function checksCanFail(p) {
  await invoke('set_screen', { screen: 'home' });
  await p.load();
  await p.page.evaluate(() => {
    const box = document.createElement('div');
    box.id = 'planted';
    Object.assign(box.style, { position: 'fixed', left: '40px', top: '200px', width: '200px', height: '200px', overflowY: 'auto', touchAction: 'pan-y', zIndex: '99' });
    const tall = document.createElement('div');
    tall.style.height = '2000px';
    box.append(tall);
    box.addEventListener('pointerdown', () => {});
    document.body.append(box);
  });
  const r = await p.rect('#planted');
  await p.drag([at(r, 0, 60), at(r, 0, -60)], 6);
  await p.until(
    'the pan scrolled the planted box and cancelled its pointer',
    () => document.getElementById('planted').scrollTop > 0 && window.__probe.cancels.length > 0 && window.__probe.scrolls > 0,
  );
  let caught = '';
  try {
    await p.settled('a pan on a planted scroll box');
  } catch (e) {
    caught = e.message;
  }
  check(/pointercancel|scroll/.test(caught), `${p.tag}: a browser pan went unnoticed (${caught || 'no failure'})`);
  // An inline style attribute is refused by the CSP, and reported.
  await p.load();
  await p.page.evaluate(() => {
    const d = document.createElement('div');
    d.setAttribute('style', 'color: red');
    document.body.append(d);
  });
  await p.until('the CSP violation is reported', () => window.__probe.csp.length > 0);
  caught = '';
  try {
    await p.settled('a planted inline style');
  } catch (e) {
    caught = e.message;
  }
  check(/CSP/.test(caught), `${p.tag}: a CSP violation went unnoticed (${caught || 'no failure'})`);
  p.pageErrors = [];
}

const SCENARIOS = [checksCanFail, slideTapsUndoTwoFingers, slideRunDragWins, klotskiCornerTapUndo, klotskiWin, g2048SwipesUndo, g2048Win, standInLights, homeScreen];

// This phone's failure shots of an earlier run go (the kept shots are compared, see `shot`).
fs.mkdirSync(OUT, { recursive: true });
fs.mkdirSync(FAILED_OUT, { recursive: true });
for (const f of fs.readdirSync(FAILED_OUT)) if (f.startsWith(`chromium-${PHONE}-FAILED-`) && f.endsWith('.png')) fs.rmSync(path.join(FAILED_OUT, f));
let browser;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: 60_000 });
} catch (e) {
  console.error(`touch.mjs: chromium (${CHROMIUM}) could not start: ${e.message}`);
  process.exit(EXIT_NO_BROWSER);
}
console.log(`chromium ${browser.version()}`);
let failed = 0;
try {
  const phone = new Phone(browser, SPEC);
  await phone.open();
  for (const sc of SCENARIOS) {
    const t0 = Date.now();
    try {
      await sc(phone);
      console.log(`ok   ${phone.tag} ${sc.name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${phone.tag} ${sc.name}: ${e instanceof CheckFailed ? e.message : e.stack}`);
      await phone.page.screenshot({ path: path.join(FAILED_OUT, `chromium-${phone.tag}-FAILED-${sc.name}.png`) }).catch(() => {});
      // A failed scenario may leave a finger down: lift it before the next one.
      await phone.touch('touchCancel', []).catch(() => {});
      phone.pageErrors = [];
    }
  }
  await phone.close();
} finally {
  await browser.close();
}
process.exit(failed ? EXIT_FAIL : 0);
