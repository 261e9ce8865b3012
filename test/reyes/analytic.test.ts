// Analytic checks: covered area against the exact projected area, a constant surface giving
// exactly its colour, and filters preserving a flat field.
import { describe, expect, it } from 'vitest';
import { PIXEL_FILTERS } from '../../src/image/pixel-filters.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

describe('analytic checks', () => {
  const gpu = useGpuRuntime();

  it('the covered area of a constant disk matches its exact area within 0.5%', async () => {
    // Orthographic, ScreenWindow ±2 over 96 pixels: 24 pixels per unit; a disk of radius 1.
    const frame = await frameFromText(`Format 96 96 1
PixelSamples 4 4
Projection "orthographic"
ScreenWindow -2 2 -2 2
Translate 0 0 5
WorldBegin
Surface "constant"
Disk 0 1 360
WorldEnd`);
    const { rendered } = await render(gpu(), frame);
    const { rgba } = rendered.image;
    let area = 0;
    for (let i = 3; i < rgba.length; i += 4) area += rgba[i]!;
    const exact = Math.PI * 24 * 24;
    expect(Math.abs(area - exact) / exact).toBeLessThan(0.005);
  });

  it('the covered area of a sphere in perspective matches its projected area within 0.5%', async () => {
    // A sphere of radius r at distance d projects to a disk of angular radius asin(r/d).
    const frame = await frameFromText(`Format 96 96 1
PixelSamples 4 4
Projection "perspective" "fov" 40
Translate 0 0 6
WorldBegin
Surface "constant"
Sphere 1.5 -1.5 1.5 360
WorldEnd`);
    const { rendered } = await render(gpu(), frame);
    let area = 0;
    for (let i = 3; i < rendered.image.rgba.length; i += 4) area += rendered.image.rgba[i]!;
    const pixelsPerUnit = 48 / Math.tan((20 * Math.PI) / 180);
    const radius = Math.tan(Math.asin(1.5 / 6)) * pixelsPerUnit;
    const exact = Math.PI * radius * radius;
    expect(Math.abs(area - exact) / exact).toBeLessThan(0.005);
  });

  it('a constant surface gives exactly its colour', async () => {
    const frame = await frameFromText(`Format 32 24 1
Quantize "rgba" 255 0 255 0
Projection "perspective" "fov" 40
Translate 0 0 3
WorldBegin
Surface "constant"
Color [0.2 0.6 0.8]
Polygon "P" [-5 -5 0  5 -5 0  5 5 0  -5 5 0]
WorldEnd`);
    const { rendered, image } = await render(gpu(), frame);
    for (let i = 0; i < rendered.image.rgba.length; i += 4) {
      expect(Array.from(rendered.image.rgba.subarray(i, i + 4)).map((v) => Number(v.toFixed(5)))).toEqual([0.2, 0.6, 0.8, 1]);
    }
    expect(Array.from(image.rgba.subarray(0, 4))).toEqual([51, 153, 204, 255]);
  });

  for (const filter of PIXEL_FILTERS) {
    for (const width of [1, 2.5, 4]) {
      it(`the ${filter} filter of width ${width} preserves a flat field`, async () => {
        const frame = await frameFromText(`Format 24 16 1
PixelSamples 3 3
PixelFilter "${filter}" ${width} ${width}
Projection "perspective" "fov" 40
Translate 0 0 3
WorldBegin
Surface "constant"
Color [0.3 0.5 0.7]
Polygon "P" [-9 -9 0  9 -9 0  9 9 0  -9 9 0]
WorldEnd`);
        const { rendered } = await render(gpu(), frame);
        const { rgba } = rendered.image;
        for (let i = 0; i < rgba.length; i += 4) {
          expect(rgba[i]!).toBeCloseTo(0.3, 5);
          expect(rgba[i + 2]!).toBeCloseTo(0.7, 5);
          expect(rgba[i + 3]!).toBeCloseTo(1, 5);
        }
      });
    }
  }
});
