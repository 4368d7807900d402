// What the link holds of the Learn view's model. `trained=N` is the step it stood at whenever
// training stops, so opening the link trains the same model (same seed, same steps) to there; and
// on the reader's request, `weights=` holds the model itself, so its trained heads open at once.
// The weights stay in the link only while the model is the one they hold.
import { translator, decimals } from '../i18n';
import type { LearnPlace } from '../state/learn-link';
import { MAX_WEIGHTS } from '../state/learn-link';
import { fromBase64Url, toBase64Url } from './bytes-link';
import type { Reply } from './protocol';
import { trainerFailure } from './failures';

type Created = Extract<Reply, { type: 'created' }>;
type Saved = Extract<Reply, { type: 'saved' }>;

export class ModelInLink {
  /** The step of the model the link's weights hold, or null. */
  private weightsAt: number | null;
  /** The steps the opening link's model had, if it loaded: earlier steps are not this run's. */
  loadedAt = 0;

  constructor(private readonly opening: LearnPlace) {
    this.weightsAt = opening.weights ? (opening.trained ?? 0) : null;
  }

  /** For the first model: the saved bytes (undefined if none or not base64url) and their steps. */
  asked(): { weights?: Uint8Array; trained?: number } {
    const bytes = this.opening.weights ? fromBase64Url(this.opening.weights) : null;
    return bytes ? { weights: bytes, trained: this.opening.trained ?? 0 } : {};
  }

  /**
   * The first model is made: says what came of the link's model, and returns the step to train
   * to (the link's steps, when its weights did not load or it had none), or null.
   */
  created(m: Created, note: (text: string) => void, lang: string): number | null {
    const n = this.opening.trained ?? 0;
    if (m.loaded) {
      this.loadedAt = n;
      note(translator(lang)('learn.loaded', { n }));
      return null;
    }
    this.weightsAt = null;
    if (this.opening.weights) {
      // The link's check lets through base64url letters only, so bytes that do not decode are a
      // text cut short: a length of 4k + 1 letters cannot end a byte.
      note(
        translator(lang)('learn.loadFailed', {
          message: m.loadError ? trainerFailure(lang, m.loadError) : translator(lang)('learn.weightsCut'),
          n,
        }),
      );
    } else if (n > 0) {
      note(translator(lang)('learn.retraining', { n }));
    }
    return n > 0 ? n : null;
  }

  /** Training stopped at `steps`: the place the link should hold now. */
  stepped(place: LearnPlace, steps: number): LearnPlace {
    const next: LearnPlace = { ...place };
    if (steps > 0) next.trained = steps;
    else delete next.trained;
    if (this.weightsAt !== steps) {
      delete next.weights;
      this.weightsAt = null;
    }
    return next;
  }

  /** The model's bytes came: into the place, unless they are more than a link holds. */
  saved(place: LearnPlace, m: Saved, note: (text: string) => void, lang: string): LearnPlace {
    const text = toBase64Url(m.bytes);
    const kb = decimals(text.length / 1024, 1, lang);
    if (text.length > MAX_WEIGHTS) {
      note(translator(lang)('learn.tooLarge', { kb, max: decimals(MAX_WEIGHTS / 1024, 0, lang), n: m.steps }));
      return place;
    }
    this.weightsAt = m.steps;
    note(translator(lang)('learn.shared', { kb, n: m.steps }));
    return { ...place, trained: m.steps || undefined, weights: text };
  }
}
