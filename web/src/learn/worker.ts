// dist/learn-worker.js: trains the Learn view's model off the page's thread, so the page never
// freezes while it learns. A classic worker: it loads the trainer with importScripts, and trains
// in chunks of about a tenth of a second (training.ts).
import type T from '../../../cpp/wasm/attention-trainer';
import { scriptURL } from '../engine/trusted';
import type { Reply, Request } from './protocol';
import { training } from './training';

declare function importScripts(...urls: string[]): void;

interface Scope {
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  postMessage(message: Reply, transfer?: Transferable[]): void;
  createAttentionTrainer?: () => Promise<T.TrainerModule>;
}
const scope = self as unknown as Scope;

/** How long one chunk of steps may take: five or more updates a second. */
const CHUNK_MS = 100;

importScripts(scriptURL('attention-trainer.js'));
const module = scope.createAttentionTrainer ? scope.createAttentionTrainer() : null;
const handle = training((reply, transfer) => scope.postMessage(reply, transfer ?? []), module, CHUNK_MS);
scope.onmessage = (e) => handle(e.data);
