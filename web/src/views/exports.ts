// What the exports are made of, loaded with formats.js on the first export (exporter.ts offers
// them): a step's heatmap as SVG or as text (CSV, JSON, LaTeX, Markdown, NumPy), the visible steps
// as one SVG figure, and an SVG drawn on a canvas as PNG.
import { h } from './dom';
import { toSvg, type LabelledMatrix } from './svg-format';
import { toCsv, toJson, toLatex, toMarkdown, toNumpy } from './formats';
import { swatches, type HeatmapData } from './heatmap';

export type Format = 'png' | 'svg' | 'csv' | 'json' | 'latex' | 'markdown' | 'numpy';

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
export function exportText(format: Format, sides: HeatmapData[]): string {
  if (format === 'svg') return sides.length === 1 ? heatmapSvg(sides[0]) : sidesSvg(sides);
  const one = (d: HeatmapData) => written(format, d);
  if (sides.length === 1) return one(sides[0]);
  if (format === 'json') return '[\n' + sides.map((d) => one(d).trim()).join(',\n') + '\n]\n';
  // CSV has no title of its own: each side's block starts with its caption.
  const texts = sides.map((d) => (format === 'csv' ? `"${d.caption.replace(/"/g, '""')}"\r\n` : '') + one(d));
  if (format === 'numpy') return texts.map((x, k) => (k ? x.replace(/^import numpy as np\n+/, '') : x)).join('\n');
  return texts.join(format === 'csv' ? '\r\n' : '\n');
}

export function sidesSvg(sides: HeatmapData[]): string {
  return figureSvg(sides.map((d) => d.caption).join(' · '), [sides.map(heatmapSvg)]);
}

function written(format: Format, d: HeatmapData): string {
  const m = labelled(d);
  switch (format) {
    case 'csv':
      return toCsv(m);
    case 'json':
      return toJson(m);
    case 'latex':
      return toLatex(m);
    case 'markdown':
      return toMarkdown(m);
    default:
      return toNumpy(m);
  }
}

/**
 * A CSV file with labels beyond ASCII (Chinese tokens) starts with a byte-order mark: without
 * it, spreadsheet programs read the file in the system's code page and garble the labels.
 */
export function withBom(format: Format, s: string): string {
  return format === 'csv' && /[^\x00-\x7f]/.test(s) ? '\ufeff' + s : s;
}

/** The visible steps as one figure: each row's heatmaps (a comparison's two sides) side by side. */
export function stepsFigure(title: string, rows: HeatmapData[][]): string {
  return figureSvg(
    title,
    rows.map((row) => row.map(heatmapSvg)),
  );
}
