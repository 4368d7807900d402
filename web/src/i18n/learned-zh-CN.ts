// 学到的词向量的文字（随 vectors.js 加载）。键与 learned-en.ts 完全相同：缺一个或多一个都无法编译。{name} 是参数，保持原样。
import type { LearnedMessages } from './learned-en';

export const learnedZhCN: LearnedMessages = {
  'learned.ready': '共 {count} 个英文和中文词，每个词 {dims} 个学到的数。这些数没有名字：一个词的意思，要看它身边的词。',
  'learned.selfMost': '每个词给自己的权重最大：它的向量和自己最像。把自己遮住，就能看出每个词和哪个别的词最像。',
  'learned.hideSelf': '遮住每个词自己',
  'learned.selfHidden': '每个词都遮住了自己（见遮罩这一步），权重就分给了别的词。',
  'learned.showSelf': '不再遮住自己',
  'learned.separator': '、',
  'learned.story':
    '你自己的句子，用从真实文本学到的向量来读。分数是{scores}，{weights}{more}。相似的词彼此关注：词向量衡量的是这个，而不是一个词指代什么——“它”关注的是像“它”的词，而不是它所指的名词。训练过的模型的头能做得更多。',
  'learned.readWithModel': '用训练好的模型读这个句子',
  'learned.scoresDot': '点积',
  'learned.scoresCosine': '余弦',
  'learned.scaleSqrt': '{scores} ÷ √d_k',
  'learned.scaleNone': '{scores}（不缩放）',
  'learned.scaleT': '{scores} ÷ T = {t}',
  'learned.softmax': '再用 softmax 变成权重',
  'learned.sum': '再各自除以该行之和，作为权重',
  'learned.causal': '；每个词只看得到自己和前面的词',
  'learned.custom': '；遮罩遮住了一些词对',
  'learned.heads': '；共 {n} 个头，各有自己的投影',
  'learned.unknownSome':
    '学到的词里没有：{words}。这样的词得到全零向量，和哪个词都不像：它和每个词的分数都是 0，作为查询时给每个词的权重都一样。',
  'learned.unknownAll':
    '这些词都不在学到的词里，所以每个向量都是零，每一行的权重都相等：这里没有可以关注的意思。试试常用的中文或英文词。',
  'learned.unknownList': '? 标出学到的词里没有的词（{words}）：它的向量是全零，可以修改。',
  'learned.unknown': '学到的词里没有这个词：全零向量，可以修改',
  'learned.neighbours': '这些学到的数本身没有名字；“{word}”的意思，看离它最近的词（余弦）：{list}。',
};
