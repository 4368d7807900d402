// The Present button, on the first screen; what it does (the lazy part `present`: its keys and
// its styles) comes the first time a reader presses it. The button says it is pressed only once
// the page is presenting, styles and all.
import { h } from '../views/dom';
import { t } from '../i18n';
import { lazy } from '../lazy/lazy';
import type { Presenter } from '../views/present';
import type { PresetId, State } from '../state/state';

export function presentButton(
  root: HTMLElement,
  state: () => State,
  load: (id: PresetId) => void,
  signal: AbortSignal,
): HTMLElement {
  const button = h('button', {
    class: 'btn present-open',
    text: t('present.open'),
    attrs: { type: 'button', 'aria-pressed': 'false', title: t('present.keys') },
  });
  let toggle: Presenter | null = null;
  button.addEventListener('click', () => {
    const on = !root.classList.contains('presenting');
    lazy('present')
      .then(async (part) => {
        await part.styled;
        toggle ??= part.presenter(root, button, state, load, signal);
        toggle(on);
      })
      .catch(() => undefined); // offline and not inline: the page stays as it is
  });
  // Said on the screen while presenting: a teacher at a projector has no tooltip to hover.
  const hint = h('span', { class: 'present-hint', text: t('present.hint'), attrs: { 'aria-hidden': 'true' } });
  return h('span', { class: 'present' }, hint, button);
}
