// The model, from the page's side: in real-worker.js where the page can start a worker, else on
// the page itself (engine/worker-link.ts).
import type M from '../../../cpp/wasm/attention-model';
import { startLink, type WorkerLink } from '../engine/worker-link';
import type { Reply, Request } from './protocol';
import { fetchModel } from './file';
import { modelRunner } from './runner';

export type ModelLink = WorkerLink<Request>;

/** `load` brings the model module to the page, for when no worker can be started. */
export function startModel(receive: (reply: Reply) => void, load: () => Promise<M.ModelModule>): ModelLink {
  return startLink<Request, Reply>({
    script: 'real-worker.js',
    receive,
    failed: (message) => ({ type: 'error', id: -1, stage: 'load', message }),
    inPage: (post) => modelRunner(post, load(), fetchModel),
    dispose: { type: 'dispose' },
  });
}
