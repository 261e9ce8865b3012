// Coincident opaque surfaces: where two micropolygons reach a sample at exactly the same depth, the
// one drawn first (the lowest micropolygon) is seen, on the fused opaque path as when sample points
// are composited front to back (stable by submission order), and not whichever write lands last.
// The fused path's depth pass lists them and its colour pass resolves them from the list; a region
// with more ties than the list holds (TIE_ENTRIES) walks its micropolygons again where they tie
// (FrameStats.opaqueWalks). These scenes make ties within the list and past it, still and moving.
import { describe, expect, it } from 'vitest';
import { TIE_ENTRIES } from '../../src/layout/opaque-owners.ts';
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

/** Coincident pairs over a plain ground: a sphere drawn twice, and a square of side `side` drawn
 * twice, all moving when `motion` is set (both copies alike, so they stay coincident at every
 * shutter time). With side 0.3 they tie at a few hundred subpixels (within the tie list), with side
 * 1.2 at a few thousand. `copies` false leaves the second copies out: the picture the scene with them
 * must give. */
function coincidentPairs(copies: boolean, motion: boolean, side: number): string {
  const move = motion ? 'MotionBegin [0 1] Translate 0 0 0 Translate 0.3 0.1 0 MotionEnd' : '';
  const twice = (colour: string, copy: string, shape: string) =>
    `AttributeBegin ${move} Color [${colour}] ${shape} AttributeEnd\n` + (copies ? `AttributeBegin ${move} Color [${copy}] ${shape} AttributeEnd\n` : '');
  return `Format 48 48 1
PixelSamples 4 4
Shutter 0 1
Projection "perspective" "fov" 40
WorldBegin
Surface "matte"
LightSource "distantlight" 1 "from" [0 1 -1] "to" [0 0 0]
Color [0.5 0.5 0.5]
Polygon "P" [-3 -3 8  3 -3 8  3 3 8  -3 3 8]
Translate 0 0 6
${twice('1 0 0', '0 1 0', 'Translate -0.6 0 0 Sphere 0.25 -0.25 0.25 360')}
${twice('0 0 1', '1 1 0', `Polygon "P" [0.3 -0.2 0  ${0.3 + side} -0.2 0  ${0.3 + side} ${side - 0.2} 0  0.3 ${side - 0.2} 0]`)}
WorldEnd`;
}

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

  for (const [motion, side] of [[false, 0.3], [false, 1.2], [true, 0.3], [true, 1.2]] as const) {
    const listed = side < 1;
    it(`resolve ${listed ? 'a few ties from the tie list' : 'more ties than the list holds'} as if the later copies were absent (${motion ? 'moving' : 'still'})`, async () => {
      const alone = await render(gpu(), await frameFromText(coincidentPairs(false, motion, side)));
      const both = await render(gpu(), await frameFromText(coincidentPairs(true, motion, side)));
      expect(both.rendered.stats.opaqueFastPath).toBe(true);
      // Only a region whose ties overflow the list is walked.
      expect(both.rendered.stats.opaqueTies).toBeGreaterThan(listed ? 200 : TIE_ENTRIES);
      if (listed) expect(both.rendered.stats.opaqueTies).toBeLessThanOrEqual(TIE_ENTRIES);
      expect(both.rendered.stats.opaqueWalks).toBe(listed ? 0 : 1);
      expect(Buffer.from(both.image.rgba).equals(Buffer.from(alone.image.rgba))).toBe(true);
      // The same picture through compositing, where equal depths keep submission order.
      const composited = await render(gpu(), await frameFromText(coincidentPairs(true, motion, side)), { pipeline: UNFUSED_COMPOSITE });
      expect(Buffer.from(composited.image.rgba).equals(Buffer.from(both.image.rgba))).toBe(true);
    });
  }
});
