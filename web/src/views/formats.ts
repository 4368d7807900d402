// Exports of one step's matrix for writers: CSV, JSON, LaTeX, Markdown, NumPy and SVG.
//
// Pure functions from a labelled matrix (the numbers exactly as the engine returned them) to
// text, so they are tested without a browser and the page only has to offer the downloads.
// Data formats (CSV, JSON, NumPy) keep every digit: JavaScript's shortest round-trip form, so
// reading them back gives the same doubles. Display formats (LaTeX, Markdown, SVG) round to
// `digits` significant digits, as the page shows them. −∞ (a masked score) is written as each
// format spells it: -inf (CSV), null (JSON), -\infty (LaTeX), −∞ (Markdown, SVG), -np.inf.

export interface LabelledMatrix {
  title: string; // e.g. "weights"
  rows: number;
  cols: number;
  data: ArrayLike<number>; // row-major, rows·cols
  rowLabels: string[]; // (rows) tokens
  colLabels: string[]; // (cols) tokens or feature names
}

const cell = (m: LabelledMatrix, i: number, j: number): number => m.data[i * m.cols + j];

/** Rounds for display: `digits` significant digits, no trailing zeros, −∞ as the sign. */
export function displayNumber(x: number, digits = 4): string {
  if (x === -Infinity) return '−∞';
  if (x === Infinity) return '∞';
  if (Number.isNaN(x)) return 'NaN';
  if (x === 0) return '0';
  const s = Number(x.toPrecision(digits)).toString();
  return s.startsWith('-') ? '−' + s.slice(1) : s;
}

/** Shortest text that reads back as the same double. */
function exact(x: number, negInf: string): string {
  if (x === -Infinity) return negInf;
  return String(x);
}

// --- CSV (RFC 4180): a header of column labels, each row led by its label --------------------

function csvField(s: string): string {
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** With labels (a spreadsheet's view), or `bare` numbers only (what a matrix parser reads). */
export function toCsv(m: LabelledMatrix, bare = false): string {
  const lines: string[] = [];
  if (!bare) lines.push(['', ...m.colLabels].map(csvField).join(','));
  for (let i = 0; i < m.rows; i++) {
    const numbers = Array.from({ length: m.cols }, (_, j) => exact(cell(m, i, j), '-inf'));
    lines.push((bare ? numbers : [csvField(m.rowLabels[i]), ...numbers]).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

// --- JSON -------------------------------------------------------------------------------------

export function toJson(m: LabelledMatrix): string {
  const rows = Array.from({ length: m.rows }, (_, i) =>
    JSON.stringify(
      Array.from({ length: m.cols }, (_, j) => {
        const x = cell(m, i, j);
        return Number.isFinite(x) ? x : null; // JSON has no −∞: a masked cell is null
      }),
    ),
  );
  return (
    [
      '{',
      `  "title": ${JSON.stringify(m.title)},`,
      `  "rowLabels": ${JSON.stringify(m.rowLabels)},`,
      `  "colLabels": ${JSON.stringify(m.colLabels)},`,
      '  "data": [',
      rows.map((r) => '    ' + r).join(',\n'),
      '  ]',
      '}',
    ].join('\n') + '\n'
  );
}

// --- LaTeX: one array, the tokens as the labels of its rows and columns -----------------------

function latexText(s: string): string {
  const escaped = s.replace(/[\\{}$&#^_%~]/g, (c) =>
    c === '\\' ? '\\textbackslash{}' : c === '^' ? '\\^{}' : c === '~' ? '\\~{}' : '\\' + c,
  );
  return '\\text{' + escaped + '}';
}

function latexNumber(x: number, digits: number): string {
  return x === -Infinity ? '-\\infty' : displayNumber(x, digits).replace('−', '-');
}

/**
 * One array: a header row of the column labels, then each row's label and numbers, a rule after
 * the header and after the labels. Labels and numbers share the array's columns, so they line up
 * (a bmatrix beside an array of labels did not), and it typesets in LaTeX, MathJax and KaTeX.
 */
export function toLatex(m: LabelledMatrix, digits = 4): string {
  const line = (cells: string[]) => '  ' + cells.join(' & ');
  const rows = Array.from({ length: m.rows }, (_, i) =>
    line([latexText(m.rowLabels[i]), ...Array.from({ length: m.cols }, (_, j) => latexNumber(cell(m, i, j), digits))]),
  );
  return (
    [
      `% ${m.title}: rows ${m.rowLabels.join(', ')}; columns ${m.colLabels.join(', ')}`,
      `\\begin{array}{r|${'c'.repeat(m.cols)}}`,
      line(['', ...m.colLabels.map(latexText)]) + ' \\\\',
      '  \\hline',
      rows.join(' \\\\\n'),
      '\\end{array}',
    ].join('\n') + '\n'
  );
}

// --- Markdown ---------------------------------------------------------------------------------

function markdownText(s: string): string {
  return s.replace(/([\\|*_`[\]<>#])/g, '\\$1');
}

export function toMarkdown(m: LabelledMatrix, digits = 4): string {
  const header = `| ${markdownText(m.title)} | ${m.colLabels.map(markdownText).join(' | ')} |`;
  const rule = `|---|${'---:|'.repeat(m.cols)}`;
  const rows = Array.from(
    { length: m.rows },
    (_, i) =>
      `| **${markdownText(m.rowLabels[i])}** | ` +
      Array.from({ length: m.cols }, (_, j) => displayNumber(cell(m, i, j), digits)).join(' | ') +
      ' |',
  );
  return [header, rule, ...rows].join('\n') + '\n';
}

// --- NumPy: code that rebuilds the numbers ------------------------------------------------------

/**
 * A Python 3 name from a title in any language ("Masked scores" → masked_scores, "权重" → 权重):
 * letters and digits kept, in the NFKC form Python reads names in, everything else an underscore.
 */
function pythonIdentifier(title: string): string {
  const id = title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{Nd}_]+/gu, '_')
    .replace(/^_+|_+$/g, '');
  if (!id) return 'matrix';
  return /^\p{Nd}/u.test(id) ? 'm_' + id : id;
}

export function toNumpy(m: LabelledMatrix): string {
  const name = pythonIdentifier(m.title);
  const rows = Array.from(
    { length: m.rows },
    (_, i) => '    [' + Array.from({ length: m.cols }, (_, j) => exact(cell(m, i, j), '-np.inf')).join(', ') + '],',
  );
  return (
    [
      'import numpy as np',
      '',
      `# ${m.title}: rows ${JSON.stringify(m.rowLabels)}, columns ${JSON.stringify(m.colLabels)}`,
      `${name} = np.array([`,
      ...rows,
      '])',
      `${name}_rows = ${JSON.stringify(m.rowLabels)}`,
      `${name}_cols = ${JSON.stringify(m.colLabels)}`,
    ].join('\n') + '\n'
  );
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
