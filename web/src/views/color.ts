// Colour scales for the heatmaps: ColorBrewer's Purples (sequential, one hue, so it reads the same
// with every common colour-vision deficiency) for weights in [0, 1], and ColorBrewer's RdBu
// (diverging, colour-blind safe) for signed numbers. Both are linear interpolations between
// published colour stops, sampled once into 256-entry tables that also hold the text colour with
// the better contrast on each background (WCAG relative luminance). A colour library cost 12 KB
// gzipped for these two scales, so they are written out here.

export interface Swatch {
  background: string;
  rgb: number; // the same colour as 0xRRGGBB, for drawing pixels
  dark: boolean; // true: dark text reads better on this background
}

// ColorBrewer Purples, 9 classes: near white at 0 to dark purple at 1, so a small weight looks
// light and a large one heavy, and a flat row reads as pale rather than as a solid wall. One hue
// that neither half of RdBu uses: a weight never looks like a signed number.
const PURPLES = ['fcfbfd', 'efedf5', 'dadaeb', 'bcbddc', '9e9ac8', '807dba', '6a51a3', '54278f', '3f007d'];
// ColorBrewer RdBu, 11 classes, reversed: negative blue, zero near white, positive red.
const RDBU = ['053061', '2166ac', '4393c3', '92c5de', 'd1e5f0', 'f7f7f7', 'fddbc7', 'f4a582', 'd6604d', 'b2182b', '67001f'];

function rgb(hex: string): number[] {
  return [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16));
}

function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function table(stops: string[]): Swatch[] {
  const colours = stops.map(rgb);
  const out: Swatch[] = [];
  for (let k = 0; k < 256; k++) {
    const x = (k / 255) * (colours.length - 1);
    const i = Math.min(colours.length - 2, Math.floor(x)),
      f = x - i;
    const c = colours[i].map((v, ch) => Math.round(v + (colours[i + 1][ch] - v) * f));
    const y = luminance(c);
    // Contrast with black is (y + .05) / .05, with white 1.05 / (y + .05): pick the larger.
    out.push({
      background: `rgb(${c[0]}, ${c[1]}, ${c[2]})`,
      rgb: (c[0] << 16) | (c[1] << 8) | c[2],
      dark: (y + 0.05) / 0.05 >= 1.05 / (y + 0.05),
    });
  }
  return out;
}

const sequential = table(PURPLES);
const diverging = table(RDBU);

const index = (t: number) => Math.max(0, Math.min(255, Math.round(t * 255)));

/**
 * A number that is not finite (a damaged model's, say) has no place on a scale: it is drawn grey,
 * outside both scales' colours, rather than as the colour of 0 or 1.
 */
export const NOT_A_NUMBER: Swatch = { background: 'rgb(160, 160, 160)', rgb: 0xa0a0a0, dark: true };

/** Weights: 0 → near white, 1 → dark purple. */
export function weightColor(x: number): Swatch {
  return Number.isFinite(x) ? sequential[index(x)] : NOT_A_NUMBER;
}

/** Signed numbers: white at 0, full colour at ±limit. */
export function signedColor(x: number, limit: number): Swatch {
  if (!Number.isFinite(x)) return NOT_A_NUMBER;
  return diverging[index(limit > 0 && Number.isFinite(limit) ? 0.5 + x / (2 * limit) : 0.5)];
}
