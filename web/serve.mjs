// A small static server for web/dist (`./dev.sh web`, the tests, the measurements):
//   node web/serve.mjs <dir> [port]      (port 0: a free one; the chosen port is printed)
// Loopback only. Correct MIME types (application/wasm for .wasm: WebAssembly.compileStreaming
// needs it), gzip where the client accepts it (as static hosts do), no caching headers beyond
// `no-cache` (the service worker is the page's cache). Prints `listening <url>` when ready.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

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

/** `onSent(url, bytes)`, when given, hears every response's size on the wire (measure.mjs). */
export function serve(dir, port = 0, host = '127.0.0.1', onSent = null) {
  const root = path.resolve(dir);
  const gz = new Map();
  const server = http.createServer((req, res) => {
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
    const headers = {
      'content-type': TYPES[ext] || (rel.includes('.well-known/') ? 'application/json' : 'application/octet-stream'),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
    };
    if (COMPRESS.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      const key = `${file}:${body.length}:${fs.statSync(file).mtimeMs}`;
      if (!gz.has(key)) gz.set(key, zlib.gzipSync(body, { level: 9 }));
      body = gz.get(key);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = body.length;
    if (onSent) onSent(rel, body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
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
