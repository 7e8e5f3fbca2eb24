// Writes the static web site (`./dev.sh web build`): node web/build.mjs <wasm-bindgen out dir> <dist>
//
// dist/ holds ui/ as it is (index.html, js/, css/, pictures/, sounds/: the UI modules at their
// ui/ paths), plus:
//   wasm/huarong_web.js, wasm/huarong_web_bg.wasm   the app core (wasm-bindgen --target web)
//   worker/core-worker.js, worker/search-worker.js, worker/host.js   the two workers
//   pdb4x4.bin           the engine's 4×4 pattern tables, fetched when a 4×4 search needs them
//   manifest.webmanifest, icons/icon-192.png, icons/icon-512.png   the PWA (icons drawn here)
//   sw.js                the service worker, its cache named by a hash of everything above
//   get-app.html         where "Get the app" leads
//   js/pwa.js            registers the service worker
//   js/boot.js           starts the board's worker before the UI's modules load
// index.html gets the page's CSP (a meta tag: a static host sets no headers), the manifest,
// the icons and pwa.js. Every URL is relative: the site works under any path prefix.

import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const [wasmDir, distArg] = process.argv.slice(2);
if (!wasmDir || !distArg) {
  console.error('usage: node web/build.mjs <wasm-bindgen out dir> <dist dir>');
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

fs.rmSync(dist, { recursive: true, force: true });
copyTree(path.join(root, 'ui'), dist, (a) => a.endsWith('.py'));
const wasmOut = path.join(dist, 'wasm');
fs.mkdirSync(wasmOut, { recursive: true });
for (const f of ['huarong_web.js', 'huarong_web_bg.wasm']) fs.copyFileSync(path.join(wasmDir, f), path.join(wasmOut, f));
const workerOut = path.join(dist, 'worker');
fs.mkdirSync(workerOut, { recursive: true });
for (const f of ['host.js', 'core-worker.js', 'search-worker.js']) fs.copyFileSync(path.join(here, 'src', f), path.join(workerOut, f));
fs.copyFileSync(path.join(here, 'src', 'pwa.js'), path.join(dist, 'js', 'pwa.js'));
fs.copyFileSync(path.join(here, 'src', 'boot.js'), path.join(dist, 'js', 'boot.js'));
fs.copyFileSync(path.join(here, 'src', 'get-app.html'), path.join(dist, 'get-app.html'));
fs.copyFileSync(path.join(here, 'src', 'get-app.css'), path.join(dist, 'css', 'get-app.css'));
fs.copyFileSync(path.join(root, 'crates', 'engine', 'src', 'slide', 'pdb4x4.bin'), path.join(dist, 'pdb4x4.bin'));
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

// index.html: the CSP, the manifest, the icons and the service worker's registration.
const indexPath = path.join(dist, 'index.html');
let html = fs.readFileSync(indexPath, 'utf8');
const head = [
  `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
  '<meta name="theme-color" content="#a3271d">',
  '<link rel="manifest" href="manifest.webmanifest">',
  '<link rel="icon" type="image/png" sizes="192x192" href="icons/icon-192.png">',
  '<link rel="apple-touch-icon" href="icons/icon-192.png">',
  // First of all: start the board's worker (the wasm core) while the UI's modules load.
  '<script type="module" async src="js/boot.js"></script>',
].join('\n');
if (!html.includes('<meta charset="utf-8">')) throw new Error('ui/index.html: no <meta charset="utf-8"> to put the CSP after');
html = html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n${head}`);
html = html.replace('<script type="module" src="js/main.js"></script>', '<script type="module" src="js/main.js"></script>\n<script type="module" src="js/pwa.js"></script>');
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(html) || /\sstyle=/.test(html)) throw new Error('index.html has an inline script or style (the CSP forbids them)');
fs.writeFileSync(indexPath, html);

// The links helper's files (.well-known/assetlinks.json, apple-app-site-association).
const wellKnown = path.join(here, 'well-known.mjs');
if (fs.existsSync(wellKnown)) {
  const r = spawnSync(process.execPath, [wellKnown, dist], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`web/well-known.mjs failed (${r.status})`);
}

// The service worker: precache every file but itself and the 4×4 tables (cached on first
// use), under a cache named by the hash of all of them.
function files(dir, base = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...files(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}
const all = files(dist).filter((f) => f !== 'sw.js');
const hash = crypto.createHash('sha256');
for (const f of all) {
  hash.update(f);
  hash.update('\0');
  hash.update(fs.readFileSync(path.join(dist, f)));
}
const version = hash.digest('hex').slice(0, 16);
const precache = ['./', ...all.filter((f) => f !== 'pdb4x4.bin' && !f.startsWith('.well-known/') && !/(^|\/)(README\.md|LICENSE)$/.test(f))];
const sw = fs
  .readFileSync(path.join(here, 'src', 'sw.js'), 'utf8')
  .replace('__VERSION__', version)
  .replace('__PRECACHE__', JSON.stringify(precache, null, 0));
fs.writeFileSync(path.join(dist, 'sw.js'), sw);

let bytes = 0;
let gz = 0;
for (const f of files(dist)) {
  const b = fs.readFileSync(path.join(dist, f));
  bytes += b.length;
  gz += zlib.gzipSync(b, { level: 9 }).length;
}
console.log(`web/dist: ${files(dist).length} files, ${(bytes / 1e6).toFixed(2)} MB (${(gz / 1e6).toFixed(2)} MB gzipped), cache ${version}`);
