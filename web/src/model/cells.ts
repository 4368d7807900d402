// The one grammar of a typed cell, the same as the core's read_number() (cpp/core/parse.cpp),
// which reads pasted matrices: an optional sign, digits with at most one decimal point, an
// optional exponent; "−" (U+2212, the minus of typeset text and of this page's own tables) is
// read as "-" wherever it stands. tests/js/cells.test.mjs holds the two side by side.

/** What a typed cell says: a number, or why it is not one. */
export type Cell = { kind: 'number'; value: number } | { kind: 'empty' } | { kind: 'not_a_number' } | { kind: 'too_large' }; // written as a number, but no double holds it ("1e400")

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function readCell(text: string): Cell {
  const s = text.trim().replace(/\u2212/g, '-');
  if (s === '') return { kind: 'empty' };
  if (!DECIMAL.test(s)) return { kind: 'not_a_number' };
  const value = Number(s);
  return Number.isFinite(value) ? { kind: 'number', value } : { kind: 'too_large' };
}

/** A typed matrix read once: its numbers (0 where a cell is not one) and the cells that are not. */
export interface ReadCells {
  values: number[][]; // (rows, cols)
  bad: Array<{ row: number; col: number; cell: Cell }>;
  /** "i,j" of every bad cell, for the grids that mark them. */
  invalid: Set<string>;
}

// The state keeps an unchanged matrix as the same array, so a slider drag over a 128×64 input
// does not read 24,000 cells a frame.
const read = new WeakMap<string[][], ReadCells>();

export function readCells(cells: string[][]): ReadCells {
  let r = read.get(cells);
  if (r) return r;
  const bad: ReadCells['bad'] = [];
  const values = cells.map((row, i) =>
    row.map((text, j) => {
      const cell = readCell(text);
      if (cell.kind === 'number') return cell.value;
      bad.push({ row: i, col: j, cell });
      return 0;
    }),
  );
  r = { values, bad, invalid: new Set(bad.map((b) => b.row + ',' + b.col)) };
  read.set(cells, r);
  return r;
}
