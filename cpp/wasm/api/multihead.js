// multiHead() and what shares its inputs: explainProjection(), entropyByDk(); and project2d().
import { refuse, describe, options, choice, count, index, readFailed } from './checks.js';
import { matrix, write, Output } from './matrices.js';
import { readSteps } from './steps.js';
import { STEP_OPTIONS, stepOptions } from './attention.js';

const MULTI_HEAD_OPTIONS = ['x', 'heads', 'dK', 'dV', 'projection', 'seed', 'wq', 'wk', 'wv', 'wo'].concat(STEP_OPTIONS);
const EXPLAIN_PROJECTION_OPTIONS = MULTI_HEAD_OPTIONS.concat(['head']);
const ENTROPY_OPTIONS = ['x', 'heads', 'head', 'dKs', 'seed', 'similarity', 'mask'];
// The d_k the page's √d_k figure shows by default.
const ENTROPY_DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

function matrixList(e, value, input) {
  if (!Array.isArray(value)) {
    refuse('bad_argument', input, input + ' must be an array with one matrix per head; got ' + describe(value) + '.');
  }
  let list;
  try {
    list = Array.from(value);
  } catch (x) {
    readFailed(x, input);
  }
  return [list.length].concat(list.map((w, h) => matrix(e, w, input + '[' + h + ']')));
}

// A seed is any whole number a double holds exactly, 0 to 2⁵³ (SplitMix64 takes it as a
// uint64): 2⁵³ + 1 is not a double, and above 2⁵³ not every whole number is one.
const MAX_SEED = 2 ** 53;

// What multiHead() and explainProjection() share: check the options, copy X (a custom mask,
// given projections) into the heap, and return the binding's arguments.
function multiHeadInputs(e, o) {
  const inputs = [matrix(e, o.x, 'x')];
  const heads = count(o.heads, 'heads', 1, 0x7fffffff);
  const dK = count(o.dK, 'dK', 0, 0x7fffffff);
  const dV = count(o.dV, 'dV', 0, 0x7fffffff);
  const projection = choice(o.projection, e.names.projection, 'projection', 'identity');
  const seed = count(o.seed, 'seed', 1, MAX_SEED);
  const c = stepOptions(e, o, inputs);
  if (e.names.projection[projection] === 'given') {
    inputs.push(...matrixList(e, o.wq, 'wq'), ...matrixList(e, o.wk, 'wk'), ...matrixList(e, o.wv, 'wv'), matrix(e, o.wo, 'wo'));
  }
  write(e, inputs);
  return [heads, dK, dV, projection, seed].concat(c);
}

// convert_multihead.cpp, multi_head_steps: x, the heads (W_Q, W_K, W_V, the steps), concat, W_O,
// the output, and the head and head column of each column of concat.
export function multiHead(e, o) {
  const at = e.M.multiHead(...multiHeadInputs(e, options(o, MULTI_HEAD_OPTIONS, 'multiHead()')));
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const x = r.mat();
  const list = new Array(r.num());
  for (let h = 0; h < list.length; h++) {
    const wq = r.mat(),
      wk = r.mat(),
      wv = r.mat();
    list[h] = Object.assign({ wq, wk, wv }, readSteps(r, e.names.problem));
  }
  const concat = r.mat(),
    wo = r.mat(),
    output = r.mat();
  const columnHead = Int32Array.from(r.arr(concat.cols));
  const columnInHead = Int32Array.from(r.arr(concat.cols));
  return { ok: true, x, heads: list, concat, wo, output, columnHead, columnInHead };
}

export function explainProjection(e, given, kind, i, j) {
  const o = options(given, EXPLAIN_PROJECTION_OPTIONS, 'explainProjection()');
  const args = multiHeadInputs(e, o);
  const k = e.names.projectionKind.indexOf(kind);
  if (k < 0) {
    refuse(
      'bad_argument',
      'kind',
      'kind must be ' +
        e.names.projectionKind
          .map((s) => '"' + s + '"')
          .join(', ')
          .replace(/, ([^,]*)$/, ' or $1') +
        '; got ' +
        describe(kind) +
        '.',
    );
  }
  const head = count(o.head, 'head', 0, 0x7fffffff);
  const at = e.M.explainProjection(...args, k, head, index(i, 'row'), index(j, 'col'));
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const x = { ok: true, row: r.num(), col: r.num(), value: r.num() };
  const length = r.num();
  x.left = r.arr(length);
  x.right = r.arr(length);
  x.terms = r.arr(length);
  return x;
}

export function entropyByDk(e, given) {
  const o = options(given, ENTROPY_OPTIONS, 'entropyByDk()');
  const inputs = [matrix(e, o.x, 'x')];
  const heads = count(o.heads, 'heads', 1, 0x7fffffff),
    head = count(o.head, 'head', 0, 0x7fffffff);
  const seed = count(o.seed, 'seed', 1, MAX_SEED);
  const similarity = choice(o.similarity, e.names.similarity, 'similarity', 'dot');
  const mask = choice(o.mask, e.names.mask, 'mask', 'none', e.maskStrings);
  if (o.dKs !== undefined && !Array.isArray(o.dKs)) {
    refuse('bad_argument', 'dKs', 'dKs must be an array of whole numbers; got ' + describe(o.dKs) + '.');
  }
  let dKs = ENTROPY_DKS;
  try {
    if (o.dKs !== undefined) dKs = Array.from(o.dKs);
  } catch (x) {
    readFailed(x, 'dKs');
  }
  for (const dK of dKs) inputs.push(count(dK, 'dKs', 0, 0x7fffffff));
  inputs.splice(1, 0, dKs.length);
  write(e, inputs);
  const at = e.M.entropyByDk(heads, head, seed, similarity, mask);
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const rows = Array.from({ length: r.num() }, () => ({ dK: r.num(), scaled: r.num(), unscaled: r.num() }));
  return { ok: true, rows };
}

export function project2d(e, values, outputs) {
  write(e, [matrix(e, values, 'values'), matrix(e, outputs, 'outputs')]);
  const at = e.M.project2d();
  if (!at) return e.coreError();
  const r = new Output(e, at);
  return {
    ok: true,
    mean: r.vec(),
    axes: r.mat(),
    variance: r.vec(),
    totalVariance: r.num(),
    values2d: r.mat(),
    outputs2d: r.mat(),
    shown: r.num(),
  };
}
