// Picture puzzles: the number slide shows parts of an image instead of numbers.
// The board element carries `data-picture="<name>"`; each tile's face shows its home cell of
// the image (positions by class rules in css/picture.css keyed on the tile's `data-home`; the
// image itself is the CSS variable `--pic`, set through CSSOM, never an inline style
// attribute). A toggle overlays the numbers. The player's own photo is cropped square, scaled
// to at most 512 px in a canvas and handed to Rust (`save_picture`); `load_picture` gives it
// back as a data URL (the CSP allows `data:` images).

import { call } from './ipc.js';
import { h, setData } from './dom.js';
import { t, language } from './i18n.js';

const MAX_SIDE = 512;
/** Rust refuses more than 512 KiB; JPEG quality steps down until the photo fits. */
const MAX_BYTES = 500 * 1024;

let custom = null; // the player's photo as a data URL, once loaded
let numbers = false; // the numbers overlay (a view preference of this run)

/** The picture of a snapshot: the view's `picture`, else the `/picture:<name>` of its ID. */
export function pictureOf(s) {
  if (!s || s.kind !== 'slide') return null;
  const v = s.view || {};
  if (typeof v.picture === 'string' && v.picture) return v.picture;
  const m = /\/picture:([a-z0-9-]{1,32})/.exec(String(s.id || ''));
  return m ? m[1] : null;
}

async function customUrl() {
  if (custom) return custom;
  try {
    custom = (await call('load_picture', {})) || null;
  } catch (_) {
    custom = null;
  }
  return custom;
}

function urlOf(name) {
  // Absolute: a relative url() inside a custom property resolves against the stylesheet
  // that uses it (css/), not the page.
  return name === 'custom' ? custom : new URL(`pictures/${name}.svg`, document.baseURI).href;
}

/**
 * Show (or take away) the picture on a slide board after each update. `boardEl` is the
 * board element, `s` the snapshot. A custom picture not loaded yet is loaded, then shown.
 */
export function applyPicture(boardEl, s) {
  const name = pictureOf(s);
  if (!name) {
    if (boardEl.dataset.picture) {
      delete boardEl.dataset.picture;
      delete boardEl.dataset.picSize;
      boardEl.style.removeProperty('--pic');
    }
    return;
  }
  const v = s.view || {};
  setData(boardEl, 'picture', name);
  setData(boardEl, 'picSize', v.w || '');
  setData(boardEl, 'picNumbers', numbers ? '1' : '0');
  const url = urlOf(name);
  if (url) {
    if (boardEl.picUrl !== url) {
      boardEl.style.setProperty('--pic', `url("${url}")`);
      boardEl.picUrl = url;
    }
  } else if (name === 'custom') {
    customUrl().then((u) => {
      if (u && boardEl.dataset.picture === 'custom') {
        boardEl.style.setProperty('--pic', `url("${u}")`);
        boardEl.picUrl = u;
      }
    });
  }
}

/** Side of the picture sent for the share card's thumbnail (Rust refuses more than 256 KiB). */
const CARD_SIDE = [240, 160];
const CARD_MAX_BYTES = 250 * 1024;

/**
 * The picture of a picture puzzle as a PNG data URL for the share card (`card.picture`), or
 * null (not a picture puzzle, the image did not load, too large: the card shows numbers).
 */
export async function cardPicture(s) {
  const name = pictureOf(s);
  if (!name) return null;
  const url = name === 'custom' ? await customUrl() : urlOf(name);
  if (!url) return null;
  try {
    const img = await loadImage(url, 'picture did not load');
    for (const side of CARD_SIDE) {
      const canvas = document.createElement('canvas');
      canvas.width = side;
      canvas.height = side;
      const g = canvas.getContext('2d');
      g.imageSmoothingQuality = 'high';
      g.drawImage(img, 0, 0, side, side);
      const data = canvas.toDataURL('image/png');
      if ((data.length * 3) / 4 < CARD_MAX_BYTES) return data;
    }
  } catch (_) {
    // No picture on the card; it still has the board.
  }
  return null;
}

/**
 * The game screen's picture tools (hidden unless the board shows a picture): the target
 * picture as a thumbnail — press and hold it (finger, mouse, or Space/Enter) to see the whole
 * picture over the board — and the numbers toggle.
 */
