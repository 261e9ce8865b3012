// Bound/split on the GPU: the queue of (primitive, parameter range) pieces is bounded and split in
// parallel each iteration (reyes-bound-split.wgsl); two scans give each split piece the slot of its
// children in the next queue and each ready piece its slot in the ready list. The counts come back
// once per window to size what follows. Every buffer a dispatch binds fits one storage binding: the
// queue is worked through in windows of at most half a binding of pieces (a window's children take
// twice its size, and a window may at most fill the ready list up), and the ready list stops
// growing at what one binding holds. The eye-split rule (pieces straddling the eye plane are split
// across the direction that parts them; those around the eye at most camera.eyeSplits times when
// both halves still straddle, then culled) bounds the pieces near the eye; the culls are counted in
// FrameStats.eyeSplitCulls. Records past one binding come in batches (frame/record-batches.ts),
// each uploaded while its pieces are bounded and split; their ready pieces carry batch-local indices.
// A region's first level keeps the records whose bound touches it (read back with the counts); a
// region inside it, as the dicing scheduler's halves are, starts from those alone, so a frame cut
// into many regions bounds each record about once per BSP level instead of once per region. With
// batches, touchingRecordSource runs that first level alone before the region's bound/split, whose
// early give-up would otherwise leave the halves every record of the frame.
import { Scan } from '../../gpu/scan.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { addGpuTimes, stageRecorder, timed, type FrameGpu, type ReadyPieces, type Region } from '../frame-gpu.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';
import { releaseRecords, type BoundRecords, type RecordBatch, type RecordSource } from '../frame/record-batches.ts';
import { MAX_CLIP_PLANES } from '../../layout/sample-params.ts';
import { SPLIT_PARAMS } from '../../layout/split-params.ts';
import { packUniform } from '../../layout/uniform-struct.ts';
import { motionConstants } from '../convert/convert-frame.ts';

/** Deepest split of a primitive (2^-24 of its parameter range). */
const MAX_DEPTH = 24;
const PIECE_BYTES = PIECE.words * 4;
const STORAGE = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** Pieces of one level of the queue: a buffer and how many it holds. */
interface QueuePart {
  buffer: GPUBuffer;
  count: number;
}

/** How many pieces a window of the queue and the ready list may hold under the binding limit, and
 * the multiple windows start at (binding offsets are multiples of the offset alignment). */
export function boundSplitCapacity(maxBindingBytes: number, offsetAlignment: number): { window: number; ready: number; align: number } {
  const ready = Math.floor(maxBindingBytes / PIECE_BYTES);
  const align = Math.max(1, Math.ceil(offsetAlignment / PIECE_BYTES));
  const window = Math.floor(ready / 2 / align) * align;
  if (window < align) throw new Error(`the storage binding limit (${maxBindingBytes} bytes) cannot hold two bound/split queue windows`);
  return { window, ready, align };
}

/** Ready pieces, with the ready count after each record batch (the pieces of batch b sit in
 * [batchEnds[b - 1], batchEnds[b]) and carry indices into it). */
export interface SplitPieces extends ReadyPieces {
  batchEnds: number[];
}

/**
 * The ready pieces of every primitive whose bound touches `region` (plus the filter apron), or
 * undefined when they are more than `maxReady` or than one binding holds: the caller must split the
 * region (ready pieces never go away, so it stops as soon as the count passes). The records are
 * frame.prims, or `source`'s batches when given.
 */
export function boundSplit(frame: FrameGpu, region: Region, maxReady = Infinity, source?: RecordSource): Promise<SplitPieces | undefined> {
  return timed(frame, 'boundSplit', () => run(frame, region, maxReady, source));
}

