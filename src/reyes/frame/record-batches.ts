// Primitive records past one storage binding, or past RECORDS_SHARE of the budget (resident whole,
// they would leave too little of it for the grids): bound/split takes them in batches that each
// fit a binding and BATCH_SHARE of the budget (uploaded one at a time; the ready pieces carry the
// batch-local index), and each dicing region then binds only the records its ready
// pieces came from, packed into buffers of its own with the pieces' indices rebased to them. A
// region split after its bound/split hands its halves only the records its pieces came from, or,
// when bound/split gave up, the records its first level kept (RecordSource.subset). Records
// batched for the binding limit alone (within RECORDS_SHARE of the budget) are not packed per
// region: their batches stay on the GPU for the frame (ResidentRecords) and a region's bound/split
// reads its records at their indices there.
import { JOIN_HALF, JOIN_HALVES, type PrimitiveRecords } from '../primitive-record.ts';
import { RECORD } from '../../layout/primitive-record.ts';
import type { GpuRuntime } from '../../gpu/runtime.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import type { FrameGpu, ReadyPieces } from '../frame-gpu.ts';
import type { PrimitiveTables } from '../schedulers/dicing-scheduler.ts';
import { BindingLimitError } from '../errors.ts';

const RECORD_BYTES = RECORD.floats * 4;
/** Records and auxiliary values taking more than this share of the budget are batched. */
export const RECORDS_SHARE = 0.5;
/** The share of the budget one batch of records and auxiliary values takes at most (unless a single
 * record's take more). */
export const BATCH_SHARE = 1 / 8;

/** True when the records are taken in batches: they pass one binding, or RECORDS_SHARE of the budget. */
export function recordsBatched(records: PrimitiveRecords, maxBindingBytes: number, budgetBytes: number): boolean {
  const floats = records.floats().byteLength;
  const aux = records.userFloatsData().byteLength;
  return floats > maxBindingBytes || aux > maxBindingBytes || floats + aux > RECORDS_SHARE * budgetBytes;
}

/** A run of records bound/split takes in one go: [first, first + count) of its source's records. */
export interface RecordBatch {
  first: number;
  count: number;
  /** Where the records stay on the GPU for the whole frame (ResidentRecords): the frame's batch
   * whose buffers hold them, and their indices there (ascending; the whole batch when absent). */
  resident?: { batch: number; local?: Uint32Array };
}

/** The frame's records kept on the GPU, batch by batch, from their first upload to the frame's end:
 * when they are batched only for the binding limit, not for the budget (a million points: 484 MB
 * of records, 4 batches), every dicing region would otherwise pack and upload its own records again
 * (12 s of packing in that 54 s frame). */
interface ResidentRecords {
  batches: RecordBatch[];
  bound: (BoundRecords | undefined)[];
  /** The frame's buffers (frame-buffers.ts), released with it. */
  owned: GPUBuffer[];
}

/**
 * Consecutive runs of `count` records whose records and auxiliary values (`auxFloats(k)` floats for
 * the k-th) each fit `maxBindingBytes`, and together `batchBytes` where the run holds more than one.
 */
export function recordBatches(count: number, auxFloats: (k: number) => number, maxBindingBytes: number, batchBytes = Infinity): RecordBatch[] {
  const batches: RecordBatch[] = [];
  let batch: RecordBatch = { first: 0, count: 0 };
  let aux = 0;
  for (let k = 0; k < count; k++) {
    const floats = auxFloats(k);
    if (RECORD_BYTES > maxBindingBytes || floats * 4 > maxBindingBytes) {
      throw new BindingLimitError(`a primitive record with its auxiliary values (${RECORD_BYTES} + ${floats * 4} bytes) passes one storage binding of this device (${maxBindingBytes} bytes)`);
    }
    const passes = (batch.count + 1) * RECORD_BYTES > maxBindingBytes || (aux + floats) * 4 > maxBindingBytes ||
      (batch.count + 1) * RECORD_BYTES + (aux + floats) * 4 > batchBytes;
    if (batch.count > 0 && passes) {
      batches.push(batch);
      batch = { first: k, count: 0 };
      aux = 0;
    }
    batch.count++;
    aux += floats;
  }
  if (batch.count > 0) batches.push(batch);
  return batches;
}

