// The share dialog: the link; the author's choice of the embed's steps, controls, theme and
// height, with a live preview of it; then the iframe snippet (with the resize script), the web
// component, a Hugo shortcode, and an image of the figure with its link for platforms that take
// no iframes (Medium, CSDN, Zhihu). Snippets are text in read-only text areas, never markup here.
// It comes in its own script (share.js) when a reader first opens it.
import { h, uid } from './dom';
import { t, int, type Key, type ShareKey } from '../i18n';
import { CAPS } from '../state/state';
import { CONTROLS, EMBED_VIEWS, THEMES, embedDefaults, type EmbedView } from '../state/embed-options';
import { radios } from './controls';
import { HEIGHTS, previewAddress, snippets, type EmbedChoice } from './share-snippets';

export interface ShareSource {
  state: () => string; // the serialised state (ver=2&…)
  // Downloads the figure as PNG. The page's own exporter does it: share.js is a script of its own,
  // and a copy of the exporter in it would not know where the exports come from.
  savePng: () => Promise<void>;
  /** The page's lifetime: the window's listener for the preview's height goes with it. */
  signal: AbortSignal;
}

export interface ShareDialog {
  dialog: HTMLDialogElement;
  show(): void;
}

const VIEW_NAMES: Record<EmbedView, Key> = {
  formula: 'share.viewFormula',
  pipeline: 'share.viewPipeline',
  scores: 'view.scores',
  scaled: 'view.scaled',
  masked: 'view.masked',
  weights: 'view.weights',
  output: 'view.output',
  plot: 'view.plot',
};

