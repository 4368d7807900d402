// The animation’s words (play.js), in English: a section of the catalog that comes with its part of the page,
// not with i18n-en.js (the page's first load has a budget, and most readers never open it).
// section-play.ts registers it. Another language is a file with the same keys.

export const playEn = {
  'play.maskHead': 'masked',
  'play.tableLabel': 'Each key’s score, step by step',
  'play.mixLabel': 'Each value row times its weight, and the output',
  'play.title': 'How “{query}” gets its output, step by step',
  'play.frame': 'Frame {k} of {n}',
  'play.back': 'Back',
  'play.next': 'Next',
  'play.play': 'Play',
  'play.pause': 'Pause',
  'play.speed': 'Speed',
  'play.scrub': 'Frame',
  'play.close': 'Close',
  'play.key': 'Key',
  'play.sum': 'Sum',
  'play.output': 'Output so far',
  'play.dot': 'q·k, one feature at a time. {feature} ({t} of {d}): each key adds {query}’s {q} × its own {feature}.',
  'play.dotStride': 'Each key’s q·k, adding up the features: {t} of {d} added.',
  'play.norm': 'Cosine: each q·k divided by the two lengths, |q| = {qn} times |k|.',
  'play.scale': 'Each score divided by {divisor}.',
  'play.mask': 'Keys {query} may not see become −∞: they will get no weight.',
  'play.max': 'The largest score, {max}, taken from each, so that exp cannot overflow: the largest becomes 0.',
  'play.exp': 'exp of each: the largest becomes 1, the others less; −∞ becomes 0.',
  'play.sumExp': 'The exps add up to {sum}.',
  'play.sumScores': 'The scores add up to {sum}.',
  'play.divide': 'Each divided by {sum}: the weights, which add up to 1.',
  'play.mix': '{key}’s value row, times its weight {w}, is added into the output.',
  'play.none': 'No key is visible to {query}: every weight is 0, and so is the output.',
  'play.zero': 'The scores add up to 0: there is nothing to divide by, so the weights are 0.',
  'play.keys': '← and → go frame by frame; Space plays and pauses.',
};

export type PlayKey = keyof typeof playEn;
export type PlayMessages = Record<PlayKey, string>;
