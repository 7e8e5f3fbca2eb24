// A small static server for web/dist (`./dev.sh web`, the tests, the measurements):
//   node web/serve.mjs <dir> [port]      (port 0: a free one; the chosen port is printed)
// Loopback only. Correct MIME types (application/wasm for .wasm: WebAssembly.compileStreaming
// needs it), the build's precompressed brotli (`<file>.br`) or gzip where the client accepts
// it (as static hosts set up with the build's siblings do; gzip made here when a file has
// none), and the caching a static
// host should be set up with: files under assets/ (named by their content's hash) are cached
// for a year, `immutable`; every other file (index.html, sw.js, …) is `no-cache` with an ETag,
// so it is revalidated and a 304 answers an unchanged one. Prints `listening <url>` when ready.
//
// `throttle` (measure.mjs): every response waits `latencyMs` before its first byte and all of
// them share `downKbps` (Lighthouse's "devtools" mobile throttling: 562.5 ms, 1,474.56 kbit/s),
// here, at the server, so that the workers' requests are held back like the page's.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.bin': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};
const COMPRESS = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.wasm', '.svg', '.bin', '.txt', '.md', '']);

/** Whether a file is sent compressed (and the build writes its `.br`/`.gz` siblings). */
export function compressible(file) {
  return COMPRESS.has(path.extname(file));
}

/** Every file under `dir`, as paths relative to it with `/`, sorted. */
export function files(dir, base = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...files(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** The codings an Accept-Encoding header takes (a `;q=0` one is refused). */
export function encodings(header) {
  const out = new Set();
  for (const part of String(header || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) out.add(name);
  }
  return out;
}

/** Sends `body` at the shared rate of `link` (bytes per ms), after its latency. */
function throttled(link, res, body) {
  setTimeout(() => {
    let at = 0;
    const step = () => {
      if (at >= body.length) {
        res.end();
        return;
      }
      // The link sends one slice at a time to whoever is next, so parallel responses share it.
      const n = Math.min(body.length - at, 16 * 1024);
      const start = Math.max(Date.now(), link.free);
      link.free = start + n / link.rate;
      const chunk = body.subarray(at, at + n);
      at += n;
      setTimeout(() => {
        res.write(chunk);
        step();
      }, link.free - Date.now());
    };
    step();
  }, link.latency);
}

/**
 * `onSent(url, bytes, at)`, when given, hears every response's size on the wire (measure.mjs)
 * and the time its request came in; `throttle` = {latencyMs, downKbps} slows every response.
 * `root()` may be a function (a test deploys another build under the same origin).
 */
export function serve(dir, port = 0, host = '127.0.0.1', onSent = null, throttle = null) {
  const rootOf = typeof dir === 'function' ? () => path.resolve(dir()) : () => path.resolve(dir);
  const gz = new Map();
  const link = throttle ? { latency: throttle.latencyMs, rate: (throttle.downKbps * 1000) / 8 / 1000, free: 0 } : null;
  const server = http.createServer((req, res) => {
    const arrived = Date.now();
    const root = rootOf();
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch (_) {
      res.writeHead(400).end();
      return;
    }
    let file = path.join(root, rel);
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    } catch (_) {
      /* 404 below */
    }
    let body;
    try {
      body = fs.readFileSync(file);
    } catch (_) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const ext = path.extname(file);
    const immutable = rel.startsWith('/assets/') || rel.includes('/assets/');
    const etag = `"${crypto.createHash('sha256').update(body).digest('hex').slice(0, 20)}"`;
    const headers = {
      'content-type': TYPES[ext] || (rel.includes('.well-known/') ? 'application/json' : 'application/octet-stream'),
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      etag,
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
    };
    if (req.headers['if-none-match'] === etag) {
      if (onSent) onSent(rel, 0, arrived);
      res.writeHead(304, { etag, 'cache-control': headers['cache-control'] });
      if (link) throttled(link, res, Buffer.alloc(0));
      else res.end();
      return;
    }
    const accepts = encodings(req.headers['accept-encoding']);
    const sibling = (kind) => {
      try {
        return fs.readFileSync(`${file}.${kind}`);
      } catch (_) {
        return null;
      }
    };
    const br = compressible(file) && accepts.has('br') ? sibling('br') : null;
    if (br) {
      body = br;
      headers['content-encoding'] = 'br';
    } else if (compressible(file) && accepts.has('gzip')) {
      const pre = sibling('gz');
      if (pre) body = pre;
      else {
        const key = `${file}:${body.length}:${fs.statSync(file).mtimeMs}`;
        if (!gz.has(key)) gz.set(key, zlib.gzipSync(body, { level: 9 }));
        body = gz.get(key);
      }
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = body.length;
    if (onSent) onSent(rel, body.length, arrived);
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else if (link) throttled(link, res, body);
    else res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [dir, port] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node web/serve.mjs <dir> [port]');
    process.exit(2);
  }
  const server = await serve(dir, Number(port || 0));
  console.log(`listening http://127.0.0.1:${server.address().port}/`);
}
