// The animation's own words, in both languages: they come with play.js, not with the page's
// catalogs (the page's first load has a budget, and most readers never press Play).
const WORDS = {
  en: {
    maskHead: 'masked',
    tableLabel: 'Each key’s score, step by step',
    mixLabel: 'Each value row times its weight, and the output',
    title: 'How “{query}” gets its output, step by step',
    frame: 'Frame {k} of {n}',
    back: 'Back',
    next: 'Next',
    play: 'Play',
    pause: 'Pause',
    speed: 'Speed',
    scrub: 'Frame',
    close: 'Close',
    key: 'Key',
    sum: 'Sum',
    output: 'Output so far',
    dot: 'q·k, one feature at a time. {feature} ({t} of {d}): each key adds {query}’s {q} × its own {feature}.',
    dotStride: 'Each key’s q·k, adding up the features: {t} of {d} added.',
    norm: 'Cosine: each q·k divided by the two lengths, |q| = {qn} times |k|.',
    scale: 'Each score divided by {divisor}.',
    mask: 'Keys {query} may not see become −∞: they will get no weight.',
    max: 'The largest score, {max}, taken from each, so that exp cannot overflow: the largest becomes 0.',
    exp: 'exp of each: the largest becomes 1, the others less; −∞ becomes 0.',
    sumExp: 'The exps add up to {sum}.',
    sumScores: 'The scores add up to {sum}.',
    divide: 'Each divided by {sum}: the weights, which add up to 1.',
    mix: '{key}’s value row, times its weight {w}, is added into the output.',
    none: 'No key is visible to {query}: every weight is 0, and so is the output.',
    zero: 'The scores add up to 0: there is nothing to divide by, so the weights are 0.',
    keys: '← and → go frame by frame; Space plays and pauses.',
  },
  'zh-CN': {
    maskHead: '掩码后',
    tableLabel: '每个键的分数，一步一步',
    mixLabel: '每个值向量乘以权重，以及输出',
    title: '“{query}”的输出是怎样一步步算出来的',
    frame: '第 {k} 帧，共 {n} 帧',
    back: '上一帧',
    next: '下一帧',
    play: '播放',
    pause: '暂停',
    speed: '速度',
    scrub: '帧',
    close: '关闭',
    key: '键',
    sum: '总和',
    output: '目前的输出',
    dot: 'q·k，一次一个特征。{feature}（第 {t} 个，共 {d} 个）：每个键加上 {query} 的 {q} × 它自己的{feature}。',
    dotStride: '逐个特征累加每个键的 q·k：已加上 {t} 个，共 {d} 个。',
    norm: '余弦：每个 q·k 除以两个长度，|q| = {qn} 乘以 |k|。',
    scale: '每个分数除以 {divisor}。',
    mask: '{query} 不能看的键变成 −∞：它们不会得到权重。',
    max: '每个分数减去最大的那个 {max}，这样 exp 不会溢出：最大的变成 0。',
    exp: '对每个取 exp：最大的变成 1，其余的更小；−∞ 变成 0。',
    sumExp: '这些 exp 加起来是 {sum}。',
    sumScores: '这些分数加起来是 {sum}。',
    divide: '每个除以 {sum}：得到权重，加起来等于 1。',
    mix: '{key} 的值向量乘以它的权重 {w}，加进输出。',
    none: '{query} 看不到任何键：每个权重都是 0，输出也是 0。',
    zero: '这些分数加起来是 0：没有可除的数，所以权重都是 0。',
    keys: '← 和 → 逐帧移动；空格键播放或暂停。',
  },
} as const;

export type PlayWord = keyof (typeof WORDS)['en'];

/** A word of the animation in `lang` (English for any other), with {name} filled in. */
export function word(lang: string, key: PlayWord, params: Record<string, string | number> = {}): string {
  const table = lang === 'zh-CN' ? WORDS['zh-CN'] : WORDS.en;
  return table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}
