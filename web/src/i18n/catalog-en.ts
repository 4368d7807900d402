// dist/i18n-en.js: the English catalog, registered for the page.
import { en } from './en';
import { registerCatalog } from './catalogs';

registerCatalog('en', en);
