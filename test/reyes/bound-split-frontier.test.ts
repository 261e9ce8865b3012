// A region bound/split gives up on hands its halves the pieces it had then (GaveUp.frontier): each
// half bounds and splits on from them and must get the ready pieces it gets from the records whole,
// without splitting again the levels the region split.
import { describe, expect, it } from 'vitest';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import { PIECE } from '../../src/layout/ready-piece.ts';
import type { FrameGpu, Region } from '../../src/reyes/frame-gpu.ts';
import { boundSplit, gaveUp } from '../../src/reyes/stages/bound-split.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { boundSplitFrame } from './bound-split-frame.ts';
import { frameFromText } from './render-helpers.ts';

// Grids of 2 × 2 vertices (one micropolygon, never cut by a region split): three spheres make
// hundreds of pieces over about ten levels.
const SCENE = `Format 32 32 1
PixelSamples 2 2
ShadingRate 8
Projection "perspective" "fov" 40
Translate 0 0 3.2
WorldBegin
Color [0.9 0.5 0.2]
AttributeBegin Translate -0.6 0 0 Sphere 0.5 -0.5 0.5 360 AttributeEnd
AttributeBegin Translate 0.6 0 0.5 Sphere 0.6 -0.6 0.6 360 AttributeEnd
AttributeBegin Translate 0 0.5 -0.3 Sphere 0.4 -0.4 0.4 360 AttributeEnd
WorldEnd`;

const WHOLE: Region = { x0: 0, y0: 0, x1: 32, y1: 32 };
const HALVES: Region[] = [{ x0: 0, y0: 0, x1: 16, y1: 32 }, { x0: 16, y0: 0, x1: 32, y1: 32 }];

/** The ready pieces of `region`, one string per piece, sorted, and the bound/split iterations it took. */
async function readyPieces(runtime: GpuRuntime, frame: FrameGpu, region: Region, from?: Uint32Array): Promise<{ pieces: string[]; iterations: number }> {
  const before = frame.stats.boundSplitIterations;
  const ready = await boundSplit(frame, region, Infinity, undefined, from);
  if (gaveUp(ready)) throw new Error('bound/split gave up without a limit');
  const words = await runtime.readU32(ready.buffer, ready.count * PIECE.words);
  runtime.allocator.release(ready.buffer);
  const pieces = Array.from({ length: ready.count }, (_, k) => Array.from(words.subarray(k * PIECE.words, (k + 1) * PIECE.words)).join(' ')).sort();
  return { pieces, iterations: frame.stats.boundSplitIterations - before };
}

describe('bound/split hands a region it gives up on to its halves', () => {
  const gpu = useGpuRuntime();

  it('gives each half the ready pieces it gets from the records, in fewer iterations', async () => {
    const runtime = gpu();
    const { frame } = boundSplitFrame(runtime, await frameFromText(SCENE), 4);
    try {
      const whole = await readyPieces(runtime, frame, WHOLE);
      // Given up once a third of its ready pieces are made: most levels are split by then.
      const given = await boundSplit(frame, WHOLE, Math.floor(whole.pieces.length / 3));
      if (!gaveUp(given)) throw new Error('bound/split did not give up past its limit');
      const frontier = given.frontier;
      expect(frontier.length % PIECE.words).toBe(0);
      // Ready pieces, and pieces still to split: some at depth 0 (records), most deeper.
      const depths = Array.from({ length: frontier.length / PIECE.words }, (_, k) => frontier[k * PIECE.words + PIECE.splits]! & 0xffff);
      expect(Math.max(...depths)).toBeGreaterThan(4);
      for (const half of HALVES) {
        const fromRecords = await readyPieces(runtime, frame, half);
        const fromFrontier = await readyPieces(runtime, frame, half, frontier);
        expect(fromRecords.pieces.length).toBeGreaterThan(50);
        expect(fromFrontier.pieces).toEqual(fromRecords.pieces);
        expect(fromFrontier.iterations).toBeLessThan(fromRecords.iterations);
      }
    } finally {
      runtime.allocator.release(frame.prims);
      runtime.allocator.release(frame.userCorners);
    }
  });
});
