// The training worker, from the page's side: started where a page can start one (not from
// file://, where Chromium refuses), its replies handed on, its messages numbered by model.
import { scriptURL } from '../engine/trusted';
import type { Reply, Request } from './protocol';

export interface TrainerLink {
  send(request: Request): void;
  stop(): void;
}

export function startTrainer(receive: (reply: Reply) => void): TrainerLink | null {
  if (typeof Worker !== 'function' || location.protocol === 'file:') return null;
  let worker: Worker;
  try {
    worker = new Worker(scriptURL('learn-worker.js'));
  } catch {
    return null;
  }
  worker.onmessage = (e: MessageEvent<Reply>) => receive(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    receive({ type: 'error', run: -1, error: null, message: e.message || 'learn-worker.js did not load' });
  };
  return { send: (request) => worker.postMessage(request), stop: () => worker.terminate() };
}
