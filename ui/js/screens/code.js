// "Enter or paste a code": a game ID, a share code or a link; Rust parses and validates it.

import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
import { call } from '../ipc.js';
import { gameOf } from '../boards/index.js';
import { codePreview } from '../challenge.js';
import { BackScreen } from '../nav.js';

export class CodeScreen extends BackScreen {
  constructor(app) {
    super(app, 'code');
  }

  render() {
    this.error = h('p', { class: 'form-error', role: 'alert', id: 'code-error' });
    this.input = h('textarea', {
      id: 'code-input',
      class: 'code-input',
      rows: '3',
      maxlength: '2048',
      spellcheck: 'false',
      autocapitalize: 'off',
      autocomplete: 'off',
      placeholder: t('codePlaceholder'),
      'aria-describedby': 'code-help code-error',
      'data-autofocus': '1',
    });
    // A result code with its move log can be watched before (or instead of) playing.
    this.watch = h('button', { class: 'btn', type: 'button', 'data-action': 'watch-replay', hidden: true, onclick: () => this.watchReplay() }, icon('eye'), t('challenge.watch'));
    // A decoded code shows its puzzle drawn small, with whose challenge it is.
    this.card = h('div', { class: 'code-card', 'data-code-card': '', hidden: true });
    // The one primary action, `open`: "Open" under the box, or the card's "Play" while the
    // card shows (the same button moves there, so a tap or a test's click never loses it).
    this.open = h('button', { class: 'btn primary', type: 'submit', 'data-action': 'open' }, t('open'));
    // What "Paste" found: an empty or refused clipboard is said plainly, never as an error.
    this.note = h('p', { class: 'help paste-note', role: 'status', 'data-paste-note': '', hidden: true });
    // Typing makes what Paste said old news, and the text is not decoded yet.
    this.input.addEventListener('input', () => {
      this.note.hidden = true;
      delete this.input.dataset.decoded;
    });
    // The result is said once: in the card, beside whose it is (`compact`: the figures only).
    this.preview = codePreview(this.input, async (d) => {
      this.decoded = d;
      this.watch.hidden = !(d && d.replay);
      const text = this.input.value;
      await this.showCard(d);
      // Settled for this text: the card shown or not, `open` where it stays (`data-decoded`,
      // which the end-to-end tests wait on before they tap it).
      if (this.input.value === text) this.input.dataset.decoded = '1';
    }, { compact: true });
    const form = h(
      'form',
      { class: 'code-form', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      h('label', { for: 'code-input', class: 'field-label' }, t('codeField')),
      this.input,
      h('p', { id: 'code-help', class: 'help' }, t('codeHelp')),
      this.note,
      this.card,
      this.preview.el,
      this.error,
      (this.actions = h(
        'div',
        { class: 'form-actions' },
        navigator.clipboard && navigator.clipboard.readText
          ? h('button', { class: 'btn', type: 'button', 'data-action': 'paste-code', onclick: () => this.paste() }, icon('paste'), t('paste'))
          : null,
        this.watch,
        this.open,
      )),
    );
    const header = this.backBar(t('enterCode'));
    return h('section', { class: 'screen code-screen' }, header, h('div', { class: 'scroll' }, form));
  }

  async showCard(d) {
    const card = this.card;
    const mine = (this.cardSeq = (this.cardSeq || 0) + 1);
    if (!d || !d.id) {
      card.hidden = true;
      this.placeOpen(false);
      this.parkLine();
      card.replaceChildren();
      return;
    }
    let pv = null;
    try {
      pv = await call('preview', { id: d.id });
    } catch (_) {
      pv = null;
    }
    if (mine !== this.cardSeq) return;
    let game = null;
    try {
      game = gameOf(d.kind);
    } catch (_) {
      game = null;
    }
    const who = d.challenge ? (d.name ? t('code.challenges', { name: d.name }) : t('code.challengesAnon')) : t(`game.${d.kind}`);
    card.replaceChildren(
      pv && pv.view && game && game.preview ? h('div', { class: 'code-card-board' }, game.preview(pv.view)) : null,
      h(
        'div',
        { class: 'code-card-words' },
        h('p', { class: 'code-card-who' }, who),
      ),
    );
    // The result: the preview's line (its text set by now, with "✓ replayed" for a verified
    // one), moved into the card; back under the box when the card goes.
    const line = this.preview.el;
    if (d.challenge) {
      line.classList.add('code-card-result');
      line.dataset.codeResult = `${d.challenge.moves}:${d.challenge.ms}`;
      card.querySelector('.code-card-who').after(line);
    } else {
      this.parkLine();
    }
    this.placeOpen(true);
    card.hidden = false;
  }

  /** The challenge line back in the form, after the card (where codePreview's element lives
   *  while no card shows). */
  parkLine() {
    const line = this.preview.el;
    line.classList.remove('code-card-result');
    delete line.dataset.codeResult;
    if (line.parentNode !== this.card.parentNode) this.card.after(line);
  }

  /** The `open` button in the card ("Play") or back under the box ("Open"). */
  placeOpen(inCard) {
    const b = this.open;
    const words = inCard && this.card.querySelector('.code-card-words');
    if (words) {
      b.classList.add('code-card-play');
      b.replaceChildren(icon('solve'), t('play'));
      words.append(b);
    } else if (b.parentNode !== this.actions) {
      b.classList.remove('code-card-play');
      b.replaceChildren(t('open'));
      this.actions.append(b);
    }
  }

  watchReplay() {
    const code = this.input.value.trim();
    const d = this.decoded;
    if (!code || !d || !d.replay) return;
    this.app.go('replay', { code, name: d.name || t('friends.aFriend') });
  }

  /**
   * "Paste": the clipboard read on this tap. A link or code Rust can decode goes into the box
   * and opens its card; an empty clipboard, one without a code, or a platform that refuses to
   * read it says so in words (the box stays for typing).
   */
  async paste() {
    const say = (key) => {
      this.note.textContent = key ? t(key) : '';
      this.note.hidden = !key;
      this.note.dataset.pasteNote = key ? key.slice('paste.'.length) : '';
    };
    say(null);
    let text = '';
    try {
      text = String((await navigator.clipboard.readText()) || '').trim();
    } catch (_) {
      say('paste.refused');
      this.input.focus();
      return;
    }
    if (!text) {
      say('paste.empty');
      this.input.focus();
      return;
    }
    text = text.slice(0, 4096);
    let d = null;
    try {
      d = await call('decode_code', { text });
    } catch (_) {
      d = null;
    }
    if (!d || !d.id) {
      say('paste.none');
      this.input.focus();
      return;
    }
    this.input.value = text;
    this.error.textContent = '';
    await this.preview.check();
  }

  async submit() {
    const code = this.input.value.trim();
    this.error.textContent = '';
    if (!code) return;
    try {
      // The code screen is a form on the way: back from the game goes where it was opened from.
      await this.app.openCode(code, { replace: true });
    } catch (e) {
      this.error.textContent = t(`err.${e.code}`, { message: e.message }).startsWith('err.') ? e.message : t(`err.${e.code}`, { message: e.message });
    }
  }

}
