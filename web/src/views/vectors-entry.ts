// dist/vectors.js: the word vectors learned from real text (docs/word-vectors.md), loaded the
// first time a reader's words use them (app/vectors-part.ts), with the words the page says of a
// sentence over them, which the first load need not carry. Its data is data/vectors/words.bin, put
// in at build time (web/build.mjs) with the format's own reader and writer
// (scripts/vectors/format.mjs); the engine reads its bytes (model/reads.ts, readWordVectors).
import { bytes } from 'virtual:vectors';
import { provide } from '../lazy/lazy';
import { ownStory } from './own-story';
import '../i18n/section-learned';

declare module '../lazy/lazy' {
  interface Parts {
    /** The learned word vectors: their file, as the engine's loadVectors() reads it, and the story
     * above the figure for a sentence over them, as Story.show takes it (views/own-story.ts). */
    vectors: { bytes: () => Uint8Array; story: typeof ownStory };
  }
}

provide('vectors', { bytes, story: ownStory });
