// dist/learn-worker.js: trains the Learn view's model off the page's thread, so the page never
// freezes while it learns. It loads the trainer module and trains in chunks of about a tenth of a
// second (training.ts).
import type T from '../../../cpp/wasm/attention-trainer';
import { serveInWorker } from '../engine/worker-serve';
import type { Reply, Request } from './protocol';
import { training } from './training';

/** How long one chunk of steps may take: five or more updates a second. */
const CHUNK_MS = 100;

serveInWorker<Request, Reply, T.TrainerModule>('attention-trainer.js', 'createAttentionTrainer', (post, module) =>
  training(post, module, CHUNK_MS),
);
