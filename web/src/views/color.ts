// Colour scales for the heatmaps: cividis (sequential, readable with every common colour-vision
// deficiency; Nuñez, Anderton & Renslow 2018) for weights in [0, 1], and ColorBrewer's RdBu
// (diverging, colour-blind safe) for signed numbers. Both are linear interpolations between
// published colour stops, sampled once into 256-entry tables that also hold the text colour with
// the better contrast on each background (WCAG relative luminance). A colour library cost 12 KB
// gzipped for these two scales, so they are written out here.

export interface Swatch {
  background: string;
  rgb: number; // the same colour as 0xRRGGBB, for drawing pixels
  dark: boolean; // true: dark text reads better on this background
}

// cividis at 17 evenly spaced stops, from dark blue to yellow.
const CIVIDIS = [
  '002051',
  '012b65',
  '11366c',
  '26426e',
  '3c4d6e',
  '51586e',
  '62646f',
  '727071',
  '7f7c75',
  '8c8877',
  '9a9478',
  'a9a177',
  'bbaf71',
  'cebd68',
  'e2cb5c',
  'f3da4f',
  'fdea45',
];
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

const sequential = table(CIVIDIS);
const diverging = table(RDBU);

const index = (t: number) => Math.max(0, Math.min(255, Math.round(t * 255)));

/** Weights: 0 → dark blue, 1 → yellow. */
export function weightColor(x: number): Swatch {
  return sequential[index(x)];
}

/** Signed numbers: white at 0, full colour at ±limit. */
export function signedColor(x: number, limit: number): Swatch {
  return diverging[index(limit > 0 ? 0.5 + x / (2 * limit) : 0.5)];
}
