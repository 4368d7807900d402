// The Learn view's words, in both languages. They come with learn.js rather than with the page's
// catalogs: most readers never open it, and the page's first load has a budget.
import type { TaskName } from './tasks';

const WORDS = {
  en: {
    title: 'Learn: watch attention form',
    intro:
      'A tiny transformer trains here, in your browser, on a toy task. Press Train and watch its heads find the pattern that solves it.',
    close: 'Back to the playground',
    task: 'Task',
    example: 'Example: {example}',
    expect: 'Pattern to expect: {pattern}',
    size: 'Model',
    layers: 'Layers',
    heads: 'Heads per layer',
    dModel: 'Width (d_model)',
    mlp: 'MLP after attention',
    rate: 'Learning rate',
    seed: 'Seed',
    train: 'Train',
    pause: 'Pause',
    step: 'Step',
    reset: 'Reset',
    steps: 'Step {n}',
    speed: '{n} steps/s',
    parameters: '{n} weights',
    loss: 'Loss',
    accuracy: 'Accuracy',
    curves: 'Training so far',
    lossCurve: 'Loss (training batches) by step',
    chance: 'guessing: ln {n} = {v}',
    meanings:
      'Loss: how surprised the model is by each right answer (cross-entropy); guessing evenly among the {n} tokens gives ln {n} = {v}, a sure right answer 0. Accuracy: the share of answer positions in held-out sequences (never trained on) where its likeliest token is right. Pattern score: the mean weight a head puts where the task’s pattern says, 0 to 1; from 0.5 on, the head has taken its pattern.',
    accuracyCurve: 'Held-out accuracy by step',
    tableCaption: 'Loss and accuracy at each update',
    tableNote: 'A row’s loss is the mean of the training steps since the row before; its accuracy is on held-out sequences.',
    tableStep: 'Step',
    firstLoss: 'First loss: {loss}',
    target: 'Target: {target} held-out accuracy.',
    reached: 'Reached {target} at step {step}.',
    reachedStopped: 'Reached {target} at step {step}: the task is learned, so training stopped there.',
    trainOn: 'Train on',
    headsTitle: 'Attention on one sequence',
    headsNote: 'Each row is a position, reading the earlier ones; darker is more weight.',
    head: 'Layer {layer}, head {head}',
    score: 'pattern score {score}',
    starting: 'Loading the trainer…',
    inPage:
      'Training runs on this page itself, in short bursts: a page opened from a file, or framed in a sandbox, cannot start the background worker it would use.',
    failed: 'The trainer could not start: {message}',
    diverged: 'Training stopped: {message} Lower the learning rate and press Reset.',
    breakName: 'Break layer {layer}, head {head}',
    breakHint: 'Press a head to break it: its output becomes zero, and the accuracy is measured without it.',
    breaking: 'Measuring the model without {heads}…',
    without: 'Without {heads}: {without} accuracy. With every head: {with}.',
    timeline: 'Timeline',
    timelineNote:
      'Snapshots of the heads every 5 steps (every 10, 20, … in longer runs; at most 201 are kept, and always the step each head took its pattern). Drag back to watch a pattern form.',
    timelineLive: 'Step {n}, as it is now',
    timelineAt: 'Showing step {n}',
    replay: 'Replay',
    formed: 'Layer {layer}, head {head} took its pattern (score ≥ 0.5) at step {step}.',
    formedSee: 'See that step',
    share: 'Link with weights',
    loaded: 'This model came with the link: trained for {n} steps, its heads as they were. Train on, or try your own sequence.',
    loadFailed: 'The model in the link could not be read ({message}). Training this seed’s model to step {n} instead.',
    weightsCut: 'its text is cut short: the last letter does not make a whole byte',
    retraining: 'Training to step {n}, as the link says: the same seed gives the same model.',
    shared:
      'The page’s address now holds this model at step {n} ({kb} KB of text): copy it to share the trained heads; it opens without training.',
    tooLarge:
      'This model is {kb} KB as text, more than a link holds ({max} KB). The address still trains it again to step {n} from its seed.',
    tryTitle: 'Try your own sequence',
    tryNote:
      'Type this task’s tokens, separated by spaces. The model, as trained so far, predicts the next token after each one.',
    tryLabel: 'Your sequence',
    tryRun: 'Run it',
    tryDropped:
      '“·” only separates the painting from its query, as in the task’s example: it is no token, so the model reads the sequence without it.',
    tryUnasked:
      'Dashed: a position where the task asks nothing. The model was never trained to predict there, so a confident guess there means nothing.',
    tryEmpty: 'Type at least one token.',
    tryUnknown: '“{token}” (token {k}) is not one of this task’s tokens: {tokens}.',
    tryTooLong: 'At most {n} tokens (this has {given}): the model was trained on sequences that long.',
    tryAnswer: 'After “{last}” the model says “{next}” ({p} sure).',
    tryPredicts: 'Next token after each position, at step {n}',
    tryHeads: 'Its heads on your sequence',
    tryOpenNote:
      'Press a head to open its Q, K and V in the playground below: the same steps, with learned numbers, and each number explains itself.',
    tryOpen: 'Open layer {layer}, head {head} in the playground',
    tryOpened: 'Layer {layer}, head {head} at step {n} is in the playground below.',
  },
  'zh-CN': {
    title: '学习：看注意力如何形成',
    intro: '一个很小的 Transformer 就在你的浏览器里学习一个小任务。按“训练”，看它的各个头如何找到解题的模式。',
    close: '回到演示',
    task: '任务',
    example: '例子：{example}',
    expect: '应出现的模式：{pattern}',
    size: '模型',
    layers: '层数',
    heads: '每层的头数',
    dModel: '宽度（d_model）',
    mlp: '注意力后加 MLP',
    rate: '学习率',
    seed: '随机种子',
    train: '训练',
    pause: '暂停',
    step: '单步',
    reset: '重置',
    steps: '第 {n} 步',
    speed: '每秒 {n} 步',
    parameters: '{n} 个权重',
    loss: '损失',
    accuracy: '准确率',
    curves: '训练至今',
    lossCurve: '各步的损失（训练批次）',
    chance: '瞎猜：ln {n} = {v}',
    meanings:
      '损失：模型对每个正确答案有多“意外”（交叉熵）；在 {n} 个词元里平均瞎猜是 ln {n} = {v}，完全确定地答对是 0。准确率：在留出序列（从未用来训练）的答案位置上，模型最可能的词元答对的比例。模式分数：一个头放在任务模式所指位置上的平均权重，0 到 1；到 0.5 就算这个头形成了它的模式。',
    accuracyCurve: '各步的留出集准确率',
    tableCaption: '每次更新时的损失和准确率',
    tableNote: '每一行的损失是自上一行以来各训练步的平均值；准确率是在留出序列上测得的。',
    tableStep: '步数',
    firstLoss: '第一步的损失：{loss}',
    target: '目标：留出集准确率 {target}。',
    reached: '在第 {step} 步达到 {target}。',
    reachedStopped: '在第 {step} 步达到 {target}：任务已经学会，训练在这一步停下。',
    trainOn: '继续训练',
    headsTitle: '一个序列上的注意力',
    headsNote: '每一行是一个位置，它读前面的位置；颜色越深，权重越大。',
    head: '第 {layer} 层，第 {head} 个头',
    score: '模式得分 {score}',
    starting: '正在加载训练器…',
    inPage: '训练就在这个页面里分小段进行：从文件打开的页面或放在沙盒框架里的页面，无法启动平常使用的后台 worker。',
    failed: '训练器无法启动：{message}',
    diverged: '训练停止：{message} 请调低学习率，再按“重置”。',
    breakName: '破坏第 {layer} 层第 {head} 个头',
    breakHint: '点一个头就能破坏它：它的输出变成零，再测一次没有它时的准确率。',
    breaking: '正在测量没有{heads}的模型…',
    without: '没有{heads}：准确率 {without}。所有头都在时：{with}。',
    timeline: '时间线',
    timelineNote:
      '每 5 步保存一次各个头的快照（训练更久时改为每 10、20… 步；最多保留 201 个，并总是保留每个头形成模式的那一步）。往回拖，看模式如何形成。',
    timelineLive: '第 {n} 步，当前的模型',
    timelineAt: '正在显示第 {n} 步',
    replay: '重放',
    formed: '第 {layer} 层第 {head} 个头在第 {step} 步形成了它的模式（得分 ≥ 0.5）。',
    formedSee: '看那一步',
    share: '带权重的链接',
    loaded: '这个模型随链接而来：已训练 {n} 步，各个头保持原样。可以继续训练，或试试你自己的序列。',
    loadFailed: '无法读取链接中的模型（{message}）。改为把这个种子的模型训练到第 {n} 步。',
    weightsCut: '它的文本被截断了：最后一个字母凑不成一个完整的字节',
    retraining: '按链接所说训练到第 {n} 步：同一个种子得到同一个模型。',
    shared: '页面地址现在包含第 {n} 步的这个模型（{kb} KB 文本）：复制地址即可分享训练好的头；打开时无需训练。',
    tooLarge: '这个模型写成文本有 {kb} KB，超过链接能容纳的 {max} KB。地址仍会从种子重新训练到第 {n} 步。',
    tryTitle: '试试你自己的序列',
    tryNote: '输入这个任务的词元，用空格隔开。模型按目前学到的，预测每个位置之后的下一个词元。',
    tryLabel: '你的序列',
    tryRun: '运行',
    tryDropped: '“·”只是把画和查询隔开，和任务的例子一样：它不是词元，模型读的序列里没有它。',
    tryUnasked: '虚线框：任务在这个位置什么也不问。模型从没被训练在这里预测，所以这里再有把握的猜测也没有意义。',
    tryEmpty: '请至少输入一个词元。',
    tryUnknown: '“{token}”（第 {k} 个词元）不是这个任务的词元：{tokens}。',
    tryTooLong: '最多 {n} 个词元（这里有 {given} 个）：模型是用这么长的序列训练的。',
    tryAnswer: '在“{last}”之后，模型说“{next}”（把握 {p}）。',
    tryPredicts: '第 {n} 步时，每个位置之后的下一个词元',
    tryHeads: '它的各个头在你的序列上',
    tryOpenNote: '点一个头，就在下方的演示里打开它的 Q、K、V：同样的步骤，用学到的数字，每个数字都能解释自己。',
    tryOpen: '在演示中打开第 {layer} 层第 {head} 个头',
    tryOpened: '第 {n} 步时第 {layer} 层第 {head} 个头已在下方的演示中。',
  },
} as const;