export function shareDialog(source: ShareSource): ShareDialog {
  const dialog = h('dialog', { class: 'share', attrs: { 'aria-labelledby': 'share-title', 'data-share': '' } });
  const status = h('p', { class: 'hint', attrs: { role: 'status' } });
  const fileHint = h('p', { class: 'hint', text: t('share.fileHint'), attrs: { 'data-file-hint': '' } });
  fileHint.hidden = location.protocol !== 'file:';
  const defaults = embedDefaults();
  const choice: EmbedChoice = {
    views: defaults.views,
    controls: defaults.controls,
    theme: defaults.theme,
    height: HEIGHTS.initial,
  };
  let state = '';

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
      h('label', { text: t(`share.${key}` as ShareKey), attrs: { for: id } }),
      area,
      h('div', { class: 'share-actions' }, copy, extra ?? null),
    );
  };

  // The preview is the page itself in embed mode, as tall as it says it is (like embed-resize.js).
  const preview = h('iframe', { class: 'share-preview', attrs: { title: t('share.preview'), 'data-share-preview': '' } });
  preview.style.height = choice.height + 'px';
  window.addEventListener(
    'message',
    (e) => {
      const data = e.data as { type?: unknown; height?: unknown } | null;
      if (e.source !== preview.contentWindow || !data || data.type !== 'attention-playground:height') return;
      const height = data.height;
      if (typeof height === 'number' && Number.isFinite(height) && height >= 60 && height <= 20000)
        preview.style.height = Math.ceil(height) + 'px';
    },
    { signal: source.signal },
  );

  const tooLong = () => state.length > CAPS.link; // a link that long would not open
  const refresh = () => {
    const base = location.href.replace(/#.*$/, '');
    const all: Record<string, string> = tooLong() ? {} : snippets(base, state, t('app.title'), choice);
    for (const [key, area] of areas) area.value = all[key] ?? '';
    if (!tooLong() && dialog.open) {
      const address = previewAddress(base, state, choice);
      if (preview.src !== address) preview.src = address;
    }
  };

  const views = h(
    'fieldset',
    { class: 'share-views', attrs: { 'data-share-views': '' } },
    h('legend', { text: t('share.views') }),
  );
  const boxes = new Map<EmbedView, HTMLInputElement>();
  for (const view of EMBED_VIEWS) {
    const box = h('input', { attrs: { type: 'checkbox', value: view } });
    box.checked = choice.views.includes(view);
    box.addEventListener('change', () => {
      choice.views = EMBED_VIEWS.filter((v) => boxes.get(v)!.checked);
      // An embed shows at least one step: the last one checked stays.
      for (const b of boxes.values()) b.disabled = b.checked && choice.views.length === 1;
      refresh();
    });
    boxes.set(view, box);
    views.append(h('label', { class: 'check' }, box, h('span', { text: t(VIEW_NAMES[view]) })));
  }
  const controls = radios(
    t('share.controls'),
    'share-controls',
    CONTROLS.map((c) => [c, t(`share.controls.${c}` as ShareKey)] as [typeof c, string]),
    (c) => {
      choice.controls = c;
      refresh();
    },
  );
  controls.set(choice.controls);
  const theme = radios(
    t('share.theme'),
    'share-theme',
    THEMES.map((c) => [c, t(`share.theme.${c}` as ShareKey)] as [typeof c, string]),
    (c) => {
      choice.theme = c;
      refresh();
    },
  );
  theme.set(choice.theme);
  const heightId = uid('share-height');
  const height = h('input', {
    attrs: {
      id: heightId,
      type: 'number',
      min: String(HEIGHTS.min),
      max: String(HEIGHTS.max),
      step: '20',
      value: String(choice.height),
      'data-share-height': '',
    },
  });
  const heightHint = h('p', { class: 'hint', attrs: { id: heightId + '-hint' } });
  height.setAttribute('aria-describedby', heightHint.id);
  height.addEventListener('input', () => {
    const v = Number(height.value);
    const ok = height.value !== '' && Number.isInteger(v) && v >= HEIGHTS.min && v <= HEIGHTS.max;
    height.setAttribute('aria-invalid', String(!ok));
    // A height out of range keeps the last good one, and says so next to the field.
    heightHint.textContent = ok
      ? t('share.heightHint')
      : t('share.heightBad', { min: int(HEIGHTS.min), max: int(HEIGHTS.max), kept: int(choice.height) });
    if (!ok) return;
    choice.height = v;
    refresh();
  });
  heightHint.textContent = t('share.heightHint');

  const png = h('button', { class: 'btn small', text: t('share.png'), attrs: { type: 'button', 'data-share-png': '' } });
  png.addEventListener('click', () => void source.savePng().catch(() => undefined));
  const close = h('button', { class: 'btn', text: t('share.close'), attrs: { type: 'button' } });
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => preview.removeAttribute('src')); // no engine left running behind a closed dialog
  dialog.append(
    h('h2', { text: t('share.title'), attrs: { id: 'share-title' } }),
    fileHint,
    item('link', 2),
    h(
      'section',
      { class: 'share-embed', attrs: { 'aria-labelledby': 'share-embed-title' } },
      h('h3', { text: t('share.embedTitle'), attrs: { id: 'share-embed-title' } }),
      views,
      h(
        'div',
        { class: 'share-choices' },
        controls.el,
        theme.el,
        h('div', { class: 'control' }, h('label', { text: t('share.height'), attrs: { for: heightId } }), height, heightHint),
      ),
      h('p', { class: 'share-preview-label', text: t('share.preview') }),
      // It scrolls, so it takes the keyboard's focus too (arrow keys scroll it).
      h(
        'div',
        { class: 'share-preview-box', attrs: { tabindex: '0', role: 'region', 'aria-label': t('share.preview') } },
        preview,
      ),
      item('iframe', 3),
      item('component', 3),
      item('hugo', 2),
    ),
    h('p', { class: 'hint', text: t('share.imageHint') }),
    item('image', 2, png),
    status,
    close,
  );
  return {
    dialog,
    show: () => {
      state = source.state();
      status.textContent = tooLong() ? t('share.tooLong', { length: int(state.length), max: int(CAPS.link) }) : '';
      dialog.showModal();
      refresh();
    },
  };
}
