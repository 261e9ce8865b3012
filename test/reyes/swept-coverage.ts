// The oracle the motion-blur tests share: each pixel's alpha is the share of the shutter during
// which a shape covers it, averaged over the pixel. The scenes are orthographic, ScreenWindow
// -2 2 -1 1 over 128 × 64 pixels: 32 pixels per unit, y up.
import type { FloatImage } from '../../src/image/image.ts';

export const WIDTH = 128;
export const HEIGHT = 64;
export const PIXELS_PER_UNIT = 32;

/** The expected alpha of every pixel over 8 × 8 points per pixel and `times` shutter times:
 * `insideAt(t)` (t in [0, 1]) answers whether the point (x, y) in units is covered at time t. */
export function sweptAlpha(times: number, insideAt: (t: number) => (x: number, y: number) => boolean): Float64Array {
  const alpha = new Float64Array(WIDTH * HEIGHT);
  const tests = Array.from({ length: times }, (_, k) => insideAt((k + 0.5) / times));
  for (let py = 0; py < HEIGHT; py++) {
    for (let px = 0; px < WIDTH; px++) {
      let count = 0;
      for (let j = 0; j < 8; j++) {
        for (let i = 0; i < 8; i++) {
          const x = (px + (i + 0.5) / 8) / PIXELS_PER_UNIT - 2;
          const y = 1 - (py + (j + 0.5) / 8) / PIXELS_PER_UNIT;
          for (const inside of tests) if (inside(x, y)) count++;
        }
      }
      alpha[py * WIDTH + px] = count / (64 * times);
    }
  }
  return alpha;
}

export function alphaOf(image: FloatImage): Float64Array {
  return Float64Array.from({ length: image.width * image.height }, (_, k) => image.rgba[k * 4 + 3]!);
}

export function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let k = 0; k < values.length; k++) total += values[k]!;
  return total;
}

/** Mean absolute difference over the pixels either image touches. */
export function meanError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let total = 0;
  let count = 0;
  for (let k = 0; k < a.length; k++) {
    if (a[k] === 0 && b[k] === 0) continue;
    total += Math.abs(a[k]! - b[k]!);
    count++;
  }
  return total / count;
}
