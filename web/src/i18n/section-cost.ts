// The cost view's words, in every language: cost-view.js runs this when it loads (cost/entry.ts).
// They join each language's catalog, so t() finds them like any other message.
import { registerSection } from './catalogs';
import { costEn } from './cost-en';
import { costZhCN } from './cost-zh-CN';

registerSection('en', costEn);
registerSection('zh-CN', costZhCN);
