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

async function sideTexts(own: OwnFiles): Promise<M.ModelFiles> {
  const out: M.ModelFiles = {};
  for (const key of ['tokenizer', 'vocab', 'merges', 'config'] as const) {
    const f = own[key];
    if (f) out[key] = new Uint8Array(await f.arrayBuffer());
  }
  return out;
}

/** The model file's first bytes, its 8-byte length and the header it announces (up to the core's limit). */
async function headOf(file: File): Promise<Uint8Array> {
  const length = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  if (length.length < 8) return length;
  const n = new DataView(length.buffer).getBigUint64(0, true);
  const most = BigInt(100 << 20); // the core refuses a longer header from its length alone
  const end = 8 + Number(n > most ? 0n : n);
  return new Uint8Array(await file.slice(0, end).arrayBuffer());
}

export interface Reading {
  /** Called after each piece. */
  progress(loaded: number, total: number): void;
  /** True once the reader asked to stop. */
  stopped(): boolean;
  /** Called when the model needs the memory the current one holds: let it go. */
  makeRoom(): void;
}

export type OwnResult = { ok: true; model: M.LanguageModel; plan: M.ModelPlan } | { ok: false; failure: OwnFailure };

/** Opens `own` in `mod`, or says why not. The current model is let go only when the new one cannot fit beside it. */
export async function openOwn(mod: M.ModelModule, own: OwnFiles, reading: Reading): Promise<OwnResult> {
  const refused = (message: string): OwnResult => ({ ok: false, failure: { reason: 'refused', message } });
  let files: M.ModelFiles, head: Uint8Array;
  try {
    files = await sideTexts(own);
    head = await headOf(own.model);
  } catch (e) {
    return { ok: false, failure: { reason: 'read', message: e instanceof Error ? e.message : String(e) } };
  }
  const size = own.model.size;
  let plan = mod.plan(head, size, files);
  if (!plan.ok) return refused(plan.error.message);
  if (plan.needBytes > plan.freeBytes) {
    reading.makeRoom();
    plan = mod.plan(head, size, files);
    if (!plan.ok) return refused(plan.error.message);
    if (plan.needBytes > plan.freeBytes)
      return { ok: false, failure: { reason: 'too-large', needBytes: plan.needBytes, freeBytes: plan.freeBytes } };
  }
  const room = mod.reserve(size);
  if (!room.ok) return refused(room.error.message);
  try {
    for (let at = 0; at < size; at += PIECE) {
      if (reading.stopped()) return { ok: false, failure: { reason: 'cancelled' } };
      const piece = new Uint8Array(await own.model.slice(at, Math.min(size, at + PIECE)).arrayBuffer());
      const wrote = room.write(piece, at);
      if (!wrote.ok) return refused(wrote.error.message);
      reading.progress(Math.min(size, at + PIECE), size);
    }
    if (reading.stopped()) return { ok: false, failure: { reason: 'cancelled' } };
    const opened = room.open(files);
    if (!opened.ok) return refused(opened.error.message);
    return { ok: true, model: opened.model, plan };
  } catch (e) {
    return { ok: false, failure: { reason: 'read', message: e instanceof Error ? e.message : String(e) } };
  } finally {
    room.release();
  }
}
