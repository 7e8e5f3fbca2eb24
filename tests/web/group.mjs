// A group challenge (擂台) on the web page, in Debian's chromium with touch.
//
// 1. The host plays a 3×3 by taps and, from the finish, taps "Start a group challenge"
//    (`[data-action="group-new"]`, outlined, never the primary): `[data-screen="group"]`
//    shows the new group, its invite link on the screen (`data-invite`).
// 2. Three players, each in a browser context of their own, open the invite link: the group
//    screen, with the time left (`[data-deadline]`, about 24 h) and Play. Each taps Play, plays
//    by taps (12, 14 and 16 moves) and makes their result code (`result_code`), which names the
//    group (`decode_code` of it opens the same puzzle). The first goes back to the group
//    screen: its primary is now "Share your result".
// 3. A fourth opens the invite, puts one chat text holding the three results among other talk
//    on the clipboard and taps "Paste the chat": "+3 new · 0 already here · 0 not valid"; the
//    same text again: "+0 new · 3 already here · 0 not valid". `[data-screen="group"]` lists the
//    players in `group {group}`'s order (Ann, Bo, Cy: fewer moves first), places 1–3, verified.
// 4. Screenshots of the group screen after the paste, zh and en, light and dark, 390×844 and
//    360×780: tests/e2e/screenshots/web-<w>x<h>-<lang>-<theme>-group.png; the host's finish with
//    its outlined "Start a group challenge": web-390x844-en-light-group-finish.png.
//
// Started by tests/tests/web_group.rs (HUARONG_GROUP_CASE: the board, its share code and taps).

import path from 'node:path';
import fs from 'node:fs';
import { EXIT_FAIL, check, suite, phone, until, call, tap, boardShown } from './common.mjs';

