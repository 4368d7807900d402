// The link's keys beside the state's (PROPS in state.ts): how a host frames the page, where a
// reader is in a lesson, the frame of the pipeline's animation, and the keys of the view open
// below the header. None is the reader's state, so undo and storage never see them. Each is one
// entry of EXTRAS, the keys it takes out of a link's text and how it writes them back; the page
// (app/link.ts) reads the table alone, so a new key is an entry here and its field in Extras.
import { serialiseEmbed, splitEmbed, type EmbedOptions } from './embed-options';
import { serialiseLesson, serialisePlay, splitLesson, splitPlay, type LessonPlace } from './lesson-link';
import { takeLearn } from './learn-link';

export interface Extras {
  embed: EmbedOptions;
  lesson: LessonPlace | null;
  /** The animation's frame, 1-based; null when it is closed. */
  play: number | null;
  /** The open view's keys (Learn's or the Real model's) as written: its part parses them, so the
   * first load carries only what finds them. Null when no view is open. */
  view: string | null;
}

interface Extra<K extends keyof Extras> {
  /** Its keys out of a link's text: what they say (the entry's default if absent), the rest of
   * the text, and the keys it refused. */
  take(text: string): { value: Extras[K]; rest: string; rejected: string[] };
  /** Its keys for a link; '' or null when they say nothing. */
  write(value: Extras[K]): string | null;
}

/** In the order a link is read and written: the embedding keys first, the view's last (so its
 * `seed` and `heads` stand in for the playground's own while it is open). */
const EXTRAS: { [K in keyof Extras]: Extra<K> } = {
  embed: {
    take: (text) => {
      const { options, ...r } = splitEmbed(text);
      return { value: options, ...r };
    },
    write: serialiseEmbed,
  },
  lesson: { take: splitLesson, write: serialiseLesson },
  play: { take: splitPlay, write: serialisePlay },
  view: {
    take: (text) => {
      const { keys, rest } = takeLearn(text);
      return { value: keys, rest, rejected: [] };
    },
    write: (keys) => keys,
  },
};

/** Every entry's keys out of a link's text: what they say, the rest (the state, for parse()), and
 * the keys refused, entry by entry. Of '': what a link without any of them says. */
export function splitExtras(text: string): { extras: Extras; rest: string; rejected: string[] } {
  const extras = {} as Record<keyof Extras, unknown>;
  const rejected: string[] = [];
  let rest = text;
  let key: keyof Extras;
  for (key in EXTRAS) {
    const r = EXTRAS[key].take(rest);
    extras[key] = r.value;
    rest = r.rest;
    rejected.push(...r.rejected);
  }
  return { extras: extras as Extras, rest, rejected };
}

/** The keys for a link, after the state's: each entry's that say something. */
export function serialiseExtras(extras: Extras): string {
  const keys: (string | null)[] = [];
  let key: keyof Extras;
  for (key in EXTRAS) keys.push((EXTRAS[key] as Extra<keyof Extras>).write(extras[key]));
  return keys.filter(Boolean).join('&');
}
