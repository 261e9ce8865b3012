// Primitive records taking more than half the budget are batched as records past one binding are
// (frame/record-batches.ts): resident whole they would leave too little of it for any region's
// grids (a 100k-face subdivision mesh's 48 MiB of records under a 64 MiB budget failed with "the
// memory budget cannot hold the grids of a single pixel"). Such a frame renders within the budget
// and gives the picture it gives under a budget that holds its records easily.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { RECORD } from '../../src/layout/primitive-record.ts';
import { RECORDS_SHARE } from '../../src/reyes/frame/record-batches.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';
import { mesh } from './wavy-mesh.ts';

const MiB = 1024 * 1024;
const BUDGET = 4 * MiB;

/** A frame of one wavy n × n bilinear PatchMesh (n² records). */
function scene(n: number): string {
  return `Format 64 48 1
PixelSamples 2 2
ShadingRate 4
Projection "perspective" "fov" 50
Translate 0 0 2.6
Rotate -15 1 0 0
WorldBegin
${mesh(n, 0)}
WorldEnd`;
}

describe('primitive records past half the budget', () => {
  const gpu = useGpuRuntime();

  it('are batched: the frame renders within the budget as it renders under a large one', async () => {
    const frame = await frameFromText(scene(80));
    const options = { maxVertices: 16 };
    const reference = await render(gpu(), frame, { ...options, budgetBytes: 256 * MiB });
    // Records over 70% of the budget: whole, they and the sampling reserve leave no room for grids.
    expect(reference.rendered.stats.primitiveRecords * RECORD.floats * 4).toBeGreaterThan(0.7 * BUDGET);
    expect(0.7).toBeGreaterThan(RECORDS_SHARE);
    const small = await render(gpu(), frame, { ...options, budgetBytes: BUDGET });
    expect(small.rendered.warnings).toEqual([]);
    expect(small.rendered.stats.peakBytes).toBeLessThanOrEqual(BUDGET);
    expect(small.rendered.stats.dicingRegions).toBeGreaterThan(reference.rendered.stats.dicingRegions);
    expect(compareImages(small.image, reference.image).max).toBeLessThanOrEqual(1);
  }, 300_000);
});
