// The module web/build.mjs makes from data/vectors/words.bin for views/vectors-entry.ts.
declare module 'virtual:vectors' {
  /** words, dims, learned, scale */
  export const head: [number, number, number, number];
  /** the words, joined by "\n" */
  export const words: string;
  /** one character per stored value: its code minus `offset` is the value */
  export const values: string;
  export const offset: number;
}
