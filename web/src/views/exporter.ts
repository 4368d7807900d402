// The export menu of one step and of the whole figure: downloads (Blob + <a download>, which a
// strict CSP allows) and clipboard copies of the formats in ../export.ts. PNG is the SVG drawn on
// a canvas (loaded from a data: URL, which img-src allows). Nothing here parses markup: the SVG
// text only becomes a file or an image source.
import { h } from './dom';
import { t, type MessageKey } from '../i18n';
import { toSvg, type LabelledMatrix } from './svg-format';
import type * as Formats from './formats';

export type TextFormats = Pick<typeof Formats, 'toCsv' | 'toJson' | 'toLatex' | 'toMarkdown' | 'toNumpy'>;
let loadFormats: () => Promise<TextFormats> = () => Promise.reject(new Error('no text formats'));

/** Where the text formats come from: a script of their own, which the page loads on the first export. */
export function provideFormats(load: () => Promise<TextFormats>): void {
  loadFormats = load;
}
import { swatches, type HeatmapData } from './heatmap';

type Format = 'png' | 'svg' | 'csv' | 'json' | 'latex' | 'markdown' | 'numpy';
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

export function labelled(d: HeatmapData): LabelledMatrix {
  return {
    title: d.caption,
    rows: d.values.rows,
    cols: d.values.cols,
    data: d.values.data,
    rowLabels: d.rowLabels.slice(0, d.values.rows),
    colLabels: d.colLabels.slice(0, d.values.cols),
  };
}

/** A standalone SVG of a heatmap, in the page's colours (masked cells grey). */
export function heatmapSvg(d: HeatmapData): string {
  const colours = swatches(d);
  const at = (i: number, j: number) => colours[i * d.values.cols + j];
  return toSvg(labelled(d), {
    fill: (i, j) => at(i, j)?.background ?? '#e0e0e0',
    ink: (i, j) => {
      const s = at(i, j);
      return s ? (s.dark ? '#000000' : '#ffffff') : '#555555';
    },
  });
}

/**
 * Several heatmaps' SVGs in one figure: the rows stacked, the heatmaps of one row (the two sides
 * of a comparison) side by side.
 */
export function figureSvg(title: string, rows: string[][]): string {
  const size = (svg: string, name: string) => Number(new RegExp(`${name}="(\\d+(?:\\.\\d+)?)"`).exec(svg)?.[1] ?? 0);
  // Each column starts where the widest heatmap of the column before it ends.
  const starts = [0];
  for (let c = 0; c < Math.max(0, ...rows.map((r) => r.length)); c++) {
    starts.push(starts[c] + Math.max(0, ...rows.map((r) => (r[c] ? size(r[c], 'width') : 0))) + 24);
  }
  let y = 32,
    width = 200;
  const placed: string[] = [];
  for (const row of rows) {
    let tallest = 0;
    row.forEach((svg, c) => {
      placed.push(svg.replace('<svg ', `<svg x="${starts[c]}" y="${y}" `));
      tallest = Math.max(tallest, size(svg, 'height'));
      width = Math.max(width, starts[c] + size(svg, 'width'));
    });
    y += tallest + 16;
  }
  const esc = title.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" ` +
        'font-family="system-ui, sans-serif">',
      `<title>${esc}</title>`,
      `<rect width="${width}" height="${y}" fill="#ffffff"/>`,
      `<text x="12" y="22" font-size="16" font-weight="700" fill="#111111">${esc}</text>`,
      ...placed,
      '</svg>',
    ].join('\n') + '\n'
  );
}

export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = h('a', { attrs: { href: url, download: name } });
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The SVG drawn at twice its size on a canvas, as PNG bytes. */
export function svgToPng(svg: string): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      const scale = 2;
      const canvas = h('canvas');
      canvas.width = Math.max(1, img.naturalWidth * scale);
      canvas.height = Math.max(1, img.naturalHeight * scale);
      const g = canvas.getContext('2d');
      if (!g) {
        reject(new Error('no canvas'));
        return;
      }
      g.scale(scale, scale);
      g.drawImage(img, 0, 0);
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no png'))), 'image/png');
    };
    img.onerror = () => reject(new Error('svg did not load'));
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
  });
}

/**
 * What a step exports: its heatmap, or both sides of a comparison, one after the other (a JSON
 * array of the two, one figure of both for SVG), each named by its caption.
 */
async function text(format: Format, sides: HeatmapData[]): Promise<string> {
  if (format === 'svg') return sides.length === 1 ? heatmapSvg(sides[0]) : sidesSvg(sides);
  const f = await loadFormats();
  const one = (d: HeatmapData) => written(f, format, d);
  if (sides.length === 1) return one(sides[0]);
  if (format === 'json') return '[\n' + sides.map((d) => one(d).trim()).join(',\n') + '\n]\n';
  // CSV has no title of its own: each side's block starts with its caption.
  const texts = sides.map((d) => (format === 'csv' ? `"${d.caption.replace(/"/g, '""')}"\r\n` : '') + one(d));
  if (format === 'numpy') return texts.map((x, k) => (k ? x.replace(/^import numpy as np\n+/, '') : x)).join('\n');
  return texts.join(format === 'csv' ? '\r\n' : '\n');
}

function sidesSvg(sides: HeatmapData[]): string {
  return figureSvg(sides.map((d) => d.caption).join(' · '), [sides.map(heatmapSvg)]);
}

function written(f: TextFormats, format: Format, d: HeatmapData): string {
  const m = labelled(d);
  switch (format) {
    case 'csv':
      return f.toCsv(m);
    case 'json':
      return f.toJson(m);
    case 'latex':
      return f.toLatex(m);
    case 'markdown':
      return f.toMarkdown(m);
    default:
      return f.toNumpy(m);
  }
}

/**
 * A CSV file with labels beyond ASCII (Chinese tokens) starts with a byte-order mark: without
 * it, spreadsheet programs read the file in the system's code page and garble the labels.
 */
function withBom(format: Format, s: string): string {
  return format === 'csv' && /[^\x00-\x7f]/.test(s) ? '\ufeff' + s : s;
}

const formatName = (f: Format) => t(`export.format.${f}` as MessageKey);

/** Downloads the SVG of a figure and its PNG. */
export async function save(name: string, format: 'png' | 'svg', svg: string): Promise<void> {
  if (format === 'svg') download(name + '.svg', new Blob([svg], { type: 'image/svg+xml' }));
  else download(name + '.png', await svgToPng(svg));
}

/** The menu of one step: `get` gives what its heatmaps show now (both sides when comparing). */
export function exportMenu(view: string, get: () => HeatmapData[]): HTMLElement {
  const status = h('p', { class: 'hint', attrs: { role: 'status' } });
  const act = async (format: Format, copy: boolean) => {
    const d = get();
    if (!d.length) return;
    status.textContent = '';
    try {
      if (copy) {
        await navigator.clipboard.writeText(await text(format, d));
        status.textContent = t('export.copied', { format: formatName(format) });
      } else if (format === 'png') {
        download(`attention-${view}.png`, await svgToPng(d.length > 1 ? sidesSvg(d) : heatmapSvg(d[0])));
      } else {
        const [ext, type] = FILES[format];
        download(`attention-${view}.${ext}`, new Blob([withBom(format, await text(format, d))], { type }));
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
