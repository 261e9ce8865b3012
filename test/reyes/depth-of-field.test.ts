// Depth of field against the thin-lens model of RI 3.2: a point at depth z, with the lens focused
// at distance F, blurs into a uniform disk of diameter 2·R·|1/F − 1/z| screen units (R =
// focallength / (2 fstop)), here times 48 / tan(20°) pixels per screen unit (fov 40 over 96 pixels).
// The blur's diameter is read from the spread of the picture: a uniform disk of diameter D has
// variance D²/16 along each axis, and blurring adds variances (to the sharp disk's own).
import { describe, expect, it } from 'vitest';
import type { FloatImage } from '../../src/image/image.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const SIZE = 96;
const PIXELS_PER_SCREEN_UNIT = 48 / Math.tan((20 * Math.PI) / 180);

function scene(depthOfField: string, depth: number, radius: number, samples = 16): string {
  return `Format ${SIZE} ${SIZE} 1
PixelSamples ${samples} ${samples}
PixelFilter "box" 1 1
Projection "perspective" "fov" 40
${depthOfField}
WorldBegin
Surface "constant"
Translate 0 0 ${depth}
Disk 0 ${radius} 360
WorldEnd`;
}

/** Alpha-weighted mean and variance along x and y (pixel centres), and the total alpha. */
function moments(image: FloatImage): { total: number; variance: number } {
  let total = 0, mx = 0, my = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const a = image.rgba[(y * image.width + x) * 4 + 3]!;
      total += a;
      mx += a * (x + 0.5);
      my += a * (y + 0.5);
    }
  }
  mx /= total;
  my /= total;
  let v = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const a = image.rgba[(y * image.width + x) * 4 + 3]!;
      v += a * ((x + 0.5 - mx) ** 2 + (y + 0.5 - my) ** 2);
    }
  }
  return { total, variance: v / total / 2 };
}

// A first render on an empty Mesa shader cache compiles every kernel (minutes on a busy 2-core machine).
describe('depth of field', { timeout: 600_000 }, () => {
  const gpu = useGpuRuntime();
  const lens = { fstop: 1, focalLength: 1.5, focalDistance: 5 };
  const radius = lens.focalLength / (2 * lens.fstop);
  const confusion = (z: number): number => 2 * radius * Math.abs(1 / lens.focalDistance - 1 / z) * PIXELS_PER_SCREEN_UNIT;

  // 20 × 20 samples: 400 lens strata, past the 256 a sampling workgroup shares (reyes-sample.wgsl's
  // LENS_STRATA_SHARED), so micropolygons find the rest themselves.
  for (const [depth, discRadius, samples] of [[10, 0.15, 16], [3.5, 0.05, 16], [10, 0.15, 20]] as const) {
    it(`a small disk at depth ${depth} blurs into the thin-lens circle of confusion (within one pixel, ${samples}×${samples} samples)`, async () => {
      const blurred = moments((await render(gpu(), await frameFromText(scene(`DepthOfField ${lens.fstop} ${lens.focalLength} ${lens.focalDistance}`, depth, discRadius, samples)))).rendered.image);
      // The same disk through a pinhole: its own spread (its diced outline, the pixel box) and area.
      const sharp = moments((await render(gpu(), await frameFromText(scene('', depth, discRadius, samples)))).rendered.image);
      // Every lens position sees the whole small disk: the blur keeps its area.
      expect(Math.abs(blurred.total - sharp.total) / sharp.total).toBeLessThan(0.02);
      const measured = 4 * Math.sqrt(blurred.variance - sharp.variance);
      expect(confusion(depth)).toBeGreaterThan(15);
      expect(Math.abs(measured - confusion(depth))).toBeLessThan(1);
    });
  }

  it('keeps an object at the focal distance sharp: the same picture as without depth of field', async () => {
    const blurred = await render(gpu(), await frameFromText(scene(`DepthOfField ${lens.fstop} ${lens.focalLength} ${lens.focalDistance}`, 5, 0.6)));
    const pinhole = await render(gpu(), await frameFromText(scene('DepthOfField', 5, 0.6)));
    const a = blurred.rendered.image.rgba;
    const b = pinhole.rendered.image.rgba;
    let worst = 0;
    for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k]! - b[k]!));
    expect(worst).toBeLessThan(1e-6);
    expect(moments(pinhole.rendered.image).total).toBeGreaterThan(100);
  });
});
