// The cost of attention, measured: for growing n, how long one attentionFast() call takes and how
// much wasm memory it needs, streaming (the n×n matrix never exists) and materialised (it does).
//
// Each point runs in a fresh engine instance, so its memory is exactly what that call allocated
// (the engine keeps its buffers between calls, which would otherwise carry one size's memory into
// the next). Runs in a worker (cost-worker.ts) or, where a page cannot start one (file://), on
// the page's thread with sizes capped so no step blocks for long.
import type { Engine } from './types';

export interface CostPoint {
  n: number;
  d: number;
  materialize: boolean;
  ms: number; // median time of one call (over batches of calls)
  bytes: number; // bytes malloc handed out for the call (inputs, buffers, workspace, output)
}

/** The part of the engine a measurement uses. */
type FastEngine = Pick<Engine, 'attentionFast' | 'memoryStats'>;

export const SIZES = [64, 128, 256, 512, 1024, 2048, 4096];
export const D = 64;

function random(count: number, seed: number): Float32Array {
  const out = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}

/** The most the engine has had allocated at the end of a call: a large call keeps nothing after it. */
function allocated(engine: FastEngine): number {
  const stats = engine.memoryStats();
  return 'peakAllocatedBytes' in stats ? stats.peakAllocatedBytes : 0;
}

/** One point: a fresh engine, a first call (whose allocations are the memory), then timing. */
export async function measurePoint(
  create: () => Promise<FastEngine>,
  n: number,
  materialize: boolean,
  d = D,
): Promise<CostPoint> {
  const engine = await create();
  const matrix = (seed: number) => ({ rows: n, cols: d, data: random(n * d, seed) });
  const options = { queries: matrix(1), keys: matrix(2), values: matrix(3), materialize };
  const before = allocated(engine);
  const first = engine.attentionFast(options);
  if (!first.ok) throw new Error(first.error.message);
  const bytes = allocated(engine) - before;
  // Calls are timed in batches of at least 2 ms: a page that is not cross-origin isolated reads
  // performance.now() in steps of 0.1 ms, about one call at n = 64.
  const times: number[] = [];
  let elapsed = 0,
    batch = 1;
  while (times.length < 3 || (elapsed < 60 && times.length < 50)) {
    const start = performance.now();
    for (let k = 0; k < batch; k++) engine.attentionFast(options);
    const ms = performance.now() - start;
    if (ms < 2 && batch < 1024) {
      batch *= 2; // too short to time: discarded, and the batch doubled
      continue;
    }
    times.push(ms / batch);
    elapsed += ms;
  }
  times.sort((a, b) => a - b);
  return { n, d, materialize, ms: times[times.length >> 1], bytes };
}

/**
 * Runs both kinds of call for about 50 ms, unrecorded. The engine's instances share their
 * compiled code, which V8 first compiles quickly and recompiles optimised once it runs hot:
 * measured cold, the first point (streaming, n = 64) took 2.5× as long as the same call warm.
 */
async function warmUp(create: () => Promise<FastEngine>): Promise<void> {
  const engine = await create();
  const n = 256;
  const matrix = (seed: number) => ({ rows: n, cols: D, data: random(n * D, seed) });
  const base = { queries: matrix(1), keys: matrix(2), values: matrix(3) };
  const start = performance.now();
  do {
    for (const materialize of [false, true]) engine.attentionFast({ ...base, materialize });
  } while (performance.now() - start < 50);
}

/** Every point, streaming first; `report` gets each as it is measured. */
export async function measureAll(
  create: () => Promise<FastEngine>,
  sizes: number[],
  report: (p: CostPoint, done: number, total: number) => void,
): Promise<CostPoint[]> {
  await warmUp(create);
  const points: CostPoint[] = [];
  const total = sizes.length * 2;
  for (const materialize of [false, true]) {
    for (const n of sizes) {
      const p = await measurePoint(create, n, materialize);
      points.push(p);
      report(p, points.length, total);
      await new Promise((r) => setTimeout(r, 0)); // let the page (or the worker's messages) breathe
    }
  }
  return points;
}
