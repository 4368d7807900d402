// dist/play.js: the pipeline's animation of one query row, loaded when the reader presses Play or
// a link names a frame (play-slot.ts), with its styles (in lesson.css, shared with the lessons).
import '../i18n/section-play';
import { RowPlayer } from '../play/player';
import { PLAY, laterStyles, providePart } from './scripts';

laterStyles();
providePart(PLAY, { RowPlayer });
