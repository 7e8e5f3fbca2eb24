#!/usr/bin/env node
// The association files that let a tap on a share link open the installed app (issue 22):
//
//   node web/well-known.mjs <dist-dir>
//
// writes, for the share links' base (LINK_BASE in crates/engine/src/code/mod.rs, the one place
// it is set) and the app's identifier (src-tauri/tauri.conf.json):
//   <dist>/.well-known/assetlinks.json            Android App Links: the package and the
//       SHA-256 fingerprints of its signing certificates, from HUARONG_ANDROID_CERT_SHA256
//       (comma-separated, each 32 colon-separated hex bytes, e.g. from `keytool -list -v` or
//       Play Console > App integrity; list the Play app-signing key and the upload key);
//   <dist>/.well-known/apple-app-site-association iOS Universal Links: the app ID
//       HUARONG_APPLE_TEAM_ID + "." + the bundle identifier, for the base's path with ?c=.
// A file whose variable is unset or empty is not written (and an old one is removed), with a
// message on stderr: a placeholder would be served and never verify. Bad values exit 1 with
// a message naming the variable; a wrong call exits 2. Both files only work at the root of the
// host (https://<host>/.well-known/…): see the README, "Links".

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARE = path.join(ROOT, 'crates', 'engine', 'src', 'code', 'mod.rs');
const CONF = path.join(ROOT, 'src-tauri', 'tauri.conf.json');
const FINGERPRINT = /^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/;
const TEAM_ID = /^[A-Z0-9]{10}$/;
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9-]*)+$/;
const BASE = /^https:\/\/([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+)(\/([^?#\s]*\/)?)$/;

class InputError extends Error {}

/** The share links' base from its one place: { base, host, path }. */
export function linkBase(source = fs.readFileSync(SHARE, 'utf8')) {
  const m = source.match(/^pub const LINK_BASE: &str = "([^"]*)";$/m);
  if (!m) throw new InputError(`${path.relative(ROOT, SHARE)} no longer defines pub const LINK_BASE`);
  const parts = m[1].match(BASE);
  if (!parts) throw new InputError(`LINK_BASE ${JSON.stringify(m[1])} must be https://<lowercase host>/<path>/`);
  return { base: m[1], host: parts[1], path: parts[5] };
}

/** The app's identifier (Android package name, iOS bundle ID). */
export function identifier(conf = fs.readFileSync(CONF, 'utf8')) {
  const id = JSON.parse(conf).identifier;
  if (typeof id !== 'string' || !IDENTIFIER.test(id)) {
    throw new InputError(`tauri.conf.json identifier ${JSON.stringify(id)} is not a reverse-DNS name`);
  }
  return id;
}

/** HUARONG_ANDROID_CERT_SHA256 → the fingerprints, upper case, each once (empty: none). */
export function fingerprints(text) {
  if (text === undefined || text.trim() === '') return [];
  const out = [];
  text.split(',').forEach((raw, i) => {
    const f = raw.trim().toUpperCase();
    if (!FINGERPRINT.test(f)) {
      throw new InputError(
        `HUARONG_ANDROID_CERT_SHA256 entry ${i + 1} (${JSON.stringify(raw.trim())}) is not a SHA-256 ` +
          'fingerprint: 32 hex bytes separated by colons, e.g. 14:6D:E9:…:B9 (keytool -list -v)',
      );
    }
    if (!out.includes(f)) out.push(f);
  });
  return out;
}

/** HUARONG_APPLE_TEAM_ID → the team ID (empty: none). */
export function teamId(text) {
  if (text === undefined || text.trim() === '') return null;
  const t = text.trim();
  if (!TEAM_ID.test(t)) {
    throw new InputError(
      `HUARONG_APPLE_TEAM_ID ${JSON.stringify(t)} is not an Apple team ID: 10 upper-case letters ` +
        'and digits (developer.apple.com > Membership details)',
    );
  }
  return t;
}

export function assetLinks(pkg, certs) {
  return [
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: { namespace: 'android_app', package_name: pkg, sha256_cert_fingerprints: certs },
    },
  ];
}

export function appleAppSiteAssociation(appId, linkPath) {
  return {
    applinks: {
      details: [
        {
          appIDs: [appId],
          components: [{ '/': linkPath, '?': { c: '?*' }, comment: 'a shared puzzle: <base>?c=<code>' }],
        },
      ],
    },
  };
}

/** Writes (or skips) both files into `dist`; returns the lines to print. */
export function writeWellKnown(dist, env = process.env) {
  const { host, path: linkPath } = linkBase();
  const pkg = identifier();
  const certs = fingerprints(env.HUARONG_ANDROID_CERT_SHA256);
  const team = teamId(env.HUARONG_APPLE_TEAM_ID);
  const dir = path.join(dist, '.well-known');
  fs.mkdirSync(dir, { recursive: true });
  const out = [];
  const put = (name, value, why) => {
    const file = path.join(dir, name);
    if (value === null) {
      fs.rmSync(file, { force: true });
      out.push({ err: `well-known: ${name} not written: ${why}` });
    } else {
      fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
      out.push({ log: `well-known: wrote ${path.relative(process.cwd(), file) || file} for https://${host}${linkPath}` });
    }
  };
  put(
    'assetlinks.json',
    certs.length ? assetLinks(pkg, certs) : null,
    'HUARONG_ANDROID_CERT_SHA256 is not set (Android App Links will not verify; links open the page)',
  );
  put(
    'apple-app-site-association',
    team ? appleAppSiteAssociation(`${team}.${pkg}`, linkPath) : null,
    'HUARONG_APPLE_TEAM_ID is not set (iOS Universal Links will not work; links open the page)',
  );
  return out;
}

function main(argv) {
  if (argv.length !== 1 || argv[0].startsWith('-')) {
    console.error('usage: node web/well-known.mjs <dist-dir>');
    return 2;
  }
  if (!fs.existsSync(argv[0]) || !fs.statSync(argv[0]).isDirectory()) {
    console.error(`well-known: ${argv[0]} is not a directory (build the site first)`);
    return 2;
  }
  try {
    for (const line of writeWellKnown(argv[0])) {
      if (line.err) console.error(line.err);
      else console.log(line.log);
    }
  } catch (e) {
    if (!(e instanceof InputError || e instanceof SyntaxError || e.code === 'ENOENT')) throw e;
    console.error(`well-known: ${e.message}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
