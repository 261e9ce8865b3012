// Motion blur against its definition: each pixel's alpha is the share of the shutter during which
// the moving shape covers it, averaged over the pixel. The oracle below computes that share from
// the scene's own numbers (positions over time, disk radius), independently of the renderer.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';
import { HEIGHT, PIXELS_PER_UNIT, WIDTH, alphaOf, meanError, sum, sweptAlpha } from './swept-coverage.ts';

function scene(shutter: string, motion: string, camera = '', samples = '8 8'): string {
  return `Format ${WIDTH} ${HEIGHT} 1
PixelSamples ${samples}
PixelFilter "box" 1 1
Shutter ${shutter}
Projection "orthographic"
ScreenWindow -2 2 -1 1
${camera}
WorldBegin
Surface "constant"
Translate 0 0 5
${motion}
Disk 0 0.5 360
WorldEnd`;
}

/** The expected alpha of every pixel: a disk of radius `radius` (units) whose centre is at
 * `centre(t)` (units, t in [0, 1] across the shutter), averaged over 8 × 8 points per pixel and 400 times. */
function expectedAlpha(radius: number, centre: (t: number) => [number, number]): Float64Array {
  return sweptAlpha(400, (t) => {
    const [cx, cy] = centre(t);
    return (x, y) => (x - cx) ** 2 + (y - cy) ** 2 < radius * radius;
  });
}

/** The disk of radius 0.5 moving from x = -1 to 1: every instant covers the disk's area, so the time
 * average does too (within 1%), and nothing lies outside the swept band (the disk's bound at both
 * ends joined by its motion). */
function expectSweptBand(alpha: Float64Array): void {
  const area = Math.PI * (0.5 * PIXELS_PER_UNIT) ** 2;
  expect(Math.abs(sum(alpha) - area) / area).toBeLessThan(0.01);
  for (let py = 0; py < HEIGHT; py++) {
    for (let px = 0; px < WIDTH; px++) if (px < 16 || px >= 112 || py < 16 || py >= 48) expect(alpha[py * WIDTH + px]).toBe(0);
  }
}

const linear = (from: number, to: number) => (t: number): [number, number] => [from + (to - from) * t, 0];

// A first render on an empty Mesa shader cache compiles every kernel (minutes on a busy 2-core machine).
describe('transformation motion blur', { timeout: 600_000 }, () => {
  const gpu = useGpuRuntime();

  it('a disk moving 64 pixels covers its area on average and its swept band with the expected ramp', async () => {
    const frame = await frameFromText(scene('0 1', 'MotionBegin [0 1] Translate -1 0 0 Translate 1 0 0 MotionEnd'));
    const { rendered } = await render(gpu(), frame);
    const alpha = alphaOf(rendered.image);
    const expected = expectedAlpha(0.5, linear(-1, 1));
    expectSweptBand(alpha);
    // The profile along the motion through the centre: a ramp up over the disk's width, the
    // plateau of 32/64, a ramp down; each pixel within the noise of 64 time strata.
    const row = 32;
    for (let px = 0; px < WIDTH; px++) expect(Math.abs(alpha[row * WIDTH + px]! - expected[row * WIDTH + px]!)).toBeLessThan(0.06);
    expect(expected[row * WIDTH + 64]).toBeCloseTo(0.5, 2);
    expect(meanError(alpha, expected)).toBeLessThan(0.02);
  });

  // The sampling kernels of a blurred frame take its pixel samples per axis as constants (sample.ts,
  // blurStrataConstants): a count that is neither square nor a power of two must stratify as well.
  it('covers the same swept band with 3 × 5 pixel samples', async () => {
    const frame = await frameFromText(scene('0 1', 'MotionBegin [0 1] Translate -1 0 0 Translate 1 0 0 MotionEnd', '', '3 5'));
    const alpha = alphaOf((await render(gpu(), frame)).rendered.image);
    expectSweptBand(alpha);
    // 15 time strata per pixel rather than 64: noisier pixels, the same mean.
    expect(meanError(alpha, expectedAlpha(0.5, linear(-1, 1)))).toBeLessThan(0.04);
  });

  it('takes the shutter interval out of the motion and follows every time sample', async () => {
    // Shutter 0.25 0.75 over a motion from -1 to 1 at times 0 and 1: the disk goes from -0.5 to 0.5.
    const half = await frameFromText(scene('0.25 0.75', 'MotionBegin [0 1] Translate -1 0 0 Translate 1 0 0 MotionEnd'));
    const halfAlpha = alphaOf((await render(gpu(), half)).rendered.image);
    expect(meanError(halfAlpha, expectedAlpha(0.5, linear(-0.5, 0.5)))).toBeLessThan(0.02);
    // Three time samples: out to the right and back.
    const there = await frameFromText(scene('0 1', 'MotionBegin [0 0.5 1] Translate -1 0 0 Translate 1 0 0 Translate -1 0 0 MotionEnd'));
    const thereAlpha = alphaOf((await render(gpu(), there)).rendered.image);
    expect(meanError(thereAlpha, expectedAlpha(0.5, (t) => [t < 0.5 ? -1 + 4 * t : 3 - 4 * t, 0]))).toBeLessThan(0.02);
  });

  it('blurs a moving camera (a motion block before WorldBegin) as the opposite motion of the world', async () => {
    const frame = await frameFromText(scene('0 1', '', 'MotionBegin [0 1] Translate 0 1 0 Translate 0 -1 0 MotionEnd'));
    const alpha = alphaOf((await render(gpu(), frame)).rendered.image);
    // World → camera moves points by +1 in y at open and by -1 at close: the disk goes from y = 1 to -1.
    expect(meanError(alpha, expectedAlpha(0.5, (t) => [0, 1 - 2 * t]))).toBeLessThan(0.02);
  });
});
