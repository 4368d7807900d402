// dist/i18n-zh-CN.js: the Chinese catalog, registered for the page.
import { zhCN } from './zh-CN';
import { registerCatalog } from './catalogs';

registerCatalog('zh-CN', zhCN);