async function run(frame: FrameGpu, region: Region, maxReady: number, source: RecordSource | undefined): Promise<SplitPieces | undefined> {
  const { gpu } = frame;
  const allocator = gpu.allocator;
  const [classify, emit] = await Promise.all([
    kernelPipeline(gpu, 'reyes-bound-split.wgsl', 'classify', motionConstants(frame.motion)),
    // emit moves no points: without the motion constants it stays one pipeline for every frame.
    kernelPipeline(gpu, 'reyes-bound-split.wgsl', 'emit'),
  ]);
  const scan = new Scan(gpu);
  const capacity = boundSplitCapacity(gpu.maxBindingBytes(), gpu.limits.minStorageBufferOffsetAlignment);
  const readyLimit = Math.min(maxReady, capacity.ready);
  // Without batches: the records an enclosing region's first level kept, when one was bound before.
  const known = source ? undefined : touchingRecords(frame, region);
  const batches: readonly RecordBatch[] = source?.batches ?? [{ first: 0, count: known?.length ?? frame.primCount }];
  const largest = Math.max(0, ...batches.map((b) => b.count));
  let level: QueuePart[] = [];
  let next: QueuePart[] = [];
  let ready = allocator.createBuffer({ label: 'ready pieces', size: Math.max(1, Math.min(largest, capacity.window)) * PIECE_BYTES, usage: STORAGE() });
  let readyCapacity = Math.max(1, Math.min(largest, capacity.window));
  let readyCount = 0;
  const batchEnds: number[] = [];
  let records: BoundRecords = { prims: frame.prims, userCorners: frame.userCorners };
  const frameParams = splitParams(frame, region);
  const eyeSplitCulls = allocator.createBufferWithData('eye-split culls', new Uint32Array(1), STORAGE());
  let iterations = 0;
  /** Pieces this run culled at the eye-split limit (the counter's value at the last read-back). */
  let eyeCulled = 0;
  const releaseQueue = (): void => {
    for (const part of [...level, ...next]) allocator.release(part.buffer);
    level = [];
    next = [];
  };
  try {
    for (const batch of batches) {
      if (source) records = source.upload(batch);
      try {
        iterations = 0;
        level = [{ buffer: allocator.createBufferWithData('split queue', initialQueue(batch.count, known), STORAGE()), count: batch.count }];
        if (!await splitLevels()) {
          allocator.release(ready);
          return undefined;
        }
      } finally {
        if (source) releaseRecords(gpu, records);
      }
      batchEnds.push(readyCount);
    }
  } catch (error) {
    allocator.release(ready);
    throw error;
  } finally {
    releaseQueue();
    allocator.release(eyeSplitCulls);
  }
  // Counted only for the pieces handed on: a region given up on is bound and split again in halves.
  frame.stats.eyeSplitCulls += eyeCulled;
  return { buffer: ready, count: readyCount, batchEnds };

  /** Bounds and splits the queue until it is empty; false when the ready pieces pass the limit. */
  async function splitLevels(): Promise<boolean> {
    /** Per first-level piece, whether its record touches the region (unbatched runs only). */
    const touching = source ? undefined : new Uint8Array(batches[0]!.count);
    let firstLevel = true;
    while (level.some((part) => part.count > 0)) {
      frame.stats.boundSplitIterations++;
      if (++iterations > MAX_DEPTH + 2) throw new Error('bound/split did not terminate');
      for (const part of level) {
        for (let start = 0, count = 0; start < part.count; start += count) {
          // At most a window, and no more than the ready list can still take were all of it ready.
          count = Math.min(capacity.window, part.count - start);
          if (readyCount + count > capacity.ready) count = Math.floor((capacity.ready - readyCount) / capacity.align) * capacity.align;
          if (count <= 0) return false;
          if (readyCount + count > readyCapacity) {
            const grown = Math.min(Math.max(readyCount + count, readyCapacity * 2), capacity.ready);
            ready = growReady(frame, ready, readyCount, grown);
            readyCapacity = grown;
          }
          const queue = { buffer: part.buffer, offset: start * PIECE_BYTES, size: count * PIECE_BYTES };
          const recorder = stageRecorder(frame, 'bound/split');
          const params = recorder.params('bound/split', packUniform(SPLIT_PARAMS, { ...frameParams, count, readyBase: readyCount }));
          const decision = recorder.scratch('split decision', count * 4);
          const childCount = recorder.scratch('split child count', count * 4);
          const readyFlag = recorder.scratch('split ready flag', count * 4);
          const childOffset = recorder.scratch('split child offset', count * 4);
          const readyOffset = recorder.scratch('split ready offset', count * 4);
          const childTotal = recorder.scratch('split child total', 4);
          const readyTotal = recorder.scratch('split ready total', 4);
          // The counts, and on the first level each piece's child count and ready flag (kept or culled).
          const kept = firstLevel && touching !== undefined;
          const totals = allocator.createBuffer({ label: 'split totals', size: 12 + (kept ? count * 8 : 0), usage: STORAGE() });
          const children = allocator.createBuffer({ label: 'split queue', size: count * 2 * PIECE_BYTES, usage: STORAGE() });
          next.push({ buffer: children, count: 0 });
          const groups = Math.ceil(count / 64);
          recorder.dispatch(classify, { 0: params, 1: records.prims, 2: queue, 3: decision, 4: childCount, 5: readyFlag, 10: eyeSplitCulls, 11: records.userCorners }, groups);
          await scan.encode(recorder, { input: childCount, output: childOffset, count, total: childTotal });
          await scan.encode(recorder, { input: readyFlag, output: readyOffset, count, total: readyTotal });
          recorder.dispatch(emit, { 0: params, 2: queue, 3: decision, 6: childOffset, 7: readyOffset, 8: children, 9: ready }, groups);
          recorder.encoder.copyBufferToBuffer(childTotal, 0, totals, 0, 4);
          recorder.encoder.copyBufferToBuffer(readyTotal, 0, totals, 4, 4);
          recorder.encoder.copyBufferToBuffer(eyeSplitCulls, 0, totals, 8, 4);
          if (kept) {
            recorder.encoder.copyBufferToBuffer(childCount, 0, totals, 12, count * 4);
            recorder.encoder.copyBufferToBuffer(readyFlag, 0, totals, 12 + count * 4, count * 4);
          }
          await recorder.submit();
          addGpuTimes(frame, recorder, 'boundSplit');
          const words = await gpu.readU32(totals, kept ? 3 + count * 2 : 3);
          allocator.release(totals);
          const [childrenNow, readyNow, culledSoFar] = words;
          if (kept) {
            for (let k = 0; k < count; k++) touching[start + k] = words[3 + k]! | words[3 + count + k]! ? 1 : 0;
            // The first level is one part; its last window completes the list, even if the run then gives up.
            if (start + count >= part.count) rememberTouching(frame, region, known, touching);
          }
          eyeCulled = culledSoFar!;
          next[next.length - 1]!.count = childrenNow!;
          readyCount += readyNow!;
          if (readyCount > readyLimit) return false;
        }
      }
      firstLevel = false;
      for (const part of level) allocator.release(part.buffer);
      level = next.filter((part) => {
        if (part.count === 0) allocator.release(part.buffer);
        return part.count > 0;
      });
      next = [];
    }
    return true;
  }
}

