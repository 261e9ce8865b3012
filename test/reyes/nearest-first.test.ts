// The opaque path's depth pass takes a dicing bin's grids nearest first (orderNearestFirst): three
// spheres at disjoint depths, given far, near, middle, must come out with every grid of the near one
// before the middle one's and those before the far one's, whatever the order they were diced in.
import { describe, expect, it } from 'vitest';
import { PIECE } from '../../src/layout/ready-piece.ts';
import type { FrameGpu } from '../../src/reyes/frame-gpu.ts';
import { boundSplit, gaveUp } from '../../src/reyes/stages/bound-split.ts';
import { dice, releaseGrids } from '../../src/reyes/stages/dice.ts';
import { allocateCounts, orderNearestFirst, releaseCounts } from '../../src/reyes/stages/sample.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { boundSplitFrame } from './bound-split-frame.ts';
import { frameFromText } from './render-helpers.ts';

// Record 0 at depth 15, record 1 at 5, record 2 at 10 (radius 1: nearest vertices in [14, 16],
// [4, 6] and [9, 11]); grids of 4 × 4 vertices, several a sphere.
const SCENE = `Format 48 48 1
PixelSamples 2 2
ShadingRate 2
Projection "perspective" "fov" 40
WorldBegin
AttributeBegin Translate 0.8 0 15 Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Translate -0.5 0.3 5 Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Translate 0 -0.5 10 Sphere 1 -1 1 360 AttributeEnd
WorldEnd`;

describe('the opaque depth pass takes the grids nearest first', () => {
  const gpu = useGpuRuntime();

  it('orders the grids of nearer spheres first', async () => {
    const runtime = gpu();
    const made = boundSplitFrame(runtime, await frameFromText(SCENE), 16).frame;
    const frame = { ...made, nx: 2, ny: 2, pipelines: [], recordUses: { trims: false, detailLevels: false } } as FrameGpu;
    try {
      const ready = await boundSplit(frame, { x0: 0, y0: 0, x1: 48, y1: 48 });
      if (gaveUp(ready)) throw new Error('bound/split gave up without a limit');
      const diced = await dice(frame, ready);
      const counts = allocateCounts(frame, diced);
      try {
        await orderNearestFirst(frame, ready, diced, counts);
        const order = await runtime.readU32(counts.nearestFirst!, diced.count);
        const pieces = await runtime.readU32(ready.buffer, ready.count * PIECE.words);
        const records = Array.from(order, (g) => pieces[g * PIECE.words + PIECE.prim]!);
        // Every grid once.
        expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: diced.count }, (_, g) => g));
        for (const record of [0, 1, 2]) expect(records.filter((r) => r === record).length).toBeGreaterThan(4);
        // Near (record 1), then middle (2), then far (0), and the ready list holds them otherwise.
        const rank = [2, 0, 1];
        for (let k = 1; k < records.length; k++) expect(rank[records[k]!]!).toBeGreaterThanOrEqual(rank[records[k - 1]!]!);
        expect(pieces[PIECE.prim]).not.toBe(1);
      } finally {
        releaseCounts(frame, counts);
        releaseGrids(frame, diced);
        runtime.allocator.release(ready.buffer);
      }
    } finally {
      runtime.allocator.release(made.prims);
      runtime.allocator.release(made.userCorners);
    }
  });
});
