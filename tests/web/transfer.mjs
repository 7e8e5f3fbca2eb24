// Progress that moves and the history out, on the web page (tests/tests/web_transfer.rs): on
// one browser profile two wins, and the settings' "Move to another phone" export is a download
// of huarong-progress-<date>.json; on another profile (its own IndexedDB) one win of its own,
// then the file picked in its settings is merged (the status says what changed, in Chinese),
// picked again it is nothing new, and a damaged copy is refused with its reason. The records
// screen's "Export history (CSV)" downloads one row per finish. Screenshots of the section in
// English and Chinese: tests/e2e/screenshots/web-transfer-{en,zh}.png, and the records' export
// item: web-transfer-records-zh.png.

import fs from 'node:fs';
import path from 'node:path';
import { suite, phone, until, call, check } from './common.mjs';

const CASE = JSON.parse(process.env.HUARONG_TRANSFER_CASE || '{"wins": []}');
const SHOTS = process.env.HUARONG_SHOTS || null;

async function ready(page) {
  await until(page, 'the UI is ready', () => document.body && document.body.dataset.ready === '1', null, 30_000);
}

/** Win a game: `open_game`, then its moves through the page's ipc. */
async function win(page, c) {
  const o = await call(page, 'open_game', { id: c.id, replace: true });
  check(o.ok, `open_game ${c.id}: ${JSON.stringify(o.error)}`);
  let last = null;
  for (const mv of c.moves) {
    last = await call(page, 'play', { kind: 'slide', mv });
    check(last.ok, `play: ${JSON.stringify(last.error)}`);
  }
  check(last.ok.snapshot.status === 'won', `${c.id} won`);
}

/** Show a screen as a start shows the saved one. */
async function show(page, name) {
  const r = await call(page, 'set_screen', { screen: name });
  check(r.ok !== undefined, `set_screen ${name}: ${JSON.stringify(r.error)}`);
  await page.reload({ waitUntil: 'load' });
  await ready(page);
  await until(page, `the ${name} screen`, (s) => document.getElementById('app').dataset.screen === s, name);
}

async function shot(page, name) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.$eval('[data-setting="move"]', (el) => el.scrollIntoView({ block: 'center' }));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: path.join(SHOTS, `web-transfer-${name}.png`) });
}

const status = (page) => page.$eval('#move-status', (el) => el.textContent);

await suite('transfer.mjs', 240, async ({ origin, browser }) => {
  check(CASE.wins.length === 3, 'three wins to play');
  // Device A.
  const a = await phone(browser, { locale: 'en-US' });
  const pa = await a.newPage();
  await pa.goto(`${origin}/`);
  await ready(pa);
  for (const c of CASE.wins.slice(0, 2)) await win(pa, c);
  await show(pa, 'settings');
  const title = await pa.$eval('#move-title', (el) => el.textContent);
  check(title === 'Move to another phone', `the section's title: ${title}`);
  const [dl] = await Promise.all([pa.waitForEvent('download'), pa.click('[data-action="export-progress"]')]);
  const name = dl.suggestedFilename();
  check(/^huarong-progress-\d{4}-\d{2}-\d{2}\.json$/.test(name), `the file's name: ${name}`);
  const file = await dl.path();
  const text = fs.readFileSync(file, 'utf8');
  check(text.startsWith('{"format":"huarong-progress","version":1,'), 'a progress file');
  await shot(pa, 'en');

  // Device B: one win of its own, then A's file picked in its settings.
  const b = await phone(browser, { locale: 'zh-CN' });
  const pb = await b.newPage();
  await pb.goto(`${origin}/`);
  await ready(pb);
  await win(pb, CASE.wins[2]);
  await show(pb, 'settings');
  const zhTitle = await pb.$eval('#move-title', (el) => el.textContent);
  check(zhTitle === '迁移到新手机', `the section's title in Chinese: ${zhTitle}`);
  await pb.setInputFiles('#move-picker', file);
  await until(pb, 'the import says what changed', () => document.getElementById('move-status').textContent.startsWith('已合并'));
  const said = await status(pb);
  check(said.includes('1 项记录') && said.includes('2 局对局'), `what changed: ${said}`);
  const rec = await call(pb, 'records', { scope: 'slide:3x3' });
  check(rec.ok.history.length === 3, `three finishes after the import: ${rec.ok.history.length}`);
  await shot(pb, 'zh');
  // The same file again: nothing new.
  await pb.setInputFiles('#move-picker', file);
  await until(pb, 'nothing new', () => document.getElementById('move-status').textContent.startsWith('没有新内容'));
  // A damaged copy: refused, and says why.
  const bad = Buffer.from(text.slice(0, Math.floor(text.length / 2)));
  await pb.setInputFiles('#move-picker', { name, mimeType: 'application/json', buffer: bad });
  await until(pb, 'the damaged file refused', () => document.getElementById('move-status').textContent.includes('损坏'));
  check((await call(pb, 'records', { scope: 'slide:3x3' })).ok.history.length === 3, 'nothing changed');

  // The records screen: every finish as CSV.
  await show(pb, 'records');
  await until(pb, 'the history export', () => !!document.querySelector('[data-action="export-history"]'));
  if (SHOTS) {
    await pb.$eval('[data-action="export-history"]', (el) => el.scrollIntoView({ block: 'center' }));
    await pb.screenshot({ path: path.join(SHOTS, 'web-transfer-records-zh.png') });
  }
  const [csv] = await Promise.all([pb.waitForEvent('download'), pb.click('[data-action="export-history"]')]);
  check(/^huarong-history-\d{4}-\d{2}-\d{2}\.csv$/.test(csv.suggestedFilename()), `the CSV's name: ${csv.suggestedFilename()}`);
  const lines = fs.readFileSync(await csv.path(), 'utf8').trim().split('\n');
  check(lines.length === 4 && lines[0].startsWith('date,finished_at_utc,game,scope,game_id'), `a header and three rows: ${lines.length}`);
  for (const p of [pa, pb]) {
    const probe = await p.evaluate(() => window.__probe);
    check(probe.errors.length === 0 && probe.csp.length === 0, `no page errors: ${JSON.stringify(probe)}`);
  }
  console.log(`transfer: ${name} downloaded, merged on another profile (${said}), again nothing new, a damaged copy refused, ${lines.length - 1} CSV rows`);
  await a.close();
  await b.close();
});
