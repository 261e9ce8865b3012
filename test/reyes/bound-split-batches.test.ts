// Bound/split over records in batches (boundSplitBatches): each batch is uploaded once per region,
// and the region gets the ready pieces the unbatched bound/split gives it, and every record whose
// bound touches it (what its halves start from), also when it is given up.
import { describe, expect, it } from 'vitest';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import { PIECE } from '../../src/layout/ready-piece.ts';
import type { FrameGpu, Region } from '../../src/reyes/frame-gpu.ts';
import { pieceRecords, recordSource, type RecordSource } from '../../src/reyes/frame/record-batches.ts';
import type { PrimitiveRecords } from '../../src/reyes/primitive-record.ts';
import { boundSplit, boundSplitBatches, type SplitPieces, gaveUp } from '../../src/reyes/stages/bound-split.ts';
import { useGpuRuntime, withBindingLimit } from '../gpu/gpu-fixture.ts';
import { boundSplitFrame } from './bound-split-frame.ts';
import { frameFromText } from './render-helpers.ts';

const KiB = 1024;

/** 12 × 8 small spheres over a 32 × 32 picture, some split into several pieces (one is large). */
function scene(): string {
  const spheres: string[] = [];
  for (let j = 0; j < 8; j++) {
    for (let i = 0; i < 12; i++) spheres.push(`TransformBegin Translate ${(i - 5.5) * 0.2} ${(j - 3.5) * 0.25} 0 Sphere 0.06 -0.06 0.06 360 TransformEnd`);
  }
  return `Format 32 32 1\nShadingRate 4\nProjection "perspective" "fov" 40\nTranslate 0 0 3.2\nWorldBegin\n${spheres.join('\n')}\nSphere 0.3 -0.3 0.3 360\nWorldEnd`;
}

async function setUp(runtime: GpuRuntime): Promise<{ frame: FrameGpu; records: PrimitiveRecords }> {
  return boundSplitFrame(runtime, await frameFromText(scene()), 16);
}

/** The ready pieces, each as its frame record and parameter range, sorted. */
async function pieces(runtime: GpuRuntime, split: SplitPieces, source?: RecordSource): Promise<string[]> {
  const words = await runtime.readU32(split.buffer, split.count * PIECE.words);
  runtime.allocator.release(split.buffer);
  const records = source ? pieceRecords(source, words, split.count, split.batchEnds) : undefined;
  return Array.from({ length: split.count }, (_, k) => {
    const piece = Array.from(words.subarray(k * PIECE.words, (k + 1) * PIECE.words));
    if (records) piece[PIECE.prim] = records[k]!;
    return piece.join(' ');
  }).sort();
}

describe('bound/split over record batches', () => {
  const gpu = useGpuRuntime();
  const left: Region = { x0: 0, y0: 0, x1: 12, y1: 32 };

  it('uploads each batch once and gives the unbatched ready pieces and the records touching the region', async () => {
    // 16 KiB holds 33 records: the 97 records come in 3 batches.
    const runtime = withBindingLimit(gpu(), 16 * KiB);
    const { frame, records } = await setUp(runtime);
    try {
      const reference = await boundSplit(frame, left);
      if (gaveUp(reference)) throw new Error('bound/split gave up without a limit');
      const expected = await pieces(runtime, reference);
      const whole = recordSource(runtime, records);
      expect(whole.batches).toHaveLength(3);
      let uploads = 0;
      const source: RecordSource = { ...whole, upload: (batch) => (uploads++, whole.upload(batch)) };
      const { touching, split } = await boundSplitBatches(frame, left, Infinity, source);
      expect(uploads).toBe(3);
      const got = await pieces(runtime, split!, source);
      expect(got).toEqual(expected);
      expect(got.length).toBeGreaterThan(new Set(got.map((p) => p.split(' ')[PIECE.prim])).size);
      // The touching records: those of the pieces, and no sphere of the right half.
      const kept = Array.from(touching.indices!);
      expect(new Set(kept)).toEqual(new Set(got.map((p) => Number(p.split(' ')[PIECE.prim]))));
      expect(kept.length).toBeLessThan(records.count / 2);

      // Given up (one piece fewer allowed than it makes): no pieces, the same touching records.
      const given = await boundSplitBatches(frame, left, expected.length - 1, whole);
      expect(given.split).toBeUndefined();
      expect(Array.from(given.touching.indices!)).toEqual(kept);
    } finally {
      runtime.allocator.release(frame.prims);
      runtime.allocator.release(frame.userCorners);
    }
  });
});
