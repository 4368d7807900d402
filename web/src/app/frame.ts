// How the page sits in its frame: embed mode's steps and controls, the height messages to the
// host page, the notice of a link or a stored state that could not be read, the language.
import { h } from '../views/dom';
import { t, setLanguage, language, resolveLanguage } from '../i18n';
import type { State } from '../state/state';
import { serialise } from '../state/link';
import { embedOptions, setFullLink, type NoticeKind } from './link';

/** Embed mode: the chosen steps, the controls asked for, the link to the full page. */
export function applyEmbed(root: HTMLElement, state: State): void {
  const embed = embedOptions();
  if (embed.theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = embed.theme;
  root.classList.toggle('embed', embed.embed);
  setFullLink(null);
  if (!embed.embed) return;
  root.dataset.controls = embed.controls;
  const views = embed.views as readonly string[];
  for (const card of Array.from(root.querySelectorAll<HTMLElement>('.card.step[data-step]'))) {
    card.classList.toggle('embed-off', !views.includes(card.dataset.step ?? ''));
  }
  root.querySelector('.card.pipeline')?.classList.toggle('embed-off', !views.includes('pipeline'));
  // No step card asked for (views=pipeline): no empty "Steps" heading either.
  const steps = root.querySelector('section.steps');
  steps?.classList.toggle('embed-off', !steps.querySelector('.card.step[data-step]:not(.embed-off)'));
  // `minimal`: the figure and what it shows, in the example's own words (the intro's story).
  const formula = views.includes('formula');
  root.querySelector('.intro')?.classList.toggle('embed-off', !formula && embed.controls !== 'minimal');
  root.querySelector('.intro .formula')?.classList.toggle('embed-off', !formula);
  const fullLink = h('a', {
    text: t('embed.full'),
    attrs: { href: 'index.html#' + serialise(state, t), target: '_blank', rel: 'noopener', 'data-full': '' },
  });
  setFullLink(fullLink);
  root.append(h('p', { class: 'embed-foot' }, fullLink));
}

/**
 * Embed mode in a frame: tells the host page the content's height whenever it changes (the
 * host's embed-resize.js or <attention-playground> checks the sender, the type and the bounds).
 */
export function postHeight(root: HTMLElement): void {
  if (window.parent === window || typeof ResizeObserver !== 'function') return;
  let last = -1;
  new ResizeObserver(() => {
    if (!embedOptions().embed) return;
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'attention-playground:height', height }, '*');
  }).observe(root);
}

/** Shown when a link or the stored state could not be read: the page then starts from its defaults. */
/** `message`: what exactly was changed, when the kind's own sentence does not say it. */
export function notice(kind: NoticeKind, message?: string): HTMLElement {
  const close = h('button', { class: 'btn ghost small', text: t('link.dismiss'), attrs: { type: 'button' } });
  const box = h(
    'div',
    { class: 'notice', attrs: { role: 'status', 'data-notice': kind } },
    h('p', { text: message ?? t(kind === 'link' ? 'link.invalid' : 'stored.invalid') }),
    close,
  );
  close.addEventListener('click', () => box.remove());
  return box;
}

/** The language the page shows: the state's (from the link or the switch), else the browser's. */
export function applyLanguage(lang: string): void {
  setLanguage(resolveLanguage(lang || navigator.language));
  document.documentElement.lang = language();
}
