// dist/formats.js: the text exports (CSV, JSON, LaTeX, Markdown, NumPy), loaded on the first one
// a reader asks for (main.ts gives the exporter where to find them).
import { toCsv, toJson, toLatex, toMarkdown, toNumpy } from '../views/formats';
import { FORMATS, providePart } from './scripts';

providePart(FORMATS, { toCsv, toJson, toLatex, toMarkdown, toNumpy });
