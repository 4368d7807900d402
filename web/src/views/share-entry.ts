// dist/share.js: the share dialog, loaded the first time a reader opens it (app/share-part.ts).
import '../i18n/section-share';
import { shareDialog } from './share';
import { lazyStyles, provide } from '../lazy/lazy';
import type { ShareDialog, ShareSource } from './share';

declare module '../lazy/lazy' {
  interface Parts {
    share: (source: ShareSource) => ShareDialog;
  }
}

void lazyStyles();
provide('share', shareDialog);
