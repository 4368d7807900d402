// What the page asks of the engine besides attention itself: reading pasted or loaded text, the
// example sentences, and the figures drawn from a computed model (the plot's plane, one query
// row's trace). Results come back as the engine's values; the page words them.
import type { Engine, EngineError, Mat, Plane, RowTrace } from '../engine/types';
import type { Model } from './compute';

type Read<T> = ({ ok: true } & T) | { ok: false; error: EngineError };

/** A matrix pasted for `input` (the engine's name for it in messages: 'queries', 'keys', 'values'). */
export function readMatrix(engine: Engine, text: string, input: string): Read<{ matrix: Mat }> {
  const r = engine.parseMatrix(text, input);
  return r.ok ? { ok: true, matrix: r.matrix } : { ok: false, error: r.error };
}

/** A word-vector file, kept by the engine in place of `previous` (freed once this one is read). */
export function readVectors(
  engine: Engine,
  text: string,
  previous: { id: number } | null,
): Read<{ lexicon: { id: number }; size: number; dims: number }> {
  const r = engine.parseEmbeddings(text);
  if (!r.ok) return { ok: false, error: r.error };
  if (previous) engine.freeLexicon(previous);
  return { ok: true, lexicon: { id: r.id }, size: r.size, dims: r.features.length };
}

export interface WordVectors {
  lexicon: { id: number };
  size: number;
  dims: number;
}

/** The learned word vectors' file (app/vectors-part.ts) loaded into the engine. */
export function readWordVectors(engine: Engine, bytes: Uint8Array): Read<WordVectors> {
  const r = engine.loadVectors(bytes);
  if (!r.ok) return { ok: false, error: r.error };
  return { ok: true, lexicon: { id: r.id }, size: r.size, dims: r.features.length };
}

/** The built-in example sentences of a language (none if the engine has none for it). */
export function exampleSentences(engine: Engine, lang: string): string[] {
  const r = engine.exampleSentences(lang);
  return Array.isArray(r) ? r : [];
}

/** Where each value and output lies on the plot's plane, or null if the engine could not place them. */
export function planeOf(engine: Engine, plane: Model['plane']): Plane | null {
  const r = engine.project2d(plane.values, plane.outputs);
  return r.ok ? r : null;
}

/** Query row `row` of the first configuration, operation by operation, or null. */
export function rowTrace(engine: Engine, model: Pick<Model, 'a'>, row: number): RowTrace | null {
  const r = engine.traceRow(model.a.options, row);
  return r.ok ? r : null;
}
