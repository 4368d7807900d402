// dist/share.js: the share dialog, loaded the first time a reader opens it (app/share-part.ts).
import '../i18n/section-share';
import { shareDialog } from './share';
import { laterStyles, provide } from '../later/later';
import type { ShareDialog, ShareSource } from './share';

declare module '../later/later' {
  interface Parts {
    share: (source: ShareSource) => ShareDialog;
  }
}

void laterStyles();
provide('share', shareDialog);
