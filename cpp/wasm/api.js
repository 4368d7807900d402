// The engine's public API (see attention-engine.d.ts, and README.md under "The engine"): the
// entry of the bundle of api/ (esbuild, CMakeLists.txt) that is appended to Emscripten's glue with
// --extern-post-js, after its optimiser ran, so Closure never renames anything in it.
//
// It replaces the factory that Emscripten defined with one that resolves to the engine object
// (api/engine.js) instead of the raw module. The bundle is a plain script in the glue's scope, so
// createAttentionEngine is the glue's variable; bundle-api.mjs hands it to node's module.exports.
/* global createAttentionEngine: writable */
import { makeEngine } from './api/engine.js';

const createModule = createAttentionEngine;
createAttentionEngine = function createAttentionEngine() {
  return createModule().then((M) => makeEngine(M, createModule));
};
