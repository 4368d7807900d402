// axe-core finds no serious or critical problem on the page in Chinese: every preset, at 1280 and 375 px
// (at 320 px the rules layout can break), and the dark theme's contrast (a11y-axe.mjs).
import { serveAndLaunch } from './page-helpers.mjs';
import { axeEveryPreset } from './a11y-axe.mjs';

axeEveryPreset(serveAndLaunch(), 'zh-CN');
