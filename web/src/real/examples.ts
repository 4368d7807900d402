// The sentences the view offers, in both languages whatever the page's: the model reads both.
// Each shows something the heads do: a famous line it can complete, a name that comes back (an
// induction head finds the earlier copy), and a poem's couplet. The page's own language opens on
// its catalog's example (real.example).

export const EXAMPLES: readonly { lang: string; text: string }[] = [
  { lang: 'en', text: 'In the beginning God created the heavens and the earth. And the earth was' },
  { lang: 'en', text: 'Captain Ahab stood on the deck of the Pequod. Then Captain' },
  { lang: 'zh-CN', text: '白日依山尽，黄河入海流。欲穷千里目，' },
  { lang: 'zh-CN', text: '床前明月光，疑是地上霜。举头望明月，' },
];
