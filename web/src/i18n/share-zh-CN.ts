// 分享对话框的文字（随 share.js 加载）。键与 share-en.ts 完全相同：缺一个或多一个都无法编译。{name} 是参数，保持原样。
import type { ShareMessages } from './share-en';

export const shareZhCN: ShareMessages = {
  'share.title': '分享这张图',
  'share.link': '链接（打开后与现在完全相同）',
  'share.iframe': '用 iframe 嵌入（粘贴到文章的 HTML 中）',
  'share.component': '作为 Web 组件嵌入',
  'share.hugo': 'Hugo 短代码（短代码文件见 README）',
  'share.image': '带链接的图片（Markdown）',
  'share.imageHint': 'Medium、CSDN 和知乎不支持 iframe：下载 PNG，随文章上传，并链接到演示页面。',
  'share.png': '下载 PNG',
  'share.fileHint':
    '这个页面是从本地文件打开的：它的链接只在这台电脑上有效，嵌入则需要把演示的文件放到网站上。请把 dist 文件夹放到你的网站，再把代码片段中的 https://your-site.example/attention-playground/ 换成它的地址（README 里有步骤）。',
  'share.embedTitle': '嵌入文章',
  'share.views': '显示哪些步骤',
  'share.viewFormula': '公式',
  'share.viewPipeline': '一个查询，逐步计算',
  'share.controls': '读者可以改什么',
  'share.controls.none': '什么都不能改',
  'share.controls.minimal': '句子，并附上这个例子的说明',
  'share.controls.all': '输入和设置',
  'share.theme': '配色',
  'share.theme.auto': '跟随读者的系统',
  'share.theme.light': '浅色',
  'share.theme.dark': '深色',
  'share.height': '高度（像素）',
  'share.heightHint': '加载完成前、以及宿主页面不运行脚本时的高度；加载后会随内容自动变高。',
  'share.heightBad': '高度必须是 {min} 到 {max} 之间的整数；代码片段仍使用 {kept}。',
  'share.preview': '预览',
  'share.copy': '复制',
  'share.copied': '已复制。',
  'share.tooLong':
    '这个图太大，无法放进链接（{length} 个字符；链接最多 {max} 个）。它已保存在这个浏览器里；要分享，请导出其中的数字。',
  'share.close': '关闭',
};
