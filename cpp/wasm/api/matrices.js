// Matrices in and out: checked and copied into the wasm heap's input buffer, and results (errors
// among them) read back from the output buffer (stream.hpp: Reader and Writer). The engine and the
// trainer both cross this way (boundary.hpp): `e` is either's context, with at least M (the
// module), inputAddress, inputCapacity and release.
import { Refusal, refuse, describe, isCount, readFailed, resultsRead } from './checks.js';

// What an entry of a matrix may be: numbers, or booleans for masks.
export function number(x) {
  return typeof x === 'number';
}
number.what = 'numbers';
export function boolean(x) {
  return typeof x === 'boolean' || x === 0 || x === 1;
}
boolean.what = 'booleans';

function entryMessage(input, i, j, x, entry) {
  return (
    input +
    ': row ' +
    (i + 1) +
    ', column ' +
    (j + 1) +
    ' is ' +
    describe(x) +
    ', not ' +
    (entry === number ? 'a number' : 'true or false') +
    '.'
  );
}

// number[][]: its rows and columns, every row checked.
function nestedShape(value, input, entry) {
  const rows = value.length;
  const cols = rows > 0 && Array.isArray(value[0]) ? value[0].length : 0;
  for (let i = 0; i < rows; i++) {
    const row = value[i];
    if (!Array.isArray(row)) {
      refuse(
        'bad_argument',
        input,
        input + ': row ' + (i + 1) + ' is ' + describe(row) + ', not an array of ' + entry.what + '.',
        i,
      );
    }
    if (row.length !== cols) {
      refuse(
        'shape_mismatch',
        input,
        input +
          ': row ' +
          (i + 1) +
          ' has ' +
          row.length +
          ' entries, but row 1 has ' +
          cols +
          '; every row needs the same length.',
        i,
      );
    }
    for (let j = 0; j < cols; j++) {
      if (!entry(row[j])) refuse('bad_argument', input, entryMessage(input, i, j, row[j], entry), i, j);
    }
  }
  return [rows, cols];
}

// {rows, cols, data}: its data checked against its shape (a typed array of numbers is not read).
function flatShape(value, input, entry) {
  const { rows, cols, data } = value;
  if (!isCount(rows) || !isCount(cols)) {
    refuse(
      'bad_argument',
      input,
      input + '.rows and ' + input + '.cols must be whole numbers; got ' + describe(rows) + ' and ' + describe(cols) + '.',
    );
  }
  const typed =
    ArrayBuffer.isView(data) &&
    !(data instanceof DataView) &&
    !(data instanceof BigInt64Array) &&
    !(data instanceof BigUint64Array);
  if (!typed && !Array.isArray(data)) {
    refuse(
      'bad_argument',
      input,
      input + '.data must be an array or a typed array of ' + entry.what + '; got ' + describe(data) + '.',
    );
  }
  if (data.length !== rows * cols) {
    refuse(
      'shape_mismatch',
      input,
      input + '.data has ' + data.length + ' entries, but ' + input + ' is ' + rows + '×' + cols + ' = ' + rows * cols + '.',
    );
  }
  if (!typed || entry !== number) {
    for (let k = 0; k < data.length; k++) {
      const i = Math.floor(k / cols),
        j = k % cols;
      if (!entry(data[k])) refuse('bad_argument', input, entryMessage(input, i, j, data[k], entry), i, j);
    }
  }
  return [rows, cols];
}

// A matrix argument, number[][] or {rows, cols, data}, checked but not yet copied:
// {rows, cols, value, nested, input}. `entry` checks one entry (numbers, or booleans for masks).
export function matrix(e, value, input, entry = number) {
  let rows, cols, nested, data;
  try {
    nested = Array.isArray(value);
    if (!nested && (value === null || typeof value !== 'object' || ArrayBuffer.isView(value))) {
      refuse(
        'bad_argument',
        input,
        value === undefined
          ? input + ' is missing: give an array of rows of ' + entry.what + ', or {rows, cols, data}.'
          : input + ' must be an array of rows of ' + entry.what + ', or {rows, cols, data}; got ' + describe(value) + '.',
      );
    }
    [rows, cols] = nested ? nestedShape(value, input, entry) : flatShape(value, input, entry);
    data = nested ? value : value.data;
  } catch (x) {
    readFailed(x, input); // a getter or a Proxy of the caller's
  }
  // Refuse what is too large to be worth copying into the heap, with the core's own words.
  if (rows * cols > e.limits.maxCells && !e.M.checkSize(rows, cols, input)) throw new Refusal(lastError(e));
  return { rows, cols, value: data, nested, input };
}

