// The cost section's body: a line saying what it measures until the section first comes near the
// screen (or the page is printed), then the cost view itself, from cost-view.js.
import { h } from '../views/dom';
import { t } from '../i18n';
import { loadScript } from './scripts';

/** Where cost-view.js leaves its factory on the global object. */
export const COST_VIEW = '__attentionPlaygroundCostView';

type Factory = () => HTMLElement;
const factory = () => (globalThis as unknown as Record<string, Factory | undefined>)[COST_VIEW];

/** `signal`: the App's lifetime (the print listener and the observer go with it). */
export function lazyCost(signal: AbortSignal): HTMLElement {
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
    loadScript('cost-view.js', () => !!factory()).then(
      () => placeholder.replaceWith(factory()!()),
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
