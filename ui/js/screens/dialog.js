// A modal question with two answers, `[data-action=confirm]` and `[data-action=cancel]`. It is
// one history entry (back = cancel); while it is open `app.modal` is set and boards take no
// input. Resolves to true (confirm) or false (cancel, back, Escape) once it has closed.

import { h } from '../dom.js';
import { t } from '../i18n.js';

export function confirmDialog(app, { title, text, confirm, cancel }) {
  return new Promise((resolve) => {
    let answer = false;
    let el = null;
    const before = document.activeElement;
    const dialog = {
      hide() {
        if (!el) return;
        el.remove();
        el = null;
        if (app.modal === dialog) app.modal = null;
        if (before && before.isConnected) before.focus({ preventScroll: true });
        resolve(answer);
      },
      onKey(e) {
        if (e.key === 'Escape') {
          app.closeDialog(dialog);
          return true;
        }
        if (e.key === 'Tab') {
          const items = [...el.querySelectorAll('button')];
          const i = items.indexOf(document.activeElement);
          items[(i + (e.shiftKey ? items.length - 1 : 1)) % items.length].focus();
          return true;
        }
        return false;
      },
    };
    const answerWith = (yes) => () => {
      answer = yes;
      app.closeDialog(dialog);
    };
    el = h(
      'div',
      { class: 'overlay ask', role: 'alertdialog', 'aria-modal': 'true', 'aria-labelledby': 'ask-title', 'aria-describedby': 'ask-text', 'data-dialog': 'confirm' },
      h(
        'div',
        { class: 'sheet' },
        h('h2', { id: 'ask-title', tabindex: '-1' }, title),
        h('p', { id: 'ask-text', class: 'ask-text' }, text),
        h(
          'div',
          { class: 'fin-actions' },
          h('button', { class: 'btn', type: 'button', 'data-action': 'cancel', onclick: answerWith(false) }, cancel || t('cancel')),
          h('button', { class: 'btn primary', type: 'button', 'data-action': 'confirm', onclick: answerWith(true) }, confirm || t('ok')),
        ),
      ),
    );
    app.modal = dialog;
    (app.screen && app.screen.el && app.screen.el.isConnected ? app.screen.el : app.root).append(el);
    app.openDialog(dialog);
    el.querySelector('[data-action=cancel]').focus({ preventScroll: true });
  });
}