/** SplitParams of `frame` over `region` (plus the filter apron), but for the window's count and ready base. */
function splitParams(frame: FrameGpu, region: Region) {
  const { camera, apron } = frame;
  const planes = camera.clipPlanes.slice(0, MAX_CLIP_PLANES);
  return {
    maxVertices: frame.layout.maxVertices, maxDepth: MAX_DEPTH, near: camera.near, far: camera.far, eyeSplit: camera.near * 0.5,
    perspective: camera.perspective ? 1 : 0, cameraToRaster: camera.cameraToRaster, clipCount: planes.length,
    eyeSplits: camera.eyeSplits, lensRadius: camera.lens?.radius ?? 0, focalDistance: camera.lens?.focalDistance ?? 1,
    clipPlanes: planes.flat(), region: [region.x0 - apron, region.y0 - apron, region.x1 + apron, region.y1 + apron],
  };
}

/** The records of `source` that bound/split keeps for `region`, and how many of them are ready whole. */
export interface TouchingRecords {
  source: RecordSource;
  /** Records ready unsplit: each is one ready piece of the region at least. */
  readyWhole: number;
}

/**
 * The first level of bound/split alone over `source`'s batches: the records whose whole piece is
 * not culled for `region`, as a source of their own. A region whose bound/split gives up (too
 * many ready pieces) hands this to its halves, so batched records are narrowed at every BSP level
 * instead of each half bounding every record of the frame again.
 */
