// Per-stage GPU times from timestamp queries (lavapipe and Dawn offer 'timestamp-query'): present and
// positive for every GPU stage, next to the wall times, and absent when turned off. And the count of
// pipelines a frame creates (what a cold start compiles), all asked for before its stages run.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const SCENE = (opacity: number): string => `Format 64 48 1
PixelSamples 2 2
Projection "perspective" "fov" 45
Translate 0 0 4
WorldBegin
LightSource "distantlight" 1
Opacity [${opacity} ${opacity} ${opacity}]
Surface "plastic"
Sphere 1 -1 1 360
Translate 0.5 0 1
Sphere 1 -1 1 360
WorldEnd`;

describe('per-stage GPU times', () => {
  const gpu = useGpuRuntime();

  it('has the adapter feature the stage times need', () => {
    expect(gpu().device.features.has('timestamp-query')).toBe(true);
  });

  for (const [name, opacity, sorted] of [['opaque fast path', 1, false], ['sorted composite', 0.5, true]] as const) {
    it(`${name}: stageGpuMs is positive for every GPU stage and the picture is the same without timing`, async () => {
      const frame = await frameFromText(SCENE(opacity));
      const timed = await render(gpu(), frame);
      const { stageGpuMs, stageMs, opaqueFastPath } = timed.rendered.stats;
      expect(opaqueFastPath).toBe(!sorted);
      expect(stageGpuMs).toBeDefined();
      for (const stage of ['boundSplit', 'dice', 'shade', 'sample', 'filter'] as const) {
        expect(stageGpuMs![stage], stage).toBeGreaterThan(0);
        expect(stageMs[stage], stage).toBeGreaterThan(0);
      }
      // Sorting and compositing run only off the fast path.
      if (sorted) expect(stageGpuMs!.composite).toBeGreaterThan(0);
      else expect(stageGpuMs!.composite).toBe(0);
      expect(stageGpuMs!.convert).toBe(0);
      // Per kernel: the opaque path's depth pass, or the transparent path's write and composite passes,
      // and the filter; their sum is the stages'.
      const { passGpuMs } = timed.rendered.stats;
      const kernels = Object.keys(passGpuMs!);
      expect(kernels).toContain('image-filter.wgsl:filterPixels');
      expect(kernels).toContain(sorted ? 'reyes-sample-pinhole.wgsl:writeSamples' : 'reyes-sample-pinhole.wgsl:opaqueDepth');
      const stagesSum = Object.values(stageGpuMs!).reduce((a, b) => a + b, 0);
      const passesSum = Object.values(passGpuMs!).reduce((a, b) => a + b, 0);
      expect(passesSum).toBeCloseTo(stagesSum, 3);
      const plain = await render(gpu(), frame, { gpuTimings: false });
      expect(plain.rendered.stats.stageGpuMs).toBeUndefined();
      expect(plain.rendered.stats.passGpuMs).toBeUndefined();
      expect(compareImages(plain.image, timed.image).max).toBe(0);
    });
  }
});

describe('pipelines created per frame', () => {
  const gpu = useGpuRuntime();

  it('counts the compute pipelines a first frame creates, and none for the same frame again on the device', async () => {
    const frame = await frameFromText(SCENE(1));
    const first = await render(gpu(), frame);
    // Bound/split, dice, shade, the opaque sampling passes and the filter at least.
    expect(first.rendered.stats.pipelinesCreated).toBeGreaterThanOrEqual(6);
    // The frame asked for every one of them before its first stage ran (frame/prewarm.ts).
    expect(first.rendered.stats.pipelinesCreatedOnUse).toBe(0);
    const again = await render(gpu(), frame);
    expect(again.rendered.stats.pipelinesCreated).toBe(0);
  });

  it('a see-through frame also asks for its sampling and compositing pipelines up front', async () => {
    const seeThrough = await render(gpu(), await frameFromText(SCENE(0.5)));
    expect(seeThrough.rendered.stats.opaqueFastPath).toBe(false);
    // Its count and write passes and the two compositing passes (link, composite) at least are new on this device.
    expect(seeThrough.rendered.stats.pipelinesCreated).toBeGreaterThanOrEqual(4);
    expect(seeThrough.rendered.stats.pipelinesCreatedOnUse).toBe(0);
  });
});
