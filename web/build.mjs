// Writes the static web site (`./dev.sh web build`): node web/build.mjs <wasm dir> <dist>
//
// <wasm dir> holds three wasm-bindgen outputs (--target web): first/ (crates/web-first: the
// first core, which answers a first visit's shared board while the core downloads), and two of
// crates/web: board/ (built without the `full` feature: the rules, codes, slots, journal and
// records: the board's worker starts on it) and full/ (everything: the search workers, and the
// board's worker once a command needs more). Each is <crate>.js + <crate>_bg.wasm.
//
// dist/ (every URL relative: the site works under any path prefix):
//   index.html           ui/index.html with its stylesheets and modules replaced by the
//                        bundles below (the first paint's CSS inline), the CSP (a meta tag: a
//                        static host sets no headers), the manifest, the icons, and a preload of
//                        the board's wasm (its download starts with the page, beside the UI's)
//   assets/              every file named by the hash of its content (cache forever):
//     ui-<h>.css           ui/css/* in index.html's order (the boards' at their marker) but
//                          what paints the first frame (the sheets before the marker, and the
//                          shell's: inline in index.html, allowed by its hash in the CSP);
//                          preloaded, added by boot.js (not render-blocking)
//     boot-<h>.js          web/src/boot.js (the board's worker and its wasm), an async script:
//                          it runs as soon as it is here, before the modules
//     app-<h>.js           web/src/entry.js: the boot again (for a page where it came late),
//                          pwa.js, ui/js/main.js with every module it imports
//     core-worker-<h>.js   the board's worker with the board build's glue (+ a chunk with the
//                          full build's glue, imported when needed)
//     search-worker-<h>.js the search worker with the full build's glue
//     first-<h>.wasm, board-<h>.wasm, full-<h>.wasm, pdb4x4-<h>.bin (the 4×4 tables, fetched
//                          by a 4×4 search)
//   js/ipc.js            `export * from` the page's bundle: the page's own back end for scripts
//   css/                 base.css (get-app.html's) and the stylesheets the UI loads when a
//                        feature first shows (not in the bundle)
//   pictures/, sounds/   as in ui/ (loaded by name)
//   manifest.webmanifest, icons/icon-192.png, icons/icon-512.png   the PWA (icons drawn here)
//   sw.js                the service worker, its cache named by a hash of everything above
//   get-app.html         where "Get the app" leads
// esbuild (web/package.json, pinned) bundles; the Tauri app keeps loading ui/ as it is.

import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { files, compressible } from './serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const [wasmDir, distArg] = process.argv.slice(2);
if (!wasmDir || !distArg) {
  console.error('usage: node web/build.mjs <wasm dir: board/ and full/ from wasm-bindgen> <dist dir>');
  process.exit(2);
}
const dist = path.resolve(distArg);

export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function copyTree(from, to, skip = () => false) {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (skip(a, e)) continue;
    if (e.isDirectory()) copyTree(a, b, skip);
    else fs.copyFileSync(a, b);
  }
}

