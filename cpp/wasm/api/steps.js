// The steps of one head of attention as they cross the boundary: StepsLayout in stream.hpp, read
// here in the same order. attention() and multiHead() both read it.
//
//   [n, m, dK, dV, divisor | row stats, ROW_STAT a query row | the arrays, row-major]

const HEADER = 5; // n, m, dK, dV, divisor: stepsShape

// One query row's stats at f[s], as put_row_stats in stream.hpp writes them; problem is an index
// into the core's RowProblem names.
const ROW_STAT = 7;
const rowStat = (f, s, problems) => ({
  max: f[s],
  expSum: f[s + 1],
  scoreSum: f[s + 2],
  weightSum: f[s + 3],
  entropy: f[s + 4],
  visible: f[s + 5],
  problem: problems[f[s + 6]],
});

// Views into a buffer of doubles, one after another from `p`.
class Cursor {
  constructor(buffer, p) {
    this.buffer = buffer;
    this.p = p;
  }
  mat(rows, cols) {
    const m = { rows, cols, data: new Float64Array(this.buffer, this.p * 8, rows * cols) };
    this.p += rows * cols;
    return m;
  }
  vec(length) {
    const v = new Float64Array(this.buffer, this.p * 8, length);
    this.p += length;
    return v;
  }
  bytes(rows, cols) {
    // one byte an entry, eight to a double
    const m = { rows, cols, data: new Uint8Array(this.buffer, this.p * 8, rows * cols) };
    this.p += Math.ceil((rows * cols) / 8);
    return m;
  }
}

// The steps object of the API. Its arrays are read in the order they are written here, which is
// the order of StepsLayout: a field is added in both, in the same place. (One object literal, so
// that V8 gives every result one shape: 5 µs calls notice the difference.)
function stepsObject(s, c, rowStats) {
  const { n, m, dK, dV } = s;
  return {
    ok: true,
    n,
    m,
    dK,
    dV,
    queries: c.mat(n, dK),
    keys: c.mat(m, dK),
    values: c.mat(m, dV),
    queryNorms: c.vec(n),
    keyNorms: c.vec(m),
    divisor: s.divisor,
    scores: c.mat(n, m),
    scaled: c.mat(n, m),
    masked: c.mat(n, m),
    exps: c.mat(n, m),
    weights: c.mat(n, m),
    output: c.mat(n, dV),
    visible: c.bytes(n, m),
    rowStats,
  };
}

// {n, m, dK, dV, divisor} from the header at f64[at].
export function stepsShape(f64, at) {
  return { n: f64[at], m: f64[at + 1], dK: f64[at + 2], dV: f64[at + 3], divisor: f64[at + 4] };
}

// Where the arrays start, in doubles from the start of the steps.
export const arraysStart = (shape) => HEADER + ROW_STAT * shape.n;

// The row stats at f64[at] (the start of the steps), one object a query row.
export function rowStats(f64, at, n, problems) {
  const rows = new Array(n);
  for (let i = 0, s = at + HEADER; i < n; i++, s += ROW_STAT) rows[i] = rowStat(f64, s, problems);
  return rows;
}

// The steps from their parts: the arrays are views into `buffer`, where the steps start `base`
// doubles in (negative when the buffer holds only the arrays).
export function stepsResult(shape, buffer, base, rows) {
  return stepsObject(shape, new Cursor(buffer, base + arraysStart(shape)), rows);
}

// The steps at r.all[r.p] of an Output, as views into its copy; r.p moves past them.
export function readSteps(r, problems) {
  const shape = stepsShape(r.all, r.p);
  const c = new Cursor(r.all.buffer, r.p + arraysStart(shape));
  const steps = stepsObject(shape, c, rowStats(r.all, r.p, shape.n, problems));
  r.p = c.p;
  return steps;
}
