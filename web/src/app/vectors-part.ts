// The word vectors learned from real text, the lazy part `vectors` (docs/word-vectors.md): about
// 900 KB, so their script comes only the first time a reader's words use them, and the engine
// then keeps them for the page's life. Kept per engine, not per App: a change of language mounts
// a new App on the same engine, and must not load them twice.
import { lazy } from '../lazy/lazy';
import type { Engine } from '../engine/types';
import { readWordVectors, type WordVectors } from '../model/reads';
import type { Parts } from '../lazy/lazy';

interface Loading {
  vectors: WordVectors | null;
  story: Parts['vectors']['story'] | null; // what the page says of a sentence over them
  failed: string; // why the last attempt did not load them
  waiting: Set<() => void> | null; // while loading: who to tell when it ends
}
const byEngine = new WeakMap<Engine, Loading>();

/** The learned vectors if the engine holds them. If not, they start to come (once), and `ready`
 * is called when they are there or could not come (then `failed` says why; a later call tries
 * again, as after being offline). */
export function learnedVectors(engine: Engine, ready: () => void): Readonly<Loading> {
  let state = byEngine.get(engine);
  if (!state) byEngine.set(engine, (state = { vectors: null, story: null, failed: '', waiting: null }));
  if (state.vectors) return state;
  if (state.waiting) {
    state.waiting.add(ready);
    return state;
  }
  const s = state;
  s.waiting = new Set([ready]);
  s.failed = '';
  const end = (failed: string) => {
    s.failed = failed;
    const waiting = s.waiting ?? new Set<() => void>();
    s.waiting = null;
    for (const tell of waiting) tell();
  };
  lazy('vectors').then(
    (part) => {
      const r = readWordVectors(engine, part.bytes());
      if (r.ok) [s.vectors, s.story] = [r, part.story];
      end(r.ok ? '' : r.error.message);
    },
    (e: Error) => end(e.message),
  );
  return s;
}
