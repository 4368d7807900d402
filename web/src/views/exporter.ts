// The export menu of one step and of the whole figure: downloads (Blob + <a download>, which a
// strict CSP allows) and clipboard copies of the formats in exports.ts, which come in a script of
// their own on the first export. PNG is the SVG drawn on a canvas (loaded from a data: URL, which
// img-src allows). Nothing here parses markup: the SVG text only becomes a file or an image source.
import { h } from './dom';
import { t, type MessageKey } from '../i18n';
import type { HeatmapData } from './heatmap';
import type * as ExportsModule from './exports';
import type { Format } from './exports';

export type Exports = Pick<
  typeof ExportsModule,
  'exportText' | 'sidesSvg' | 'heatmapSvg' | 'stepsFigure' | 'svgToPng' | 'withBom'
>;
let loadExports: () => Promise<Exports> = () => Promise.reject(new Error('no exports'));

/** Where the exports come from: a script of their own, which the page loads on the first export. */
export function provideExports(load: () => Promise<Exports>): void {
  loadExports = load;
}

const DOWNLOADS: Format[] = ['png', 'svg', 'csv', 'json', 'latex', 'markdown', 'numpy'];
const COPIES: Format[] = ['csv', 'json', 'latex', 'markdown', 'numpy'];
const FILES: Record<Format, [string, string]> = {
  png: ['png', 'image/png'],
  svg: ['svg', 'image/svg+xml'],
  csv: ['csv', 'text/csv;charset=utf-8'],
  json: ['json', 'application/json'],
  latex: ['tex', 'text/x-tex'],
  markdown: ['md', 'text/markdown'],
  numpy: ['py', 'text/x-python'],
};

export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = h('a', { attrs: { href: url, download: name } });
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const formatName = (f: Format) => t(`export.format.${f}` as MessageKey);

/** Downloads the visible steps (`rows`, as stepsFigure takes them) as one SVG or PNG figure. */
export async function saveFigure(name: string, format: 'png' | 'svg', title: string, rows: HeatmapData[][]): Promise<void> {
  const f = await loadExports();
  const svg = f.stepsFigure(title, rows);
  if (format === 'svg') download(name + '.svg', new Blob([svg], { type: 'image/svg+xml' }));
  else download(name + '.png', await f.svgToPng(svg));
}

/** The menu of one step: `get` gives what its heatmaps show now (both sides when comparing). */
export function exportMenu(view: string, get: () => HeatmapData[]): HTMLElement {
  const status = h('p', { class: 'hint', attrs: { role: 'status' } });
  const act = async (format: Format, copy: boolean) => {
    const d = get();
    if (!d.length) return;
    status.textContent = '';
    try {
      const f = await loadExports();
      if (copy) {
        await navigator.clipboard.writeText(f.exportText(format, d));
        status.textContent = t('export.copied', { format: formatName(format) });
      } else if (format === 'png') {
        download(`attention-${view}.png`, await f.svgToPng(d.length > 1 ? f.sidesSvg(d) : f.heatmapSvg(d[0])));
      } else {
        const [ext, type] = FILES[format];
        download(`attention-${view}.${ext}`, new Blob([f.withBom(format, f.exportText(format, d))], { type }));
      }
    } catch {
      status.textContent = copy ? t('export.copyFailed') : t('export.failed');
    }
  };
  const buttons = (formats: Format[], copy: boolean) =>
    formats.map((f) => {
      const b = h('button', {
        class: 'btn small',
        text: formatName(f),
        attrs: {
          type: 'button',
          [copy ? 'data-copy' : 'data-download']: f,
          'aria-label': t(copy ? 'export.copyAs' : 'export.downloadAs', { format: formatName(f) }),
        },
      });
      b.addEventListener('click', () => void act(f, copy));
      return b;
    });
  return h(
    'details',
    { class: 'export', attrs: { 'data-export': view } },
    h('summary', { text: t('export.label') }),
    h('div', { class: 'export-row' }, h('span', { text: t('export.download') }), ...buttons(DOWNLOADS, false)),
    h('div', { class: 'export-row' }, h('span', { text: t('export.copy') }), ...buttons(COPIES, true)),
    status,
  );
}