/** Records and their auxiliary values, bound together (frame.prims, frame.userCorners). */
export interface BoundRecords {
  prims: GPUBuffer;
  userCorners: GPUBuffer;
}

/** The records as bound/split reads them: batch by batch, each uploaded while it is worked on. */
export interface RecordSource {
  /** The frame's records it holds, ascending; every record when undefined. */
  indices?: Uint32Array;
  batches: readonly RecordBatch[];
  /** The batch's records on the GPU; the caller gives them back with `release`. Bound/split reads
   * the batch's records at `batch.resident.local` there when given, else at 0, 1, .... */
  upload(batch: RecordBatch): BoundRecords;
  release(bound: BoundRecords): void;
  /** The frame's record of record `prim` of batch `batch`'s upload. */
  recordOf(batch: number, prim: number): number;
  /** The records at these positions of this source (ascending), as a source of their own. */
  subset(positions: Uint32Array): RecordSource;
  /** The frame's records `global` (ascending), as a source of their own. */
  of(global: Uint32Array): RecordSource;
}

/** The frame's records in batches. With `owned` (the frame's buffers), records batched only for the
 * binding limit stay on the GPU from their first upload to the frame's end (ResidentRecords). */
export function recordSource(gpu: GpuRuntime, records: PrimitiveRecords, owned?: GPUBuffer[]): RecordSource {
  const aux = auxExtents(records);
  const bytes = records.floats().byteLength + records.userFloatsData().byteLength;
  if (!owned || bytes > RECORDS_SHARE * gpu.allocator.budget) return packedSource(gpu, records, aux);
  const batches = recordBatches(records.count, aux.length, gpu.maxBindingBytes()).map((b, k) => ({ ...b, resident: { batch: k } }));
  return residentSource(gpu, records, { batches, bound: [], owned });
}

/** The `count` indices from `first` on. */
function range(first: number, count: number): Uint32Array {
  const indices = new Uint32Array(count);
  for (let k = 0; k < count; k++) indices[k] = first + k;
  return indices;
}

/** The records (those of `indices`), each batch packed and uploaded when asked for. */
function packedSource(gpu: GpuRuntime, records: PrimitiveRecords, aux: ReturnType<typeof auxExtents>, indices?: Uint32Array): RecordSource {
  const recordOf = (k: number): number => (indices ? indices[k]! : k);
  const batches = recordBatches(indices?.length ?? records.count, (k) => aux.length(recordOf(k)), gpu.maxBindingBytes(), BATCH_SHARE * gpu.allocator.budget);
  return {
    ...(indices ? { indices } : {}),
    batches,
    upload: ({ first, count }) => uploadRecords(gpu, packRecords(records, indices ? indices.subarray(first, first + count) : range(first, count))),
    release: (bound) => releaseRecords(gpu, bound),
    recordOf: (batch, prim) => recordOf(batches[batch]!.first + prim),
    subset: (positions) => packedSource(gpu, records, aux, Uint32Array.from(positions, recordOf)),
    of: (global) => packedSource(gpu, records, aux, global),
  };
}

/** The records (those of `indices`) in the resident batches that hold them, one batch of this
 * source per resident batch it draws from. */
function residentSource(gpu: GpuRuntime, records: PrimitiveRecords, resident: ResidentRecords, indices?: Uint32Array): RecordSource {
  const recordOf = (k: number): number => (indices ? indices[k]! : k);
  let batches: RecordBatch[] = resident.batches;
  if (indices) {
    batches = [];
    for (let position = 0, b = 0; position < indices.length; b++) {
      const { first, count } = resident.batches[b]!;
      let end = position;
      while (end < indices.length && indices[end]! < first + count) end++;
      if (end === position) continue;
      const local = new Uint32Array(end - position);
      for (let k = position; k < end; k++) local[k - position] = indices[k]! - first;
      batches.push({ first: position, count: end - position, resident: { batch: b, local } });
      position = end;
    }
  }
  return {
    ...(indices ? { indices } : {}),
    batches,
    upload: (batch) => {
      const k = batch.resident!.batch;
      let bound = resident.bound[k];
      if (!bound) {
        const { first, count } = resident.batches[k]!;
        bound = resident.bound[k] = uploadRecords(gpu, packRecords(records, range(first, count)));
        resident.owned.push(bound.prims, bound.userCorners);
      }
      return bound;
    },
    release: () => {},
    recordOf: (batch, prim) => resident.batches[batches[batch]!.resident!.batch]!.first + prim,
    subset: (positions) => residentSource(gpu, records, resident, Uint32Array.from(positions, recordOf)),
    of: (global) => residentSource(gpu, records, resident, global),
  };
}

