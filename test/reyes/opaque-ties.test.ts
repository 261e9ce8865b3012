// Coincident opaque surfaces: where two micropolygons reach a sample at exactly the same depth, the
// one drawn first (the lowest micropolygon) is seen, on the fused opaque path as when sample points
// are composited front to back (stable by submission order), and not whichever write lands last.
// The fused path finds such ties in its depth pass and resolves them in an owner pass that runs
// only when a region holds a tie; these scenes make one.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render, UNFUSED_COMPOSITE } from './render-helpers.ts';

const gpu = useGpuRuntime();


/** A red square, then the same square in green at the same depth; a blue one nearer over the right
 * half, then a yellow one coincident with the blue. Orthographic, constant surfaces, box filter. */
const SCENE = `Format 40 40 1
PixelSamples 4 4
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -2 2 -2 2
WorldBegin
Surface "constant"
Color [1 0 0]
Polygon "P" [-2 -2 5  2 -2 5  2 2 5  -2 2 5]
Color [0 1 0]
Polygon "P" [-2 -2 5  2 -2 5  2 2 5  -2 2 5]
Color [0 0 1]
Polygon "P" [0 -2 4  2 -2 4  2 2 4  0 2 4]
Color [1 1 0]
Polygon "P" [0 -2 4  2 -2 4  2 2 4  0 2 4]
WorldEnd`;

describe('coincident opaque surfaces', () => {
  for (const [name, options] of [['fused opaque path', {}], ['sample points composited', { pipeline: UNFUSED_COMPOSITE }]] as const) {
    it(`show the first one drawn (${name})`, async () => {
      const { image, rendered } = await render(gpu(), await frameFromText(SCENE), options);
      expect(rendered.stats.opaqueFastPath).toBe(name === 'fused opaque path');
      const counts = new Map<string, number>();
      for (let i = 0; i < image.width * image.height; i++) {
        const x = i % image.width;
        const rgba = Array.from(image.rgba.subarray(i * 4, i * 4 + 4)).join(',');
        // Left half red, right half blue (the edge column x = 20 starts the blue square exactly).
        const expected = x < 20 ? '255,0,0,255' : '0,0,255,255';
        counts.set(rgba === expected ? 'expected' : rgba, (counts.get(rgba === expected ? 'expected' : rgba) ?? 0) + 1);
      }
      expect(Object.fromEntries(counts)).toEqual({ expected: 40 * 40 });
    });
  }
});
