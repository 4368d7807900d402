// dist/play.js: the pipeline's animation of one query row, loaded when the reader presses Play or
// a link names a frame (app/play-part.ts), with its styles (in lesson.css, shared with the lessons).
import '../i18n/section-play';
import { RowPlayer } from './player';
import { laterStyles, provide } from '../later/later';

void laterStyles();
provide('play', { RowPlayer });
