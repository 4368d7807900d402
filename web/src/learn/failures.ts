// What went wrong with the trainer, in the reader's language. The trainer (cpp/wasm/trainer-api.js)
// and the worker say it in English, with a stable code and the input it concerns; the page words
// each code from the catalog, as engine/messages.ts does for the engine. No error at all means
// the trainer's script, or the worker's, did not load or did not start.
import type T from '../../../cpp/wasm/attention-trainer';
import { int, isKey, translator } from '../i18n';

type Failure = Pick<T.TrainerError, 'code' | 'input' | 'col'>;

/** The failure as a phrase for the view's sentences ("The trainer could not start: …"). */
export function trainerFailure(lang: string, error: Failure | null): string {
  const say = translator(lang);
  if (!error) return say('learn.error.load');
  if (error.input === 'config') return say('learn.error.config');
  if (error.input === 'head') return say('learn.error.head');
  if (error.code === 'parse_error' && error.input === 'model')
    return error.col >= 0 ? say('learn.error.modelAt', { byte: int(error.col) }) : say('learn.error.model');
  if (error.code === 'not_finite') return say(error.input === 'loss' ? 'learn.error.diverged' : 'learn.error.overflow');
  const key = `learn.error.code.${error.code}` as const;
  return isKey(key) ? say(key) : say('learn.error.other', { code: String(error.code) });
}
