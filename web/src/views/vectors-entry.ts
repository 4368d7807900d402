// dist/vectors.js: the word vectors learned from real text (docs/word-vectors.md), loaded the
// first time a reader's words use them (app/vectors-part.ts), with the words the page says of a
// sentence over them, which the first load need not carry. Its data is data/vectors/words.bin, put in at build time (web/build.mjs) in the
// script form of scripts/vectors/pack.mjs; here it becomes that file's bytes again, which the
// engine reads (model/reads.ts, readWordVectors).
import { head, offset, values, words } from 'virtual:vectors';
import { provide } from '../later/later';
import { ownStory } from './own-story';
import '../i18n/section-learned';

/** The file's bytes: "APV1", its four numbers, the words, then each value as one byte. */
function bytes(): Uint8Array {
  const text = new TextEncoder().encode(words);
  const out = new Uint8Array(24 + text.length + values.length);
  const view = new DataView(out.buffer);
  out.set([0x41, 0x50, 0x56, 0x31]); // "APV1"
  view.setUint32(4, head[0], true);
  view.setUint32(8, head[1], true);
  view.setUint32(12, head[2], true);
  view.setFloat32(16, head[3], true);
  view.setUint32(20, text.length, true);
  out.set(text, 24);
  const at = 24 + text.length;
  for (let i = 0; i < values.length; i++) out[at + i] = (values.charCodeAt(i) - offset) & 0xff;
  return out;
}

provide('vectors', { bytes, story: ownStory });