export function touchingRecordSource(frame: FrameGpu, region: Region, source: RecordSource): Promise<TouchingRecords> {
  return timed(frame, 'boundSplit', async () => {
    const { gpu } = frame;
    const allocator = gpu.allocator;
    const classify = await kernelPipeline(gpu, 'reyes-bound-split.wgsl', 'classify', motionConstants(frame.motion));
    const { window } = boundSplitCapacity(gpu.maxBindingBytes(), gpu.limits.minStorageBufferOffsetAlignment);
    const frameParams = splitParams(frame, region);
    const kept: number[] = [];
    let readyWhole = 0;
    // Eye-split culls of whole records are counted when bound/split itself culls them.
    const culls = allocator.createBufferWithData('eye-split culls (first level)', new Uint32Array(1), STORAGE());
    try {
      for (const batch of source.batches) {
        const records = source.upload(batch);
        try {
          for (let start = 0; start < batch.count; start += window) {
            const count = Math.min(window, batch.count - start);
            const queue = allocator.createBufferWithData('split queue', initialQueue(count, undefined, start), STORAGE());
            const flags = allocator.createBuffer({ label: 'first-level flags', size: count * 8, usage: STORAGE() });
            try {
              const recorder = stageRecorder(frame, 'bound/split');
              const params = recorder.params('bound/split', packUniform(SPLIT_PARAMS, { ...frameParams, count, readyBase: 0 }));
              const childCount = recorder.scratch('split child count', count * 4);
              const readyFlag = recorder.scratch('split ready flag', count * 4);
              const decision = recorder.scratch('split decision', count * 4);
              recorder.dispatch(classify, { 0: params, 1: records.prims, 2: queue, 3: decision, 4: childCount, 5: readyFlag, 10: culls, 11: records.userCorners }, Math.ceil(count / 64));
              recorder.encoder.copyBufferToBuffer(childCount, 0, flags, 0, count * 4);
              recorder.encoder.copyBufferToBuffer(readyFlag, 0, flags, count * 4, count * 4);
              await recorder.submit();
              addGpuTimes(frame, recorder, 'boundSplit');
              const words = await gpu.readU32(flags, count * 2);
              for (let k = 0; k < count; k++) {
                if (words[k]! | words[count + k]!) kept.push(batch.first + start + k);
                readyWhole += words[count + k]!;
              }
            } finally {
              allocator.release(queue);
              allocator.release(flags);
            }
          }
        } finally {
          releaseRecords(gpu, records);
        }
      }
    } finally {
      allocator.release(culls);
    }
    return { source: source.subset(Uint32Array.from(kept)), readyWhole };
  });
}

/** A batch's first queue: each record whole, by its index in the batch (the `records` given, else
 * `first`, `first + 1`, ...). */
function initialQueue(count: number, records?: Uint32Array, first = 0): Uint32Array {
  const initial = new Uint32Array(count * PIECE.words);
  const floats = new Float32Array(initial.buffer);
  for (let p = 0; p < count; p++) {
    initial[p * PIECE.words + PIECE.prim] = records ? records[p]! : first + p;
    floats[p * PIECE.words + PIECE.u1] = 1;
    floats[p * PIECE.words + PIECE.v1] = 1;
  }
  return initial;
}

/** A ready list of `capacity` pieces holding the first `count` of `ready` (which it releases). */
function growReady(frame: FrameGpu, ready: GPUBuffer, count: number, capacity: number): GPUBuffer {
  const { gpu } = frame;
  const grown = gpu.allocator.createBuffer({ label: 'ready pieces', size: capacity * PIECE_BYTES, usage: STORAGE() });
  const copy = gpu.device.createCommandEncoder({ label: 'grow ready pieces' });
  if (count > 0) copy.copyBufferToBuffer(ready, 0, grown, 0, count * PIECE_BYTES);
  gpu.device.queue.submit([copy.finish()]);
  gpu.allocator.release(ready);
  return grown;
}

/** Per frame (its statistics, which every region's view of it shares), the regions whose first
 * level ran whole, with the bound records (`prims`, seen by `camera`) whose bound touched each. */
interface Touched {
  prims: GPUBuffer;
  camera: FrameGpu['camera'];
  region: Region;
  records: Uint32Array;
}
const touchedRecords = new WeakMap<FrameGpu['stats'], Touched[]>();

/** The records that touched the smallest remembered region holding `region` (ascending), if any:
 * a record culled there is culled here too (the tests only narrow with the region). */
function touchingRecords(frame: FrameGpu, region: Region): Uint32Array | undefined {
  let best: Touched | undefined;
  for (const entry of touchedRecords.get(frame.stats) ?? []) {
    const r = entry.region;
    const holds = entry.prims === frame.prims && entry.camera === frame.camera && r.x0 <= region.x0 && r.y0 <= region.y0 && r.x1 >= region.x1 && r.y1 >= region.y1;
    if (holds && (!best || entry.records.length < best.records.length)) best = entry;
  }
  return best?.records;
}

function rememberTouching(frame: FrameGpu, region: Region, known: Uint32Array | undefined, touching: Uint8Array): void {
  const records: number[] = [];
  touching.forEach((kept, k) => {
    if (kept) records.push(known ? known[k]! : k);
  });
  const entries = touchedRecords.get(frame.stats) ?? [];
  entries.push({ prims: frame.prims, camera: frame.camera, region: { ...region }, records: Uint32Array.from(records) });
  touchedRecords.set(frame.stats, entries);
}
