// Bound/split on the GPU: the queue of (primitive, parameter range) pieces is bounded and split in
// parallel each iteration (reyes-bound-split.wgsl); two scans give each split piece the slot of its
// children in the next queue and each ready piece its slot in the ready list. The counts come back
// once per window to size what follows. Every buffer a dispatch binds fits one storage binding: the
// queue is worked through in windows of at most half a binding of pieces (a window's children take
// twice its size, and a window may at most fill the ready list up), and the ready list stops
// growing at what one binding holds. The eye-split rule (pieces straddling the eye plane are split
// across the direction that parts them; those around the eye at most camera.eyeSplits times when
// both halves still straddle, then culled) bounds the pieces near the eye; the culls are counted in
// FrameStats.eyeSplitCulls. A region's first level keeps the records whose bound touches it (read
// back with the counts); a region inside it, as the dicing scheduler's halves are, starts from those
// alone, so a frame cut into many regions bounds each record about once per BSP level instead of
// once per region; and a region it gives up on hands its halves the pieces it had made (GaveUp),
// which they start from instead of the records. Records past one binding come in batches (frame/record-batches.ts), each uploaded
// once per region (boundSplitBatches): the first level runs alone over the whole batch, so the kept
// records are complete even where the region's bound/split gives up early, then the batch's kept
// records are bounded and split while it is bound; their ready pieces carry batch-local indices.
import { Scan } from '../../gpu/scan.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { addGpuTimes, stageRecorder, timed, type FrameGpu, type ReadyPieces, type Region } from '../frame-gpu.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';
import type { BoundRecords, RecordSource } from '../frame/record-batches.ts';
import { MAX_CLIP_PLANES } from '../../layout/sample-params.ts';
import { REGION_CUT, SPLIT_COUNTERS, SPLIT_PARAMS } from '../../layout/split-params.ts';
import { packUniform } from '../../layout/uniform-struct.ts';
import { motionConstants, shapeConstants } from '../convert/convert-frame.ts';

/** Deepest split of a primitive (2^-24 of its parameter range). */
const MAX_DEPTH = 24;
const PIECE_BYTES = PIECE.words * 4;
/** A window's read-back totals: the child and ready counts, then the split counters. */
const TOTALS_BYTES = 8 + SPLIT_COUNTERS.words * 4;
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

/** Whether `pieces` ready pieces whose grids have `vertices` vertices in all, `large` of them over
 * half a grid record, may still fit the region; bound/split gives up once they may not. */
export type ReadyFits = (pieces: number, vertices: number, large: number) => boolean;

/** Where a region's bound/split gave up: the pieces it had made ready and those it had still to
 * bound and split (PIECE.words each). Together they cover what the region's records put in the
 * region, so its halves start from them instead of from the records: the levels it split are not
 * split again (a frame cut into regions gave up on about as many as it kept, each after most of
 * its levels). */
export interface GaveUp {
  frontier: Uint32Array;
}

/**
 * The ready pieces of every primitive of frame.prims whose bound touches `region` (plus the filter
 * apron), or where it gave up (GaveUp) when they are more than `maxReady` or than one binding holds, or `fits` says
 * their grids cannot fit: the caller must split the region (ready pieces never go away, so it stops
 * as soon as the count passes). It starts from the pieces of `from` where given (an enclosing
 * region's GaveUp.frontier), else from the records whole.
 */
export function boundSplit(frame: FrameGpu, region: Region, maxReady = Infinity, fits?: ReadyFits, from?: Uint32Array): Promise<SplitPieces | GaveUp> {
  return timed(frame, 'boundSplit', async () => {
    // The records an enclosing region's first level kept, when one was bound before.
    const known = from ? undefined : touchingRecords(frame, region);
    const count = from ? from.length / PIECE.words : known?.length ?? frame.primCount;
    const splitter = await regionSplitter(frame, region, maxReady, count, fits);
    try {
      const records = { prims: frame.prims, userCorners: frame.userCorners };
      const initial = from ?? initialQueue(count, known);
      // A frontier's first level is pieces, not records: it has no records to remember.
      const frontier: GaveUp = { frontier: new Uint32Array(0) };
      const done = await splitter.batch(records, initial, count, from ? undefined : { known }, frontier);
      return done ? splitter.finish() : frontier;
    } finally {
      splitter.release();
    }
  });
}