export function numbersToggle(getBoardEl) {
  const btn = h('button', { class: 'chip pic-toggle', type: 'button', 'data-action': 'numbers', 'aria-pressed': numbers ? 'true' : 'false' }, t('pic.numbers'));
  btn.addEventListener('click', () => {
    numbers = !numbers;
    btn.setAttribute('aria-pressed', numbers ? 'true' : 'false');
    const el = getBoardEl();
    if (el && el.dataset.picture) el.dataset.picNumbers = numbers ? '1' : '0';
  });
  const img = h('img', { class: 'pic-peek-img', alt: '', width: '40', height: '40', draggable: 'false' });
  const peek = h('button', { class: 'chip pic-peek', type: 'button', 'data-action': 'peek', 'aria-label': t('pic.peekLabel') }, img, h('span', { class: 'pic-peek-text' }, t('pic.peek')));
  const show = (on) => {
    const el = getBoardEl();
    if (el) el.classList.toggle('peeking', on && !!el.dataset.picture);
    peek.classList.toggle('held', on);
  };
  peek.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    try {
      peek.setPointerCapture(e.pointerId);
    } catch (_) {
      /* a synthetic pointer */
    }
    show(true);
  });
  for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) peek.addEventListener(type, () => show(false));
  peek.addEventListener('keydown', (e) => {
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      e.stopPropagation();
      show(true);
    }
  });
  peek.addEventListener('keyup', () => show(false));
  peek.addEventListener('blur', () => show(false));
  const el = h('div', { class: 'pic-tools', hidden: true }, peek, btn);
  let shown = '';
  return {
    el,
    update(s) {
      const name = pictureOf(s);
      el.hidden = !name;
      if (!name || name === shown) return;
      shown = name;
      if (name === 'custom') customUrl().then((u) => u && shown === 'custom' && (img.src = u));
      else img.src = urlOf(name);
    },
  };
}

function title(p) {
  if (p.custom) return t('pic.custom');
  return language() === 'en' ? p.name_en || p.name : p.name_zh || p.name;
}

/** Picture boards are square, 3×3 to 6×6 (the engine's picture sides). */
const SIDES = [3, 4, 5, 6];
let side = null; // the size chosen on the level screen (null: each picture at its listed size)

/** The params a picture starts with: its listed `params`, or the chosen size. */
function paramsOf(p) {
  return side ? `${side}x${side}/picture:${p.name}` : p.params;
}

function sizeText(p) {
  const n = side || Number(String(p.size || '').split('x')[0]) || 3;
  const best = !side || `${side}x${side}` === p.size ? p.best && p.best.best_moves : null;
  return `${n}×${n}${best ? ` · ${t('best')} ${best}` : ''}`;
}

/** The level screen's picture section: a size choice, the built-in pictures, the player's photo, "use my photo". */
export function pictureList(screen) {
  const raw = screen.app.levelsRaw && screen.app.levelsRaw.slide;
  const pics = (raw && Array.isArray(raw.pictures) && raw.pictures) || [];
  const labels = [];
  const items = pics.map((p) => {
    const img = h('img', { class: 'pic-thumb', alt: '', src: p.custom ? '' : `pictures/${p.name}.svg`, width: '96', height: '96', draggable: 'false' });
    if (p.custom) customUrl().then((u) => u && (img.src = u));
    const size = h('span', { class: 'pic-size' }, sizeText(p));
    const item = h(
      'button',
      { class: 'pic-item', type: 'button', 'data-picture': p.name, 'data-params': paramsOf(p), onclick: () => screen.start(paramsOf(p)) },
      img,
      h('span', { class: 'pic-name' }, title(p)),
      size,
    );
    labels.push(() => {
      size.textContent = sizeText(p);
      item.dataset.params = paramsOf(p);
      item.setAttribute('aria-label', `${title(p)} ${sizeText(p)}`);
    });
    return item;
  });
  const chips = SIDES.map((n) =>
    h('button', { class: 'chip', type: 'button', 'data-action': 'pic-side', 'data-side': n, 'aria-pressed': side === n ? 'true' : 'false' }, `${n}×${n}`),
  );
  const relabel = () => {
    chips.forEach((c) => c.setAttribute('aria-pressed', Number(c.dataset.side) === side ? 'true' : 'false'));
    labels.forEach((f) => f());
  };
  chips.forEach((c) =>
    c.addEventListener('click', () => {
      const n = Number(c.dataset.side);
      side = side === n ? null : n;
      relabel();
    }),
  );
  relabel();
  const input = h('input', { type: 'file', accept: 'image/*', class: 'sr-only', id: 'pic-file', 'data-action': 'photo-file' });
  const status = h('p', { class: 'help pic-status', role: 'status' });
  input.addEventListener('change', () => {
    const file = input.files && input.files[0];
    if (file) ownPhoto(screen, file, status);
    input.value = '';
  });
  return h(
    'section',
    { class: 'pictures', 'aria-labelledby': 'pic-title' },
    h('h2', { class: 'section-title', id: 'pic-title' }, t('pictures')),
    h('div', { class: 'pic-sides', role: 'group', 'aria-label': t('pic.size') }, chips),
    h('div', { class: 'pic-grid' }, items),
    h('label', { class: 'btn wide ghost pic-own', for: 'pic-file', 'data-action': 'photo' }, t('pic.own')),
    input,
    h('p', { class: 'help' }, t('pic.ownHelp')),
    status,
  );
}

