// The model, from the page's side: in a worker where the page can start one, else (a sandboxed
// frame, where Chromium refuses a worker) on the page itself. Either way a reply comes a task
// after its request, so the view is always drawn between them.
import type M from '../../../cpp/wasm/attention-model';
import { scriptURL } from '../engine/trusted';
import type { Reply, Request } from './protocol';
import { fetchModel } from './file';
import { modelRunner } from './runner';

export interface ModelLink {
  send(request: Request): void;
  stop(): void;
}

function inWorker(receive: (reply: Reply) => void): ModelLink | null {
  if (typeof Worker !== 'function' || location.protocol === 'file:') return null;
  let worker: Worker;
  try {
    worker = new Worker(scriptURL('real-worker.js'));
  } catch {
    return null; // an opaque origin (a sandboxed frame) may not start one
  }
  worker.onmessage = (e: MessageEvent<Reply>) => receive(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    receive({ type: 'error', id: -1, stage: 'load', message: e.message || 'real-worker.js did not load' });
  };
  return { send: (request) => worker.postMessage(request), stop: () => worker.terminate() };
}

/** `load` brings the model module to the page, for when no worker can be started. */
export function startModel(receive: (reply: Reply) => void, load: () => Promise<M.ModelModule>): ModelLink {
  const worker = inWorker(receive);
  if (worker) return worker;
  let stopped = false;
  const handle = modelRunner((reply) => setTimeout(() => stopped || receive(reply), 0), load(), fetchModel());
  return {
    send: (request) => void setTimeout(() => stopped || handle(request), 0),
    stop: () => {
      stopped = true;
      handle({ type: 'dispose' });
    },
  };
}
