// 学到的词向量的文字（随 vectors.js 加载）。键与 learned-en.ts 完全相同：缺一个或多一个都无法编译。{name} 是参数，保持原样。
import type { LearnedMessages } from './learned-en';

export const learnedZhCN: LearnedMessages = {
  'learned.ready': '共 {count} 个英文和中文词，每个词 {dims} 个学到的数。这些数没有名字：一个词的意思，要看它身边的词。',
  'learned.selfMost': '每个词给自己的权重最大：它的向量和自己最像。把自己遮住，就能看出每个词和哪个别的词最像。',
  'learned.hideSelf': '遮住每个词自己',
  'learned.selfHidden': '每个词都遮住了自己（见遮罩这一步），权重就分给了别的词。',
  'learned.showSelf': '不再遮住自己',
  'learned.separator': '、',
  'learned.neighbours': '这些学到的数本身没有名字；“{word}”的意思，看离它最近的词（余弦）：{list}。',
};
