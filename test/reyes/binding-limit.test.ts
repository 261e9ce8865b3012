// Each GPU buffer of a region must fit one storage binding (128 MiB on lavapipe and many GPUs),
// whatever the budget: the schedulers split regions for the binding limit as they do for memory.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { useGpuRuntime, withBindingLimit } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const MiB = 1024 * 1024;

const SCENE = `Format 96 72 1
PixelSamples 8 8
ShadingRate 16
Projection "perspective" "fov" 45
Translate 0 0 4
WorldBegin
Opacity [0.6 0.6 0.6]
Color [0.9 0.4 0.2]
Sphere 1 -1 1 360
Translate 0.6 0.3 0.5
Color [0.2 0.5 0.9]
Sphere 0.8 -0.8 0.8 360
WorldEnd`;

describe('storage binding limit', () => {
  const gpu = useGpuRuntime();

  it('splits sampling regions whose sample points would not fit one binding, with the same picture', async () => {
    const frame = await frameFromText(SCENE);
    const reference = await render(gpu(), frame, { budgetBytes: 256 * MiB });
    expect(reference.rendered.stats.samplingSplits).toBe(0);
    const limited = await render(withBindingLimit(gpu(), MiB), frame, { budgetBytes: 256 * MiB });
    expect(reference.rendered.stats.samplePoints * 32).toBeGreaterThan(MiB);
    expect(limited.rendered.stats.samplingSplits).toBeGreaterThan(0);
    expect(limited.rendered.stats.peakBytes).toBeLessThanOrEqual(256 * MiB);
    expect(compareImages(limited.image, reference.image).max).toBeLessThanOrEqual(1);
  });
});
