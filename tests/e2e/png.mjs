// Reads a PNG the way an image viewer would, so the tests check the picture and not only the
// file's first bytes: its size from IHDR, its pixels from the IDAT stream (node:zlib inflates it,
// and the five row filters of the PNG specification, section 9, are undone here).
// Covers what Chromium writes: 8 bits per channel, RGB or RGBA, not interlaced.
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The Paeth predictor: of left, up and up-left, the one nearest left + up − up-left. */
function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** { width, height, pixel(x, y) → [r, g, b, a] } of PNG bytes; fails the test when they are not one. */
export function decodePng(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], SIGNATURE, 'the PNG signature');
  let width = 0, height = 0, channels = 0;
  const idat = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = data.subarray(8, 13);
      assert.equal(depth, 8, 'bits per channel');
      assert.ok(colour === 2 || colour === 6, `colour type ${colour}`);
      assert.equal(interlace, 0, 'interlaced');
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  assert.ok(width > 0 && height > 0 && idat.length > 0, 'IHDR and IDAT');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  assert.equal(raw.length, height * (stride + 1), 'one filter byte and one row of pixels per line');
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? pixels[y * stride + i - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels] : 0;
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      assert.ok(predicted !== undefined, `row ${y}: filter ${filter}`);
      pixels[y * stride + i] = (line[i] + predicted) & 0xff;
    }
  }
  const pixel = (x, y) => {
    const at = y * stride + x * channels;
    return [pixels[at], pixels[at + 1], pixels[at + 2], channels === 4 ? pixels[at + 3] : 255];
  };
  return { width, height, pixel };
}

/** [r, g, b] of a colour written #rrggbb or rgb(r, g, b). */
export function rgb(colour) {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (hex) return hex.slice(1).map((h) => parseInt(h, 16));
  const dec = /^rgb\((\d+), ?(\d+), ?(\d+)\)$/.exec(colour);
  assert.ok(dec, `a #rrggbb or rgb() colour: ${colour}`);
  return dec.slice(1).map(Number);
}

/** How many different colours a grid of `step`-spaced samples finds: 1 for a blank picture. */
export function colours(png, step = 8) {
  const seen = new Set();
  for (let y = 0; y < png.height; y += step) for (let x = 0; x < png.width; x += step) seen.add(png.pixel(x, y).join());
  return seen.size;
}
