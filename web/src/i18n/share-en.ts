// The share dialog's words, in English: a section of the catalog that comes with its part of the page
// (share.js), not with i18n-en.js (the page's first load has a budget, and most readers never open it).
// section-share.ts registers it. Another language is a file with the same keys.

export const shareEn = {
  'share.title': 'Share this figure',
  'share.link': 'Link (opens the playground exactly as it is now)',
  'share.iframe': 'Embed with an iframe (paste into your post’s HTML)',
  'share.component': 'Embed as a web component',
  'share.hugo': 'Hugo shortcode (see the README for the shortcode file)',
  'share.image': 'Image with a link (Markdown)',
  'share.imageHint':
    'Medium, CSDN and Zhihu take no iframes: download the PNG, upload it with your post, and link it to the playground.',
  'share.png': 'Download the PNG',
  'share.fileHint':
    'This page was opened from a file: its link works on this computer only, and an embed needs the playground’s files on a web host. Put the dist folder on your site and write its address in place of https://your-site.example/attention-playground/ (the README says how).',
  'share.embedTitle': 'Embed it in a post',
  'share.views': 'Steps it shows',
  'share.viewFormula': 'The formula',
  'share.viewPipeline': 'One query, step by step',
  'share.controls': 'What the reader can change',
  'share.controls.none': 'Nothing',
  'share.controls.minimal': 'The sentence, with the example’s explanation',
  'share.controls.all': 'Inputs and settings',
  'share.theme': 'Theme',
  'share.theme.auto': 'The reader’s',
  'share.theme.light': 'Light',
  'share.theme.dark': 'Dark',
  'share.height': 'Height in pixels',
  'share.heightHint': 'Its height until it has loaded, and where the host page runs no scripts; then it grows to fit.',
  'share.heightBad': 'The height must be a whole number from {min} to {max}; the snippets keep {kept}.',
  'share.preview': 'Preview',
  'share.copy': 'Copy',
  'share.copied': 'Copied.',
  'share.tooLong':
    'This figure is too large for a link ({length} characters; a link holds {max}). It is kept in this browser; export its numbers to share them.',
  'share.close': 'Close',
};

export type ShareKey = keyof typeof shareEn;
export type ShareMessages = Record<ShareKey, string>;
