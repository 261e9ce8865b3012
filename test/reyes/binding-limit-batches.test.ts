// Primitive records past one storage binding: bound/split takes them in batches that each fit a
// binding and every dicing region binds only the records it uses (frame/record-batches.ts), so a
// frame whose records are several times the binding limit renders the picture, the output
// variables and the primitive under each pixel that it renders with no limit.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { RECORD } from '../../src/layout/primitive-record.ts';
import { PIECE } from '../../src/layout/ready-piece.ts';
import { JOIN_HALF, JOIN_HALVES, PrimitiveRecords } from '../../src/reyes/primitive-record.ts';
import { packRegionRecords, pieceRecords, recordBatches, recordSource } from '../../src/reyes/frame/record-batches.ts';
import { BindingLimitError } from '../../src/reyes/errors.ts';
import { useGpuRuntime, withBindingLimit } from '../gpu/gpu-fixture.ts';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import { frameFromText, render } from './render-helpers.ts';
import { mesh } from './wavy-mesh.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
/** The faked binding limit: a grid of 16 vertices fits it, the scene's records are over 5 times it. */
const LIMIT = 64 * KiB;
/** Each render below the limit works through over a hundred dicing regions, each reading every record
 * batch: minutes on a busy 2-core machine with a cold shader cache. */
const RENDER_TIMEOUT = 600_000;

function scene(transparent: boolean): string {
  return `Format 128 96 1
PixelSamples 2 2
ShadingRate 4
Projection "perspective" "fov" 50
Translate 0 0 2.6
Rotate -15 1 0 0
WorldBegin
${mesh(24, 0)}
${transparent ? 'Opacity [0.5 0.5 0.5]' : ''}
TransformBegin
Translate 0.3 0.2 -0.3
Scale 0.5 0.5 0.5
${mesh(16, 0)}
TransformEnd
WorldEnd`;
}

