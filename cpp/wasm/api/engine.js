// The engine object: the raw module (M) wrapped into the public API of attention-engine.d.ts.
//
// Everything in api/ is conversion, none of it math: check the arguments (a wrong one gives
// {ok: false, error}, never an exception), copy matrices into the wasm heap, call a binding
// (bindings.cpp), and copy its result out into JS-owned typed arrays, so nothing needs .delete()
// and nothing goes stale when the wasm memory grows.
import { Refusal } from './checks.js';
import { Output } from './matrices.js';
import { attention, explainCell, explainOutput, difference } from './attention.js';
import { multiHead, explainProjection, entropyByDk, project2d } from './multihead.js';
import { tokenize, embed, parseMatrix } from './text.js';
import { lexiconInfo, parseEmbeddings, freeLexicon, exampleSentences } from './lexicons.js';
import { attentionFast } from './fast.js';

function readLimits(M) {
  const r = new Output(M, M.limits());
  return Object.freeze({
    maxTokens: r.num(),
    maxDim: r.num(),
    maxCells: r.num(),
    maxHeads: r.num(),
    maxTextBytes: r.num(),
    maxEmbeddingBytes: r.num(),
    maxWords: r.num(),
  });
}

// The option strings of the core's enums, each at its enumerator's index, and the built-in
// lexicons' names (convert_common.cpp, enum_names): {similarity: ['dot', 'cosine'], …}.
function enumNames(M) {
  const names = {};
  for (const line of M.enumNames().split('\n')) {
    const [key, ...list] = line.split(' ');
    if (key) names[key] = list;
  }
  return names;
}

// What every function of api/ is given first: the module and the engine's state.
function context(M) {
  const names = enumNames(M); // a custom mask is a matrix, never the string "custom"
  return {
    M,
    names,
    maskStrings: names.mask.filter((s) => s !== 'custom'),
    fastMaskStrings: names.fastMask.filter((s) => s !== 'custom'),
    limits: readLimits(M),
    inputAddress: 0, // the input buffer, in doubles; it only grows (convert_common.cpp)
    inputCapacity: 0,
    featureCache: new Map(), // lexicon id → feature names
    // Each result of attention() and the one ArrayBuffer its arrays view, with the shape that
    // fixes where each array lies in it: what a later call may write into (`into`).
    ownBuffers: new WeakMap(),
    coreError: () => ({ ok: false, error: M.lastError() }),
  };
}

function memoryStats(e) {
  const r = new Output(e.M, e.M.memoryStats());
  return { heapBytes: r.num(), allocatedBytes: r.num() };
}

// f with the engine's context as its first argument (no function of the API takes more than four
// arguments; spreading `arguments` would cost every call). Every argument error comes back as a value.
// Anything else is a bug or the wasm memory running out: reported as code "internal_error"
// (after that the engine may be unusable).
function guarded(e, f) {
  return function (a, b, c, d) {
    try {
      return f(e, a, b, c, d);
    } catch (x) {
      if (x instanceof Refusal) return { ok: false, error: x.error };
      return {
        ok: false,
        error: {
          code: 'internal_error',
          message: 'The engine failed: ' + x + '. Reload the page to start it again.',
          input: '',
          row: -1,
          col: -1,
        },
      };
    }
  };
}

export function makeEngine(M) {
  const e = context(M);
  const api = {
    attention,
    explainCell,
    explainOutput,
    difference,
    multiHead,
    explainProjection,
    entropyByDk,
    project2d,
    tokenize,
    embed,
    parseMatrix,
    parseEmbeddings,
    freeLexicon,
    lexiconInfo,
    exampleSentences,
    memoryStats,
    attentionFast,
  };
  const engine = {};
  for (const name of Object.keys(api)) engine[name] = guarded(e, api[name]);
  engine.limits = e.limits;
  return Object.freeze(engine);
}
