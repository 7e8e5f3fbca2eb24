// web/well-known.mjs: the App Link and Universal Link association files for the
// share links' base. Run: node --test tests/web/well-known.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkBase, fingerprints, teamId } from '../../web/well-known.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = path.join(ROOT, 'web', 'well-known.mjs');
const CONF = JSON.parse(fs.readFileSync(path.join(ROOT, 'src-tauri', 'tauri.conf.json'), 'utf8'));
const SHARE = fs.readFileSync(path.join(ROOT, 'crates', 'engine', 'src', 'code', 'mod.rs'), 'utf8');
const FP1 = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).toUpperCase().padStart(2, '0')).join(':');
const FP2 = Array.from({ length: 32 }, (_, i) => (255 - i).toString(16).padStart(2, '0')).join(':'); // lower case

function run(env, args) {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'huarong-well-known-'));
  const clean = { ...process.env };
  delete clean.HUARONG_ANDROID_CERT_SHA256;
  delete clean.HUARONG_APPLE_TEAM_ID;
  const r = spawnSync(process.execPath, [SCRIPT, ...(args || [dist])], { env: { ...clean, ...env }, encoding: 'utf8' });
  const read = (name) => {
    const file = path.join(dist, '.well-known', name);
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
  };
  return { ...r, dist, links: read('assetlinks.json'), aasa: read('apple-app-site-association') };
}

test('the base is the engine constant, and its host and path are the deep-link entry of tauri.conf.json', () => {
  const { base, host, path: p } = linkBase();
  assert.ok(SHARE.includes(`pub const LINK_BASE: &str = "${base}";`));
  const web = CONF.plugins['deep-link'].mobile.filter((d) => (d.scheme || []).includes('https'));
  assert.deepEqual(web, [{ scheme: ['https'], host, path: [p], appLink: true }]);
});

test('both files from the variables', () => {
  const r = run({ HUARONG_ANDROID_CERT_SHA256: ` ${FP1} ,${FP2},${FP1.toLowerCase()}`, HUARONG_APPLE_TEAM_ID: 'ABCDE12345' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.links, [
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: { namespace: 'android_app', package_name: CONF.identifier, sha256_cert_fingerprints: [FP1, FP2.toUpperCase()] },
    },
  ]);
  const { path: p } = linkBase();
  const details = r.aasa.applinks.details;
  assert.equal(details.length, 1);
  assert.deepEqual(details[0].appIDs, [`ABCDE12345.${CONF.identifier}`]);
  assert.equal(details[0].components.length, 1);
  assert.equal(details[0].components[0]['/'], p);
  assert.deepEqual(details[0].components[0]['?'], { c: '?*' });
  assert.equal(r.stderr, '');
});

test('without the variables nothing is written, and it says why', () => {
  for (const env of [{}, { HUARONG_ANDROID_CERT_SHA256: '  ', HUARONG_APPLE_TEAM_ID: '' }]) {
    const r = run(env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.links, null);
    assert.equal(r.aasa, null);
    assert.match(r.stderr, /assetlinks\.json not written: HUARONG_ANDROID_CERT_SHA256 is not set/);
    assert.match(r.stderr, /apple-app-site-association not written: HUARONG_APPLE_TEAM_ID is not set/);
  }
  // One without the other.
  const r = run({ HUARONG_APPLE_TEAM_ID: 'ABCDE12345' });
  assert.equal(r.status, 0);
  assert.equal(r.links, null);
  assert.ok(r.aasa);
});

test('a stale file from an earlier build is removed when its variable is gone', () => {
  const r = run({ HUARONG_ANDROID_CERT_SHA256: FP1 });
  assert.ok(r.links);
  const again = spawnSync(process.execPath, [SCRIPT, r.dist], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
  assert.equal(again.status, 0);
  assert.ok(!fs.existsSync(path.join(r.dist, '.well-known', 'assetlinks.json')));
});

test('bad values are refused with a message naming the variable, and nothing is written', () => {
  const cases = [
    [{ HUARONG_ANDROID_CERT_SHA256: FP1.slice(3) }, /HUARONG_ANDROID_CERT_SHA256 entry 1 .* 32 hex bytes/],
    [{ HUARONG_ANDROID_CERT_SHA256: `${FP1},` }, /entry 2/],
    [{ HUARONG_ANDROID_CERT_SHA256: FP1.replaceAll(':', '') }, /not a SHA-256 fingerprint/],
    [{ HUARONG_ANDROID_CERT_SHA256: FP1.replace('10', 'G0') }, /not a SHA-256 fingerprint/],
    [{ HUARONG_ANDROID_CERT_SHA256: `${FP1}:AA` }, /not a SHA-256 fingerprint/],
    [{ HUARONG_APPLE_TEAM_ID: 'abcde12345' }, /HUARONG_APPLE_TEAM_ID "abcde12345" is not an Apple team ID/],
    [{ HUARONG_APPLE_TEAM_ID: 'ABCDE1234' }, /not an Apple team ID/],
    [{ HUARONG_APPLE_TEAM_ID: 'ABCDE12345.app.huarong.puzzles' }, /not an Apple team ID/],
  ];
  for (const [env, message] of cases) {
    const r = run({ HUARONG_ANDROID_CERT_SHA256: FP1, HUARONG_APPLE_TEAM_ID: 'ABCDE12345', ...env });
    assert.equal(r.status, 1, JSON.stringify(env));
    assert.match(r.stderr, message);
    assert.equal(r.links, null, JSON.stringify(env));
    assert.equal(r.aasa, null, JSON.stringify(env));
  }
  assert.throws(() => fingerprints('AB:CD'), /32 hex bytes/);
  assert.deepEqual(fingerprints(undefined), []);
  assert.equal(teamId(' ABCDE12345 '), 'ABCDE12345');
});

test('a wrong call exits 2 with the usage', () => {
  assert.equal(run({}, []).status, 2);
  assert.equal(run({}, ['--help']).status, 2);
  const r = run({}, [path.join(os.tmpdir(), 'huarong-no-such-dist-dir')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /is not a directory/);
});

test('a LINK_BASE that is not an https directory is refused', () => {
  for (const bad of ['http://huarong.app/', 'https://huarong.app', 'https://Huarong.app/', 'https://huarong.app:8443/', 'https://huarong.app/?x=1']) {
    assert.throws(() => linkBase(`pub const LINK_BASE: &str = "${bad}";\n`), /must be https/, bad);
  }
  assert.deepEqual(linkBase('pub const LINK_BASE: &str = "https://a.example.org/huarong/";\n'), {
    base: 'https://a.example.org/huarong/',
    host: 'a.example.org',
    path: '/huarong/',
  });
});