// ---- PNG icons, drawn here (a 4×4 number slide with one tile missing, the app's colours) ----

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k += 1) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function png(size, pixel) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y += 1) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x += 1) {
      const [r, g, b, a] = pixel(x + 0.5, y + 0.5);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Inside a rounded rectangle (x0, y0)–(x1, y1) with corner radius r. */
function inRound(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function icon(size) {
  const accent = [0xa3, 0x27, 0x1d, 255];
  const tile = [0xf5, 0xef, 0xe3, 255];
  const pad = size * 0.14; // inside the maskable safe zone
  const cell = (size - 2 * pad) / 4;
  const gap = cell * 0.1;
  return png(size, (x, y) => {
    const cx = Math.floor((x - pad) / cell);
    const cy = Math.floor((y - pad) / cell);
    if (cx < 0 || cy < 0 || cx > 3 || cy > 3 || (cx === 3 && cy === 3)) return accent;
    const x0 = pad + cx * cell + gap / 2;
    const y0 = pad + cy * cell + gap / 2;
    return inRound(x, y, x0, y0, x0 + cell - gap, y0 + cell - gap, cell * 0.16) ? tile : accent;
  });
}

// ---- the site ----

const esbuild = createRequire(import.meta.url)('esbuild');

/** The first 12 hex digits of the SHA-256 of `bytes`. */
const hashOf = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 12);

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
for (const dir of ['pictures', 'sounds']) copyTree(path.join(root, 'ui', dir), path.join(dist, dir), (a) => a.endsWith('.py'));
const assets = path.join(dist, 'assets');
fs.mkdirSync(assets, { recursive: true });

/** Copy `from` into assets/ as `<stem>-<hash><ext>`; its name. */
function hashed(from, stem, ext) {
  const bytes = fs.readFileSync(from);
  const name = `${stem}-${hashOf(bytes)}${ext}`;
  fs.writeFileSync(path.join(assets, name), bytes);
  return name;
}
/** The crate each build is made of (its wasm-bindgen outputs are named after it). */
const CRATE = { first: 'huarong_web_first', board: 'huarong_web', full: 'huarong_web' };
const glue = (build) => path.join(path.resolve(wasmDir), build, `${CRATE[build]}.js`);
for (const build of Object.keys(CRATE)) {
  if (!fs.existsSync(glue(build))) throw new Error(`${glue(build)} is missing: run ./dev.sh web build`);
}
const wasmOf = (build) => hashed(path.join(path.resolve(wasmDir), build, `${CRATE[build]}_bg.wasm`), build, '.wasm');
const wasm = {
  first: wasmOf('first'),
  board: wasmOf('board'),
  full: wasmOf('full'),
  pdb: hashed(path.join(root, 'crates', 'engine', 'src', 'slide', 'pdb4x4.bin'), 'pdb4x4', '.bin'),
};

const common = {
  bundle: true,
  format: 'esm',
  target: 'esnext',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  outdir: assets,
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  alias: { 'huarong-glue-first': glue('first'), 'huarong-glue-board': glue('board'), 'huarong-glue-full': glue('full') },
  metafile: true,
  write: true,
};
/** The output file of `entry` (its name under assets/) in esbuild's metafile. */
function outputOf(result, entry) {
  const want = path.resolve(entry);
  for (const [out, info] of Object.entries(result.metafile.outputs)) {
    if (info.entryPoint && path.resolve(info.entryPoint) === want) return path.basename(out);
  }
  throw new Error(`esbuild wrote no output for ${entry}`);
}

// The workers: the search worker first (the board's worker names it).
const workerBuild = (search) => ({ __HUARONG_FULL__: JSON.stringify(wasm.full), __HUARONG_PDB__: JSON.stringify(wasm.pdb), __HUARONG_SEARCH__: JSON.stringify(search) });
const searchEntry = path.join(here, 'src', 'search-worker.js');
const searchOut = await esbuild.build({ ...common, entryPoints: [searchEntry], define: workerBuild('') });
const searchWorker = outputOf(searchOut, searchEntry);
const coreEntry = path.join(here, 'src', 'core-worker.js');
const coreOut = await esbuild.build({ ...common, entryPoints: [coreEntry], splitting: true, define: workerBuild(searchWorker) });
const coreWorker = outputOf(coreOut, coreEntry);

// The stylesheets of ui/index.html in their order, each board's at the board-styles marker.
const template = fs.readFileSync(path.join(root, 'ui', 'index.html'), 'utf8');
if (!template.includes('<meta name="board-styles">')) throw new Error('ui/index.html: no <meta name="board-styles"> marker');
const boardsIndex = fs.readFileSync(path.join(root, 'ui', 'js', 'boards', 'index.js'), 'utf8');
const boardSheets = [...boardsIndex.matchAll(/^import \* as \w+ from '\.\/([\w.-]+\.js)';$/gm)].map(([, file]) => {
  const m = /export const stylesheet = '(css\/[\w.-]+\.css)'/.exec(fs.readFileSync(path.join(root, 'ui', 'js', 'boards', file), 'utf8'));
  if (!m) throw new Error(`ui/js/boards/${file}: no stylesheet`);
  return m[1];
});
if (!boardSheets.length) throw new Error('ui/js/boards/index.js imports no board');
// Two parts: what paints the first frame (the sheets before the boards' marker and the shell's:
// the game screen's frame; inline in <head>) and the rest (preloaded; boot.js adds it at the
// marker, so it does not hold the first paint up; main.js waits for it), keeping the order of
// the whole.
const SHELL = 'css/shell.css';
const sheets = [];
let firstPaint = null;
for (const m of template.matchAll(/<link rel="stylesheet" href="(css\/[\w.-]+\.css)">|<meta name="board-styles">/g)) {
  if (m[1]) sheets.push(m[1]);
  else {
    firstPaint = sheets.length;
    sheets.push(...boardSheets);
  }
}
if (!sheets.includes(SHELL)) throw new Error(`ui/index.html does not link ${SHELL}`);
const firstSheets = [...sheets.slice(0, firstPaint), SHELL];
const restSheets = sheets.slice(firstPaint).filter((f) => f !== SHELL);
const cssDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huarong-css-'));
async function cssBundle(name, list) {
  const entry = path.join(cssDir, `${name}.css`);
  fs.writeFileSync(entry, list.map((f) => `@import ${JSON.stringify(path.join(root, 'ui', f))};\n`).join(''));
  return outputOf(await esbuild.build({ ...common, entryPoints: [entry], alias: {} }), entry);
}
// The first paint's, inline in index.html (allowed by its hash in the page's CSP): the page
// paints from its first response, without a stylesheet's round trip.
const firstCssFile = await cssBundle('app', firstSheets);
const firstCss = fs.readFileSync(path.join(assets, firstCssFile), 'utf8').trim();
fs.rmSync(path.join(assets, firstCssFile));
if (firstCss.includes('</')) throw new Error('the first paint\'s CSS cannot be inlined: it holds "</"');
const firstCssHash = `'sha256-${crypto.createHash('sha256').update(firstCss).digest('base64')}'`;
const uiCss = await cssBundle('ui', restSheets);
fs.rmSync(cssDir, { recursive: true, force: true });
// css/: what the bundle leaves out (the stylesheets the UI loads when a feature first shows,
// friends.js `featureStyle`) and base.css (get-app.html's).
fs.mkdirSync(path.join(dist, 'css'), { recursive: true });
for (const f of fs.readdirSync(path.join(root, 'ui', 'css'))) {
  if (f.endsWith('.css') && (f === 'base.css' || !sheets.includes(`css/${f}`))) fs.copyFileSync(path.join(root, 'ui', 'css', f), path.join(dist, 'css', f));
}

// The page's script: the boot, the UI, the service worker's registration.
const webDefine = { __HUARONG_WEB__: JSON.stringify({ worker: `assets/${coreWorker}`, first: `assets/${wasm.first}`, board: `assets/${wasm.board}`, styles: `assets/${uiCss}` }) };
const appEntry = path.join(here, 'src', 'entry.js');
const appOut = await esbuild.build({ ...common, entryPoints: [appEntry], entryNames: 'app-[hash]', define: webDefine });
const appJs = outputOf(appOut, appEntry);
// The boot alone, a classic script inline in index.html (allowed by its hash in the CSP): it
// runs while the page is parsed, before the first paint and the bundle's modules (the bundle
// has it too: whichever runs first starts the worker).
const bootEntry = path.join(here, 'src', 'boot.js');
const bootOut = await esbuild.build({ ...common, format: 'iife', entryPoints: [bootEntry], define: webDefine, write: false });
const boot = bootOut.outputFiles[0].text.trim();
if (boot.includes('</')) throw new Error('the boot cannot be inlined: it holds "</"');
const bootHash = `'sha256-${crypto.createHash('sha256').update(boot).digest('base64')}'`;
// The build: every file the page loads is named by its content, and the inline parts are hashed.
const version = hashOf(Buffer.from([wasm.first, wasm.board, wasm.full, wasm.pdb, searchWorker, coreWorker, uiCss, appJs, firstCssHash, bootHash].join('\n')));
fs.mkdirSync(path.join(dist, 'js'), { recursive: true });
fs.writeFileSync(path.join(dist, 'js', 'ipc.js'), `// The page's own back end (ipc.js, inside the page's bundle), for scripts and tests.\nexport * from '../assets/${appJs}';\n`);

fs.copyFileSync(path.join(here, 'src', 'get-app.html'), path.join(dist, 'get-app.html'));
fs.copyFileSync(path.join(here, 'src', 'get-app.css'), path.join(dist, 'css', 'get-app.css'));
fs.mkdirSync(path.join(dist, 'icons'), { recursive: true });
for (const size of [192, 512]) fs.writeFileSync(path.join(dist, 'icons', `icon-${size}.png`), icon(size));
fs.writeFileSync(
  path.join(dist, 'manifest.webmanifest'),
  `${JSON.stringify(
    {
      name: 'Huarong 华容',
      short_name: '华容',
      description: 'Number slide, Klotski and 2048 — 数字华容道、华容道与 2048',
      start_url: './',
      scope: './',
      display: 'standalone',
      orientation: 'portrait',
      background_color: '#f5efe3',
      theme_color: '#a3271d',
      icons: [
        { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any maskable' },
        { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any maskable' },
      ],
    },
    null,
    2,
  )}\n`,
);

// index.html: ui/index.html with the bundles instead of its stylesheets and modules; the CSP,
// the manifest, the icons; the board's wasm preloaded (boot.js fetches it with the same mode).
let html = template;
html = html.replace(/<link rel="stylesheet" href="css\/[\w.-]+\.css">\n/g, '');
html = html.replace(/<link rel="modulepreload" href="js\/[\w./-]+\.js">\n/g, '');
html = html.replace(/<!-- fetch every module at once[^>]*-->\n/, '');
html = html.replace(/<!-- each board's stylesheet goes here[^>]*-->\n/, '');
if (!html.includes('<script type="module" src="js/main.js"></script>')) throw new Error('ui/index.html: no js/main.js script');
html = html.replace('<script type="module" src="js/main.js"></script>\n', '');
const csp = CSP.replace("style-src 'self'", `style-src 'self' ${firstCssHash}`).replace("script-src 'self'", `script-src 'self' ${bootHash}`);
const head = [
  `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
  '<meta name="theme-color" content="#a3271d">',
  `<meta name="huarong-build" content="${version}">`,
  `<style>${firstCss}</style>`,
  `<script type="module" src="assets/${appJs}"></script>`,
  '<link rel="manifest" href="manifest.webmanifest">',
  '<link rel="icon" type="image/png" sizes="192x192" href="icons/icon-192.png">',
  '<link rel="apple-touch-icon" href="icons/icon-192.png">',
].join('\n');
// Before the boards' marker: boot.js puts the rest of the stylesheets after it (after the
// first paint's, as in ui/index.html's order).
html = html.replace(/(<meta name="board-styles">\n)/, `${head}\n$1<script>${boot}</script>\n`);
if (!html.includes(`assets/${appJs}`)) throw new Error('ui/index.html: no <meta name="board-styles"> to put the bundles after');
if (/<link rel="stylesheet" href="css\//.test(html) || /src="js\//.test(html)) throw new Error('index.html still loads ui/ files one by one');
if (html.split(/<script(?![^>]*\bsrc=)[^>]*>/).length !== 2 || /\sstyle=/.test(html) || html.split('<style>').length !== 2) {
  throw new Error('index.html has an inline script or style besides the boot and the first paint\'s (the CSP forbids them)');
}
fs.writeFileSync(path.join(dist, 'index.html'), html);

// The links helper's files (.well-known/assetlinks.json, apple-app-site-association).
const wellKnown = path.join(here, 'well-known.mjs');
if (fs.existsSync(wellKnown)) {
  const r = spawnSync(process.execPath, [wellKnown, dist], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`web/well-known.mjs failed (${r.status})`);
}

// The service worker: precache every file but itself and the 4×4 tables (cached on first
// use), under a cache named by the hash of all of them.
const all = files(dist).filter((f) => f !== 'sw.js');
const hash = crypto.createHash('sha256');
for (const f of all) {
  hash.update(f);
  hash.update('\0');
  hash.update(fs.readFileSync(path.join(dist, f)));
}
const cacheVersion = hash.digest('hex').slice(0, 16);
const precache = ['./', ...all.filter((f) => f !== `assets/${wasm.pdb}` && f !== 'index.html' && !f.startsWith('.well-known/') && !/(^|\/)(README\.md|LICENSE)$/.test(f))];
const sw = fs
  .readFileSync(path.join(here, 'src', 'sw.js'), 'utf8')
  .replace('__VERSION__', cacheVersion)
  .replace('__PRECACHE__', JSON.stringify(precache, null, 0));
fs.writeFileSync(path.join(dist, 'sw.js'), sw);

// Precompressed siblings (`<file>.br`, `<file>.gz`) of every compressible file of 1 KB or more,
// for a static host to send as they are (nginx brotli_static/gzip_static, Caddy's `precompressed
// br gzip`; serve.mjs does the same): brotli at its best (quality 11, a 16 MB window) is about a
// quarter smaller than gzip -9 on the wasm, and the phone network's first board waits on those
// bytes. Every browser asks for br (Chromium also over http on localhost). Written after the
// service worker's list: the siblings are never precached (the browser decodes what it fetches).
// Brotli 11 takes seconds a megabyte, so each output is kept by its input's hash in
// target/web-compress/ and made once.
const compressCache = path.join(root, 'target', 'web-compress');
fs.mkdirSync(compressCache, { recursive: true });
function compressed(body, kind) {
  const key = path.join(compressCache, `${crypto.createHash('sha256').update(body).digest('hex')}.${kind}`);
  if (fs.existsSync(key)) return fs.readFileSync(key);
  const out =
    kind === 'br'
      ? zlib.brotliCompressSync(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : zlib.gzipSync(body, { level: 9 });
  fs.writeFileSync(`${key}.tmp`, out);
  fs.renameSync(`${key}.tmp`, key);
  return out;
}
const plain = files(dist);
// Each file's gzip -9 size, for the summary below (the siblings' when made: gzipped once).
const gzSize = new Map();
for (const f of plain) {
  const body = fs.readFileSync(path.join(dist, f));
  if (!compressible(f) || body.length < 1024) {
    gzSize.set(f, zlib.gzipSync(body, { level: 9 }).length);
    continue;
  }
  for (const kind of ['br', 'gz']) {
    const out = compressed(body, kind);
    if (kind === 'gz') gzSize.set(f, out.length);
    if (out.length < body.length) fs.writeFileSync(path.join(dist, `${f}.${kind}`), out);
  }
}

let bytes = 0;
let gz = 0;
for (const f of plain) {
  bytes += fs.statSync(path.join(dist, f)).size;
  gz += gzSize.get(f);
}
const gzOf = (f) => gzSize.get(`assets/${f}`);
const brOf = (f) => fs.statSync(path.join(assets, `${f}.br`)).size;
console.log(`web/dist: ${plain.length} files (and their .br/.gz), ${(bytes / 1e6).toFixed(2)} MB (${(gz / 1e6).toFixed(2)} MB gzipped), build ${version}, cache ${cacheVersion}`);
console.log(
  `  gzipped: first wasm ${(gzOf(wasm.first) / 1024).toFixed(0)} KB, board wasm ${(gzOf(wasm.board) / 1024).toFixed(0)} KB, full wasm ${(gzOf(wasm.full) / 1024).toFixed(0)} KB, ` +
    `app.js ${(gzOf(appJs) / 1024).toFixed(0)} KB, first paint's css ${(zlib.gzipSync(firstCss, { level: 9 }).length / 1024).toFixed(0)} KB (inline), ui.css ${(gzOf(uiCss) / 1024).toFixed(0)} KB, core worker ${(gzOf(coreWorker) / 1024).toFixed(0)} KB, search worker ${(gzOf(searchWorker) / 1024).toFixed(0)} KB`,
);
console.log(`  brotli (what serve.mjs sends a browser): first wasm ${(brOf(wasm.first) / 1024).toFixed(0)} KB, board wasm ${(brOf(wasm.board) / 1024).toFixed(0)} KB, full wasm ${(brOf(wasm.full) / 1024).toFixed(0)} KB, app.js ${(brOf(appJs) / 1024).toFixed(0)} KB, the 4×4 tables ${(brOf(wasm.pdb) / 1024).toFixed(0)} KB`);
