// dist/cost-worker.js: measures the cost of attention off the page's thread, so the page never
// freezes while n reaches 4096. A classic worker: it loads the engine with importScripts.
import { measureAll, SIZES, type CostPoint } from './measure';
import { scriptURL } from './trusted';
import { engineFactory } from './load';

declare function importScripts(...urls: string[]): void;

interface Scope {
  onmessage: ((e: MessageEvent<{ sizes?: number[] }>) => void) | null;
  postMessage(message: unknown): void;
}
const scope = self as unknown as Scope;

importScripts(scriptURL('attention-engine.js'));

scope.onmessage = (e) => {
  const sizes = Array.isArray(e.data?.sizes) ? e.data.sizes.filter((n) => SIZES.includes(n)) : SIZES;
  const create = engineFactory();
  if (!create) {
    scope.postMessage({ type: 'error', message: 'attention-engine.js did not load' });
    return;
  }
  measureAll(create, sizes, (point: CostPoint, done: number, total: number) =>
    scope.postMessage({ type: 'point', point, done, total }),
  )
    .then(() => scope.postMessage({ type: 'done' }))
    .catch((error: unknown) => scope.postMessage({ type: 'error', message: String(error) }));
};
