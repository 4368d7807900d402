// dist/formats.js: the exports (SVG, PNG and the text formats: CSV, JSON, LaTeX, Markdown, NumPy),
// loaded on the first one a reader asks for (app/main.ts gives the exporter where to find them).
import { exportText, sidesSvg, heatmapSvg, stepsFigure, svgToPng, withBom } from './exports';
import { provide } from '../lazy/lazy';
import type { Exports } from './exporter';

declare module '../lazy/lazy' {
  interface Parts {
    formats: Exports;
  }
}

provide('formats', { exportText, sidesSvg, heatmapSvg, stepsFigure, svgToPng, withBom });
