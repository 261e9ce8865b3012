// Bound/split halves a ready piece that reaches far past a small dicing region (REGION_SPLIT in
// reyes-bound-split.wgsl), its halves keeping its grid's vertices: long thin diagonal pieces (a
// hair ball's) have boxes covering far more pixels than they touch, so without it every region they
// crossed diced them whole, and where many crossed one pixel the region could not shrink enough to
// fit the budget ("the memory budget cannot hold the grids of a single pixel").
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const MiB = 1024 * 1024;

/** `count` parallel diagonal ribbons across a 64 × 64 orthographic view of [-1, 1]², 0.01 wide
 * (a third of a pixel), about a pixel apart. */
function hatching(count: number): string {
  const points: number[] = [];
  for (let k = 0; k < count; k++) {
    const offset = -1.9 + (3.8 * k) / (count - 1);
    points.push(-1.2, -1.2 + offset, 0, 1.2, 1.2 + offset, 0);
  }
  return `Format 64 64 1
PixelSamples 2 2
Projection "orthographic"
ScreenWindow -1 1 -1 1
WorldBegin
Surface "constant"
Curves "linear" [${new Array(count).fill(2).join(' ')}] "nonperiodic" "P" [${points.join(' ')}] "constantwidth" [0.01]
WorldEnd`;
}

describe('region splits', () => {
  const gpu = useGpuRuntime();

  it('a small budget renders long thin pieces crossing in every pixel as a large one does', async () => {
    const frame = await frameFromText(hatching(120));
    const reference = await render(gpu(), frame, { budgetBytes: 256 * MiB });
    expect(reference.rendered.stats.dicingRegions).toBe(1);
    const small = await render(gpu(), frame, { budgetBytes: 3 * MiB });
    expect(small.rendered.warnings).toEqual([]);
    expect(small.rendered.stats.peakBytes).toBeLessThanOrEqual(3 * MiB);
    expect(small.rendered.stats.dicingRegions).toBeGreaterThan(1);
    // The halves keep the whole piece's vertices: the same micropolygons cover the same samples.
    expect(compareImages(small.image, reference.image).max).toBeLessThanOrEqual(1);
  }, 300_000);
});
