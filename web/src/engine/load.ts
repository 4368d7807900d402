// Loading the engine: dist/attention-engine.js is a classic script that defines the global
// createAttentionEngine (it also loads with require() in node). The page waits for it with a
// time limit, and says which of the two faults it was (no WebAssembly, or a failed start).
import type { Engine } from './types';

/** The global dist/attention-engine.js defines, loaded with a classic <script> before app.js. */
export function engineFactory(): (() => Promise<Engine>) | undefined {
  const create = (globalThis as { createAttentionEngine?: unknown }).createAttentionEngine;
  return typeof create === 'function' ? (create as () => Promise<Engine>) : undefined;
}

/** How long the engine may take to start before the page says it failed (it takes ~100 ms). */
const START_TIMEOUT_MS = 15000;

/** Why there is no engine: the browser has no WebAssembly, or the engine did not load or start. */
export class EngineUnavailable extends Error {
  constructor(
    readonly fault: 'no-wasm' | 'failed',
    readonly detail?: unknown,
  ) {
    super(fault === 'no-wasm' ? 'WebAssembly is not available' : `the engine did not start: ${String(detail)}`);
  }
}

/**
 * The engine, or an EngineUnavailable. WebAssembly is checked first: without it the engine can
 * only fail, and the reader can do something about a browser but not about a broken download.
 */
export async function loadEngine(): Promise<Engine> {
  const wasm = (globalThis as { WebAssembly?: { instantiate?: unknown } }).WebAssembly;
  if (typeof wasm !== 'object' || wasm === null || typeof wasm.instantiate !== 'function') throw new EngineUnavailable('no-wasm');
  const create = engineFactory();
  if (!create) throw new EngineUnavailable('failed', 'attention-engine.js did not load');
  let timer = 0;
  const hang = new Promise<never>((_, reject) => {
    timer = window.setTimeout(() => reject(new Error(`no answer in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
  });
  try {
    return await Promise.race([create(), hang]);
  } catch (e) {
    throw new EngineUnavailable('failed', e);
  } finally {
    clearTimeout(timer);
  }
}
