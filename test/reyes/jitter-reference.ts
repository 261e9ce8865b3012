// The jittered sample location of a subpixel, recomputed in TypeScript from the hash's definition
// (reyes-jitter.wgsl), for tests that check the pixel filter against the filter's formulas.

function hashU32(x: number): number {
  let h = (Math.imul(x, 747796405) + 2891336453) >>> 0;
  h = Math.imul(((h >>> ((h >>> 28) + 4)) ^ h) >>> 0, 277803737) >>> 0;
  return ((h >>> 22) ^ h) >>> 0;
}

/** Raster position of global subpixel (sx, sy)'s sample at nx × ny PixelSamples. */
export function sampleLocation(sx: number, sy: number, nx: number, ny = nx): [number, number] {
  const h = hashU32(((sx >>> 0) ^ hashU32((sy + 0x9e3779b9) >>> 0)) >>> 0);
  const h2 = hashU32(h);
  return [(sx + (h >>> 8) / 16777216) / nx, (sy + (h2 >>> 8) / 16777216) / ny];
}
