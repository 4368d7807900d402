// The worker's side of worker-link.ts: a classic worker loads its wasm module with importScripts
// and hands the page's requests to the same code that runs on the page where no worker can start.
import { scriptURL } from './trusted';

declare function importScripts(...urls: string[]): void;

export type Post<R> = (reply: R, transfer?: Transferable[]) => void;

interface Scope<Q, R> {
  onmessage: ((e: MessageEvent<Q>) => void) | null;
  postMessage(message: R, transfer?: Transferable[]): void;
}

/**
 * Loads `script`, which defines the module's factory `factory` on the worker's global, and serves
 * the page's requests with what `start` makes of the module (null when the script defined none).
 */
export function serveInWorker<Q, R, Module>(
  script: string,
  factory: string,
  start: (post: Post<R>, module: Promise<Module> | null) => (request: Q) => void,
): void {
  const scope = self as unknown as Scope<Q, R> & Record<string, unknown>;
  importScripts(scriptURL(script));
  const make = scope[factory];
  const module = typeof make === 'function' ? (make as () => Promise<Module>)() : null;
  const handle = start((reply, transfer) => scope.postMessage(reply, transfer ?? []), module);
  scope.onmessage = (e) => handle(e.data);
}
