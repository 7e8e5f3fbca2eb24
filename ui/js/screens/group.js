// A group challenge (擂台): its puzzle drawn small, the time left, the standings as Rust ranks
// them (`group {group}`), Play (then Share your result), and "Paste the chat" (`group_paste`).
// The page only shows what Rust decided: order, places, verified, late, via and flagged.

import { call } from '../ipc.js';
import { h, icon } from '../dom.js';
import { t, addStrings, formatTime, movesText } from '../i18n.js';
import { toast } from '../feedback.js';
import { gameOf } from '../boards/index.js';
import { featureStyle } from '../friends.js';
import { BackScreen } from '../nav.js';

addStrings({
  zh: {
    'group.title': '擂台',
    'group.start': '发起擂台',
    'group.started': '擂台已发起，邀请链接已复制，发到群里吧。',
    'group.startedNoCopy': '擂台已发起。',
    'group.left': '还剩 {time}',
    'group.ended': '已截止',
    'group.days': '{d} 天 {h} 小时',
    'group.hours': '{h} 小时 {m} 分',
    'group.minutes': '{m} 分钟',
    'group.standings': '排名',
    'group.empty': '还没有成绩。去玩一局，或者把群聊粘贴进来。',
    'group.place': '第 {place} 名 / 共 {players} 人',
    'group.play': '开始挑战',
    'group.share': '分享我的成绩',
    'group.shared': '成绩链接已复制，发到群里吧。',
    'group.sharedNoCopy': '成绩代码已生成。',
    'group.paste': '粘贴群聊',
    'group.pasteEmpty': '剪贴板是空的。先在群里长按复制聊天记录，再点“粘贴群聊”。',
    'group.pasteRefused': '这里读不到剪贴板。请允许读取剪贴板后再试。',
    'group.pasteHelp': '复制整段群聊（名字、时间、闲聊都可以），点“粘贴群聊”，成绩会自动加进来。',
    'group.pasted': '新增 {added} · 已有 {duplicates} · 无效 {invalid}',
    'group.pastedLate': '{late} 个迟到',
    'group.pastedOther': '结果在另一个擂台里',
    'group.shareBoard': '分享排名',
    'group.boardCopied': '排名链接已复制。',
    'group.verified': '已回放',
    'group.verifiedLong': '步数已在本机回放验证',
    'group.claim': '未验证',
    'group.late': '迟到',
    'group.via': '经 {name}',
    'group.flagged': '有出入',
    'group.flaggedLong': '两处来源的成绩不一致',
    'group.assisted': '有辅助',
    'group.me': '我',
    'group.score': '{score} 分',
  },
  en: {
    'group.title': 'Group challenge',
    'group.start': 'Start a group challenge',
    'group.started': 'Group challenge started: the invite link is copied. Post it in the chat.',
    'group.startedNoCopy': 'Group challenge started.',
    'group.left': '{time} left',
    'group.ended': 'Ended',
    'group.days': '{d} d {h} h',
    'group.hours': '{h} h {m} min',
    'group.minutes': '{m} min',
    'group.standings': 'Standings',
    'group.empty': 'No results yet. Play it, or paste the chat here.',
    'group.place': '#{place} of {players}',
    'group.play': 'Play',
    'group.share': 'Share your result',
    'group.shared': 'Your result link is copied. Post it in the chat.',
    'group.sharedNoCopy': 'Your result code is ready.',
    'group.paste': 'Paste the chat',
    'group.pasteEmpty': 'The clipboard is empty. Copy the chat first, then tap “Paste the chat”.',
    'group.pasteRefused': 'The clipboard cannot be read here. Allow it, then try again.',
    'group.pasteHelp': 'Copy the whole chat (names, times and talk are fine) and tap “Paste the chat”: the results are added.',
    'group.pasted': '+{added} new · {duplicates} already here · {invalid} not valid',
    'group.pastedLate': '{late} late',
    'group.pastedOther': 'The results were for another group',
    'group.shareBoard': 'Share the standings',
    'group.boardCopied': 'Standings link copied.',
    'group.verified': 'verified',
    'group.verifiedLong': 'The moves were replayed on this device',
    'group.claim': 'claim',
    'group.late': 'late',
    'group.via': 'via {name}',
    'group.flagged': 'flagged',
    'group.flaggedLong': 'Two sources of this result disagree',
    'group.assisted': 'assisted',
    'group.me': 'Me',
    'group.score': '{score} pts',
  },
});

/** "23 h 59 min left" from Rust's `left_ms` (ended at ≤ 0). */
export function timeLeft(leftMs) {
  const ms = Number(leftMs) || 0;
  if (ms <= 0) return t('group.ended');
  const mins = Math.floor(ms / 60_000);
  const d = Math.floor(mins / 1440);
  const hr = Math.floor((mins % 1440) / 60);
  const m = mins % 60;
  const time = d > 0 ? t('group.days', { d, h: hr }) : hr > 0 ? t('group.hours', { h: hr, m }) : t('group.minutes', { m: Math.max(1, m) });
  return t('group.left', { time });
}

