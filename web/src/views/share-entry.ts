// dist/share.js: the share dialog, loaded the first time a reader opens it (app/share-part.ts).
import '../i18n/section-share';
import { shareDialog } from './share';
import { provide } from '../later/later';

provide('share', shareDialog);
