// A sampling region of the opaque path takes only the grids whose raster bound meets it
// (stages/sample.ts gridsMeeting, bounds from gridNearest): a dicing region cut into sampling
// regions would otherwise build every one of its micropolygons in each of them.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { gridsMeeting } from '../../src/reyes/stages/sample.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const MiB = 1024 * 1024;

/** 5 × 5 small spheres spread over a 256 × 256 orthographic view, 4 × 4 samples: at 40 MiB (opaque)
 * or 48 MiB (Opacity 0.5) the grids fit one dicing region but its subpixels (and sample points)
 * take several sampling regions. */
function sphereField(opacity = 1): string {
  const spheres: string[] = [];
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 5; j++) spheres.push(`AttributeBegin Translate ${(i - 2) * 0.8} ${(j - 2) * 0.8} 0 Sphere 0.3 -0.3 0.3 360 AttributeEnd`);
  }
  return `Format 256 256 1
PixelSamples 4 4
Projection "orthographic"
ScreenWindow -2 2 -2 2
Translate 0 0 5
WorldBegin
Surface "matte"
Opacity ${opacity} ${opacity} ${opacity}
${spheres.join('\n')}
WorldEnd`;
}

describe('the grids a sampling region takes', () => {
  const gpu = useGpuRuntime();

  it('keeps the grids whose bound meets the rectangle, in their order', () => {
    // Grid g's subpixel bound: x0, y0, x1, y1 (inclusive).
    const gridSubpixels = Int32Array.from([
      0, 0, 9, 9, // 0: the rectangle's corner
      10, 10, 19, 19, // 1: inside
      30, 0, 39, 9, // 2: right of it
      0, 25, 9, 29, // 3: below it
      -5, -5, 40, 40, // 4: around it
      24, 24, 30, 30, // 5: its last subpixel (24, 24) only
    ]);
    const nearestOrder = Uint32Array.from([5, 3, 1, 4, 2, 0]);
    const rect = { x: 5, y: 5, width: 20, height: 20 };
    expect([...gridsMeeting({ nearestOrder, gridSubpixels }, rect)]).toEqual([5, 1, 4, 0]);
    expect([...gridsMeeting({ nearestOrder, gridSubpixels }, { x: -10, y: -10, width: 60, height: 60 })]).toEqual([5, 3, 1, 4, 2, 0]);
  });

  it.each([['opaque', 1, 40], ['semi-transparent', 0.5, 48]] as const)('%s: a dicing region cut into sampling regions takes each grid where its bound lies, with the same picture', async (_, opacity, budget) => {
    const frame = await frameFromText(sphereField(opacity));
    const whole = await render(gpu(), frame, { budgetBytes: 256 * MiB });
    expect(whole.rendered.stats.opaqueFastPath).toBe(opacity === 1);
    expect([whole.rendered.stats.dicingRegions, whole.rendered.stats.samplingRegions]).toEqual([1, 1]);
    expect(whole.rendered.stats.gridsSampled).toBe(whole.rendered.stats.grids);
    const cut = await render(gpu(), frame, { budgetBytes: budget * MiB });
    const { dicingRegions, samplingRegions, grids, gridsSampled } = cut.rendered.stats;
    expect(dicingRegions).toBe(1);
    expect(samplingRegions).toBeGreaterThanOrEqual(3);
    // Every grid at least once; those across a cut in each region they meet (opaque: 1,536 of 1,200),
    // not every grid in each region.
    expect(gridsSampled).toBeGreaterThanOrEqual(grids);
    expect(gridsSampled).toBeLessThan(1.5 * grids);
    expect(compareImages(cut.image, whole.image).max).toBe(0);
  }, 300_000);
});