function releaseRecords(gpu: GpuRuntime, bound: BoundRecords): void {
  gpu.allocator.release(bound.prims);
  gpu.allocator.release(bound.userCorners);
}

function uploadRecords(gpu: GpuRuntime, packed: { floats: Float32Array; userFloats: Float32Array }): BoundRecords {
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const prims = gpu.allocator.createBufferWithData('primitive records', packed.floats, usage);
  try {
    return { prims, userCorners: gpu.allocator.createBufferWithData('primitive auxiliary values', packed.userFloats, usage) };
  } catch (error) {
    gpu.allocator.release(prims);
    throw error;
  }
}

/** Where each record's auxiliary block starts and how long it is (blocks follow record order). */
function auxExtents(records: PrimitiveRecords): { start(record: number): number; length(record: number): number } {
  const floats = records.floats();
  const words = new Uint32Array(floats.buffer, floats.byteOffset, floats.length);
  const total = records.userFloatsData().length;
  const start = (record: number): number => words[record * RECORD.floats + RECORD.aux]!;
  return { start, length: (record) => (record + 1 < records.count ? start(record + 1) : total) - start(record) };
}

/** Records `indices` packed in that order, each one's RECORD.aux rebased into the packed auxiliary values. */
export function packRecords(records: PrimitiveRecords, indices: ArrayLike<number>): { floats: Float32Array; userFloats: Float32Array } {
  const allFloats = records.floats();
  const allUser = records.userFloatsData();
  const aux = auxExtents(records);
  let userLength = 0;
  for (let k = 0; k < indices.length; k++) userLength += aux.length(indices[k]!);
  const floats = new Float32Array(indices.length * RECORD.floats);
  const words = new Uint32Array(floats.buffer);
  // At least 4 floats: a binding is never empty.
  const userFloats = new Float32Array(Math.max(4, userLength));
  let at = 0;
  // Runs of consecutive records (a region's records mostly are) are copied in one go, their
  // auxiliary blocks too (blocks follow record order), then each record's RECORD.aux is moved.
  for (let k = 0, end = 0; k < indices.length; k = end) {
    const first = indices[k]!;
    for (end = k + 1; end < indices.length && indices[end] === first + (end - k); end++);
    const last = first + (end - k) - 1;
    floats.set(allFloats.subarray(first * RECORD.floats, (last + 1) * RECORD.floats), k * RECORD.floats);
    const from = aux.start(first);
    const length = aux.start(last) + aux.length(last) - from;
    userFloats.set(allUser.subarray(from, from + length), at);
    for (let j = k; j < end; j++) words[j * RECORD.floats + RECORD.aux] = words[j * RECORD.floats + RECORD.aux]! - from + at;
    at += length;
  }
  return { floats, userFloats };
}

/** Each piece's record among the frame's (`pieces` read back from bound/split over `source`). */
export function pieceRecords(source: RecordSource, pieces: Uint32Array, count: number, batchEnds: readonly number[]): Uint32Array {
  const records = new Uint32Array(count);
  let batch = 0;
  for (let g = 0; g < count; g++) {
    while (g >= batchEnds[batch]!) batch++;
    records[g] = source.recordOf(batch, pieces[g * PIECE.words + PIECE.prim]!);
  }
  return records;
}

/** The frame's records' joined edges, made once (a copy of 4 words per record of the frame: made
 * per dicing region, it cost more than the region's own records). Converted records do not change. */
