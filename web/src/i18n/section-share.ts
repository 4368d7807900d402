// The share dialog's words, in every language: share.js runs this when it loads (views/share-entry.ts).
// They join each language's catalog, so t() finds them like any other message.
import { registerSection } from './catalogs';
import { shareEn } from './share-en';
import { shareZhCN } from './share-zh-CN';

registerSection('en', shareEn);
registerSection('zh-CN', shareZhCN);