const SHOTS = process.env.HUARONG_SHOTS;
const CASE = JSON.parse(process.env.HUARONG_GROUP_CASE || 'null');
if (!SHOTS || !CASE) {
  console.error('group.mjs: HUARONG_SHOTS and HUARONG_GROUP_CASE must be set (run it through cargo test -p huarong-tests --test web_group)');
  process.exit(EXIT_FAIL);
}
fs.mkdirSync(SHOTS, { recursive: true });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function shot(page, name) {
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** A phone context whose pages may read and write the clipboard (a tap still reads it). */
async function context(browser, origin, spec) {
  const ctx = await phone(browser, spec);
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return ctx;
}

async function tapLine(page, taps) {
  for (const n of taps) {
    const before = await page.$eval('[data-game][data-state]', (el) => el.dataset.moves);
    await tap(page, `[data-game] [data-tile="${n}"]`);
    await until(page, `tile ${n} moved`, (b) => document.querySelector('[data-game][data-state]').dataset.moves !== b, before);
  }
}

async function setName(page, name) {
  const r = await call(page, 'set_settings', { settings: { name } });
  check(r.ok, `set_settings: ${JSON.stringify(r.error)}`);
}

const groupShown = (page, what) => until(page, what, () => document.querySelector('#app[data-screen="group"] [data-group] [data-deadline]'));

/** The host: play, then start the group from the finish. */
async function host(browser, origin) {
  const ctx = await context(browser, origin, { width: 390, height: 844, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(`${origin}/index.html?c=${encodeURIComponent(CASE.share)}`, { waitUntil: 'load' });
  await boardShown(page, CASE.board);
  await setName(page, 'Host');
  await tapLine(page, CASE.taps);
  await until(page, 'the host won', () => document.querySelector('[data-finish] [data-action="group-new"]'));
  const cls = await page.$eval('[data-finish] [data-action="group-new"]', (b) => b.className);
  check(!cls.split(' ').includes('primary'), `"Start a group challenge" is not the filled action: ${cls}`);
  await page.$eval('[data-finish] [data-action="group-new"]', (b) => b.scrollIntoView({ block: 'center' }));
  await sleep(600);
  await shot(page, 'web-390x844-en-light-group-finish.png');
  await tap(page, '[data-finish] [data-action="group-new"]');
  await groupShown(page, 'the new group shown');
  const g = await page.$eval('[data-group]', (el) => ({ group: el.dataset.group, invite: el.dataset.invite }));
  check(/^[0-9a-f]{12}$/.test(g.group) && g.invite.length > 0 && g.invite.length <= 180, `the new group: ${JSON.stringify(g)}`);
  const view = await call(page, 'group', { group: g.group });
  check(view.ok && view.ok.left_ms > 23 * 3600e3 && view.ok.left_ms <= 24 * 3600e3, `a day to play: ${JSON.stringify(view)}`);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  check(copied === g.invite, `the invite link is copied: ${JSON.stringify(copied)}`);
  console.log(`host: group ${g.group}, invite ${g.invite.length} chars`);
  await ctx.close();
  return g;
}

/** A player: open the invite, play (`detours` extra pairs of taps), make the result code. */
async function player(browser, origin, g, name, detours, back) {
  const ctx = await context(browser, origin, { width: 390, height: 844, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(g.invite.replace(/^[^?]*\?/, `${origin}/index.html?`), { waitUntil: 'load' });
  await groupShown(page, `${name}: the invite shows the group`);
  const shown = await page.$eval('[data-group]', (el) => el.dataset.group);
  check(shown === g.group, `${name}: group ${shown}, not ${g.group}`);
  await page.waitForSelector('[data-action="group-play"]');
  await setName(page, name);
  await tap(page, '[data-action="group-play"]');
  await boardShown(page, CASE.board);
  const extra = [];
  for (let i = 0; i < detours; i += 1) extra.push(CASE.taps[0], CASE.taps[0]);
  await tapLine(page, extra.concat(CASE.taps));
  await until(page, `${name} won`, () => document.querySelector('[data-game][data-status="won"]'));
  const rc = await call(page, 'result_code', { kind: 'slide' });
  check(rc.ok && rc.ok.replay && rc.ok.moves === CASE.taps.length + 2 * detours, `${name}: result_code ${JSON.stringify(rc)}`);
  if (back) {
    // Back to the group (the finish closes, then the game): its primary is now Share.
    // The finish comes up a moment after the win; it closes first, then the game goes back.
    await until(page, `${name}: the finish`, () => document.querySelector('[data-finish] [data-action="close"]'));
    await tap(page, '[data-finish] [data-action="close"]');
    await until(page, `${name}: the finish closed`, () => !document.querySelector('[data-finish]'));
    await tap(page, '.bar [data-action="back"]');
    await groupShown(page, `${name}: back on the group`);
    await page.waitForSelector('[data-action="group-share"]');
    await tap(page, '[data-action="group-share"]');
    await until(page, `${name}: shared`, () => document.querySelector('[data-action="group-share"][data-shared]'));
    const shared = await page.$eval('[data-action="group-share"]', (b) => b.dataset.shared);
    check(shared === rc.ok.code, `${name}: Share your result gives the result code`);
    const me = await page.$eval('[data-group-row][data-me="1"]', (r) => r.dataset.groupRow);
    check(me === name, `${name}: their own row is marked: ${me}`);
  }
  console.log(`${name}: ${rc.ok.moves} moves, code ${rc.ok.code.length} chars`);
  await ctx.close();
  return rc.ok;
}

/** A chat excerpt: names, times, talk, and the results as links or bare codes. */
function chat(results) {
  const [a, b, c] = results;
  return [
    'Ann 09:12',
    `done! ${a.link}`,
    'Bo 09:30',
    'that was hard, took me a while',
    b.code,
    'Dan 09:31',
    'is this the one from yesterday? http://example.com/not-a-code',
    'Cy 10:02',
    `mine: ${c.link} 😅`,
  ].join('\n');
}

/** The reader: open the invite, paste the chat; the standings as Rust ranks them. */
async function reader(browser, origin, g, text, { width, height, lang, theme }, first) {
  const tag = `${width}×${height} ${lang} ${theme}`;
  const ctx = await context(browser, origin, { width, height, locale: lang === 'zh' ? 'zh-CN' : 'en-US', colorScheme: theme });
  const page = await ctx.newPage();
  await page.goto(g.invite.replace(/^[^?]*\?/, `${origin}/index.html?`), { waitUntil: 'load' });
  await groupShown(page, `${tag}: the group`);
  await setName(page, 'Dan');
  await page.evaluate((s) => navigator.clipboard.writeText(s), text);
  await tap(page, '[data-action="group-paste"]');
  await until(page, `${tag}: the paste said`, () => document.querySelector('[data-paste-note="done"]'));
  const note = await page.$eval('[data-paste-note]', (n) => n.textContent);
  const want = lang === 'zh' ? '新增 3 · 已有 0 · 无效 0' : '+3 new · 0 already here · 0 not valid';
  check(note === want, `${tag}: the paste says ${JSON.stringify(note)}`);
  await until(page, `${tag}: three rows`, () => document.querySelectorAll('[data-group-row]').length === 3);
  const rows = await page.$$eval('[data-group-row]', (els) => els.map((e) => ({ name: e.dataset.groupRow, place: Number(e.dataset.place), moves: Number(e.dataset.moves), verified: e.dataset.verified, text: e.textContent })));
  const v = await call(page, 'group', { group: g.group });
  check(v.ok, `${tag}: group ${JSON.stringify(v.error)}`);
  const rust = v.ok.rows.map((r) => ({ name: r.name, place: r.place, moves: r.moves }));
  check(JSON.stringify(rows.map(({ name, place, moves }) => ({ name, place, moves }))) === JSON.stringify(rust), `${tag}: the screen ${JSON.stringify(rows)} against group's ${JSON.stringify(rust)}`);
  check(rows.map((r) => r.name).join() === 'Ann,Bo,Cy', `${tag}: fewer moves first: ${rows.map((r) => r.name)}`);
  check(rows.every((r) => r.verified === '1' && r.text.includes(lang === 'zh' ? '已回放' : 'verified')), `${tag}: verified, in words: ${JSON.stringify(rows)}`);
  if (first) {
    // The same chat again: nothing new, every line already here.
    await tap(page, '[data-action="group-paste"]');
    await until(page, `${tag}: the second paste said`, () => /already here/.test(document.querySelector('[data-paste-note]').textContent) && document.querySelector('[data-paste-note]').dataset.duplicates === '3');
    const again = await page.$eval('[data-paste-note]', (n) => n.textContent);
    check(again === '+0 new · 3 already here · 0 not valid', `the second paste says ${JSON.stringify(again)}`);
    console.log(`reader: "${note}", then "${again}"; rows ${rows.map((r) => `${r.place}. ${r.name} ${r.moves}`).join(', ')} as group gives them`);
  }
  const dl = await page.$eval('[data-deadline]', (d) => d.textContent);
  check(lang === 'zh' ? /^还剩 23 小时 \d+ 分$/.test(dl) : /^23 h \d+ min left$/.test(dl), `${tag}: the time left says ${JSON.stringify(dl)}`);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(300);
  await shot(page, `web-${width}x${height}-${lang}-${theme}-group.png`);
  const errs = await page.evaluate(() => window.__huarongErrors.slice());
  check(errs.length === 0, `${tag}: script errors ${JSON.stringify(errs)}`);
  await ctx.close();
}

await suite('group.mjs', 280, async ({ origin, browser }) => {
  const g = await host(browser, origin);
  const results = [];
  results.push(await player(browser, origin, g, 'Ann', 0, true));
  results.push(await player(browser, origin, g, 'Bo', 1, false));
  results.push(await player(browser, origin, g, 'Cy', 2, false));
  const text = chat(results);
  let first = true;
  for (const [width, height] of [[390, 844], [360, 780]]) {
    for (const lang of ['en', 'zh']) {
      for (const theme of ['light', 'dark']) {
        await reader(browser, origin, g, text, { width, height, lang, theme }, first);
        first = false;
      }
    }
  }
});
