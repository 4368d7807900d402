// A wasm module's work, from the page's side: in a worker where the page can start one, else (a
// page opened from a file, or a sandboxed frame, where Chromium refuses a worker) on the page
// itself. Either way a reply comes a task after its request, so the page is drawn between them.
// The Learn view's trainer and the Real model view's model both talk to the page this way.
import { scriptURL } from './trusted';

export interface WorkerLink<Q> {
  send(request: Q): void;
  stop(): void;
  /** The work runs on the page's own thread. */
  inPage: boolean;
}

export interface LinkOptions<Q, R> {
  /** The worker's script, one of trusted.ts's names. */
  script: string;
  receive: (reply: R) => void;
  /** The reply that says the worker's script did not load. */
  failed: (message: string) => R;
  /** Starts the same work on the page: `post` takes its replies, the result takes requests. */
  inPage: (post: (reply: R) => void) => (request: Q) => void;
  /** The request that ends the work on the page. */
  dispose: Q;
}

function inWorker<Q, R>({ script, receive, failed }: LinkOptions<Q, R>): WorkerLink<Q> | null {
  if (typeof Worker !== 'function' || location.protocol === 'file:') return null;
  let worker: Worker;
  try {
    worker = new Worker(scriptURL(script));
  } catch {
    return null; // an opaque origin (a sandboxed frame) may not start one
  }
  worker.onmessage = (e: MessageEvent<R>) => receive(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    receive(failed(e.message || `${script} did not load`));
  };
  return { send: (request) => worker.postMessage(request), stop: () => worker.terminate(), inPage: false };
}

export function startLink<Q, R>(options: LinkOptions<Q, R>): WorkerLink<Q> {
  const worker = inWorker(options);
  if (worker) return worker;
  let stopped = false;
  const handle = options.inPage((reply) => setTimeout(() => stopped || options.receive(reply), 0));
  return {
    send: (request) => void setTimeout(() => stopped || handle(request), 0),
    stop: () => {
      stopped = true;
      handle(options.dispose);
    },
    inPage: true,
  };
}
