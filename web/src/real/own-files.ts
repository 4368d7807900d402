// A model the reader brings from disk, read where the model runs (the worker, or the page where no
// worker starts): the files sorted by name, every check made from the model file's header before
// its weights are read (attention-model.js's plan), then the file read in pieces into the module,
// with progress, and a way to stop. Nothing is sent anywhere: the files are read here.
import type M from '../../../cpp/wasm/attention-model';
import type { OwnFailure } from './protocol';

/** The files of one checkpoint, by what each is. */
export interface OwnFiles {
  model: File;
  tokenizer?: File;
  vocab?: File;
  merges?: File;
  config?: File;
}

type Side = Exclude<keyof OwnFiles, 'model'>;
const SIDE_NAMES: Record<string, Side> = {
  'tokenizer.json': 'tokenizer',
  'vocab.json': 'vocab',
  'merges.txt': 'merges',
  'config.json': 'config',
};

/** A piece of the model file read at a time: large enough to read fast, small enough to stop soon. */
const PIECE = 8 << 20;

/** The files as a checkpoint, or why they are not one. */
export function sortFiles(files: readonly File[]): OwnFiles | OwnFailure {
  const models = files.filter((f) => /\.safetensors$/i.test(f.name));
  const unknown = files.filter((f) => !/\.safetensors$/i.test(f.name) && !SIDE_NAMES[f.name.toLowerCase()]);
  if (unknown.length) return { reason: 'unknown-files', names: unknown.map((f) => f.name) };
  if (models.length !== 1) return { reason: models.length ? 'two-models' : 'no-model', names: models.map((f) => f.name) };
  const out: OwnFiles = { model: models[0] };
  for (const f of files) {
    const side = SIDE_NAMES[f.name.toLowerCase()];
    if (side) out[side] = f;
  }
  return out;
}

/** A model file and the files beside it, from disk or from a server: read in order, piece by piece. */
export interface ModelSource {
  name: string;
  /** The model file's size in bytes. */
  size: number;
  besides(): Promise<M.ModelFiles>;
  pieces(): AsyncIterable<Uint8Array>;
}

/** The reader's files from disk. */
export function fileSource(own: OwnFiles): ModelSource {
  return {
    name: own.model.name,
    size: own.model.size,
    async besides() {
      const out: M.ModelFiles = {};
      for (const key of ['tokenizer', 'vocab', 'merges', 'config'] as const) {
        const f = own[key];
        if (f) out[key] = new Uint8Array(await f.arrayBuffer());
      }
      return out;
    },
    async *pieces() {
      for (let at = 0; at < own.model.size; at += PIECE)
        yield new Uint8Array(await own.model.slice(at, Math.min(own.model.size, at + PIECE)).arrayBuffer());
    },
  };
}

export interface Reading {
  /** Called as the file comes in. */
  progress(loaded: number, total: number): void;
  /** True once the reader asked to stop. */
  stopped(): boolean;
  /** Called when the model needs the memory the current one holds: let it go. */
  makeRoom(): void;
}

export type OwnResult = { ok: true; model: M.LanguageModel } | { ok: false; failure: OwnFailure };

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Opens `source` in `mod`, or says why not: every check from the header before the weights are
 * read, then the file into a buffer of the module's as it comes. The current model is let go only when
 * the new one cannot fit beside it.
 */
export async function openOwn(mod: M.ModelModule, source: ModelSource, reading: Reading): Promise<OwnResult> {
  const refused = (text: string): OwnResult => ({ ok: false, failure: { reason: 'refused', message: text } });
  const stopped: OwnResult = { ok: false, failure: { reason: 'cancelled' } };
  const { size } = source;
  let buffer: M.ModelBuffer | null = null;
  try {
    const files = await source.besides();
    /** The file's first bytes, gathered until its header is whole and the buffer can be planned. */
    let head: Uint8Array = new Uint8Array(0);
    let loaded = 0;
    let shown = 0;
    const tooLong = () => refused(`the file is longer than the ${size} bytes it was said to be`);
    for await (const piece of source.pieces()) {
      if (reading.stopped()) return stopped;
      if (buffer) {
        if (loaded + piece.length > size) return tooLong();
        const wrote = buffer.write(piece, loaded);
        if (!wrote.ok) return refused(wrote.error.message);
        loaded += piece.length;
      } else {
        head = concat(head, piece);
        const wanted = mod.headSize(head);
        if (typeof wanted !== 'number') return refused(wanted.error.message);
        const end = head.length >= 8 ? Math.min(wanted, size) : Infinity;
        if (head.length < end && head.length < size) continue; // the header is not all here yet
        const header = head.subarray(0, Math.min(end, head.length));
        let plan = mod.plan(header, size, files);
        if (plan.ok && plan.needBytes > plan.freeBytes) {
          reading.makeRoom();
          plan = mod.plan(header, size, files);
        }
        if (!plan.ok) return refused(plan.error.message);
        if (plan.needBytes > plan.freeBytes)
          return { ok: false, failure: { reason: 'too-large', needBytes: plan.needBytes, freeBytes: plan.freeBytes } };
        if (head.length > size) return tooLong();
        const made = mod.reserve(size);
        if (!made.ok) return refused(made.error.message);
        buffer = made;
        buffer.write(head, 0);
        loaded = head.length;
      }
      if (loaded - shown >= PIECE || loaded === size) {
        shown = loaded;
        reading.progress(loaded, size);
      }
    }
    if (reading.stopped()) return stopped;
    if (!buffer) return refused(`the file ended after ${head.length} bytes, before its header did`);
    if (loaded < size) return refused(`the file ended after ${loaded} of its ${size} bytes`);
    const opened = buffer.open(files);
    if (!opened.ok) return refused(opened.error.message);
    return { ok: true, model: opened.model };
  } catch (e) {
    return { ok: false, failure: { reason: 'read', message: message(e) } };
  } finally {
    buffer?.release();
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
