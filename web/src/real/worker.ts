// dist/real-worker.js: runs the Real model view's language model off the page's thread, so the
// page never waits on it. A classic worker: it loads the model module with importScripts and
// fetches the model file next to it (runner.ts answers the page).
import type M from '../../../cpp/wasm/attention-model';
import { scriptURL } from '../engine/trusted';
import type { Reply, Request } from './protocol';
import { fetchModel } from './file';
import { modelRunner } from './runner';

declare function importScripts(...urls: string[]): void;

interface Scope {
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  postMessage(message: Reply, transfer?: Transferable[]): void;
  createAttentionModel?: () => Promise<M.ModelModule>;
}
const scope = self as unknown as Scope;

importScripts(scriptURL('attention-model.js'));
const module = scope.createAttentionModel
  ? scope.createAttentionModel()
  : Promise.reject(new Error('attention-model.js did not define createAttentionModel'));
const handle = modelRunner((reply, transfer) => scope.postMessage(reply, transfer ?? []), module, fetchModel());
scope.onmessage = (e) => handle(e.data);
