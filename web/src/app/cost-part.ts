// The cost section's body: a line saying what it measures until the section first comes near the
// screen (or the page is printed), then the cost view itself, the lazy part `cost`.
import { h } from '../views/dom';
import { t } from '../i18n';
import { lazy } from '../lazy/lazy';

/** `signal`: the App's lifetime (the print listener and the observer go with it). */
export function costPart(signal: AbortSignal): HTMLElement {
  const placeholder = h(
    'div',
    { class: 'cost', attrs: { 'data-view': 'cost-pending' } },
    h('p', { class: 'hint', text: t('cost.hint') }),
  );
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    lazy('cost').then(
      (view) => placeholder.replaceWith(view()),
      () => {
        started = false; // offline, say: a later approach tries again
        placeholder.append(h('p', { class: 'hint', attrs: { role: 'status' }, text: t('cost.unavailable') }));
      },
    );
  };
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && start(), { rootMargin: '600px 0px' })
      : null;
  if (observer) observer.observe(placeholder);
  else start();
  window.addEventListener('beforeprint', start, { once: true, signal });
  signal.addEventListener('abort', () => observer?.disconnect());
  return placeholder;
}
