// The trainer, from the page's side: in a worker where the page can start one, else (a page
// opened from a file, or in a sandboxed frame, where Chromium refuses a worker) on the page
// itself, in short chunks. Either way its replies come a task after the request, numbered by model.
import type T from '../../../cpp/wasm/attention-trainer';
import { scriptURL } from '../engine/trusted';
import type { Reply, Request } from './protocol';
import { training } from './training';

export interface TrainerLink {
  send(request: Request): void;
  stop(): void;
  /** Training runs on the page's own thread. */
  inPage: boolean;
}

/** A chunk on the page's thread: short, so a click or a frame is never kept waiting long. */
const IN_PAGE_CHUNK_MS = 20;

function inWorker(receive: (reply: Reply) => void): TrainerLink | null {
  if (typeof Worker !== 'function' || location.protocol === 'file:') return null;
  let worker: Worker;
  try {
    worker = new Worker(scriptURL('learn-worker.js'));
  } catch {
    return null; // an opaque origin (a sandboxed frame) may not start one
  }
  worker.onmessage = (e: MessageEvent<Reply>) => receive(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    receive({ type: 'error', run: -1, error: null, message: e.message || 'learn-worker.js did not load' });
  };
  return { send: (request) => worker.postMessage(request), stop: () => worker.terminate(), inPage: false };
}

/** `load` brings the trainer module to the page, for when no worker can be started. */
export function startTrainer(receive: (reply: Reply) => void, load: () => Promise<T.TrainerModule>): TrainerLink {
  const worker = inWorker(receive);
  if (worker) return worker;
  let stopped = false;
  const handle = training((reply) => setTimeout(() => stopped || receive(reply), 0), load(), IN_PAGE_CHUNK_MS);
  return {
    send: (request) => {
      setTimeout(() => stopped || handle(request), 0);
    },
    stop: () => {
      stopped = true;
      handle({ type: 'dispose', run: -1 });
    },
    inPage: true,
  };
}
