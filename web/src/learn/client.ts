// The trainer, from the page's side: in learn-worker.js where the page can start a worker, else
// on the page itself in short chunks (engine/worker-link.ts). Its replies are numbered by model.
import type T from '../../../cpp/wasm/attention-trainer';
import { startLink, type WorkerLink } from '../engine/worker-link';
import type { Reply, Request } from './protocol';
import { training } from './training';

export type TrainerLink = WorkerLink<Request>;

/** A chunk on the page's thread: short, so a click or a frame is never kept waiting long. */
const IN_PAGE_CHUNK_MS = 20;

/** `load` brings the trainer module to the page, for when no worker can be started. */
export function startTrainer(receive: (reply: Reply) => void, load: () => Promise<T.TrainerModule>): TrainerLink {
  return startLink<Request, Reply>({
    script: 'learn-worker.js',
    receive,
    failed: (message) => ({ type: 'error', run: -1, error: null, message }),
    inPage: (post) => training(post, load(), IN_PAGE_CHUNK_MS),
    dispose: { type: 'dispose', run: -1 },
  });
}
