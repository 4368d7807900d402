// The model's side of the Real model view: opens the shipped model (and measures its heads once),
// or the reader's own checkpoint from disk (own-files.ts), then answers the page's requests: read
// a text, generate, give one head's steps. It runs in real-worker.js, off the page's thread; where
// a page cannot start a worker (a sandboxed frame) it runs on the page itself. Every number it
// sends is the core's.
import type M from '../../../cpp/wasm/attention-model';
import type { Post as PostOf } from '../engine/worker-serve';
import type { HeadWeights } from '../engine/types';
import type { Mat, Reply, Request } from './protocol';
import { fileSource, openOwn, sortFiles, type ModelSource } from './own-files';
import { fileName, urlSource } from './url-source';

/** Makes a model's source anew: a server's response is read once, so opening it again asks again. */
type Opener = () => Promise<ModelSource>;

/** How many next tokens the view lists. */
const PREDICTIONS = 5;
/** Above this many bytes of weights (about 25 M parameters), the survey reads 2 sequences, not 8: on
 * a model of GPT-2 small's size 8 would take half a minute. */
const LARGE_MODEL = 100 << 20;

type Post = PostOf<Reply>;

function flat(rows: number[][]): Mat {
  const cols = rows[0]?.length ?? 0;
  const data = new Float32Array(rows.length * cols);
  rows.forEach((r, i) => data.set(r, i * cols));
  return { rows: rows.length, cols, data };
}

/**
 * `module` brings the model module and `shipped` the page's model file; a request that comes
 * before a model is open waits for it. The returned function takes the page's requests.
 */
export function modelRunner(
  post: Post,
  module: Promise<M.ModelModule>,
  shipped: () => Promise<Uint8Array>,
): (m: Request) => void {
  let model: M.LanguageModel | null = null;
  let waiting: Request[] = [];
  let gone = false;
  /** The reader's own files being read (requests wait meanwhile), and whether they asked to stop. */
  let busy = false;
  let stop = false;
  /** Stops the fetches of the model a server is being asked for now (none: null). */
  let abort: AbortController | null = null;
  /** Where the open model came from: the reader's files, or null for the page's own. */
  let source: Opener | null = null;
  /** Counts the openings asked for: a page's model that arrives after the reader opened their own is not taken. */
  let openings = 0;
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
    if (!best || run.tokens.length >= (model as M.LanguageModel).window) return null;
    return (model as M.LanguageModel).extend(best.id, { predictions: PREDICTIONS });
  };

  const serve = (m: Extract<Request, { type: 'run' | 'extend' | 'head' }>): void => {
    const lm = model as M.LanguageModel;
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

  /** `next` is the model now: the one before goes, the survey runs once, and waiting requests are served. */
  const adopt = (next: M.LanguageModel, bytes: number, own: { name: string; again: Opener } | null): boolean => {
    const survey = next.survey(bytes > LARGE_MODEL ? { sequences: 2 } : {});
    if (!survey.ok) {
      next.dispose();
      return false;
    }
    if (model !== next) model?.dispose();
    model = next;
    source = own ? own.again : null;
    id = -1;
    last = null;
    post({ type: 'opened', config: next.config, window: next.window, bytes, survey, own: own ? own.name : null });
    const queued = waiting;
    waiting = [];
    queued.forEach(handle);
    return true;
  };

  /** `opening` is taken when the opening is asked for, before the module is ready: the reader's own
   * model, asked for meanwhile, is a later opening and wins. */
  const openShipped = (mod: M.ModelModule, opening = ++openings) => {
    return shipped().then(
      (file) => {
        if (gone || opening !== openings) return;
        const opened = mod.open(file);
        if (!opened.ok) return fail('open', opened.error.message, -1);
        if (!adopt(opened.model, file.length, null)) fail('open', 'its heads could not be measured', -1);
      },
      (e: unknown) => {
        if (opening === openings) fail('load', e instanceof Error ? e.message : String(e), -1);
      },
    );
  };

  const openSource = async (mod: M.ModelModule, again: Opener): Promise<boolean> => {
    const previous = source;
    let released = false;
    let from: ModelSource;
    try {
      from = await again();
    } catch (e) {
      // Stopped while the server had not answered: nothing was read, the model before still runs.
      if (!stop) throw e;
      post({ type: 'own-failed', failure: { reason: 'cancelled' } });
      return false;
    }
    const result = await openOwn(mod, from, {
      progress: (loaded, total) => post({ type: 'progress', name: from.name, loaded, total, stage: 'reading' }),
      stopped: () => stop || gone,
      makeRoom: () => {
        model?.dispose();
        model = null;
        released = true;
      },
    });
    if (gone) return false;
    if (result.ok) {
      post({ type: 'progress', name: from.name, loaded: from.size, total: from.size, stage: 'measuring' });
      if (adopt(result.model, from.size, { name: from.name, again })) return true;
      post({ type: 'own-failed', failure: { reason: 'refused', message: 'its heads could not be measured' } });
    } else {
      post({ type: 'own-failed', failure: result.failure });
    }
    // The model before was let go to make room, or none was open yet (the page's own was still
    // on its way when the reader's came, and was passed over): it is opened, as the reader left it.
    if (released || !model) {
      if (previous) await openSource(mod, previous);
      else await openShipped(mod);
    }
    return false;
  };

  /** Opens what `again` brings, while requests wait. `asking`: the name of a file a server is asked
   * for, said with a Stop button at once, before the server answers. */
  const openOther = (again: Opener, asking?: string) => {
    busy = true;
    stop = false;
    openings += 1;
    if (asking) post({ type: 'progress', name: asking, loaded: 0, total: 0, stage: 'asking' });
    module
      .then((mod) => openSource(mod, again))
      .catch((e: unknown) =>
        post({ type: 'own-failed', failure: { reason: 'read', message: e instanceof Error ? e.message : String(e) } }),
      )
      .finally(() => {
        busy = false;
        abort = null; // a later Stop is another reading's
        const queued = waiting;
        waiting = [];
        queued.forEach(handle);
      });
  };

  const own = (files: File[]) => {
    const sorted = sortFiles(files);
    if (!('model' in sorted)) return post({ type: 'own-failed', failure: sorted });
    openOther(() => Promise.resolve(fileSource(sorted)));
  };

  const first = ++openings;
  module.then(
    (mod) => {
      if (!gone) void openShipped(mod, first);
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
    if (m.type === 'cancel') {
      stop = true;
      abort?.abort();
      return;
    }
    if (m.type === 'own') {
      if (!busy) own(m.files);
      return;
    }
    if (m.type === 'url') {
      const { urls } = m;
      if (busy) return;
      const controller = (abort = new AbortController());
      openOther(() => urlSource(urls, controller.signal), fileName(urls.model));
      return;
    }
    if (m.type === 'shipped') {
      if (busy || !source) return;
      const opening = ++openings;
      module.then((mod) => openShipped(mod, opening)).catch(() => undefined);
      return;
    }
    if (!model || busy) {
      waiting.push(m);
      return;
    }
    serve(m);
  }
  return handle;
}
