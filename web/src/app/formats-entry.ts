// dist/formats.js: the exports (SVG, PNG and the text formats: CSV, JSON, LaTeX, Markdown, NumPy),
// loaded on the first one a reader asks for (main.ts gives the exporter where to find them).
import { exportText, sidesSvg, heatmapSvg, stepsFigure, svgToPng, withBom } from '../views/exports';
import { FORMATS, providePart } from './scripts';

providePart(FORMATS, { exportText, sidesSvg, heatmapSvg, stepsFigure, svgToPng, withBom });
