// Motion blur and depth of field keep the picture independent of how the frame is cut: each
// sample's time and lens position are hashes of its subpixel, and blurred bounds reach every region
// a sample may see a piece from. The blur feature scenes at budgets of 4, 8 and 256 MiB and in
// bucket mode give the same picture within 1/255; blur changes where micropolygons are sampled,
// never how many are shaded.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { nodeRslShading } from '../../src/reyes/shading/node-shaders.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, loadFrame, render, ROOT } from './render-helpers.ts';

const MiB = 1024 * 1024;
const SCENES = path.join(ROOT, 'scenes/features');

// A first render on an empty Mesa shader cache compiles every kernel (minutes on a busy 2-core machine).
describe('blurred frames are budget invariant', { timeout: 600_000 }, () => {
  const gpu = useGpuRuntime();
  const shading = nodeRslShading({ sceneDir: SCENES }).provide;

  for (const name of ['motion-transform', 'motion-camera', 'dof', 'motion-dof']) {
    it(`${name}: 4, 8 and 256 MiB and bucket mode give the same picture`, async () => {
      const frame = await loadFrame(path.join(SCENES, `${name}.rib`));
      const reference = await render(gpu(), frame, { shading, budgetBytes: 256 * MiB });
      for (const budget of [4, 8]) {
        const other = await render(gpu(), frame, { shading, budgetBytes: budget * MiB });
        expect(other.rendered.stats.peakBytes).toBeLessThanOrEqual(budget * MiB);
        expect(compareImages(other.image, reference.image).max, `${budget} MiB`).toBeLessThanOrEqual(1);
        if (budget === 4) expect(other.rendered.stats.dicingSplits + other.rendered.stats.samplingSplits).toBeGreaterThan(0);
      }
      const bucket = await render(gpu(), frame, { shading, budgetBytes: 256 * MiB, bucketSize: 16 });
      expect(compareImages(bucket.image, reference.image).max).toBeLessThanOrEqual(1);
    });
  }

  it('shades as many vertices with motion blur and depth of field as without', async () => {
    const text = (blur: string, motion: string) => `Format 96 72 1
PixelSamples 4 4
Shutter 0 1
Projection "perspective" "fov" 40
${blur}
WorldBegin
Surface "matte"
Translate 0 0 5
${motion}
Sphere 1 -1 1 360
WorldEnd`;
    const still = await render(gpu(), await frameFromText(text('', '')));
    const blurred = await render(gpu(), await frameFromText(text('DepthOfField 2 1 4', 'MotionBegin [0 1] Translate 0 0 0 Translate 0.8 0 0 MotionEnd')));
    expect(blurred.rendered.stats.verticesShaded).toBe(still.rendered.stats.verticesShaded);
    expect(blurred.rendered.stats.micropolygons).toBe(still.rendered.stats.micropolygons);
    expect(blurred.rendered.stats.samplePoints).toBeGreaterThan(still.rendered.stats.samplePoints);
  });
});
