// Bound/split halves a ready piece that reaches far past a small dicing region (REGION_SPLIT in
// reyes-bound-split.wgsl), its halves keeping its grid's vertices: long thin diagonal pieces (a
// hair ball's) have boxes covering far more pixels than they touch, so without it every region they
// crossed diced them whole, and where many crossed one pixel the region could not shrink enough to
// fit the budget ("the memory budget cannot hold the grids of a single pixel"). A ready piece whose
// box reaches past a cut between two regions is halved too (CUT_SPLIT), so that the hair ball's
// micropolygons per curve stay about the same however many regions the frame is cut into.
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

/** `count` cubic curves from radius 0.45 out to 0.95 along directions spread over the sphere (a
 * golden-angle spiral), bent sideways, seen in perspective at 320 × 180: 0.008 wide, about 0.6 pixel. */
function hairBall(count: number): string {
  const points: string[] = [];
  for (let i = 0; i < count; i++) {
    const z = 1 - (2 * (i + 0.5)) / count;
    const [phi, r] = [i * Math.PI * (3 - Math.sqrt(5)), Math.sqrt(1 - z * z)];
    const [dx, dy, dz] = [r * Math.cos(phi), r * Math.sin(phi), z];
    for (let k = 0; k < 4; k++) {
      const [radius, bend] = [0.45 + (0.5 * k) / 3, 0.04 * k * k];
      points.push(`${radius * dx - bend * dy} ${radius * dy + bend * dx} ${radius * dz}`);
    }
  }
  return `Format 320 180 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 3.4
Rotate -55 1 0 0
WorldBegin
Surface "matte"
Curves "cubic" [${new Array(count).fill(4).join(' ')}] "nonperiodic" "P" [${points.join(' ')}] "constantwidth" [0.008]
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

  it('a hair ball cut into 60 regions dices under twice the micropolygons of one region, with the same picture', async () => {
    const frame = await frameFromText(hairBall(400));
    const whole = await render(gpu(), frame, { budgetBytes: 256 * MiB });
    expect(whole.rendered.stats.dicingRegions).toBe(1);
    const cut = await render(gpu(), frame, { budgetBytes: 256 * MiB, bucketSize: 32 });
    expect(cut.rendered.stats.dicingRegions).toBe(60);
    // Each piece diced whole in every region its box touched took 3.7 times those of one region.
    // Halving pieces at the cuts brought it to 1.74 (20,688 and 36,048). Since ribbons dice at rates
    // of three significant bits rather than powers of two, one region dices 15,292 and 60 regions
    // 36,118: 2.36, the cut regions' pieces halving on coarser lattices (a piece of 20 stops where
    // one of 32 went on to 16).
    expect(cut.rendered.stats.micropolygons).toBeLessThan(2.5 * whole.rendered.stats.micropolygons);
    expect(compareImages(cut.image, whole.image).max).toBeLessThanOrEqual(1);
  }, 300_000);
});
