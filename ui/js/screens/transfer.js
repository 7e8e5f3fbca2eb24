// Progress that moves and the history out: the settings' "Move to another phone" section
// (export_progress / import_progress) and the records screen's CSV export (export_history).
// Rust makes and checks the files; the page only saves them or reads the one picked.

import { h, icon } from '../dom.js';
import { addStrings, t } from '../i18n.js';
import { call, isWeb } from '../ipc.js';
import { toast } from '../feedback.js';

addStrings({
  zh: {
    'move.title': '迁移到新手机',
    'move.help': '导出一个文件，在另一台设备（或网页版）上导入：记录、连胜、关卡、好友榜和进行中的对局都会合并过去，两边的都不会丢。',
    'move.export': '导出进度',
    'move.import': '导入进度',
    'move.saved': '已保存：{file}',
    'move.downloaded': '已下载 {file}',
    'move.nothing': '没有新内容：这台设备上已经都有了',
    'move.done': '已合并：{what}',
    'move.records': '{n} 项记录',
    'move.games': '{n} 局对局',
    'move.streaks': '{n} 项连胜',
    'move.friends': '{n} 条好友成绩',
    'move.unlocked': '{n} 个游戏的关卡',
    'move.settings': '{n} 项设置',
    'move.sep': '、',
    'move.error.corrupt_save': '文件已损坏或不完整，没有做任何更改',
    'move.error.parse': '这不是华容的进度文件，没有做任何更改',
    'move.error.unsupported_version': '这个文件来自更新版本的华容，请先更新应用；没有做任何更改',
    'history.export': '导出历史（CSV）',
  },
  en: {
    'move.title': 'Move to another phone',
    'move.help': 'Export one file and import it on the other device (or the web version): records, streaks, levels, friends’ boards and games in progress are merged there, and nothing of either side is lost.',
    'move.export': 'Export progress',
    'move.import': 'Import progress',
    'move.saved': 'Saved: {file}',
    'move.downloaded': 'Downloaded {file}',
    'move.nothing': 'Nothing new: this device already has all of it',
    'move.done': 'Merged: {what}',
    'move.records': '{n} records',
    'move.records.one': '1 record',
    'move.games': '{n} games',
    'move.games.one': '1 game',
    'move.streaks': '{n} streaks',
    'move.streaks.one': '1 streak',
    'move.friends': '{n} friends’ results',
    'move.friends.one': '1 friend’s result',
    'move.unlocked': 'levels of {n} games',
    'move.unlocked.one': 'levels of 1 game',
    'move.settings': '{n} settings',
    'move.settings.one': '1 setting',
    'move.sep': ', ',
    'move.error.corrupt_save': 'The file is damaged or incomplete; nothing was changed',
    'move.error.parse': 'This is not a Huarong progress file; nothing was changed',
    'move.error.unsupported_version': 'This file is from a newer Huarong: update the app first; nothing was changed',
    'history.export': 'Export history (CSV)',
  },
});

/** A text file to the player's downloads (the web page, and where sharing is not possible). */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** What `import_progress` answered, as one line ("3 records, 1 game, 1 streak"). */
export function changedText(r) {
  const parts = ['records', 'games', 'streaks', 'friends', 'unlocked', 'settings']
    .filter((k) => r && Number(r[k]) > 0)
    .map((k) => t(`move.${k}`, { n: r[k] }));
  return parts.length ? t('move.done', { what: parts.join(t('move.sep')) }) : t('move.nothing');
}

function errorText(e) {
  const key = `move.error.${e && e.code}`;
  const s = t(key);
  return s === key ? (e && e.message) || String(e) : s;
}

async function exportProgress() {
  try {
    if (isWeb()) {
      const out = await call('export_progress', {});
      download(out.file_name, out.data, 'application/json');
      toast(t('move.downloaded', { file: out.file_name }));
    } else {
      // The app: saved beside the cards (desktop) or handed to the share sheet (phones).
      const out = await call('export_progress', { share: true });
      const share = out.share || {};
      if (share.saved) toast(t('move.saved', { file: share.saved }));
    }
  } catch (e) {
    toast(errorText(e));
  }
}

async function importFile(app, file, status) {
  if (!file) return;
  try {
    const data = await file.text();
    const r = await call('import_progress', { data });
    const text = changedText(r);
    status.textContent = text;
    toast(text);
    if (app && typeof app.refreshProgress === 'function') await app.refreshProgress();
  } catch (e) {
    const text = errorText(e);
    status.textContent = text;
    toast(text);
  }
}

/** The settings' section: export and import of the progress file. */
export function moveSection(app) {
  const status = h('p', { class: 'help move-status', role: 'status', id: 'move-status' });
  const picker = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    class: 'move-picker',
    id: 'move-picker',
    hidden: true,
    'data-action': 'import-progress-file',
    onchange: (e) => {
      const f = e.target.files && e.target.files[0];
      e.target.value = '';
      importFile(app, f, status);
    },
  });
  return h(
    'section',
    { class: 'setting move-setting', 'data-setting': 'move', 'aria-labelledby': 'move-title' },
    h('h2', { id: 'move-title', class: 'section-title' }, t('move.title')),
    h('p', { class: 'help', id: 'move-help' }, t('move.help')),
    h(
      'div',
      { class: 'move-actions' },
      h('button', { class: 'btn', type: 'button', 'data-action': 'export-progress', 'aria-describedby': 'move-help', onclick: exportProgress }, icon('share'), t('move.export')),
      h('button', { class: 'btn', type: 'button', 'data-action': 'import-progress', 'aria-describedby': 'move-help', onclick: () => picker.click() }, t('move.import')),
    ),
    picker,
    status,
  );
}

/** The records screen's item: every finish as CSV, downloaded. */
export function historyButton() {
  return h(
    'button',
    {
      class: 'btn wide ghost rec-export',
      type: 'button',
      'data-action': 'export-history',
      onclick: async () => {
        try {
          if (isWeb()) {
            const out = await call('export_history', { format: 'csv' });
            download(out.file_name, out.data, 'text/csv');
            toast(t('move.downloaded', { file: out.file_name }));
          } else {
            // The app: the same path as the progress file (saved, or the share sheet).
            const out = await call('export_history', { format: 'csv', share: true });
            const share = out.share || {};
            if (share.saved) toast(t('move.saved', { file: share.saved }));
          }
        } catch (e) {
          toast(errorText(e));
        }
      },
    },
    t('history.export'),
  );
}