/** Whether bound/split gave up on its region. */
export function gaveUp(result: SplitPieces | GaveUp): result is GaveUp {
  return 'frontier' in result;
}

/** A region's bound/split over batched records: the records it keeps (what its halves start from
 * should it not fit), and its ready pieces (indices into `source`'s batches) unless they pass `maxReady`. */
export interface BatchedSplit {
  touching: RecordSource;
  split: SplitPieces | undefined;
}

/**
 * Bound/split of `region` over `source`'s batches, each uploaded once: the first level alone over
 * the whole batch keeps the records whose whole piece is not culled, then (until the region is given
 * up) the batch's kept records are bounded and split while it is still bound. The first level runs
 * over every batch even after the give-up, so a frame cut into many regions narrows its records at
 * every BSP level instead of each half bounding every record of the frame again.
 */
export function boundSplitBatches(frame: FrameGpu, region: Region, maxReady: number, source: RecordSource, fits?: ReadyFits): Promise<BatchedSplit> {
  return timed(frame, 'boundSplit', async () => {
    const { gpu } = frame;
    const kept: number[] = [];
    let readyWhole = 0;
    let splitter: RegionSplitter | undefined = await regionSplitter(frame, region, maxReady, Math.max(0, ...source.batches.map((b) => b.count)), fits);
    try {
      for (const batch of source.batches) {
        const records = source.upload(batch);
        try {
          const local = batch.resident?.local;
          const first = await firstLevel(frame, region, records, batch.count, local);
          for (const k of first.kept) kept.push(batch.first + k);
          readyWhole += first.readyWhole;
          // Past the limit with the records ready whole: it does not fit without bounding them further.
          const queued = local ? first.kept.map((k) => local[k]!) : first.kept;
          if (splitter && (readyWhole > maxReady || !await splitter.batch(records, initialQueue(queued.length, queued), queued.length))) {
            splitter.release();
            splitter = undefined;
          }
        } finally {
          source.release(records);
        }
      }
      return { touching: source.subset(Uint32Array.from(kept)), split: splitter?.finish() };
    } finally {
      splitter?.release();
    }
  });
}

/** A region's ready list, filled one bound batch of records at a time. */
interface RegionSplitter {
  /** Bounds and splits the pieces of `initial` (`count` of them) over `records`; false when the
   * ready pieces pass the limit (the region is given up), with the pieces it had then in
   * `gaveUp.frontier` when given. With `remember` (frame.prims whole), remembers the records whose
   * bound touched the region: the first-level pieces' records, those `remember.known` lists when
   * given, else 0, 1, .... */
  batch(records: BoundRecords, initial: Uint32Array, count: number, remember?: { known: Uint32Array | undefined }, gaveUp?: GaveUp): Promise<boolean>;
  /** The ready pieces, handed to the caller (release no longer frees them). */
  finish(): SplitPieces;
  release(): void;
}

