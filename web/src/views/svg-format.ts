// The SVG export of a step (a real vector heatmap with labels), the labelled matrix every export
// takes, and the width of a label, which the plot and the cost charts measure too. The other
// exports (formats.ts) are a script of their own, loaded on the first one a reader asks for.

export interface LabelledMatrix {
  title: string; // e.g. "weights"
  rows: number;
  cols: number;
  data: ArrayLike<number>; // row-major, rows·cols
  rowLabels: string[]; // (rows) tokens
  colLabels: string[]; // (cols) tokens or feature names
}

/** Rounds for display: `digits` significant digits, no trailing zeros, −∞ as the sign. */
export function displayNumber(x: number, digits = 4): string {
  if (x === -Infinity) return '−∞';
  if (x === Infinity) return '∞';
  if (Number.isNaN(x)) return 'NaN';
  if (x === 0) return '0';
  const s = Number(x.toPrecision(digits)).toString();
  return s.startsWith('-') ? '−' + s.slice(1) : s;
}

// --- SVG: a real vector heatmap with labels -----------------------------------------------------

function xmlText(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export interface SvgStyle {
  /** Fill colour of cell (i, j), as the page's colour scale gives it. */
  fill: (i: number, j: number) => string;
  /** Text colour on that fill (chosen for contrast by the page). */
  ink: (i: number, j: number) => string;
  digits?: number;
  cellWidth?: number;
  cellHeight?: number;
}

/** Characters drawn an em wide: CJK, Hangul, kana, full-width forms and emoji. */
function wide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    c >= 0x1f300
  );
}

/**
 * The width of `s` drawn at `size` px, estimated without a font: an em for a wide character,
 * 0.66 em for any other (wider than an average sans-serif letter, so a label is never cut).
 */
export function textWidth(s: string, size = 12): number {
  let width = 0;
  for (const ch of s) width += wide(ch.codePointAt(0) ?? 0) ? size : size * 0.66;
  return width;
}

/** `s`, shortened with "…" to at most `max` px at 12 px. */
function fit(s: string, max: number): string {
  if (textWidth(s) <= max) return s;
  const chars = [...s];
  while (chars.length > 1 && textWidth(chars.join('') + '…') > max) chars.pop();
  return chars.join('') + '…';
}

const LABEL_MAX = 160; // px: a longer label is shortened, so one long word cannot widen the figure

/**
 * A standalone SVG document of the heatmap: title, column and row labels, every number. The row
 * labels' margin and the columns are as wide as their text, in any script.
 */
export function toSvg(m: LabelledMatrix, style: SvgStyle): string {
  const h = style.cellHeight ?? 28,
    digits = style.digits ?? 3;
  const rowLabels = m.rowLabels.map((s) => fit(s, LABEL_MAX));
  const colLabels = m.colLabels.map((s) => fit(s, LABEL_MAX));
  const numbers = Array.from({ length: m.rows * m.cols }, (_, k) => displayNumber(m.data[k], digits));
  const w = Math.ceil(
    Math.max(style.cellWidth ?? 56, ...colLabels.map((s) => textWidth(s) + 10), ...numbers.map((s) => textWidth(s) + 10)),
  );
  const left = Math.ceil(20 + Math.max(0, ...rowLabels.map((s) => textWidth(s)))),
    top = 52;
  const width = Math.ceil(left + Math.max(m.cols * w, textWidth(m.title, 14) * 1.1) + 12); // the title is bold
  const height = top + m.rows * h + 12;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${xmlText(m.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="18" font-size="14" font-weight="600" fill="#111111">${xmlText(m.title)}</text>`,
  ];
  colLabels.forEach((label, j) => {
    parts.push(`<text x="${left + j * w + w / 2}" y="${top - 8}" text-anchor="middle" fill="#333333">${xmlText(label)}</text>`);
  });
  for (let i = 0; i < m.rows; i++) {
    const y = top + i * h;
    parts.push(`<text x="${left - 8}" y="${y + h / 2 + 4}" text-anchor="end" fill="#333333">${xmlText(rowLabels[i])}</text>`);
    for (let j = 0; j < m.cols; j++) {
      const x = left + j * w;
      parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${xmlText(style.fill(i, j))}" stroke="#ffffff"/>`);
      parts.push(
        `<text x="${x + w / 2}" y="${y + h / 2 + 4}" text-anchor="middle" fill="${xmlText(style.ink(i, j))}">` +
          `${xmlText(numbers[i * m.cols + j])}</text>`,
      );
    }
  }
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
