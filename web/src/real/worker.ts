// dist/real-worker.js: runs the Real model view's language model off the page's thread, so the
// page never waits on it. It loads the model module and fetches the model file next to it
// (runner.ts answers the page).
import type M from '../../../cpp/wasm/attention-model';
import { serveInWorker } from '../engine/worker-serve';
import type { Reply, Request } from './protocol';
import { fetchModel } from './file';
import { modelRunner } from './runner';

serveInWorker<Request, Reply, M.ModelModule>('attention-model.js', 'createAttentionModel', (post, module) =>
  modelRunner(post, module ?? Promise.reject(new Error('attention-model.js did not define createAttentionModel')), fetchModel),
);
