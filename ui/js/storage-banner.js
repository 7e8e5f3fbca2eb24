// The page says when it cannot save (web page only): the board's worker tells the
// page what its storage does with `huarong-storage` events (detail: 'unavailable' — no
// IndexedDB, private mode —, 'failing' — a commit failed, retried, the game goes on —,
// 'read-only' — another tab writes, this one only shows —, 'elsewhere' — another tab took
// the game over —, or 'ok' again). A banner `[data-storage-warning="<state>"]` says it in the
// page's language until storage works again. The Tauri app never sends these events.

import { addStrings, t } from './i18n.js';

const STATES = ['unavailable', 'failing', 'read-only', 'elsewhere'];

addStrings({
  zh: {
    'storage.unavailable': '这个浏览器不让本页保存：进度只在这个标签页里，关闭就会丢失。',
    'storage.failing': '暂时无法保存进度，正在重试。请先不要关闭本页。',
    'storage.read-only': '华容已在另一个标签页打开：这里只能查看，不会保存。关闭另一个标签页后刷新本页即可在这里玩。',
    'storage.elsewhere': '华容已在另一个标签页打开：这里不再保存。刷新本页即可在这里继续玩。',
  },
  en: {
    'storage.unavailable': 'This browser does not let the page save: your progress lives in this tab only and is lost when it closes.',
    'storage.failing': 'Your progress cannot be saved right now; trying again. Please keep this page open.',
    'storage.read-only': 'Huarong is open in another tab: this one only shows your progress and saves nothing. Close the other tab and reload this one to play here.',
    'storage.elsewhere': 'Huarong was opened in another tab: this one no longer saves. Reload it to play here.',
  },
});

let state = 'ok';
let el = null;

function style() {
  if (document.querySelector('link[data-storage-style]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = 'css/storage-banner.css';
  link.dataset.storageStyle = '1';
  document.head.append(link);
}

/** The app moves down by the banner's height (CSSOM, which the CSP allows). */
function place() {
  const root = document.documentElement;
  if (!el) {
    delete root.dataset.storageBanner;
    root.style.removeProperty('--storage-banner');
    return;
  }
  root.dataset.storageBanner = state;
  root.style.setProperty('--storage-banner', `${el.offsetHeight}px`);
}

function render() {
  if (!STATES.includes(state)) {
    if (el) el.remove();
    el = null;
    place();
    return;
  }
  style();
  if (!el) {
    el = document.createElement('div');
    el.className = 'storage-warning';
    el.setAttribute('role', 'alert');
    document.body.prepend(el);
    // Its height once its stylesheet applies, and whenever the text wraps anew.
    if (typeof ResizeObserver === 'function') new ResizeObserver(place).observe(el);
  }
  el.dataset.storageWarning = state;
  el.textContent = t(`storage.${state}`);
  place();
}

/** What the page was last told (`ok` when nothing is wrong). */
export function storageState() {
  return state;
}

window.addEventListener('huarong-storage', (e) => {
  const next = String((e && e.detail) || 'ok');
  // Another tab took over: nothing later says otherwise until a reload.
  if (state === 'elsewhere' && next !== 'elsewhere') return;
  state = next;
  render();
});
window.addEventListener('huarong-elsewhere', () => {
  state = 'elsewhere';
  render();
});
// The language is set after the first events may have come: the text follows it.
new MutationObserver(() => el && render()).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