async function regionSplitter(frame: FrameGpu, region: Region, maxReady: number, largest: number, fits?: ReadyFits): Promise<RegionSplitter> {
  const { gpu } = frame;
  const allocator = gpu.allocator;
  const [classify, emit] = await boundSplitPipelines(frame);
  const scan = new Scan(gpu);
  const capacity = boundSplitCapacity(gpu.maxBindingBytes(), gpu.limits.minStorageBufferOffsetAlignment);
  const readyLimit = Math.min(maxReady, capacity.ready);
  let readyCapacity = Math.max(1, Math.min(largest, capacity.window));
  let ready: GPUBuffer | undefined = allocator.createBuffer({ label: 'ready pieces', size: readyCapacity * PIECE_BYTES, usage: STORAGE() });
  let readyCount = 0;
  const batchEnds: number[] = [];
  const frameParams = splitParams(frame, region);
  const counters = allocator.createBufferWithData('split counters', new Uint32Array(SPLIT_COUNTERS.words), STORAGE());
  /** Pieces this region culled at the eye-split limit (the counter's value at the last read-back). */
  let eyeCulled = 0;
  return {
    async batch(records, initial, count, remember, gaveUp) {
      // At most a binding's worth of pieces a part (a frontier may hold more); records whole are
      // one part (they pass one binding, and a piece is smaller than a record), which `remember`
      // reads as one.
      const partSize = remember ? Math.max(count, 1) : capacity.ready;
      let level: QueuePart[] = [];
      for (let start = 0; start < count; start += partSize) {
        const n = Math.min(partSize, count - start);
        level.push({ buffer: allocator.createBufferWithData('split queue', initial.subarray(start * PIECE.words, (start + n) * PIECE.words), STORAGE()), count: n });
      }
      let next: QueuePart[] = [];
      try {
        if (!await splitLevels()) return false;
        batchEnds.push(readyCount);
        return true;
      } finally {
        for (const part of [...level, ...next]) allocator.release(part.buffer);
      }

      /** Bounds and splits the queue until it is empty; false when the ready pieces pass the limit. */
      async function splitLevels(): Promise<boolean> {
        /** Per first-level piece, whether its record touches the region. */
        const touching = remember ? new Uint8Array(count) : undefined;
        let firstLevel = true;
        let iterations = 0;
        while (level.some((part) => part.count > 0)) {
          frame.stats.boundSplitIterations++;
          if (++iterations > MAX_DEPTH + 2) throw new Error('bound/split did not terminate');
          for (const [index, part] of level.entries()) {
            for (let start = 0, n = 0; start < part.count; start += n) {
              // At most a window, and no more than the ready list can still take were all of it ready.
              n = Math.min(capacity.window, part.count - start);
              if (readyCount + n > capacity.ready) n = Math.floor((capacity.ready - readyCount) / capacity.align) * capacity.align;
              if (n <= 0) return giveUp(index, start);
              if (readyCount + n > readyCapacity) {
                const grown = Math.min(Math.max(readyCount + n, readyCapacity * 2), capacity.ready);
                ready = growReady(frame, ready!, readyCount, grown);
                readyCapacity = grown;
              }
              const queue = { buffer: part.buffer, offset: start * PIECE_BYTES, size: n * PIECE_BYTES };
              const recorder = stageRecorder(frame, 'bound/split');
              const params = recorder.params('bound/split', packUniform(SPLIT_PARAMS, { ...frameParams, count: n, readyBase: readyCount }));
              const decision = recorder.scratch('split decision', n * 4);
              const childCount = recorder.scratch('split child count', n * 4);
              const readyFlag = recorder.scratch('split ready flag', n * 4);
              const childOffset = recorder.scratch('split child offset', n * 4);
              const readyOffset = recorder.scratch('split ready offset', n * 4);
              const childTotal = recorder.scratch('split child total', 4);
              const readyTotal = recorder.scratch('split ready total', 4);
              // The counts, and on the first level each piece's child count and ready flag (kept or culled).
              const kept = firstLevel && touching !== undefined;
              const totals = allocator.createBuffer({ label: 'split totals', size: TOTALS_BYTES + (kept ? n * 8 : 0), usage: STORAGE() });
              const children = allocator.createBuffer({ label: 'split queue', size: n * 2 * PIECE_BYTES, usage: STORAGE() });
              next.push({ buffer: children, count: 0 });
              const groups = Math.ceil(n / 64);
              recorder.dispatch(classify, { 0: params, 1: records.prims, 2: queue, 3: decision, 4: childCount, 5: readyFlag, 10: counters, 11: records.userCorners }, groups);
              await scan.encode(recorder, { input: childCount, output: childOffset, count: n, total: childTotal });
              await scan.encode(recorder, { input: readyFlag, output: readyOffset, count: n, total: readyTotal });
              recorder.dispatch(emit, { 0: params, 2: queue, 3: decision, 6: childOffset, 7: readyOffset, 8: children, 9: ready! }, groups);
              recorder.encoder.copyBufferToBuffer(childTotal, 0, totals, 0, 4);
              recorder.encoder.copyBufferToBuffer(readyTotal, 0, totals, 4, 4);
              recorder.encoder.copyBufferToBuffer(counters, 0, totals, 8, SPLIT_COUNTERS.words * 4);
              if (kept) {
                recorder.encoder.copyBufferToBuffer(childCount, 0, totals, TOTALS_BYTES, n * 4);
                recorder.encoder.copyBufferToBuffer(readyFlag, 0, totals, TOTALS_BYTES + n * 4, n * 4);
              }
              const first = TOTALS_BYTES / 4;
              const words = await recorder.submitAndReadU32(totals, kept ? first + n * 2 : first);
              addGpuTimes(frame, recorder, 'boundSplit');
              allocator.release(totals);
              const [childrenNow, readyNow] = words;
              const counted = words.subarray(2, first);
              if (kept) {
                for (let k = 0; k < n; k++) touching[start + k] = words[first + k]! | words[first + n + k]! ? 1 : 0;
                // The first level is one part; its last window completes the list, even if the run then gives up.
                if (start + n >= part.count) rememberTouching(frame, region, remember!.known, touching);
              }
              eyeCulled = counted[SPLIT_COUNTERS.eyeSplitCulls]!;
              next[next.length - 1]!.count = childrenNow!;
              readyCount += readyNow!;
              if (readyCount > readyLimit || (fits && !fits(readyCount, counted[SPLIT_COUNTERS.readyVertices]!, counted[SPLIT_COUNTERS.readyLargeGrids]!))) return giveUp(index, start + n);
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

      /** Gives the region up, its pieces read back into `gaveUp` when asked for: the ready ones, the
       * next level's, and this level's from piece `resume` of part `index` on. */
      async function giveUp(index: number, resume: number): Promise<false> {
        if (!gaveUp) return false;
        const runs: { buffer: GPUBuffer; first: number; count: number }[] = [{ buffer: ready!, first: 0, count: readyCount }];
        for (const part of next) runs.push({ buffer: part.buffer, first: 0, count: part.count });
        for (const [k, part] of level.entries()) if (k >= index) runs.push({ buffer: part.buffer, first: k === index ? resume : 0, count: part.count - (k === index ? resume : 0) });
        const frontier = new Uint32Array(runs.reduce((total, run) => total + run.count, 0) * PIECE.words);
        let at = 0;
        for (const run of runs) {
          if (run.count <= 0) continue;
          frontier.set(await gpu.readU32(run.buffer, run.count * PIECE.words, run.first * PIECE_BYTES), at);
          at += run.count * PIECE.words;
        }
        gaveUp.frontier = frontier;
        return false;
      }
    },
    finish() {
      // Counted only for the pieces handed on: a region given up on is bound and split again in halves.
      frame.stats.eyeSplitCulls += eyeCulled;
      const pieces = { buffer: ready!, count: readyCount, batchEnds };
      ready = undefined;
      return pieces;
    },
    release() {
      if (ready) allocator.release(ready);
      ready = undefined;
      allocator.release(counters);
    },
  };
}

/** Bound/split's classify and emit pipelines. */
export function boundSplitPipelines(frame: FrameGpu): Promise<[GPUComputePipeline, GPUComputePipeline]> {
  const constants = classifyConstants(frame);
  return Promise.all([
    kernelPipeline(frame.gpu, 'reyes-bound-split.wgsl', 'classify', constants),
    // emit evaluates no surface, but takes classify's constants all the same: the two then share one
    // specialised module (KernelCache), which the main thread parses once (11-18 ms on lavapipe),
    // and emit's pipeline is cheap to make again for a frame of other primitive kinds.
    kernelPipeline(frame.gpu, 'reyes-bound-split.wgsl', 'emit', constants),
  ]);
}

/** classify's specialisation: the frame's motion and primitive kinds. */
function classifyConstants(frame: FrameGpu): Record<string, number> {
  return { ...motionConstants(frame.motion), ...shapeConstants(frame.shapeKinds) };
}

/** SplitParams of `frame` over `region` (plus the filter apron), but for the window's count and ready base. */
function splitParams(frame: FrameGpu, region: Region) {
  const { camera, apron } = frame;
  const planes = camera.clipPlanes.slice(0, MAX_CLIP_PLANES);
  const { crop } = camera;
  const cuts = (region.x0 > crop.x0 ? REGION_CUT.x0 : 0) | (region.y0 > crop.y0 ? REGION_CUT.y0 : 0) |
    (region.x1 < crop.x1 ? REGION_CUT.x1 : 0) | (region.y1 < crop.y1 ? REGION_CUT.y1 : 0);
  return {
    maxVertices: frame.layout.maxVertices, maxDepth: MAX_DEPTH, near: camera.near, far: camera.far, eyeSplit: camera.near * 0.5,
    perspective: camera.perspective ? 1 : 0, cameraToRaster: camera.cameraToRaster, clipCount: planes.length,
    eyeSplits: camera.eyeSplits, lensRadius: camera.lens?.radius ?? 0, focalDistance: camera.lens?.focalDistance ?? 1,
    clipPlanes: planes.flat(), region: [region.x0 - apron, region.y0 - apron, region.x1 + apron, region.y1 + apron], cuts,
  };
}

/**
 * The first level of bound/split alone over `count` bound records (those at `local` among
 * `records`, else the first `count`): the ones whose whole piece is not culled for `region` (their
 * positions among the `count`), and how many of them are ready whole.
 */
async function firstLevel(frame: FrameGpu, region: Region, records: BoundRecords, count: number, local?: Uint32Array): Promise<{ kept: Uint32Array; readyWhole: number }> {
  const { gpu } = frame;
  const allocator = gpu.allocator;
  const [classify] = await boundSplitPipelines(frame);
  const { window } = boundSplitCapacity(gpu.maxBindingBytes(), gpu.limits.minStorageBufferOffsetAlignment);
  const frameParams = splitParams(frame, region);
  const kept = new Uint32Array(count);
  let keptCount = 0;
  let readyWhole = 0;
  // Eye-split culls and ready vertices of whole records are counted when bound/split itself meets them.
  const counters = allocator.createBufferWithData('split counters (first level)', new Uint32Array(SPLIT_COUNTERS.words), STORAGE());
  try {
    for (let start = 0; start < count; start += window) {
      const n = Math.min(window, count - start);
      const queue = allocator.createBufferWithData('split queue', initialQueue(n, local?.subarray(start, start + n), start), STORAGE());
      const flags = allocator.createBuffer({ label: 'first-level flags', size: n * 8, usage: STORAGE() });
      try {
        const recorder = stageRecorder(frame, 'bound/split');
        const params = recorder.params('bound/split', packUniform(SPLIT_PARAMS, { ...frameParams, count: n, readyBase: 0 }));
        const childCount = recorder.scratch('split child count', n * 4);
        const readyFlag = recorder.scratch('split ready flag', n * 4);
        const decision = recorder.scratch('split decision', n * 4);
        recorder.dispatch(classify, { 0: params, 1: records.prims, 2: queue, 3: decision, 4: childCount, 5: readyFlag, 10: counters, 11: records.userCorners }, Math.ceil(n / 64));
        recorder.encoder.copyBufferToBuffer(childCount, 0, flags, 0, n * 4);
        recorder.encoder.copyBufferToBuffer(readyFlag, 0, flags, n * 4, n * 4);
        const words = await recorder.submitAndReadU32(flags, n * 2);
        addGpuTimes(frame, recorder, 'boundSplit');
        for (let k = 0; k < n; k++) {
          if (words[k]! | words[n + k]!) kept[keptCount++] = start + k;
          readyWhole += words[n + k]!;
        }
      } finally {
        allocator.release(queue);
        allocator.release(flags);
      }
    }
  } finally {
    allocator.release(counters);
  }
  return { kept: kept.subarray(0, keptCount), readyWhole };
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