/** Copy `text` to the clipboard; whether it was copied. */
async function copy(text) {
  if (!(navigator.clipboard && navigator.clipboard.writeText)) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    return false;
  }
}

/**
 * `group_new {id, title?, deadline_ms}` (24 hours from now) for the game `id`, its link copied
 * for the chat, then the group's screen. Used by the finish sheet and the levels screen.
 */
export async function startGroup(app, id, title) {
  try {
    const args = { id, deadline_ms: Date.now() + 24 * 3600 * 1000 };
    if (title) args.title = title;
    const g = await call('group_new', args);
    const copied = await copy(g.link);
    toast(copied ? t('group.started') : t('group.startedNoCopy'), 5000);
    return app.go(`group:${g.group}`, { fresh: true });
  } catch (e) {
    app.error(e);
    return null;
  }
}

export class GroupScreen extends BackScreen {
  constructor(app, group, opts = {}) {
    super(app, `group:${group || ''}`);
    this.group = group || '';
    this.view = opts.view || null;
  }

  async prepare() {
    featureStyle('css/group.css');
    if (!this.view) {
      try {
        this.view = await call('group', { group: this.group });
      } catch (_) {
        return false;
      }
    }
    this.pv = null;
    try {
      this.pv = await call('preview', { id: this.view.id });
    } catch (_) {
      this.pv = null;
    }
    return true;
  }

  /** Whether the player has a line on this board (Rust marks it `me`). */
  played() {
    const rows = (this.view && this.view.rows) || [];
    return rows.some((r) => r.me);
  }

  render() {
    const v = this.view;
    let game = null;
    try {
      game = this.pv ? gameOf(this.pv.kind) : null;
    } catch (_) {
      game = null;
    }
    const board = this.pv && this.pv.view && game && game.preview ? h('div', { class: 'group-board' }, game.preview(this.pv.view)) : null;
    this.deadline = h('p', { class: 'group-deadline', 'data-deadline': String(v.deadline_ms), 'data-left-ms': String(v.left_ms) }, timeLeft(v.left_ms));
    this.placeEl = h('p', { class: 'group-place', 'data-group-place': v.place == null ? '' : String(v.place) }, v.place == null ? '' : t('group.place', { place: v.place, players: v.players }));
    const head = h(
      'div',
      { class: 'group-head' },
      board,
      h('div', { class: 'group-words' }, h('p', { class: 'group-name' }, v.title || t(`game.${this.pv ? this.pv.kind : ''}`)), this.deadline, this.placeEl),
    );
    this.rowsEl = h('div', { class: 'group-standings' });
    this.fillRows();
    this.primary = h('button', { class: 'btn primary', type: 'button', 'data-action': 'group-play', onclick: () => this.primaryTap() });
    this.setPrimary();
    this.note = h('p', { class: 'help group-note', role: 'status', 'data-paste-note': '', hidden: true });
    const paste = h('button', { class: 'btn', type: 'button', 'data-action': 'group-paste', onclick: () => this.paste() }, icon('paste'), t('group.paste'));
    const shareBoard = h('button', { class: 'link-btn', type: 'button', 'data-action': 'group-code', onclick: () => this.shareBoard() }, icon('chart'), t('group.shareBoard'));
    const body = h(
      'div',
      { class: 'scroll group-body' },
      head,
      h('div', { class: 'group-actions' }, this.primary, paste),
      this.note,
      h('p', { class: 'help group-help' }, t('group.pasteHelp')),
      h('h2', { class: 'group-standings-title' }, icon('chart'), t('group.standings')),
      this.rowsEl,
      h('div', { class: 'group-links' }, shareBoard),
    );
    return h('section', { class: 'screen group-screen', 'data-group': v.group, 'data-invite': v.link || '' }, this.backBar(t('group.title')), body);
  }

