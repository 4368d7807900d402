// dist/share.js: the share dialog, loaded the first time a reader opens it (lazy-share.ts).
import { shareDialog } from '../views/share';
import { SHARE_DIALOG, providePart } from './scripts';

providePart(SHARE_DIALOG, shareDialog);
