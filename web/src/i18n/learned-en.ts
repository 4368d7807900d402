// The words of the learned word vectors, in English: a section of the catalog that comes with its part of the page
// (vectors.js), not with i18n-en.js (the page's first load has a budget, and most readers never open it).
// section-learned.ts registers it. Another language is a file with the same keys.

export const learnedEn = {
  'learned.ready':
    '{count} English and Chinese words, {dims} learned numbers each. The numbers have no names: a word is known by the words near it.',
  'learned.selfMost':
    'Each word weighs itself most: its vector is most like itself. Hide that to see which other word each one is most like.',
  'learned.hideSelf': 'Hide each word from itself',
  'learned.selfHidden': 'Each word is masked from itself (see the mask step), so its weight goes to the other words.',
  'learned.showSelf': 'Show each word itself again',
  'learned.separator': ', ',
  'learned.neighbours':
    'These learned numbers have no names of their own; “{word}” is known by the words nearest it (cosine): {list}.',
};

export type LearnedKey = keyof typeof learnedEn;
export type LearnedMessages = Record<LearnedKey, string>;
