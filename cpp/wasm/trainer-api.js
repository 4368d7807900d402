// The trainer's public API (see attention-trainer.d.ts, and README.md under "The trainer"): the
// entry of the bundle of api/ (esbuild, CMakeLists.txt) that is appended to Emscripten's glue with
// --extern-post-js, after its optimiser ran, so Closure never renames anything in it. It is
// assembled from the engine's modules of api/ (checks, matrices) and the trainer's own
// (api/trainer.js, api/trainer-config.js), as api.js assembles the engine's.
//
// It replaces the factory that Emscripten defined with one that resolves to the trainer module
// (api/trainer.js) instead of the raw module; bundle-api.mjs hands it to node's module.exports.
/* global createAttentionTrainer: writable */
import { makeTrainerModule } from './api/trainer.js';

const createModule = createAttentionTrainer;
createAttentionTrainer = function createAttentionTrainer() {
  return createModule().then(makeTrainerModule);
};