// Above this many doubles (4 MiB) in or out, the module is asked to give its buffers back after
// the call (releaseLarge); the page's calls stay below it.
export const LARGE = (4 << 20) / 8;

// Copies matrices (and plain numbers: counts) into the input buffer, in order. A matrix with more
// rows or columns than any function but attentionFast takes is refused first, in the core's words,
// so that it is never copied into the heap.
export function write(e, inputs) {
  let total = 0;
  for (const x of inputs) {
    if (typeof x === 'number') {
      total += 1;
      continue;
    }
    if ((x.rows > e.limits.maxTokens || x.cols > e.limits.maxDim) && !e.M.checkSize(x.rows, x.cols, x.input)) {
      throw new Refusal(lastError(e));
    }
    total += 2 + x.rows * x.cols;
  }
  if (total > e.inputCapacity) {
    e.inputAddress = e.M._attn_input(total);
    e.inputCapacity = total;
  }
  if (total > LARGE) e.release = true;
  const heap = e.M.HEAPF64; // read after _attn_input(), which may have grown the memory
  let p = e.inputAddress >>> 3;
  for (const x of inputs) {
    if (typeof x === 'number') {
      heap[p++] = x;
      continue;
    }
    heap[p] = x.rows;
    heap[p + 1] = x.cols;
    p += 2;
    try {
      if (x.nested) {
        // Entry by entry: a small row is copied several times faster than by heap.set(row).
        const rows = x.value,
          cols = x.cols;
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i];
          for (let j = 0; j < cols; j++) heap[p + j] = row[j];
          p += cols;
        }
      } else {
        heap.set(x.value, p);
        p += x.rows * x.cols;
      }
    } catch (y) {
      readFailed(y, x.input);
    }
  }
}

// A rows×cols matrix whose data starts `at` doubles into `buffer`.
export function view(buffer, at, rows, cols) {
  return { rows, cols, data: new Float64Array(buffer, at * 8, rows * cols) };
}

// Reads a result written by the bindings: [length, fields…]. The whole result is copied out of
// the heap with one slice, and every array handed out is a view into that JS-owned copy: one
// allocation per call instead of one per array (each costs about 0.5 µs in V8).
// Bytes (a saved model, a model file, a text) in the module's byte buffer (attn_bytes), or false
// (and attn_error()) when their size alone refuses them: then nothing is allocated or copied.
export function writeBytes(M, bytes) {
  const at = M._attn_bytes(bytes.length);
  if (!at) return false;
  M.HEAPU8.set(bytes, at); // the view taken after the allocation, which may have grown the memory
  return true;
}

export class Output {
  constructor(e, address) {
    resultsRead();
    const heap = e.M.HEAPF64; // the call that wrote the result may have grown the memory
    const at = address / 8;
    this.all = heap.slice(at + 1, at + 1 + heap[at]);
    if (heap[at] > LARGE) e.release = true;
    this.p = 0;
  }
  num() {
    return this.all[this.p++];
  }
  arr(length) {
    const a = new Float64Array(this.all.buffer, this.p * 8, length);
    this.p += length;
    return a;
  }
  vec() {
    return this.arr(this.num());
  }
  mat() {
    const rows = this.num(),
      cols = this.num();
    return { rows, cols, data: this.arr(rows * cols) };
  }
  str() {
    // [bytes, UTF-8 packed eight to a double]: Writer::text
    const bytes = this.num();
    const s = decoder.decode(new Uint8Array(this.all.buffer, this.p * 8, bytes));
    this.p += Math.ceil(bytes / 8);
    return s;
  }
}

const decoder = new TextDecoder();

// The error of the call that just returned 0 (attn_error in boundary.cpp), in the API's shape.
export function lastError(e) {
  const r = new Output(e, e.M._attn_error());
  return { code: r.str(), message: r.str(), input: r.str(), row: r.num(), col: r.num() };
}

export const coreError = (e) => ({ ok: false, error: lastError(e) });

// After a call that moved more than LARGE doubles, the module gives its buffers back
// (attn_release), and the next call asks for an input buffer again.
export function releaseLarge(e) {
  if (!e.release) return;
  e.release = false;
  e.M._attn_release();
  e.inputAddress = e.inputCapacity = 0;
}