describe('primitive records batched to the binding limit', () => {
  const gpu = useGpuRuntime();

  it('renders an opaque frame whose records are over 5 times one binding as it renders unlimited', async () => {
    const frame = await frameFromText(scene(false));
    const options = { budgetBytes: 64 * MiB, maxVertices: 16, primitiveIds: true, outputVariables: [{ name: 'foo' }] };
    const reference = await render(gpu(), frame, options);
    expect(reference.rendered.stats.primitiveRecords * RECORD.floats * 4).toBeGreaterThan(5 * LIMIT);
    const limited = await render(withBindingLimit(gpu(), LIMIT), frame, options);
    expect(limited.rendered.warnings).toEqual([]);
    expect(limited.rendered.stats.dicingRegions).toBeGreaterThan(reference.rendered.stats.dicingRegions);
    expect(compareImages(limited.image, reference.image).max).toBeLessThanOrEqual(1);
    // The primitives under the pixels: mapped back from each region's records to the scene's.
    expect(Array.from(limited.rendered.primitiveIds!)).toEqual(Array.from(reference.rendered.primitiveIds!));
    expect(new Set(reference.rendered.primitiveIds)).toEqual(new Set([-1, 0, 1]));
    // The user variable comes from each record's auxiliary block, rebased in the packed records.
    const foo = (r: typeof reference): Float32Array => r.rendered.variables.get('foo')!.image.rgba;
    const difference = Math.max(...foo(limited).map((v, k) => Math.abs(v - foo(reference)[k]!)));
    expect(difference).toBeLessThanOrEqual(1 / 255);
    expect(Math.max(...foo(reference))).toBeGreaterThan(0.5);
  }, RENDER_TIMEOUT);

  it('renders a transparent frame past the limit as it renders unlimited', async () => {
    const frame = await frameFromText(scene(true));
    const reference = await render(gpu(), frame, { budgetBytes: 64 * MiB, maxVertices: 16 });
    expect(reference.rendered.stats.opaqueFastPath).toBe(false);
    const limited = await render(withBindingLimit(gpu(), LIMIT), frame, { budgetBytes: 64 * MiB, maxVertices: 16 });
    expect(limited.rendered.stats.dicingRegions).toBeGreaterThan(reference.rendered.stats.dicingRegions);
    expect(compareImages(limited.image, reference.image).max).toBeLessThanOrEqual(1);
  }, RENDER_TIMEOUT);

  it('cuts the records into runs whose records and auxiliary values each fit a binding', () => {
    const bytes = RECORD.floats * 4;
    const none = (): number => 0;
    expect(recordBatches(10, none, 4 * bytes)).toEqual([{ first: 0, count: 4 }, { first: 4, count: 4 }, { first: 8, count: 2 }]);
    expect(recordBatches(3, none, 4 * bytes - 1)).toEqual([{ first: 0, count: 3 }]);
    // Auxiliary blocks of 100 floats (400 bytes): two to a binding of 2 records' bytes.
    const limit = 2 * bytes;
    expect(recordBatches(5, () => Math.floor(limit / 4 / 2), limit)).toEqual([{ first: 0, count: 2 }, { first: 2, count: 2 }, { first: 4, count: 1 }]);
    expect(recordBatches(3, (k) => (k === 1 ? limit / 4 : 1), limit)).toEqual([{ first: 0, count: 1 }, { first: 1, count: 1 }, { first: 2, count: 1 }]);
    expect(() => recordBatches(3, none, bytes - 1)).toThrow(`a primitive record with its auxiliary values (${bytes} + 0 bytes) passes one storage binding of this device (${bytes - 1} bytes)`);
    expect(() => recordBatches(3, () => limit, limit)).toThrow(BindingLimitError);
    // A share of the budget bounds records and auxiliary values together; a record passing it alone
    // is a batch of its own.
    expect(recordBatches(5, () => 10, 4 * bytes, 2 * bytes + 80)).toEqual([{ first: 0, count: 2 }, { first: 2, count: 2 }, { first: 4, count: 1 }]);
    expect(recordBatches(3, (k) => (k === 1 ? 100 : 0), 4 * bytes, bytes)).toEqual([{ first: 0, count: 1 }, { first: 1, count: 1 }, { first: 2, count: 1 }]);
  });

  it('packs a region\'s records with their auxiliary blocks and joined edges, pieces rebased', () => {
    // Records 0..4 with one user row each (4 corner values = 10 × record + corner).
    const records = new PrimitiveRecords(4);
    const base = { kind: 'bilinear' as const, flags: 0, shadingRate: 1, displacementBound: 0, objectToCamera: new Float32Array(16),
      geometry: new Float32Array(12), s: [0, 0, 0, 0], t: [0, 0, 0, 0], Cs: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], Os: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] };
    for (let r = 0; r < 5; r++) records.add({ ...base, paramBase: 100 + r, pipeline: r % 2, user: [10 * r, 10 * r + 1, 10 * r + 2, 10 * r + 3] }, r);
    records.join(1, 3, 4, 2, true);
    records.join(0, 0, 2, 1, false);
    // A T-junction: record 4's edge 1 is half of record 3's edge 0 (a subdivision mesh's levels).
    records.joinHalf(3, 0, 4, 1, true);
    // A binding of three records: batches [0, 3) and [3, 5). The pieces: batch 0's record 1, then
    // batch 1's records 1 (= 4) and 0 (= 3), record 4 again.
    const gpu = { maxBindingBytes: () => 3 * RECORD.floats * 4, allocator: { budget: 64 << 20 } } as unknown as GpuRuntime;
    const source = recordSource(gpu, records);
    expect(source.batches).toEqual([{ first: 0, count: 3 }, { first: 3, count: 2 }]);
    const pieces = new Uint32Array(4 * PIECE.words);
    [1, 1, 0, 1].forEach((p, k) => (pieces[k * PIECE.words + PIECE.prim] = p));
    pieces[PIECE.words + PIECE.nu] = 9;
    const ofPiece = pieceRecords(source, pieces, 4, [1, 4]);
    expect(Array.from(ofPiece)).toEqual([1, 4, 3, 4]);
    // A narrowed source (records 1, 3, 4 in one batch) maps its positions back the same way.
    const narrowed = source.of(Uint32Array.from([1, 3, 4]));
    expect(narrowed.batches).toEqual([{ first: 0, count: 3 }]);
    expect(Array.from(pieceRecords(narrowed, Uint32Array.from([0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]), 2, [2]))).toEqual([1, 4]);
    // Subsets of subsets name the frame's records (a region's halves start from the records it kept).
    const kept = source.of(Uint32Array.from([0, 2, 3, 4])).subset(Uint32Array.from([1, 3])).subset(Uint32Array.from([1]));
    expect(Array.from(kept.indices!)).toEqual([4]);
    expect(kept.batches).toEqual([{ first: 0, count: 1 }]);
    // Resident records (batched for the binding, not the budget): a narrowed source's batches are
    // the frame's batches it draws from, its records at their indices there, as pieces name them.
    const resident = recordSource(gpu, records, []);
    const residentNarrowed = resident.of(Uint32Array.from([1, 3, 4]));
    expect(residentNarrowed.batches).toEqual([
      { first: 0, count: 1, resident: { batch: 0, local: Uint32Array.from([1]) } },
      { first: 1, count: 2, resident: { batch: 1, local: Uint32Array.from([0, 1]) } },
    ]);
    expect(Array.from(pieceRecords(residentNarrowed, Uint32Array.from([1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]), 2, [1, 2]))).toEqual([1, 4]);
    expect(residentNarrowed.subset(Uint32Array.from([2])).batches).toEqual([{ first: 0, count: 1, resident: { batch: 1, local: Uint32Array.from([1]) } }]);
    const packed = packRegionRecords(records, ofPiece, pieces, 4);
    expect(Array.from(packed.global)).toEqual([1, 3, 4]);
    expect([0, 1, 2, 3].map((k) => pieces[k * PIECE.words + PIECE.prim])).toEqual([0, 2, 1, 2]);
    expect(pieces[PIECE.words + PIECE.nu]).toBe(9);
    expect(Array.from(packed.paramBase)).toEqual([101, 103, 104]);
    expect(Array.from(packed.pipeline)).toEqual([1, 1, 0]);
    const words = new Uint32Array(packed.floats.buffer);
    const userOf = (k: number): number[] => Array.from(packed.userFloats.subarray(words[k * RECORD.floats + RECORD.aux]!, words[k * RECORD.floats + RECORD.aux]! + 4));
    expect([0, 1, 2].map(userOf)).toEqual([[10, 11, 12, 13], [30, 31, 32, 33], [40, 41, 42, 43]]);
    // Record 1's edge 3 meets record 4's edge 2 reversed (packed 0 and 2); record 0's join is left out;
    // the T-junction keeps its flags (packed 1 and 2).
    expect(Array.from(packed.edgeNeighbours)).toEqual([-1, -1, -1, (2 * 4 + 2) * 2 + 1, ((2 * 4 + 1) * 2 + 1) | JOIN_HALVES, -1, -1, -1,
      -1, ((1 * 4 + 0) * 2 + 1) | JOIN_HALF, (0 * 4 + 3) * 2 + 1, -1]);
  });
});