  /** The time left (and the board) read again from Rust each half minute while shown. */
  mounted() {
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      call('group', { group: this.group }).then((v) => this.update(v), () => {});
    }, 30_000);
  }

  destroy() {
    clearInterval(this.timer);
  }

  setPrimary() {
    const share = this.played();
    this.primary.dataset.action = share ? 'group-share' : 'group-play';
    this.primary.replaceChildren(icon(share ? 'share' : 'solve'), h('span', { class: 'btn-label' }, t(share ? 'group.share' : 'group.play')));
  }

  /** The standings in Rust's order; each mark in words (not colour alone). */
  fillRows() {
    const rows = (this.view && this.view.rows) || [];
    const is2048 = this.pv && this.pv.kind === '2048';
    if (!rows.length) {
      this.rowsEl.replaceChildren(h('p', { class: 'group-empty', 'data-group-empty': '' }, t('group.empty')));
      return;
    }
    const items = rows.map((r) => {
      const marks = [];
      marks.push(r.verified ? h('span', { class: 'group-mark verified', title: t('group.verifiedLong') }, icon('check'), t('group.verified')) : h('span', { class: 'group-mark claim' }, t('group.claim')));
      if (r.late) marks.push(h('span', { class: 'group-mark late' }, t('group.late')));
      if (r.via) marks.push(h('span', { class: 'group-mark via' }, t('group.via', { name: r.via })));
      if (r.flagged) marks.push(h('span', { class: 'group-mark flagged', title: t('group.flaggedLong') }, t('group.flagged')));
      if (r.assisted) marks.push(h('span', { class: 'group-mark assisted' }, t('group.assisted')));
      return h(
        'li',
        { class: r.me ? 'group-row me' : 'group-row', 'data-group-row': r.name || '', 'data-place': String(r.place), 'data-moves': String(r.moves), 'data-ms': String(r.ms), 'data-verified': r.verified ? '1' : '0', 'data-late': r.late ? '1' : '0', 'data-via': r.via ? String(r.via) : '', 'data-flagged': r.flagged ? '1' : '0', 'data-me': r.me ? '1' : '0' },
        h('span', { class: 'group-place-n' }, String(r.place)),
        h('span', { class: 'group-who' }, h('span', { class: 'group-who-name' }, r.name || t('friends.aFriend')), r.me ? h('span', { class: 'friend-you' }, t('group.me')) : null),
        h('span', { class: 'group-moves' }, is2048 ? t('group.score', { score: r.score || 0 }) : movesText(r.moves)),
        h('span', { class: 'group-time' }, formatTime(r.ms, true)),
        h('span', { class: 'group-marks' }, marks),
      );
    });
    this.rowsEl.replaceChildren(h('ol', { class: 'group-rows' }, items));
  }

  /** A new board from Rust: the rows, the place, the primary. */
  update(view) {
    this.view = view;
    this.fillRows();
    this.placeEl.dataset.groupPlace = view.place == null ? '' : String(view.place);
    this.placeEl.textContent = view.place == null ? '' : t('group.place', { place: view.place, players: view.players });
    this.deadline.dataset.leftMs = String(view.left_ms);
    this.deadline.textContent = timeLeft(view.left_ms);
    this.setPrimary();
  }

  async primaryTap() {
    if (this.played()) return this.shareResult();
    try {
      const view = await this.app.confirmed('open_game', { id: this.view.id });
      if (view) await this.app.go(`game:${view.snapshot.kind}`, { view });
    } catch (e) {
      this.app.error(e);
    }
    return null;
  }

  /** Share your result: the finished game's result code (it names the group), copied. */
  async shareResult() {
    const kind = this.pv ? this.pv.kind : String(this.view.id).split(':')[0];
    try {
      const r = await call('result_code', { kind });
      const copied = await copy(r.link);
      this.primary.dataset.shared = r.code;
      toast(copied ? t('group.shared') : t('group.sharedNoCopy'), 5000);
    } catch (e) {
      this.app.error(e);
    }
  }

  async shareBoard() {
    try {
      const c = await call('group_code', { group: this.group });
      await copy(c.link);
      toast(t('group.boardCopied'));
    } catch (e) {
      this.app.error(e);
    }
  }

  /** "Paste the chat": the clipboard read on this tap only, every code in it merged by Rust. */
  async paste() {
    const say = (text, key) => {
      this.note.textContent = text;
      this.note.hidden = !text;
      this.note.dataset.pasteNote = key;
    };
    say('', '');
    let text = '';
    try {
      text = String((await (navigator.clipboard && navigator.clipboard.readText ? navigator.clipboard.readText() : Promise.reject(new Error('no clipboard')))) || '');
    } catch (_) {
      return say(t('group.pasteRefused'), 'refused');
    }
    if (!text.trim()) return say(t('group.pasteEmpty'), 'empty');
    let r;
    try {
      r = await call('group_paste', { text: text.slice(0, 20_000) });
    } catch (e) {
      return this.app.error(e);
    }
    let words = t('group.pasted', { added: r.added, duplicates: r.duplicates, invalid: r.invalid });
    if (r.late) words += ` · ${t('group.pastedLate', { late: r.late })}`;
    const board = r.board;
    if (board && board.group !== this.group) words += ` · ${t('group.pastedOther')}`;
    say(words, 'done');
    Object.assign(this.note.dataset, { added: String(r.added), duplicates: String(r.duplicates), invalid: String(r.invalid) });
    try {
      this.update(await call('group', { group: this.group }));
    } catch (_) {
      /* the board stays as it was */
    }
    return null;
  }
}