const neighboursOf = new WeakMap<PrimitiveRecords, Int32Array>();
function frameEdgeNeighbours(records: PrimitiveRecords): Int32Array {
  let neighbours = neighboursOf.get(records);
  if (!neighbours) neighboursOf.set(records, (neighbours = records.edgeNeighbours()));
  return neighbours;
}

/** The records of one dicing region, packed: what its dice, shade and sample passes bind. */
export interface RegionRecords {
  /** The packed records; each one's RECORD.aux points into `userFloats`. */
  floats: Float32Array;
  userFloats: Float32Array;
  /** PrimitiveRecords.edgeNeighbours in the packed indices (-1 across to a record left out). */
  edgeNeighbours: Int32Array;
  /** Each packed record's pipeline and parameter base (PrimitiveTables). */
  pipeline: Uint32Array;
  paramBase: Uint32Array;
  /** Each packed record's index among the frame's records. */
  global: Uint32Array;
}

/**
 * Packs the records of `count` pieces (`globalOfPiece`: pieceRecords) and rebases `pieces` to the
 * packed indices, in place.
 */
export function packRegionRecords(records: PrimitiveRecords, globalOfPiece: Uint32Array, pieces: Uint32Array, count: number): RegionRecords {
  const global = Uint32Array.from(new Set(globalOfPiece)).sort();
  const packedOf = new Map<number, number>();
  global.forEach((record, k) => packedOf.set(record, k));
  for (let g = 0; g < count; g++) pieces[g * PIECE.words + PIECE.prim] = packedOf.get(globalOfPiece[g]!)!;

  const { floats, userFloats } = packRecords(records, global);
  const words = new Uint32Array(floats.buffer);
  const neighbours = frameEdgeNeighbours(records);
  const edgeNeighbours = new Int32Array(global.length * 4).fill(-1);
  global.forEach((record, k) => {
    for (let edge = 0; edge < 4; edge++) {
      // (record * 4 + edge) * 2 + reversed and the half flags, as PrimitiveRecords.join and joinHalf write it.
      const entry = neighbours[record * 4 + edge]!;
      if (entry < 0) continue;
      const flags = entry & (JOIN_HALF | JOIN_HALVES);
      const across = entry & ~flags;
      const other = packedOf.get(across >> 3);
      if (other !== undefined) edgeNeighbours[k * 4 + edge] = (((other * 4 + ((across >> 1) & 3)) << 1) | (across & 1)) | flags;
    }
  });
  return {
    floats, userFloats, edgeNeighbours, global,
    pipeline: Uint32Array.from(global, (_, k) => words[k * RECORD.floats + RECORD.pipeline]!),
    paramBase: Uint32Array.from(global, (_, k) => words[k * RECORD.floats + RECORD.paramBase]!),
  };
}

/** A dicing region's own records on the GPU: the frame its stages run with, its tables. */
export interface BoundRegionRecords {
  frame: FrameGpu;
  tables: PrimitiveTables;
  release(): void;
}

/**
 * Uploads a region's packed records and writes its rebased `pieces` to the ready list; undefined
 * when the packed records or their auxiliary values pass one storage binding (the region must be split).
 */
export function bindRegionRecords(frame: FrameGpu, packed: RegionRecords, ready: ReadyPieces, pieces: Uint32Array): BoundRegionRecords | undefined {
  const { gpu } = frame;
  const maxBinding = gpu.maxBindingBytes();
  if (packed.floats.byteLength > maxBinding || packed.userFloats.byteLength > maxBinding) return undefined;
  const { prims, userCorners } = uploadRecords(gpu, packed);
  if (ready.count > 0) gpu.device.queue.writeBuffer(ready.buffer, 0, pieces as Uint32Array<ArrayBuffer>, 0, ready.count * PIECE.words);
  return {
    frame: { ...frame, prims, userCorners, primCount: packed.global.length, records: packed.global, edgeNeighbours: packed.edgeNeighbours },
    tables: { pipeline: packed.pipeline, paramBase: packed.paramBase },
    release: () => releaseRecords(gpu, { prims, userCorners }),
  };
}
