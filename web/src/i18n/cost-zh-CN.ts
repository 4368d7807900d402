// “计算量”一节的文字（随 cost-view.js 加载）。键与 cost-en.ts 完全相同：缺一个或多一个都无法编译。{name} 是参数，保持原样。
import type { CostMessages } from './cost-en';

export const costZhCN: CostMessages = {
  'cost.run': '开始测量',
  'cost.empty': '尚未测量',
  'cost.progress': '测量进度',
  'cost.running': '正在测量……这期间页面照常可用。',
  'cost.done': '完成。',
  'cost.donePageThread': '完成，最多到 n = {n}：本页是从文件打开的，只能在页面本身中测量。',
  'cost.failed': '测量失败：{message}',
  'cost.timeChart': '一次计算的时间随 n 的变化',
  'cost.memoryChart': '一次计算的内存随 n 的变化',
  'cost.legend':
    '蓝色实线：流式计算（不存 n×n 矩阵）。橙色虚线：完整存下权重。灰色点线：经过最后一个完整矩阵测量点的 n² 曲线。两条坐标轴都是对数刻度。',
  'cost.streaming': '流式',
  'cost.materialized': '完整矩阵',
  'cost.ms': '{ms} 毫秒',
  'cost.mb': '{mb} MB',
  'cost.axisN': 'n（词元数）',
  'cost.numbers': '测得的数字',
  'cost.col.n': 'n',
  'cost.col.timeStreaming': '时间（流式）',
  'cost.col.timeMaterialized': '时间（完整矩阵）',
  'cost.col.memoryStreaming': '内存（流式）',
  'cost.col.memoryMaterialized': '内存（完整矩阵）',
};
