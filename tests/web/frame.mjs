// The page refuses to start its core inside a frame (boot.js: `top !== self`), so a page of
// another site (or a frame of this one) cannot take the Web Lock of the player's own tab. Run by
// tests/tests/web_frame.rs on a built web/dist, Debian's chromium, loopback only.
//
// 1. The page on its own starts its core (`window.__huarongCoreWorker`, `body[data-ready]`).
// 2. The same page in an iframe of a framing page (same origin: the worst case, nothing
//    partitions it) starts none: no core worker, never ready, and the player's tab, open beside
//    it, keeps its Web Lock and answers commands.
//
// Exit codes: 0 passed, 1 a check failed, 3 chromium could not start, 4 playwright-core is missing.

import { suite, phone, until, call, check } from './common.mjs';

await suite('frame.mjs', 120, async ({ origin, browser }) => {
  const ctx = await phone(browser);
  // A framing page, served beside the site (the site has none).
  await ctx.route(`${origin}/framing.html`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><title>framing</title><iframe id="f" src="${origin}/" width="390" height="700"></iframe>` }),
  );

  // 1. The player's own tab.
  const own = await ctx.newPage();
  await own.goto(`${origin}/`);
  await until(own, 'the page is ready', () => document.body.dataset.ready === '1', null, 60_000);
  check(await own.evaluate(() => Boolean(window.__huarongCoreWorker)), 'the page on its own started no core');
  const locksBefore = await own.evaluate(async () => (await navigator.locks.query()).held.length);

  // 2. The page framed.
  const framer = await ctx.newPage();
  await framer.goto(`${origin}/framing.html`);
  const handle = await framer.waitForSelector('#f');
  const frame = await handle.contentFrame();
  check(frame, 'the frame has no document');
  await frame.waitForLoadState('load');
  // Long enough for a core to start and take its lock (the page on its own was ready well before).
  await framer.waitForTimeout(3000);
  const inFrame = await frame.evaluate(() => ({
    worker: Boolean(window.__huarongCoreWorker),
    framed: window.__huarongFramed === true,
    ready: document.body.dataset.ready === '1',
  }));
  console.log(`framed page: ${JSON.stringify(inFrame)}`);
  check(!inFrame.worker, 'the framed page started its core');
  check(inFrame.framed, 'the framed page did not see it is framed');
  check(!inFrame.ready, 'the framed page says it is ready');
  const locksAfter = await own.evaluate(async () => (await navigator.locks.query()).held.length);
  check(locksAfter === locksBefore, `the frame took a lock: ${locksBefore} held before, ${locksAfter} after`);
  const snap = await call(own, 'get_progress', {});
  check(snap.ok, `the player's tab stopped answering: ${JSON.stringify(snap.error)}`);
  console.log('frame.mjs: passed');
});
