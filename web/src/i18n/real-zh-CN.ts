// “真实模型”视图的文字（随 real.js 加载）。键与 real-en.ts 完全相同：缺一个或多一个都无法编译。{name} 是参数，保持原样。
import type { RealMessages } from './real-en';

export const realZhCN: RealMessages = {
  'real.title': '真实模型：一个小 GPT 读你的句子',
  'real.intro':
    '这是为本页训练的语言模型（{layers} 层，每层 {heads} 个头，共 {size}），读过英文（《圣经》《白鲸》、美国总统的国情咨文）和中国古典诗词。它只懂读过的文字，所以接在现代汉语后面，它猜的字也带着古诗词的味道。它把你的句子切成词元，每个头在词元之间分配注意力，再猜下一个词元。点一个头，就能在下方的演示里打开它学到的 Q、K、V。',
  'real.ownOpen': '打开你自己的模型…',
  'real.ownNote':
    '任何 GPT-2 系列的检查点，从你的磁盘读取：它的 .safetensors 文件，加上 tokenizer.json（或 vocab.json 和 merges.txt）和 config.json。一起选中，或把它们拖到本页的任何地方。不会上传任何东西：文件就在你的浏览器里读取。',
  'real.ownDrop': '松开鼠标，打开这些模型文件',
  'real.ownReading': '正在读 {name}：{loaded} / {total}',
  'real.ownAsking': '正在请求 {name}：它的服务器还没有回应。',
  'real.ownMeasuring': '正在用重复的随机词元测量 {name} 的每个头…',
  'real.ownCancel': '停止',
  'real.ownBack': '回到本页的模型',
  'real.ownNoModel': '这些文件里没有模型：请把它的 .safetensors 文件一起选上。',
  'real.ownTwoModels': '一次只能打开一个模型：{names} 不止一个。',
  'real.ownUnknown':
    '本页不知道 {names} 是做什么用的：模型由 .safetensors 文件、tokenizer.json（或 vocab.json 和 merges.txt）和 config.json 组成。',
  'real.ownRefused': '这个模型没有打开，之前的模型还在：{reason}',
  'real.ownTooLarge': '打开这个模型需要 {need} 内存，本页只能提供 {free}：没有读取它。之前的模型还在。',
  'real.ownCancelled': '已停止。之前的模型还在。',
  'real.ownIntro':
    '你自己的模型 {name}：{layers} 层，每层 {heads} 个头，宽度 {width}，共 {size}，在你的浏览器里读取和运行。点一个头，就能在下方的演示里打开它的 Q、K、V。',
  'real.ownOffer': '这个图要用来自 {host} 的模型：{name}，{size}。只有你要求时才下载，并在你的浏览器里读取。',
  'real.ownSizeUnknown': '大小服务器没有说明',
  'real.ownSizeLater': '大小要等你加载时才向那个网站询问',
  'real.ownLoad': '加载那个模型',
  'real.close': '回到演示',
  'real.sentence': '给模型读的句子',
  'real.read': '读',
  'real.example': '白日依山尽，黄河入海流。欲穷千里目，',
  'real.examples': '例句',
  'real.loading': '正在加载模型…',
  'real.reading': '模型正在读…',
  'real.loadFailed': '模型没能加载：{reason}。',
  'real.fromFile':
    '这个页面是从文件打开的，文件里没有本页自己的模型。请用上面的“打开你自己的模型…”从磁盘打开一个：任何 GPT-2 系列的检查点都行，也可以是本页自己的 model.safetensors，它在网站上 index.html 的旁边。',
  'real.openFailed': '模型文件已损坏，已拒绝读取：{reason}',
  'real.runFailed': '模型读不了这段文字：{reason}',
  'real.noSuchHead':
    '链接要打开第 {layer} 层的第 {head} 个头，但这个模型只有 {layers} 层、每层 {heads} 个头，所以没有打开任何头。点下面的一个头来打开它。',
  'real.empty': '请输入一个句子，或选一个例句：模型需要有文字可读。',
  'real.tokens': '模型读到的 {n} 个词元',
  'real.tokensNote':
    '先是 <|endoftext|>（每段文字都从它开始），然后是你的文字，切成模型认识的片段。每个词元下面是它的“意外程度”（比特）：模型觉得它出现在这里有多不可能。',
  'real.start': '开头',
  'real.bits': '{bits} 比特',
  'real.partial': '分词器没有对应词元的字符中的一个字节',
  'real.partialNote': '其中 {n} 个（虚线框）是分词器不认识的字符的字节：模型逐字节地读它们。',
  'real.dropped': '你的文字超过了模型 {context} 个词元的上下文：它只读最后 {kept} 个，前面 {dropped} 个被略去。',
  'real.droppedWindow':
    '你的文字超过了本页为这个模型展示的 {window} 个词元（每个词元都要保留全部 {heads} 个头的权重）：它只读最后 {kept} 个，前面 {dropped} 个被略去。',
  'real.generated': '最后 {n} 个（带下划线）是模型自己写的。',
  'real.predictions': '接下来是什么？模型最看好的五个词元',
  'real.generate': '生成',
  'real.generateNote':
    '“生成”会接上可能性最大的词元。只计算这一个新词元：它的 K 和 V 加入缓存，它的查询向量对缓存里的全部内容分配注意力。',
  'real.cache': 'KV 缓存：{n} 个词元，在 {heads} 个头里各有一行 K 和一行 V（共 {numbers} 个数）。',
  'real.full': '上下文已满（{context} 个词元）：模型读不了更多。',
  'real.fullWindow': '本页最多为这个模型展示 {window} 个词元，每个词元都保留每个头的权重：这里不能再读更多了。',
  'real.heads': '每个头在你的句子上',
  'real.headsNote':
    '每个头一个方块，每个词元一行：第 i 行是第 i 个词元对它及之前词元的注意力，颜色越深权重越大。每个头以它在重复随机词元上得分最高的模式命名（1 表示权重全部落在该模式指向的位置），前提是得分至少 {clear}，高于任何随机权重的头。',
  'real.lesson': '课程：真实的头在做什么',
  'real.layer': '第 {layer} 层',
  'real.headName': 'L{layer} H{head} · {pattern} {score}',
  'real.headLabel': '第 {layer} 层第 {head} 个头：{pattern}，得分 {score}。在演示中打开它的各个步骤。',
  'real.headNameUnclear': 'L{layer} H{head} · 无明显模式（{pattern} {score}）',
  'real.headLabelUnclear':
    '第 {layer} 层第 {head} 个头：没有明显的模式；得分最高的是{pattern}，{score}，随机权重的头也能达到。在演示中打开它的各个步骤。',
  'real.pattern.previous': '前一个词元',
  'real.pattern.first': '第一个词元',
  'real.pattern.same': '相同词元',
  'real.pattern.induction': '归纳',
  'real.opened': '第 {layer} 层第 {head} 个头已在下方的演示中打开：它的 Q、K、V 都是模型自己的，每个数都能解释自己。',
  'real.inContext':
    '上下文学习：在重复的随机词元上，模型读第二遍平均每个词元只要 {second} 比特，因为可以照抄第一遍；在它的全部词元里盲猜要 {blind} 比特。（读第一遍要 {first} 比特。）',
};
