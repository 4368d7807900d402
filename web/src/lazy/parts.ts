// The page's lazy parts, listed once: each is a classic script next to the page, built by
// web/build.mjs from its entry (a file beside the feature it brings) and loaded by lazy() the
// first time a reader needs it. In the offline file they are inline already.

/** Each part's script in dist/. */
export const SCRIPTS = {
  /** The cost of attention, when its section first comes near the screen. */
  cost: 'cost-view.js',
  /** The exports (SVG, PNG, CSV, JSON, LaTeX, Markdown, NumPy), with the first one asked for. */
  formats: 'formats.js',
  /** The share dialog, the first time a reader opens it. */
  share: 'share.js',
  /** Where each token moves, after the page's first draw. */
  plot: 'plot.js',
  /** The lessons and their player, when a reader opens one. */
  lesson: 'lesson.js',
  /** The lesson on the real model's heads, beside the player when a reader opens that lesson: its
   * steps hold whole heads' queries, keys and values, three times the rest of the lessons' part. */
  realLesson: 'lesson-real.js',
  /** The pipeline's animation of one query row, on Play. */
  play: 'play.js',
  /** The Learn view, when a link names it or a reader opens it. */
  learn: 'learn.js',
  /** The Real model view, when a link names it or a reader opens it. */
  real: 'real.js',
  /** The canvas form of a heatmap, with the first figure too large for a table. */
  canvas: 'heatmap-canvas.js',
  /** The word vectors learned from real text, the first time a reader's words use them. */
  vectors: 'vectors.js',
  /** Present's keys and styles, the first time a reader presses Present. */
  present: 'present.js',
} as const;

export type PartKey = keyof typeof SCRIPTS;

/** Each part's entry, relative to web/src (read by web/build.mjs only, so not in the page). */
export const ENTRIES: Record<PartKey, string> = {
  cost: 'cost/entry.ts',
  formats: 'views/exports-entry.ts',
  share: 'views/share-entry.ts',
  plot: 'views/plot-entry.ts',
  lesson: 'lesson/entry.ts',
  realLesson: 'lesson/real-entry.ts',
  play: 'play/entry.ts',
  learn: 'learn/entry.ts',
  real: 'real/entry.ts',
  canvas: 'views/heatmap-canvas-entry.ts',
  vectors: 'views/vectors-entry.ts',
  present: 'views/present-entry.ts',
};
