// The steps of one head of attention as they cross the boundary: StepsLayout in stream.hpp, read
// here with the same list in the same order. attention() and multiHead() both read it.
//
//   [n, m, dK, dV, divisor | row stats, ROW_STAT a query row | the arrays below, row-major]

const HEADER = 5;  // n, m, dK, dV, divisor
// One query row's stats at f[s], as put_row_stats in stream.hpp writes them; problem is an index
// into the core's RowProblem names.
const ROW_STAT = 7;
const rowStat = (f, s, problems) => ({ max: f[s], expSum: f[s + 1], scoreSum: f[s + 2],
  weightSum: f[s + 3], entropy: f[s + 4], visible: f[s + 5], problem: problems[f[s + 6]] });
// [name, rows, cols, kind]: a matrix; no cols, a vector; 'bytes', a mask of one byte per entry,
// eight to a double.
const ARRAYS = [
  ['queries', 'n', 'dK'], ['keys', 'm', 'dK'], ['values', 'm', 'dV'],
  ['queryNorms', 'n'], ['keyNorms', 'm'],
  ['scores', 'n', 'm'], ['scaled', 'n', 'm'], ['masked', 'n', 'm'], ['exps', 'n', 'm'],
  ['weights', 'n', 'm'], ['output', 'n', 'dV'], ['visible', 'n', 'm', 'bytes'],
];

function doubles(shape, [, rows, cols, kind]) {
  const entries = shape[rows] * (cols ? shape[cols] : 1);
  return kind === 'bytes' ? Math.ceil(entries / 8) : entries;
}

// {n, m, dK, dV, divisor} from the header at f64[at].
export function stepsShape(f64, at) {
  return { n: f64[at], m: f64[at + 1], dK: f64[at + 2], dV: f64[at + 3], divisor: f64[at + 4] };
}

// Where the arrays start, and where the steps end, in doubles from their start.
export const arraysStart = (shape) => HEADER + ROW_STAT * shape.n;
export function stepsSize(shape) {
  let size = arraysStart(shape);
  for (const a of ARRAYS) size += doubles(shape, a);
  return size;
}

// The row stats at f64[at] (the start of the steps), one object a query row.
export function rowStats(f64, at, n, problems) {
  const rows = new Array(n);
  for (let i = 0, s = at + HEADER; i < n; i++, s += ROW_STAT) rows[i] = rowStat(f64, s, problems);
  return rows;
}

// The arrays as views into `buffer`, where the steps start `base` doubles in (negative when the
// buffer holds only the arrays).
export function stepArrays(buffer, base, shape) {
  const out = {};
  let at = base + arraysStart(shape);
  for (const a of ARRAYS) {
    const [name, rows, cols, kind] = a;
    const r = shape[rows], c = cols ? shape[cols] : 0;
    if (kind === 'bytes') out[name] = { rows: r, cols: c, data: new Uint8Array(buffer, at * 8, r * c) };
    else if (cols) out[name] = { rows: r, cols: c, data: new Float64Array(buffer, at * 8, r * c) };
    else out[name] = new Float64Array(buffer, at * 8, r);
    at += doubles(shape, a);
  }
  return out;
}

// The steps object of the API, from its parts.
export function stepsResult(shape, arrays, rows) {
  return Object.assign({ ok: true, n: shape.n, m: shape.m, dK: shape.dK, dV: shape.dV,
    divisor: shape.divisor }, arrays, { rowStats: rows });
}

// The steps at r.all[r.p] of an Output, read as views into its copy; r.p moves past them.
export function readSteps(r, problems) {
  const shape = stepsShape(r.all, r.p);
  const steps = stepsResult(shape, stepArrays(r.all.buffer, r.p, shape),
    rowStats(r.all, r.p, shape.n, problems));
  r.p += stepsSize(shape);
  return steps;
}
