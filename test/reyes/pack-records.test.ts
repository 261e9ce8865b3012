// packRecords gives each chosen record's words unchanged but for RECORD.aux, which points at the
// record's own auxiliary block copied into the packed values: checked record by record against the
// source records (a NaN's payload included), for scattered indices, a long consecutive run and a mix.
import { describe, expect, it } from 'vitest';
import { PrimitiveRecords } from '../../src/reyes/primitive-record.ts';
import { RECORD } from '../../src/layout/primitive-record.ts';
import { packRecords } from '../../src/reyes/frame/record-batches.ts';

function records(count: number): PrimitiveRecords {
  // Two user rows (8 corner values) a record, and a motion block of 1 to 5 values on every third:
  // auxiliary blocks of different lengths.
  const made = new PrimitiveRecords(8);
  for (let r = 0; r < count; r++) {
    // Every word different, and a NaN whose payload a float copy could change.
    const geometry = Float32Array.from({ length: 12 }, (_, k) => r * 100 + k);
    new Uint32Array(geometry.buffer)[11] = 0x7fa00000 + r;
    made.add({
      kind: 'bilinear', flags: 0, shadingRate: 1 + r, displacementBound: 0, objectToCamera: Float32Array.from({ length: 16 }, (_, k) => r + k / 16),
      geometry, s: [r, 0, 0, 0], t: [0, r, 0, 0], Cs: Array(12).fill(r), Os: Array(12).fill(1), paramBase: 7 * r, pipeline: r % 3,
      user: Array.from({ length: 8 }, (_, k) => 1000 * r + k),
      ...(r % 3 === 1 ? { motion: Float32Array.from({ length: 1 + (r % 5) }, (_, k) => -1000 * r - k) } : {}),
    }, r);
  }
  return made;
}

describe('packRecords', () => {
  const source = records(600);
  const words = new Uint32Array(source.floats().buffer, source.floats().byteOffset, source.floats().length);
  const user = source.userFloatsData();
  const block = (r: number): number[] => {
    const start = words[r * RECORD.floats + RECORD.aux]!;
    const end = r + 1 < source.count ? words[(r + 1) * RECORD.floats + RECORD.aux]! : user.length;
    return Array.from(user.subarray(start, end));
  };

  it.each([
    ['scattered', [5, 9, 2, 77, 78, 400, 3]],
    ['one long run', Array.from({ length: 300 }, (_, k) => 100 + k)],
    ['runs and single records', [0, 1, 2, 50, ...Array.from({ length: 40 }, (_, k) => 200 + k), 599]],
  ])('%s: each record as it was, its aux block beside it', (_, indices) => {
    const packed = packRecords(source, indices);
    const packedWords = new Uint32Array(packed.floats.buffer);
    expect(packed.floats.length).toBe(indices.length * RECORD.floats);
    let at = 0;
    indices.forEach((r, k) => {
      const got = packedWords.subarray(k * RECORD.floats, (k + 1) * RECORD.floats);
      const want = words.subarray(r * RECORD.floats, (r + 1) * RECORD.floats);
      for (let w = 0; w < RECORD.floats; w++) if (w !== RECORD.aux) expect(got[w], `record ${r} word ${w}`).toBe(want[w]);
      expect(got[RECORD.aux]).toBe(at);
      const own = block(r);
      expect(Array.from(packed.userFloats.subarray(at, at + own.length)), `record ${r}'s block`).toEqual(own);
      at += own.length;
    });
  });
});
