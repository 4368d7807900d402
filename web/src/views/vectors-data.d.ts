// The module web/build.mjs makes from data/vectors/words.bin for views/vectors-entry.ts.
declare module 'virtual:vectors' {
  /** data/vectors/words.bin's bytes, as the engine reads them (readWordVectors). */
  export function bytes(): Uint8Array;
}