export type WordKey = keyof (typeof WORDS)['en'];

/** A word of the view in `lang` (English for any other), with {name} filled in. */
export function say(lang: string, key: WordKey, params: Record<string, string | number> = {}): string {
  const table = lang === 'zh-CN' ? WORDS['zh-CN'] : WORDS.en;
  return table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

interface TaskWords {
  name: string;
  sentence: string;
  example: string;
  pattern: string;
}

const TASK_WORDS: Record<'en' | 'zh-CN', Record<TaskName, TaskWords>> = {
  en: {
    find_match: {
      name: 'Find the match',
      sentence: 'A painting of a few things, then a word: name the thing the word fits.',
      example: 'mountain flower person bird · flying → bird',
      pattern: 'the query word puts its weight on the matching thing.',
    },
    copy: {
      name: 'Copy',
      sentence: 'After the bar, write the digits again in the same order.',
      example: '3 1 4 1 5 | 3 1 4 1 5',
      pattern: 'a diagonal: each answer reads the digit five places back.',
    },
    reverse: {
      name: 'Reverse',
      sentence: 'After the bar, write the digits backwards.',
      example: '3 1 4 1 5 | 5 1 4 1 3',
      pattern: 'an anti-diagonal: the first answer reads the last digit, and so on.',
    },
    sort: {
      name: 'Sort',
      sentence: 'After the bar, write the digits from smallest to largest.',
      example: '2 0 1 2 0 1 | 0 0 1 1 2 2',
      pattern: 'each answer reads the digits equal to it.',
    },
    induction: {
      name: 'Induction',
      sentence: 'Symbols come round again: predict what followed each one the first time.',
      example: 'A B C D E F G H I J A B C … → D',
      pattern: 'layer 1 reads the previous position; layer 2 reads the place after the earlier copy.',
    },
  },
  'zh-CN': {
    find_match: {
      name: '找匹配',
      sentence: '先是画里的几样东西，再是一个词：说出与这个词相符的那样东西。',
      example: '山 花 人 鸟 · 会飞的 → 鸟',
      pattern: '查询词把权重放在相符的那样东西上。',
    },
    copy: {
      name: '复制',
      sentence: '在竖线之后，按原来的顺序再写一遍这些数字。',
      example: '3 1 4 1 5 | 3 1 4 1 5',
      pattern: '一条对角线：每个答案读五个位置之前的数字。',
    },
    reverse: {
      name: '倒序',
      sentence: '在竖线之后，把这些数字倒过来写。',
      example: '3 1 4 1 5 | 5 1 4 1 3',
      pattern: '一条反对角线：第一个答案读最后一个数字，依此类推。',
    },
    sort: {
      name: '排序',
      sentence: '在竖线之后，把这些数字从小到大写出来。',
      example: '2 0 1 2 0 1 | 0 0 1 1 2 2',
      pattern: '每个答案读与它相等的那些数字。',
    },
    induction: {
      name: '归纳',
      sentence: '符号会再次出现：预测每个符号第一次出现时后面跟着什么。',
      example: 'A B C D E F G H I J A B C … → D',
      pattern: '第 1 层读前一个位置；第 2 层读先前那次出现之后的位置。',
    },
  },
};

export function taskWords(lang: string, task: TaskName): TaskWords {
  return TASK_WORDS[lang === 'zh-CN' ? 'zh-CN' : 'en'][task];
}

/** The painting's words in Chinese; every other token (digits, letters, the bar) reads the same. */
const ZH_TOKENS: Record<string, string> = {
  bird: '鸟',
  kite: '风筝',
  butterfly: '蝴蝶',
  mountain: '山',
  tree: '树',
  tower: '塔',
  flower: '花',
  ribbon: '丝带',
  rainbow: '彩虹',
  person: '人',
  dog: '狗',
  horse: '马',
  sun: '太阳',
  moon: '月亮',
  lamp: '灯',
  flying: '会飞的',
  tall: '高的',
  colourful: '彩色的',
  walking: '会走的',
  shining: '发光的',
};

/** A trainer's token as the page's language writes it. */
export function tokenWord(lang: string, token: string): string {
  return (lang === 'zh-CN' && ZH_TOKENS[token]) || token;
}
