// dist/share.js: the share dialog, loaded the first time a reader opens it (app/share-part.ts).
import '../i18n/section-share';
import { shareDialog } from './share';
import { laterStyles, provide } from '../later/later';

void laterStyles();
provide('share', shareDialog);
