// Runs the cost measurement for the cost view: in a worker (cost-worker.js), so the page never
// freezes while n reaches 4096, or, where a page cannot start one (opened from file://: Chromium
// refuses), on the page's thread with n capped so that no step blocks for long.
import { measureAll, SIZES, type CostPoint } from '../engine/measure';
import { engineFactory } from '../engine/load';
import { scriptURL } from '../engine/trusted';

const PAGE_THREAD_MAX_N = 1024;

export { SIZES as COST_SIZES };

function startWorker(): Worker | null {
  if (typeof Worker !== 'function' || location.protocol === 'file:') return null;
  try {
    return new Worker(scriptURL('cost-worker.js'));
  } catch {
    return null;
  }
}

export async function measureCost(
  report: (p: CostPoint, done: number, total: number) => void,
): Promise<{ pageThreadMax: number | null }> {
  const worker = startWorker();
  if (worker) {
    await new Promise<void>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent) => {
        const m = e.data as { type: string; point?: CostPoint; done?: number; total?: number; message?: string };
        if (m.type === 'point' && m.point) report(m.point, m.done ?? 0, m.total ?? 1);
        else if (m.type === 'done') resolve();
        else if (m.type === 'error') reject(new Error(m.message));
      };
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage({ sizes: SIZES });
    }).finally(() => worker.terminate());
    return { pageThreadMax: null };
  }
  const create = engineFactory();
  if (!create) throw new Error('attention-engine.js did not load');
  await measureAll(
    create,
    SIZES.filter((n) => n <= PAGE_THREAD_MAX_N),
    report,
  );
  return { pageThreadMax: PAGE_THREAD_MAX_N };
}
