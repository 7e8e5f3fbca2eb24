// "Enter or paste a code": a game ID, a share code or a link; Rust parses and validates it.

import { h, icon } from '../dom.js';
import { t } from '../i18n.js';
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
    // Issue 25: a result code with its move log can be watched before (or instead of) playing.
    this.watch = h('button', { class: 'btn', type: 'button', 'data-action': 'watch-replay', hidden: true, onclick: () => this.watchReplay() }, icon('eye'), t('challenge.watch'));
    this.preview = codePreview(this.input, (d) => {
      this.decoded = d;
      this.watch.hidden = !(d && d.replay);
    });
    const form = h(
      'form',
      { class: 'code-form', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      h('label', { for: 'code-input', class: 'field-label' }, t('codeTitle')),
      this.input,
      h('p', { id: 'code-help', class: 'help' }, t('codeHelp')),
      this.preview.el,
      this.error,
      h(
        'div',
        { class: 'form-actions' },
        navigator.clipboard && navigator.clipboard.readText
          ? h('button', { class: 'btn', type: 'button', 'data-action': 'paste', onclick: () => this.paste() }, t('paste'))
          : null,
        this.watch,
        h('button', { class: 'btn primary', type: 'submit', 'data-action': 'open' }, t('open')),
      ),
    );
    const header = this.backBar(t('enterCode'));
    return h('section', { class: 'screen code-screen' }, header, h('div', { class: 'scroll' }, form));
  }

  watchReplay() {
    const code = this.input.value.trim();
    const d = this.decoded;
    if (!code || !d || !d.replay) return;
    this.app.go('replay', { code, name: d.name || t('friends.aFriend') });
  }

  async paste() {
    try {
      this.input.value = (await navigator.clipboard.readText()).trim();
      this.preview.check();
    } catch (_) {
      /* clipboard refused */
    }
    this.input.focus();
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
