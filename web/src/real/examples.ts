// The sentences the view offers, in both languages whatever the page's: the model reads both.
// A famous line in each language the model has read, to complete, and in each a text where
// something comes back (a name, a character of the poem), which a model that copies from its
// context would predict. The page's own language opens on its catalog's example (real.example).

export const EXAMPLES: readonly { lang: string; text: string }[] = [
  { lang: 'en', text: 'In the beginning God created the heavens and the earth. And the earth was' },
  { lang: 'en', text: 'Mr. and Mrs. Dursley had a nephew, Harry Potter. Harry' },
  { lang: 'zh-CN', text: '白日依山尽，黄河入海流。欲穷千里目，' },
  { lang: 'zh-CN', text: '床前明月光，疑是地上霜。举头望明月，' },
];
