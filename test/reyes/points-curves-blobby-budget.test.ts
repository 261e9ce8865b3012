// Budget invariance for Points, Curves and Blobby: their feature scenes rendered under a small memory
// budget (forcing dicing and sampling splits) and in bucket mode give the picture of a large budget,
// and the allocator's peak stays within the budget.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { loadFrame, render, ROOT } from './render-helpers.ts';

const MiB = 1024 * 1024;

describe('Points, Curves and Blobby under any budget', () => {
  const gpu = useGpuRuntime();

  // The smallest budgets that hold them: a pixel's grids of overlapping hair; Embree's fur ball (22785
  // segment records) needs 24 MiB for the grids of its densest pixels. The Blobby (a thousand coarse
  // patches, diced on the GPU) is split in dicing and in sampling at 4 MiB.
  for (const [name, budget] of [['points', 4], ['curves-linear', 4], ['curves-cubic-hair', 12], ['blobby', 4], ['curves-furball', 24]] as const) {
    it(`${name}: ${budget} MiB and bucket mode give the picture of 256 MiB`, async () => {
      const frame = await loadFrame(path.join(ROOT, 'scenes/features', `${name}.rib`));
      const reference = await render(gpu(), frame, { budgetBytes: 256 * MiB });
      const small = await render(gpu(), frame, { budgetBytes: budget * MiB });
      expect(small.rendered.stats.peakBytes).toBeLessThanOrEqual(budget * MiB);
      expect(small.rendered.stats.dicingSplits + small.rendered.stats.samplingSplits).toBeGreaterThan(0);
      expect(compareImages(small.image, reference.image).max).toBeLessThanOrEqual(1);
      const bucket = await render(gpu(), frame, { budgetBytes: 256 * MiB, bucketSize: 16 });
      expect(compareImages(bucket.image, reference.image).max).toBeLessThanOrEqual(1);
    });
  }
});
