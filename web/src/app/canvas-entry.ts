// dist/heatmap-canvas.js: the canvas form of a heatmap, for figures above CANVAS_CELLS cells,
// loaded the first time one is drawn (main.ts gives the heatmap where to find it).
import { CanvasForm } from '../views/heatmap-canvas';
import { CANVAS, providePart } from './scripts';

providePart(CANVAS, CanvasForm);
