// The model's side of the Real model view: opens the shipped model once (and measures its heads
// once), then answers the page's requests: read a text, generate, give one head's steps. It runs
// in real-worker.js, off the page's thread; where a page cannot start a worker (a sandboxed frame)
// it runs on the page itself. Every number it sends is the core's.
import type M from '../../../cpp/wasm/attention-model';
import type { HeadWeights, Mat, Reply, Request } from './protocol';

/** How many next tokens the view lists. */
const PREDICTIONS = 5;

type Post = (reply: Reply, transfer?: Transferable[]) => void;

function flat(rows: number[][]): Mat {
  const cols = rows[0]?.length ?? 0;
  const data = new Float32Array(rows.length * cols);
  rows.forEach((r, i) => data.set(r, i * cols));
  return { rows: rows.length, cols, data };
}

/**
 * `module` and `bytes` bring the model module and the model file; a request that comes before
 * both are here waits for them. The returned function takes the page's requests.
 */
export function modelRunner(post: Post, module: Promise<M.ModelModule>, bytes: Promise<Uint8Array>): (m: Request) => void {
  let model: M.LanguageModel | null = null;
  let waiting: Request[] = [];
  let gone = false;
  /** The reading that extend and head apply to, as far as it has gone, and the tokens generated in it. */
  let id = -1;
  let last: M.ModelRun | null = null;
  let generated = 0;

  const fail = (stage: 'load' | 'open' | 'run', message: string, at = id) => post({ type: 'error', id: at, stage, message });

  const read = (run: M.ModelRun) => {
    last = run;
    const m = model as M.LanguageModel;
    const weights: HeadWeights[] = [];
    for (let layer = 0; layer < m.config.layers; layer++)
      for (let head = 0; head < m.config.heads; head++) {
        const steps = m.head(layer, head);
        if (!steps.ok) return fail('run', steps.error.message);
        const w = flat(steps.weights);
        weights.push({ layer, head, n: w.rows, data: w.data });
      }
    const { tokens, dropped, predictions } = run;
    post(
      { type: 'read', id, tokens, dropped, predictions, generated, weights },
      weights.map((w) => w.data.buffer),
    );
  };

  /** Extends by the likeliest next token; null when the context is full or there is no prediction. */
  const next = (run: M.ModelRun): M.ModelRun | M.Failure | null => {
    const best = run.predictions[0];
    if (!best || run.tokens.length >= (model as M.LanguageModel).config.context) return null;
    return (model as M.LanguageModel).extend(best.id, { predictions: PREDICTIONS });
  };

  const serve = (m: Request): void => {
    const lm = model as M.LanguageModel;
    if (m.type === 'dispose') return;
    if (m.type === 'run') {
      id = m.id;
      last = null;
      let run = lm.run(m.text, { predictions: PREDICTIONS });
      if (!run.ok) return fail('run', run.error.message);
      for (generated = 0; generated < m.generate; generated++) {
        const more = next(run);
        if (!more) break;
        if (!more.ok) return fail('run', more.error.message);
        run = more;
      }
      return read(run);
    }
    if (m.id !== id || !last) return;
    if (m.type === 'extend') {
      // Only the new token is computed: its K and V join the cache, its query reads it.
      const more = next(last);
      if (!more) return read(last);
      if (!more.ok) return fail('run', more.error.message);
      generated += 1;
      return read(more);
    }
    const steps = lm.head(m.layer, m.head);
    if (!steps.ok) return fail('run', steps.error.message);
    const [queries, keys, values, weights] = [steps.q, steps.k, steps.v, steps.weights].map(flat);
    post({ type: 'head', id, layer: m.layer, head: m.head, queries, keys, values, weights }, [
      queries.data.buffer,
      keys.data.buffer,
      values.data.buffer,
      weights.data.buffer,
    ]);
  };

  Promise.all([module, bytes]).then(
    ([mod, file]) => {
      if (gone) return;
      const opened = mod.open(file);
      if (!opened.ok) return fail('open', opened.error.message, -1);
      model = opened.model;
      const survey = model.survey();
      if (!survey.ok) return fail('open', survey.error.message, -1);
      post({ type: 'opened', config: model.config, bytes: file.length, survey });
      const queued = waiting;
      waiting = [];
      queued.forEach(handle);
    },
    (e: unknown) => fail('load', e instanceof Error ? e.message : String(e), -1),
  );

  function handle(m: Request): void {
    if (m.type === 'dispose') {
      gone = true;
      model?.dispose();
      model = null;
      return;
    }
    if (gone) return;
    if (!model) {
      waiting.push(m);
      return;
    }
    serve(m);
  }
  return handle;
}
