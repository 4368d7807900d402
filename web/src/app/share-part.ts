// The share button, and the dialog behind it (the lazy part `share`), loaded when a reader first presses it.
import { h } from '../views/dom';
import { t } from '../i18n';
import type { ShareDialog, ShareSource } from '../views/share';
import { lazy } from '../lazy/lazy';

/** The button that opens the dialog; the dialog goes into `host` the first time. */
export function shareButton(host: HTMLElement, source: ShareSource): HTMLButtonElement {
  const open = h('button', { class: 'btn share-open', text: t('share.open'), attrs: { type: 'button', 'data-share-open': '' } });
  let made: ShareDialog | null = null;
  open.addEventListener('click', () => {
    lazy('share').then(
      (factory) => {
        if (!made) {
          made = factory(source);
          host.append(made.dialog);
        }
        made.show();
      },
      () => {
        open.title = t('share.unavailable'); // offline, say: the next press tries again
      },
    );
  });
  return open;
}
