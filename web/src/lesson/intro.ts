// "Attention from scratch": the article's ideas in its order, each step a state of the playground
// and, where the reader can work the number out first, a question the engine answers.
import type { Lesson } from './schema';

export const intro: Lesson = {
  id: 'intro',
  title: { en: 'Attention from scratch', 'zh-CN': '从零理解注意力' },
  steps: [
    {
      state: 'ver=2&preset=painting',
      focus: { step: 'pipeline', row: 0, col: 0 },
      text: {
        en: 'Attention is a budget. When you look at a painting you cannot take in every part at once, so the parts share your attention. Here five parts are scored by how much they draw the eye: person 80, mountain 60, flower 50, bird 30, ribbon 10.',
        'zh-CN':
          '注意力是一笔有限的预算。看一幅画时，我们没法同时看清每个部分，于是各部分分享我们的注意力。这里给画中的五个部分打了分，表示它们有多吸引目光：人 80、山 60、花 50、鸟 30、绸带 10。',
      },
      predict: {
        kind: 'token',
        row: 0,
        question: {
          en: 'With no condition, which part gets the largest share?',
          'zh-CN': '没有任何条件时，哪个部分分到的注意力最多？',
        },
      },
    },
    {
      state: 'ver=2&preset=painting',
      focus: { step: 'pipeline', row: 1, col: 3 },
      text: {
        en: 'A question changes where we look. Ask about “flying”, and the parts are scored again by how much they have to do with flying: person 20, mountain 30, flower 10, bird 100, ribbon 10. The question is the query.',
        'zh-CN':
          '带着问题看，目光就会改变。问“飞行”，各部分按与飞行有多相关重新打分：人 20、山 30、花 10、鸟 100、绸带 10。这个问题就是查询（query）。',
      },
      predict: {
        kind: 'token',
        row: 1,
        question: {
          en: 'Asked about “flying”, which part takes most of the attention?',
          'zh-CN': '问“飞行”时，哪个部分拿走了大部分注意力？',
        },
      },
    },
    {
      state: 'ver=2&preset=painting',
      focus: { step: 'formula' },
      text: {
        en: 'That is the whole formula. Q holds the queries (“no condition”, “flying”), K one key per part, and V what each part contributes. Q·Kᵀ scores every part for every query, the scores are scaled, softmax turns each row into shares that add up to 1, and the shares mix the rows of V.',
        'zh-CN':
          '这就是整个公式。Q 是查询（“无条件”“飞行”），K 是每个部分的键，V 是每个部分贡献的内容。Q·Kᵀ 为每个查询给每个部分打分，分数经过缩放，softmax 把每一行变成加起来为 1 的份额，再用这些份额把 V 的各行混合起来。',
      },
    },
    {
      state: 'ver=2&preset=painting',
      focus: { step: 'pipeline', row: 1, col: 3 },
      play: { frame: 1 },
      text: {
        en: 'Now watch the formula work on one row, “flying”. Press Play, or go with Next: each part’s score adds up feature by feature, is divided by T, the largest is taken off, exp makes every share positive, the shares are divided by their sum, and each part’s value joins the output by its share.',
        'zh-CN':
          '现在看公式在一行“飞行”上是怎样工作的。按播放，或者用“下一帧”：每个部分的分数逐个特征累加，再除以 T，减去最大的那个，exp 让每个份额都变成正数，份额除以它们的总和，最后每个部分的值按份额加进输出。',
      },
    },
    {
      state: 'ver=2&preset=painting',
      focus: { step: 'scores', row: 1, col: 3 },
      text: {
        en: 'A score is a dot product: multiply the query and the key feature by feature and add. “flying” is (0, 1): it ignores how much a part draws the eye and keeps only how much it has to do with flying.',
        'zh-CN': '分数是点积：把查询和键逐个特征相乘再相加。“飞行”是 (0, 1)：它不看一个部分有多吸引目光，只看它与飞行有多相关。',
      },
      predict: {
        kind: 'number',
        step: 'scores',
        row: 1,
        col: 3,
        question: {
          en: 'The bird’s key is (30, 100). What is its score for “flying”?',
          'zh-CN': '鸟的键是 (30, 100)。它在“飞行”下的分数是多少？',
        },
      },
    },
    {
      state: 'ver=2&preset=painting',
      focus: { step: 'scaled', row: 1, col: 3 },
      text: {
        en: 'Before softmax the scores are divided, here by a temperature T = 20. A smaller T makes the largest score win more clearly; a larger T spreads the shares out. Try the slider when you explore.',
        'zh-CN':
          '进入 softmax 之前，分数要先除以一个数，这里是温度 T = 20。T 越小，最大的分数赢得越明显；T 越大，份额越分散。自由探索时可以拖动滑块试试。',
      },
      predict: {
        kind: 'number',
        step: 'scaled',
        row: 1,
        col: 3,
        question: {
          en: 'The bird’s score is 100. What is it after ÷ T = 20?',
          'zh-CN': '鸟的分数是 100，除以 T = 20 之后是多少？',
        },
      },
    },
    {
      state: 'ver=2&preset=fruit&compare=off',
      focus: { step: 'scores', row: 0, col: 1 },
      text: {
        en: 'Words work the same way. Give each word three features (colour, fruit, tech): apple (1, 2, 1), orange (2, 2, 0), iPhone (0, 2, 3). How alike two words are is again a dot product.',
        'zh-CN':
          '词语也一样。给每个词三个特征（颜色、水果、科技）：苹果 (1, 2, 1)、橘子 (2, 2, 0)、iPhone (0, 2, 3)。两个词有多相似，同样用点积来算。',
      },
      predict: {
        kind: 'number',
        step: 'scores',
        row: 0,
        col: 1,
        question: { en: 'apple·orange = 1×2 + 2×2 + 1×0 = ?', 'zh-CN': '苹果·橘子 = 1×2 + 2×2 + 1×0 = ?' },
      },
    },
    {
      state: 'ver=2&preset=fruit&compare=off',
      focus: { step: 'pipeline', row: 0, col: 2 },
      text: {
        en: 'The dot product also grows with length. iPhone’s vector is long, and apple·iPhone = 0 + 4 + 3 = 7 is more than apple·orange = 6.',
        'zh-CN': '点积还会随向量变长而变大。iPhone 的向量很长，苹果·iPhone = 0 + 4 + 3 = 7，比苹果·橘子 = 6 还大。',
      },
      predict: {
        kind: 'token',
        row: 0,
        question: {
          en: 'By dot product, which word does apple give the most weight?',
          'zh-CN': '按点积，苹果把最多的权重给了哪个词？',
        },
      },
    },
    {
      state: 'ver=2&preset=fruit',
      focus: { step: 'pipeline', row: 0, col: 1, side: 'b' },
      text: {
        en: 'Cosine similarity divides by both lengths, so only the direction counts: orange (0.87) now comes before iPhone (0.79). When every vector has length 1, the two measures agree.',
        'zh-CN':
          '余弦相似度除以两个向量的长度，只看方向：这时橘子（0.87）排在 iPhone（0.79）前面。如果所有向量长度都是 1，两种算法的结果一致。',
      },
      predict: {
        kind: 'slider',
        step: 'weights',
        row: 0,
        col: 1,
        side: 'b',
        min: 0,
        max: 1,
        question: {
          en: 'By cosine, how much of apple’s attention goes to orange? Set the slider.',
          'zh-CN': '按余弦算，苹果的注意力有多少给了橘子？拖动滑块。',
        },
      },
    },
    {
      state: 'ver=2&preset=fruit&compare=off',
      focus: { step: 'scores', row: 2, col: 0 },
      text: {
        en: 'QKᵀ is every dot product at once: row i, column j is query i times key j. Kᵀ turns the keys into columns, so that the shapes fit a matrix product.',
        'zh-CN': 'QKᵀ 一次算出所有的点积：第 i 行第 j 列是第 i 个查询乘第 j 个键。Kᵀ 把键变成列，矩阵乘法的形状才对得上。',
      },
      predict: {
        kind: 'cell',
        step: 'scores',
        question: {
          en: 'Which pair of words has the largest dot product of all? Find its cell in the Similarity QKᵀ map.',
          'zh-CN': '哪一对词的点积最大？在“相似度 QKᵀ”图里找到它的格子。',
        },
      },
    },
    {
      state: 'ver=2&preset=softmax',
      focus: { step: 'weights' },
      text: {
        en: 'Why softmax and not just dividing by the row’s sum? Similarities can be negative: a row can add up to 0, and then there is nothing to divide by. e to the power of a score is always positive, so softmax always gives shares.',
        'zh-CN':
          '为什么用 softmax，而不是直接除以这一行的和？相似度可能是负数：一行加起来可能是 0，这时就没法除了。e 的分数次方总是正数，所以 softmax 总能给出份额。',
      },
    },
    {
      state: 'ver=2&preset=painting',
      focus: { step: 'output', row: 1 },
      play: { frame: 8 },
      text: {
        en: 'The weights then mix the values: each output row is the weighted average of the rows of V. “flying” gives the bird 0.93, so its output is almost the bird’s value. Step through the animation to see each part’s value row join the output.',
        'zh-CN':
          '接着，权重把值混合起来：每个输出行都是 V 各行的加权平均。“飞行”给了鸟 0.93，所以它的输出几乎就是鸟的值。逐帧看动画，看每个部分的值怎样加进输出。',
      },
    },
    {
      state: 'ver=2&preset=causal',
      focus: { step: 'pipeline', row: 0, col: 0 },
      text: {
        en: 'A language model writing a sentence may not look ahead: the causal mask hides every later word (its score becomes −∞, its weight 0).',
        'zh-CN': '语言模型写句子时不能偷看后面的词：因果掩码把后面的词都遮住（分数变成 −∞，权重变成 0）。',
      },
      predict: {
        kind: 'token',
        row: 0,
        question: { en: 'Under the causal mask, where can the first word look?', 'zh-CN': '在因果掩码下，第一个词能看向哪里？' },
      },
    },
    {
      state: 'ver=2&preset=causal',
      focus: { step: 'plot' },
      text: {
        en: 'Each output is a point: a word moves from its value to the mix of what it attends to. Under the mask, each word moves towards the words before it.',
        'zh-CN': '每个输出都是一个点：一个词从它的值移动到它所关注内容的混合。在掩码下，每个词都向它前面的词移动。',
      },
    },
    {
      state: 'ver=2&preset=sqrtdk',
      focus: { step: 'pipeline' },
      text: {
        en: 'Why divide by √d_k? A dot product of d_k features grows like √d_k. At d_k = 512 the unscaled scores are so far apart that softmax puts all the weight on one word; divided by √d_k they stay spread.',
        'zh-CN':
          '为什么要除以 √d_k？d_k 个特征的点积大约按 √d_k 增长。d_k = 512 时，不缩放的分数相差太大，softmax 把全部权重给了一个词；除以 √d_k 后，权重仍然分散。',
      },
    },
    {
      state: 'ver=2&preset=multihead',
      focus: { step: 'weights' },
      text: {
        en: 'A transformer runs several heads side by side, each with its own projections of the words, so each looks for something else. That is the whole idea; now explore it with your own words.',
        'zh-CN':
          'Transformer 同时运行好几个头，每个头对词语有自己的投影，所以各自寻找不同的东西。整个思路就是这些；现在用你自己的句子去探索吧。',
      },
    },
  ],
};
