// The web build's precompressed siblings (web/build.mjs) and how web/serve.mjs sends them
// (the bytes a phone waits for). Needs web/dist (`./dev.sh web build`; `./dev.sh test`
// builds it first). Run: node --test tests/web/compressed.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serve, encodings, files, compressible } from '../../web/serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = process.env.HUARONG_WEB_DIST || path.join(ROOT, 'web', 'dist');

function get(port, url, acceptEncoding) {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding };
    http
      .get({ host: '127.0.0.1', port, path: url, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

test('web/dist is built', () => {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `${DIST} has no index.html: run ./dev.sh web build`);
});

test('every sibling is its file, compressed, and every big compressible file has both', () => {
  const all = files(DIST);
  const set = new Set(all);
  let checked = 0;
  for (const f of all) {
    if (f.endsWith('.br') || f.endsWith('.gz')) {
      const plain = f.slice(0, -3);
      assert.ok(set.has(plain), `${f} has no ${plain} beside it`);
      const body = fs.readFileSync(path.join(DIST, plain));
      const packed = fs.readFileSync(path.join(DIST, f));
      const back = f.endsWith('.br') ? zlib.brotliDecompressSync(packed) : zlib.gunzipSync(packed);
      assert.ok(back.equals(body), `${f} does not decompress to ${plain}`);
      assert.ok(packed.length < body.length, `${f} is not smaller than ${plain}`);
      checked++;
      continue;
    }
    const size = fs.statSync(path.join(DIST, f)).size;
    if (!compressible(f) || size < 1024) continue;
    for (const kind of ['br', 'gz']) assert.ok(set.has(`${f}.${kind}`), `${f} (${size} bytes) has no .${kind}`);
  }
  assert.ok(checked >= 10, `only ${checked} siblings`);
  const board = all.find((f) => /^assets\/board-[0-9a-f]+\.wasm$/.test(f));
  assert.ok(board, 'no board wasm');
  const gz = fs.statSync(path.join(DIST, `${board}.gz`)).size;
  const br = fs.statSync(path.join(DIST, `${board}.br`)).size;
  assert.ok(br < gz * 0.9, `brotli (${br}) should be well under gzip (${gz}) on the board's wasm`);
});

test("the service worker precaches no sibling (the browser decodes what it fetches)", () => {
  const sw = fs.readFileSync(path.join(DIST, 'sw.js'), 'utf8');
  const list = JSON.parse(sw.match(/const PRECACHE = (\[.*?\]);/s)[1]);
  assert.ok(list.length > 10, 'the precache list is there');
  for (const f of list) assert.ok(!/\.(br|gz)$/.test(f), `${f} is precached`);
});

test('Accept-Encoding is read as a list with q=0 refusals', () => {
  assert.deepEqual([...encodings('gzip, deflate, br, zstd')], ['gzip', 'deflate', 'br', 'zstd']);
  assert.deepEqual([...encodings('br;q=0, gzip;q=0.5')], ['gzip']);
  assert.deepEqual([...encodings('')], []);
  assert.deepEqual([...encodings(undefined)], []);
});

test('serve.mjs sends brotli, gzip or the file itself, as the client asks', async () => {
  const board = files(DIST).find((f) => /^assets\/board-[0-9a-f]+\.wasm$/.test(f));
  const body = fs.readFileSync(path.join(DIST, board));
  const server = await serve(DIST, 0);
  const port = server.address().port;
  try {
    const br = await get(port, `/${board}`, 'gzip, deflate, br');
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['content-type'], 'application/wasm');
    assert.equal(br.headers.vary, 'accept-encoding');
    assert.equal(Number(br.headers['content-length']), br.body.length);
    assert.ok(zlib.brotliDecompressSync(br.body).equals(body), 'the brotli body is the wasm');

    const gz = await get(port, `/${board}`, 'br;q=0, gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(zlib.gunzipSync(gz.body).equals(body), 'the gzip body is the wasm');
    assert.ok(br.body.length < gz.body.length);

    const plain = await get(port, `/${board}`, null);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.equals(body));

    // A page: its own sibling, and the same ETag whatever the coding (it names the content).
    const page = await get(port, '/', 'br');
    assert.equal(page.headers['content-encoding'], 'br');
    assert.match(zlib.brotliDecompressSync(page.body).toString('utf8'), /<html/);
    assert.equal(page.headers.etag, (await get(port, '/', null)).headers.etag);
  } finally {
    server.close();
  }
});
