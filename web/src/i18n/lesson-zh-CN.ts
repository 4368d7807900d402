// 课程播放器的文字（随 lesson.js 加载）。键与 lesson-en.ts 完全相同：缺一个或多一个都无法编译。{name} 是参数，保持原样。
import type { LessonMessages } from './lesson-en';

export const lessonZhCN: LessonMessages = {
  'lesson.label': '课程',
  'lesson.step': '第 {k} 步，共 {n} 步',
  'lesson.back': '上一步',
  'lesson.next': '下一步',
  'lesson.done': '完成',
  'lesson.summary':
    '{n} 个问题你答对了 {right} 个。接下来：看一个模型自己学会这些模式，或者从这里自由探索：输入你自己的句子、换一个例子、指向任意一个数字。',
  'lesson.summaryOpen':
    '{n} 个问题你答对了 {right} 个，还有 {open} 个没答（它们的圆点是空的）。接下来：看一个模型自己学会这些模式，或者从这里自由探索：输入你自己的句子、换一个例子、指向任意一个数字。',
  'lesson.dot': '第 {k} 步',
  'lesson.progress': '步骤',
  'lesson.explore': '从这里自由探索',
  'lesson.learn': '接着看一个模型学会注意力',
  'lesson.resume': '回到课程（第 {k} 步）',
  'lesson.leave': '退出课程',
  'lesson.check': '核对',
  'lesson.pickCell': '在图中点击那个格子（或者用方向键移到它上面，再按回车）。',
  'lesson.yourAnswer': '你的答案',
  'lesson.right': '答对了：{answer}。',
  'lesson.wrong': '不太对：答案是 {answer}，你的答案是 {given}。',
  'lesson.notNumber': '请输入一个数，比如 6 或 0.5。',
  'lesson.reveal': '这个数的计算过程已在它旁边打开。',
  'lesson.tapFor': '点一下图中的这个数，就能看到它是怎么算出来的。',
  'lesson.answer': '答案：{answer}。',
  'lesson.keys': '← 和 → 在步骤间移动；空格键继续。',
  'lesson.cannot': '引擎算不出这一步，所以这个问题没有答案。',
};
