// dist/heatmap-canvas.js: the canvas form of a heatmap, for figures above CANVAS_CELLS cells,
// loaded the first time one is drawn (app/main.ts gives the heatmap where to find it).
import { CanvasForm } from './heatmap-canvas';
import { provide } from '../lazy/lazy';

declare module '../lazy/lazy' {
  interface Parts {
    canvas: typeof CanvasForm;
  }
}

provide('canvas', CanvasForm);
