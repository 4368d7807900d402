// The engine object: the raw module (M) wrapped into the public API of attention-engine.d.ts.
//
// Everything in api/ is conversion, none of it math: check the arguments (a wrong one gives
// {ok: false, error}, never an exception), copy matrices into the wasm heap, call a binding
// (bindings.cpp), and copy its result out into JS-owned typed arrays, so nothing needs .delete()
// and nothing goes stale when the wasm memory grows.
import { guard, thrown, parseNames, failure } from './checks.js';
import { Output, coreError, releaseLarge } from './matrices.js';
import { attention, explainCell, explainOutput, traceRow, difference } from './attention.js';
import { multiHead, explainProjection, entropyByDk, project2d } from './multihead.js';
import { tokenize, embed, parseMatrix } from './text.js';
import {
  lexiconInfo,
  parseEmbeddings,
  loadVectors,
  nearestWords,
  wordSimilarity,
  freeLexicon,
  exampleSentences,
} from './lexicons.js';
import { attentionFast } from './fast.js';

function readLimits(M) {
  const r = new Output({ M }, M.limits());
  return Object.freeze({
    maxTokens: r.num(),
    maxDim: r.num(),
    maxCells: r.num(),
    maxHeads: r.num(),
    maxTextBytes: r.num(),
    maxEmbeddingBytes: r.num(),
    maxWords: r.num(),
    maxVectorFileBytes: r.num(),
    maxNeighbours: r.num(),
  });
}

// What every function of api/ is given first: the module and the engine's state.
function context(M, createModule) {
  const names = parseNames(M.enumNames()); // a custom mask is a matrix, never the string "custom"
  const e = {
    M,
    createModule,
    restarting: null, // while a new module is being made (restart)
    names,
    maskStrings: names.mask.filter((s) => s !== 'custom'),
    fastMaskStrings: names.fastMask.filter((s) => s !== 'custom'),
    limits: readLimits(M),
    inputAddress: 0, // the input buffer, in doubles; it grows until a large call gives it back
    inputCapacity: 0,
    release: false, // a call moved more than LARGE doubles: give the buffers back after it
    idBase: 0, // the last loaded lexicon's id before the module was re-created (text.js, loadedId)
    lastId: 0,
    featureCache: new Map(), // lexicon id → feature names
    // Each result of attention() and the one ArrayBuffer its arrays view, with the shape that
    // fixes where each array lies in it: what a later call may write into (`into`).
    ownBuffers: new WeakMap(),
    coreError: () => coreError(e),
  };
  return e;
}

function memoryStats(e) {
  const r = new Output(e, e.M.memoryStats());
  return { heapBytes: r.num(), allocatedBytes: r.num(), peakAllocatedBytes: r.num() };
}

const internalError = (message) => failure('internal_error', '', message);

// A trap or an abort in the wasm (malloc failing when the memory can grow no more: loaded files
// can fill its 2 GB) leaves the module's heap and stack unusable. A new module is made (async, as
// WebAssembly compiles) and takes its place: what is lost are the loaded word-vector files.
function restart(e) {
  if (e.restarting) return;
  e.restarting = e.createModule().then(
    (M) => {
      e.M = M;
      e.inputAddress = e.inputCapacity = 0;
      e.release = false;
      e.featureCache.clear();
      e.idBase = e.lastId;
      e.restarting = null;
    },
    () => {
      e.restarting = null; // the next failing call tries again
    },
  );
}

// f with the engine's context as its first argument, behind the one guard of every entry point
// (checks.js): argument errors come back as values, whatever the caller's objects throw. An abort
// of the wasm also re-creates the module (restart), and calls while that runs are refused with a
// message that says so; anything else is a bug, reported as code "internal_error".
function guarded(e, f) {
  return guard(
    (a, b, c, d) =>
      e.restarting
        ? internalError('The engine is restarting (it stopped, most likely out of memory); try again in a moment.')
        : f(e, a, b, c, d),
    (x) => {
      restart(e);
      // "Aborted(). Build with -s ASSERTIONS=1 …": the first sentence is the one for a reader.
      return internalError(
        'The engine stopped (' +
          thrown(x).split('. ')[0] +
          '), most likely out of memory, and is restarting: try again in a moment. Word-vector files loaded before must be loaded again.',
      );
    },
    (x) => internalError('The engine failed: ' + thrown(x) + '. Reload the page to start it again.'),
    () => {
      if (!e.restarting) releaseLarge(e);
    },
  );
}

// createModule: Emscripten's factory, to make a new module after an abort.
export function makeEngine(M, createModule) {
  const e = context(M, createModule);
  const api = {
    attention,
    explainCell,
    explainOutput,
    traceRow,
    difference,
    multiHead,
    explainProjection,
    entropyByDk,
    project2d,
    tokenize,
    embed,
    parseMatrix,
    parseEmbeddings,
    loadVectors,
    nearestWords,
    wordSimilarity,
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