/** Crop the centre square, scale to ≤ 512 px, keep it (Rust) and start it (3×3, or the chosen size). */
async function ownPhoto(screen, file, status) {
  status.textContent = t('pic.saving');
  try {
    const data = await squareData(file);
    await call('save_picture', { data });
    custom = data;
    if (screen.app.levels) delete screen.app.levels.slide;
    status.textContent = '';
    const n = side || 3;
    await screen.start(`${n}x${n}/picture:custom`);
  } catch (e) {
    status.textContent = t('pic.bad', { message: (e && e.message) || String(e) });
  }
}

/** The image at `url`, loaded; rejects with `failure` when it does not load. */
function loadImage(url, failure) {
  return new Promise((resolve, reject) => {
    const im = new Image();
    im.onload = () => resolve(im);
    im.onerror = () => reject(new Error(failure));
    im.src = url;
  });
}

async function squareData(file) {
  const url = URL.createObjectURL(file);
  try {
    const img = await loadImage(url, 'not an image');
    const side = Math.min(img.naturalWidth, img.naturalHeight);
    if (!side) throw new Error('empty image');
    const out = Math.min(MAX_SIDE, side);
    const canvas = document.createElement('canvas');
    canvas.width = out;
    canvas.height = out;
    const g = canvas.getContext('2d');
    g.imageSmoothingQuality = 'high';
    g.drawImage(img, (img.naturalWidth - side) / 2, (img.naturalHeight - side) / 2, side, side, 0, 0, out, out);
    for (const q of [0.86, 0.75, 0.6, 0.45]) {
      const data = canvas.toDataURL('image/jpeg', q);
      if ((data.length * 3) / 4 < MAX_BYTES) return data;
    }
    throw new Error('too large');
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The picture puzzle's title: its picture's name (the level list's), or null for numbers. */
export function pictureTitle(app, s) {
  const name = pictureOf(s);
  if (!name) return null;
  const raw = app.levelsRaw && app.levelsRaw.slide;
  const p = ((raw && Array.isArray(raw.pictures) && raw.pictures) || []).find((x) => x.name === name);
  if (name === 'custom') return t('pic.custom');
  return p ? title(p) : null;
}

/**
 * Home's picture puzzles (`[data-home-pictures]`): each built-in picture, one tap
 * from a new puzzle at its listed size (`start(params)`); the level screen keeps the sizes and
 * the player's own photo.
 */
export function homePictures(app, start) {
  const raw = app.levelsRaw && app.levelsRaw.slide;
  const pics = ((raw && Array.isArray(raw.pictures) && raw.pictures) || []).filter((p) => !p.custom);
  if (!pics.length) return null;
  return h(
    'section',
    { class: 'home-pictures', 'data-home-pictures': '', 'aria-labelledby': 'home-pic-title' },
    h('h2', { class: 'section-title', id: 'home-pic-title' }, t('pictures')),
    h(
      'div',
      { class: 'home-pic-row' },
      pics.map((p) =>
        h(
          'button',
          { class: 'home-pic', type: 'button', 'data-picture': p.name, 'data-params': p.params, 'aria-label': `${title(p)} ${String(p.size || '').replace('x', '×')}`, onclick: () => start(p.params) },
          h('img', { class: 'home-pic-img', alt: '', src: `pictures/${p.name}.svg`, width: '80', height: '80', draggable: 'false' }),
          h('span', { class: 'home-pic-name' }, title(p)),
        ),
      ),
    ),
  );
}
