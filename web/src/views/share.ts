// The share dialog: the link, an iframe snippet (with the resize script), the web component, a
// Hugo shortcode, and an image of the figure with its link for platforms that take no iframes
// (Medium, CSDN, Zhihu). Snippets are text in read-only text areas, never markup on this page.
import { h } from './dom';
import { t, int, type MessageKey } from '../i18n';
import { CAPS } from '../state/state';
import { save } from './exporter';

export interface ShareSource {
  state: () => string; // the serialised state (ver=1&…)
  figure: () => string; // the whole figure as SVG
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Every snippet for the state `state`, with the page's own address as the base. The link opens
 * the page it was made on (index.html, or the one-file attention-playground.html, which may be
 * all a reader has); the embeds use embed.html beside it.
 */
export function snippets(base: string, state: string, title: string): Record<string, string> {
  const here = new URL(base);
  here.hash = '';
  const named = /\/[^/]+\.html?$/i.test(here.pathname) && !/\/embed\.html?$/i.test(here.pathname);
  const page = (named ? here.href : new URL('index.html', here).href) + '#' + state;
  const embed = new URL('embed.html', base).href + '#' + state + '&embed=1';
  return {
    link: page,
    iframe:
      `<iframe data-attention-playground src="${attr(embed)}" title="${attr(title)}" width="100%" height="520" frameborder="0" loading="lazy"></iframe>\n` +
      `<script src="${attr(new URL('embed-resize.js', base).href)}" async></script>`,
    component:
      `<script src="${attr(new URL('embed.js', base).href)}" defer></script>\n` +
      `<attention-playground state="${attr(state)}" views="weights,output" controls="minimal"></attention-playground>`,
    hugo: `{{< attention-playground src="${embed.replace(/"/g, '%22')}" >}}`,
    image: `[![${title}](attention-figure.png)](${page})`,
  };
}

export function shareDialog(source: ShareSource): { open: HTMLButtonElement; dialog: HTMLDialogElement } {
  const dialog = h('dialog', { class: 'share', attrs: { 'aria-labelledby': 'share-title', 'data-share': '' } });
  const status = h('p', { class: 'hint', attrs: { role: 'status' } });
  const fileHint = h('p', { class: 'hint', text: t('share.fileHint'), attrs: { 'data-file-hint': '' } });
  fileHint.hidden = location.protocol !== 'file:';
  const areas = new Map<string, HTMLTextAreaElement>();
  const item = (key: string, rows: number, extra?: HTMLElement) => {
    const id = 'share-' + key;
    const area = h('textarea', { attrs: { id, rows: String(rows), readonly: '', spellcheck: 'false', 'data-snippet': key } });
    areas.set(key, area);
    const copy = h('button', { class: 'btn small', text: t('share.copy'), attrs: { type: 'button', 'data-copy-snippet': key } });
    copy.addEventListener('click', () => {
      navigator.clipboard.writeText(area.value).then(
        () => {
          status.textContent = t('share.copied');
        },
        () => {
          area.select();
          status.textContent = t('export.copyFailed');
        },
      );
    });
    return h(
      'div',
      { class: 'share-item' },
      h('label', { text: t(`share.${key}` as MessageKey), attrs: { for: id } }),
      area,
      h('div', { class: 'share-actions' }, copy, extra ?? null),
    );
  };
  const png = h('button', { class: 'btn small', text: t('share.png'), attrs: { type: 'button', 'data-share-png': '' } });
  png.addEventListener('click', () => void save('attention-figure', 'png', source.figure()).catch(() => undefined));
  const close = h('button', { class: 'btn', text: t('share.close'), attrs: { type: 'button' } });
  close.addEventListener('click', () => dialog.close());
  dialog.append(
    h('h2', { text: t('share.title'), attrs: { id: 'share-title' } }),
    fileHint,
    item('link', 2),
    item('iframe', 3),
    item('component', 3),
    item('hugo', 2),
    h('p', { class: 'hint', text: t('share.imageHint') }),
    item('image', 2, png),
    status,
    close,
  );
  const open = h('button', { class: 'btn share-open', text: t('share.open'), attrs: { type: 'button', 'data-share-open': '' } });
  open.addEventListener('click', () => {
    const state = source.state();
    const tooLong = state.length > CAPS.link; // a link that long would not open
    const all: Record<string, string> = tooLong ? {} : snippets(location.href.replace(/#.*$/, ''), state, t('app.title'));
    for (const [key, area] of areas) area.value = all[key] ?? '';
    status.textContent = tooLong ? t('share.tooLong', { length: int(state.length), max: int(CAPS.link) }) : '';
    dialog.showModal();
  });
  return { open, dialog };
}
