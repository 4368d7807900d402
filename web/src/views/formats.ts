// Exports of one step's matrix for writers: CSV, JSON, LaTeX, Markdown and NumPy (SVG is in
// svg-format.ts). Loaded by the page as a script of its own (formats.js) on the first export.
//
// Pure functions from a labelled matrix (the numbers exactly as the engine returned them) to
// text, so they are tested without a browser and the page only has to offer the downloads.
// Data formats (CSV, JSON, NumPy) keep every digit: JavaScript's shortest round-trip form, so
// reading them back gives the same doubles. Display formats (LaTeX, Markdown, SVG) round to
// `digits` significant digits, as the page shows them. −∞ (a masked score) is written as each
// format spells it: -inf (CSV), null (JSON), -\infty (LaTeX), −∞ (Markdown, SVG), -np.inf.

import { displayNumber, type LabelledMatrix } from './svg-format';

export { displayNumber, toSvg, textWidth, type LabelledMatrix, type SvgStyle } from './svg-format';

const cell = (m: LabelledMatrix, i: number, j: number): number => m.data[i * m.cols + j];

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
