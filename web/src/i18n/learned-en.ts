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
  'learned.story':
    'Your own sentence, read with vectors learned from real text. The scores are {scores}, made weights by {weights}{more}. Alike words attend to each other, which is what word vectors measure, not what a word stands for: “it” weighs words like “it”, not the noun it means. A trained model’s heads can do more.',
  'learned.readWithModel': 'Read this sentence with a trained model',
  'learned.scoresDot': 'dot products',
  'learned.scoresCosine': 'cosines',
  'learned.scaleSqrt': '{scores} ÷ √d_k',
  'learned.scaleNone': '{scores}, unscaled',
  'learned.scaleT': '{scores} ÷ T = {t}',
  'learned.softmax': 'softmax',
  'learned.sum': 'dividing each by its row’s sum',
  'learned.causal': '; each word sees only itself and the words before it',
  'learned.custom': '; the mask hides some pairs',
  'learned.heads': '; {n} heads, each with projections of its own',
  'learned.unknownSome':
    'Not among the learned words: {words}. Such a word gets a vector of zeros, alike to no word: it scores 0 with every word, and as a query weighs every word the same.',
  'learned.unknownAll':
    'None of these words is among the learned ones, so every vector is zeros and each row’s weights are all equal: there is no meaning here to attend to. Try everyday English or Chinese words.',
  'learned.unknownList': '? marks a word not among the learned words ({words}): its vector is zeros, which you can edit.',
  'learned.unknown': 'not among the learned words: zeros, edit them',
  'learned.neighbours':
    'These learned numbers have no names of their own; “{word}” is known by the words nearest it (cosine): {list}.',
};

export type LearnedKey = keyof typeof learnedEn;
export type LearnedMessages = Record<LearnedKey, string>;
