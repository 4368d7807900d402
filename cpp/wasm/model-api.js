// The language model module's public API (see attention-model.d.ts, and README.md under "A real
// language model"): appended to Emscripten's glue as the trainer's is (trainer-api.js), and
// assembled from the engine's modules of api/ (checks, matrices) and its own (api/model.js).
/* global createAttentionModel: writable */
import { makeModelModule } from './api/model.js';

const createModule = createAttentionModel;
createAttentionModel = function createAttentionModel() {
  return createModule().then(makeModelModule);
};
