// The default grid size: bound/split dices binary (2^a × 2^b micropolygons, one vertex more each
// way) and halves a piece across its longer direction while its grid passes the limit, so ready
// pieces come out balanced (a and b at most one apart). Of a 256-invocation workgroup the largest
// balanced grid fills 17 × 9 = 153 vertices; records and workgroups are sized by that, not by 256
// nor by the lopsided 65 × 3 = 195 that bound/split hardly ever makes.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { largestBalancedBinaryGrid } from '../../src/reyes/frame/frame-job.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

/** Every balanced binary grid's vertex count up to `limit`, enumerated independently of the function. */
function balancedGridSizes(limit: number): number[] {
  const sizes = [0];
  for (let a = 0; a <= 12; a++) {
    for (let b = 0; b <= 12; b++) {
      const vertices = (2 ** a + 1) * (2 ** b + 1);
      if (Math.abs(a - b) <= 1 && vertices <= limit) sizes.push(vertices);
    }
  }
  return sizes;
}

const SCENE = `Format 160 120 1
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

describe('default grid size', () => {
  it('is the largest balanced binary grid within the workgroup limit', () => {
    expect(largestBalancedBinaryGrid(256)).toBe(153);
    for (const limit of [3, 4, 5, 9, 16, 64, 100, 128, 255, 256, 257, 1024]) {
      expect(largestBalancedBinaryGrid(limit), `limit ${limit}`).toBe(Math.max(...balancedGridSizes(limit)));
    }
  });

  const gpu = useGpuRuntime();
  it('fills its grid records where a 195-vertex limit leaves a fifth of them empty, with the same picture', async () => {
    const frame = await frameFromText(SCENE);
    const byDefault = await render(gpu(), frame);
    const lopsided = await render(gpu(), frame, { maxVertices: 195 });
    // Vertex slots in use: one record and one shading workgroup a grid here (none shares a record).
    const filled = (r: typeof byDefault, slots: number) => r.rendered.stats.verticesShaded / (r.rendered.stats.grids * slots);
    expect(filled(byDefault, 153)).toBeGreaterThan(0.9);
    expect(filled(lopsided, 195)).toBeLessThan(0.8);
    expect(compareImages(byDefault.image, lopsided.image).max).toBeLessThanOrEqual(2);
  });
});
