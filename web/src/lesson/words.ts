// The player's own words, in both languages. They come with lesson.js rather than with the page's
// catalogs: most readers never open a lesson, and the page's first load has a budget.
const WORDS = {
  en: {
    label: 'Lesson',
    step: 'Step {k} of {n}',
    back: 'Back',
    next: 'Next',
    done: 'Done',
    summary:
      'You answered {right} of the {n} questions right. Next: watch a model learn these patterns by itself, or explore from here: type your own sentence, pick another example, point at any number.',
    summaryOpen:
      'You answered {right} of the {n} questions right; {open} are still open (their dots are empty). Next: watch a model learn these patterns by itself, or explore from here: type your own sentence, pick another example, point at any number.',
    dot: 'Step {k}',
    progress: 'Steps',
    explore: 'Explore from here',
    learn: 'Now watch a model learn attention',
    resume: 'Back to the lesson (step {k})',
    leave: 'Leave the lesson',
    check: 'Check',
    pickCell: 'Click that cell in the figure (or go to it with the arrow keys and press Enter).',
    yourAnswer: 'Your answer',
    right: 'Right: {answer}.',
    wrong: 'Not quite: it is {answer}. You said {given}.',
    notNumber: 'Type a number, like 6 or 0.5.',
    reveal: 'The explanation of that number is open beside it.',
    tapFor: 'Tap that number in the figure to see how it was computed.',
    answer: 'The answer: {answer}.',
    keys: '← and → move through the steps; Space goes on.',
    cannot: 'The engine could not compute this step, so its question has no answer.',
  },
  'zh-CN': {
    label: '课程',
    step: '第 {k} 步，共 {n} 步',
    back: '上一步',
    next: '下一步',
    done: '完成',
    summary:
      '{n} 个问题你答对了 {right} 个。接下来：看一个模型自己学会这些模式，或者从这里自由探索：输入你自己的句子、换一个例子、指向任意一个数字。',
    summaryOpen:
      '{n} 个问题你答对了 {right} 个，还有 {open} 个没答（它们的圆点是空的）。接下来：看一个模型自己学会这些模式，或者从这里自由探索：输入你自己的句子、换一个例子、指向任意一个数字。',
    dot: '第 {k} 步',
    progress: '步骤',
    explore: '从这里自由探索',
    learn: '接着看一个模型学会注意力',
    resume: '回到课程（第 {k} 步）',
    leave: '退出课程',
    check: '核对',
    pickCell: '在图中点击那个格子（或者用方向键移到它上面，再按回车）。',
    yourAnswer: '你的答案',
    right: '答对了：{answer}。',
    wrong: '不太对：答案是 {answer}，你的答案是 {given}。',
    notNumber: '请输入一个数，比如 6 或 0.5。',
    reveal: '这个数的计算过程已在它旁边打开。',
    tapFor: '点一下图中的这个数，就能看到它是怎么算出来的。',
    answer: '答案：{answer}。',
    keys: '← 和 → 在步骤间移动；空格键继续。',
    cannot: '引擎算不出这一步，所以这个问题没有答案。',
  },
} as const;

export type WordKey = keyof (typeof WORDS)['en'];

/** A word of the player in `lang` (English for any other), with {name} filled in. */
export function say(lang: string, key: WordKey, params: Record<string, string | number> = {}): string {
  const table = lang === 'zh-CN' ? WORDS['zh-CN'] : WORDS.en;
  return table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** A lesson's own text in `lang`. */
export function pick(words: { en: string; 'zh-CN': string }, lang: string): string {
  return lang === 'zh-CN' ? words['zh-CN'] : words.en;
}
