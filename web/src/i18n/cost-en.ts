// The cost view's words, in English: a section of the catalog that comes with its part of the page
// (cost-view.js), not with i18n-en.js (the page's first load has a budget, and most readers never open it).
// section-cost.ts registers it. Another language is a file with the same keys.

export const costEn = {
  'cost.run': 'Measure',
  'cost.progress': 'Measurement progress',
  'cost.running': 'Measuring… the page stays usable meanwhile.',
  'cost.empty': 'Not measured yet',
  'cost.done': 'Done.',
  'cost.donePageThread': 'Done, up to n = {n}: this page was opened from a file, so it measured on the page itself.',
  'cost.failed': 'The measurement failed: {message}',
  'cost.timeChart': 'Time of one call against n',
  'cost.memoryChart': 'Memory of one call against n',
  'cost.legend':
    'Solid blue: streaming (no n×n matrix). Orange dashes: materialised weights. Grey dots: n², drawn through the last materialised point. Both axes are logarithmic.',
  'cost.streaming': 'streaming',
  'cost.materialized': 'materialised',
  'cost.ms': '{ms} ms',
  'cost.mb': '{mb} MB',
  'cost.axisN': 'n (tokens)',
  'cost.numbers': 'The numbers measured',
  'cost.col.n': 'n',
  'cost.col.timeStreaming': 'time, streaming',
  'cost.col.timeMaterialized': 'time, materialised',
  'cost.col.memoryStreaming': 'memory, streaming',
  'cost.col.memoryMaterialized': 'memory, materialised',
};

export type CostKey = keyof typeof costEn;
export type CostMessages = Record<CostKey, string>;
