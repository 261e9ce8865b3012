// The default grid size: bound/split dices binary (2^a × 2^b micropolygons, one vertex more each
// way), so of a 256-invocation workgroup it fills at most 65 × 3 = 195 vertices; grid records and
// workgroups are sized by that, not by 256, which fits about a third more grids in each region.
import { describe, expect, it } from 'vitest';
import { largestBinaryGrid } from '../../src/reyes/frame/frame-job.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

/** Every binary grid's vertex count up to `limit`, enumerated independently of the function. */
function binaryGridSizes(limit: number): number[] {
  const sizes: number[] = [];
  for (let a = 0; a <= 12; a++) {
    for (let b = 0; b <= 12; b++) {
      const vertices = (2 ** a + 1) * (2 ** b + 1);
      if (vertices <= limit) sizes.push(vertices);
    }
  }
  return sizes;
}

describe('default grid size', () => {
  it('is the largest binary grid within the workgroup limit', () => {
    expect(largestBinaryGrid(256)).toBe(195);
    for (const limit of [4, 5, 9, 16, 64, 100, 128, 255, 256, 257, 1024]) {
      expect(largestBinaryGrid(limit), `limit ${limit}`).toBe(Math.max(...binaryGridSizes(limit)));
    }
  });

  const gpu = useGpuRuntime();
  it('dices a frame as a 256-vertex limit does, with smaller grid records', async () => {
    const scene = `Format 160 120 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 4
WorldBegin
LightSource "distantlight" 1
Surface "plastic"
Rotate 30 1 1 0
Torus 1 0.4 0 360 360
Sphere 0.5 -0.5 0.5 360
WorldEnd`;
    const frame = await frameFromText(scene);
    const byDefault = await render(gpu(), frame);
    const wide = await render(gpu(), frame, { maxVertices: 256 });
    expect(byDefault.rendered.stats.micropolygons).toBe(wide.rendered.stats.micropolygons);
    expect(byDefault.rendered.stats.grids).toBe(wide.rendered.stats.grids);
    expect(Buffer.from(byDefault.image.rgba).equals(Buffer.from(wide.image.rgba))).toBe(true);
  });
});
