// The dicing scheduler: the dicing bins' level of the stage graph (pipeline/runtime.ts runs it).
// Its Schedule rule is bound/split's Process: a bin fits when the grids of the pieces bound/split
// yields fit the budget minus the reserve kept for sampling and what shading allocates (and the
// grid buffers fit one storage binding); a budget bin that does not is cut in two (BSP: longer
// axis, middle, depth first), a fixed bin (bucket) fails. Dice and shade follow (stages/dice.ts,
// stages/shade.ts), then the sampling bins inside (sampling-scheduler.ts). A prepared frame
// (frame/prepared-frame.ts) may keep a bin's ready pieces and grids after sampling (`keep`) and
// later shade and sample them again without bound/split or dicing (keptLevel).
import { BindingLimitError } from '../errors.ts';
import type { FrameGpu, ReadyPieces, Region } from '../frame-gpu.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { bindRegionRecords, packRegionRecords, pieceRecords, type BoundRegionRecords, type RecordSource } from '../frame/record-batches.ts';
import type { PrimitiveRecords } from '../primitive-record.ts';
import { diceAndShade } from '../pipeline/fusion.ts';
import type { BinLevel } from '../pipeline/runtime.ts';
import { boundSplit, boundSplitBatches, gaveUp, type ReadyFits, type SplitPieces } from '../stages/bound-split.ts';
import { dice, diceProcess, gridBytes, pieceVertices, releaseGrids, type DicedGrids } from '../stages/dice.ts';
import { packGridRecords } from '../../layout/grid-layout.ts';
import { shade } from '../stages/shade.ts';
import { kernelFrameUniforms } from '../shading/spaces.ts';
import { shadingBytes } from './shading-scheduler.ts';
import { allocateCounts, orderNearestFirst, releaseCounts, SAMPLE_COUNT_BYTES_PER_GRID, type SampleCounts } from '../stages/sample.ts';
import { collectOutlines } from './insight.ts';

/** Share of the budget kept back for sampling when deciding whether a dicing region fits. */
export const SAMPLING_RESERVE = 0.25;

export interface PrimitiveTables {
  pipeline: Uint32Array;
  paramBase: Uint32Array;
}

/** The frame's records as the dicing scheduler reads them. */
export interface FrameRecords {
  tables: PrimitiveTables;
  /** Set when the records pass one storage binding (frame.prims then holds none): bound/split takes
   * them from `source` in batches and each dicing region binds the ones it uses. Grids are not kept. */
  batched?: { records: PrimitiveRecords; source: RecordSource };
  /** Set when the enclosing bin's bound/split gave up (records not batched): the pieces it had
   * then (GaveUp.frontier), which this bin bounds and splits on from instead of the records. */
  frontier?: Uint32Array;
}

/** A dicing region whose ready pieces and shaded grids stay on the GPU. */
export interface KeptRegion {
  region: Region;
  ready: ReadyPieces;
  diced: DicedGrids;
}

/** Says whether a finished dicing region's grids are kept (then the caller owns and releases them). */
export type KeepGrids = (kept: KeptRegion) => boolean;

/** What the stages of one dicing bin share. */
export interface DicingBin {
  /** The frame the bin's stages bind: with batched records, one holding the bin's own records. */
  frame: FrameGpu;
  tables: PrimitiveTables;
  /** With batched records, what the halves of a cut bin bound and split: the records its pieces came from. */
  halves?: FrameRecords;
  ready?: ReadyPieces;
  bound?: BoundRegionRecords;
  recordsPassBinding?: boolean;
  diced?: DicedGrids;
  /** False when the grids' gridInfo holds parameter bases older than `tables` (a prepared frame). */
  gridInfoCurrent: boolean;
  counts?: SampleCounts;
  kept?: boolean;
  /** A kept bin under a targeted edit: the records whose grids are shaded again (all when absent). */
  only?: Uint8Array;
}

/** The dicing bins of a render from the records: bound/split (with the fit rule), dice, shade. */
export function dicingLevel(frame: FrameGpu, keep?: KeepGrids): BinLevel<FrameRecords, DicingBin> {
  return {
    kind: 'dicing',
    open: (records) => ({ frame, tables: records.tables, gridInfoCurrent: true, halves: records }),
    processes: { boundSplit: (bin, region) => boundSplitFits(frame, bin, region), dice: diceProcess, shade: shadeProcess },
    fused: { dice: diceAndShade },
    handOver,
    halves: (bin) => bin.halves!,
    uncuttable: (bin, region) => (bin.recordsPassBinding ? new BindingLimitError(`the primitive records under pixel (${region.x0}, ${region.y0}) take more than one storage binding of this device holds (${frame.gpu.maxBindingBytes()} bytes)`) : undefined),
    close: (bin, done, region) => {
      if (done) {
        frame.stats.primitivesAfterSplit += bin.ready!.count;
        frame.stats.grids += bin.ready!.count;
        if (keep && !bin.bound) {
          release(bin, 'counts');
          bin.kept = keep({ region, ready: bin.ready!, diced: bin.diced! });
        }
      }
      release(bin, bin.kept ? 'counts' : 'all');
      bin.bound?.release();
    },
  };
}

/** What a prepared frame's render does with its kept bins. */
export interface KeptWork {
  /** Dice again from the kept ready pieces (the grids' inputs changed, or a kernel overwrote them:
   * displacement). */
  redice: boolean;
  /** False when the grids' gridInfo holds parameter bases older than the tables. */
  gridInfoCurrent: boolean;
  /** Per record, non-zero where a targeted edit reached it: only those records' grids are shaded
   * again; with `redice`, only the bins holding any of them are diced (and then wholly shaded) again. */
  only?: Uint8Array;
}

/** A prepared frame's kept bins shaded again: no bound/split; dicing again only as `work` says. */
export function keptLevel(frame: FrameGpu, tables: PrimitiveTables, work: KeptWork): BinLevel<KeptRegion, DicingBin> {
  const kept = new Map<DicingBin, KeptRegion>();
  return {
    kind: 'dicing',
    open: (region) => {
      const bin: DicingBin = { frame, tables, ready: region.ready, diced: region.diced, gridInfoCurrent: work.redice || work.gridInfoCurrent };
      kept.set(bin, region);
      return bin;
    },
    processes: {
      dice: async (bin) => {
        const region = kept.get(bin)!;
        const redice = work.redice && (!work.only || await holdsAny(frame, region.ready, work.only));
        if (!redice) {
          frame.stats.gridsReused += bin.diced!.count;
          if (work.only) bin.only = work.only;
          return true;
        }
        const fresh = await dice(frame, region.ready);
        releaseGrids(frame, region.diced);
        region.diced = bin.diced = fresh;
        frame.stats.gridsDiced += fresh.count;
        return true;
      },
      shade: shadeProcess,
    },
    handOver,
    close: (bin, done) => {
      if (done) {
        frame.stats.primitivesAfterSplit += bin.ready!.count;
        frame.stats.grids += bin.ready!.count;
      }
      release(bin, 'counts');
      kept.delete(bin);
    },
  };
}

/** True when a grid of `ready` comes from a record marked in `records`. */
async function holdsAny(frame: FrameGpu, ready: ReadyPieces, records: Uint8Array): Promise<boolean> {
  if (ready.count === 0) return false;
  const pieces = await frame.gpu.readU32(ready.buffer, ready.count * PIECE.words);
  for (let g = 0; g < ready.count; g++) if (records[pieces[g * PIECE.words + PIECE.prim]!]) return true;
  return false;
}

/** Shade's Process on a dicing bin. */
async function shadeProcess(bin: DicingBin): Promise<boolean> {
  await shade(bin.frame, bin.ready!, bin.diced!, bin.tables.pipeline, bin.tables.paramBase, bin.gridInfoCurrent, bin.only);
  return true;
}

/** EndBin: the grid outlines the page asked for, and the per-micropolygon counts the sampling bins
 * share (with, on the opaque path, the order its depth pass takes the grids in). */
async function handOver(bin: DicingBin): Promise<void> {
  const outlines = bin.frame.insight.outlines;
  if (outlines) await collectOutlines(bin.frame, bin.ready!, bin.diced!, outlines);
  bin.counts = allocateCounts(bin.frame, bin.diced!);
  await orderNearestFirst(bin.frame, bin.ready!, bin.diced!, bin.counts, bin.frame.opaque);
}

function release(bin: DicingBin, what: 'counts' | 'all'): void {
  const { allocator } = bin.frame.gpu;
  if (bin.counts) releaseCounts(bin.frame, bin.counts);
  bin.counts = undefined;
  if (what === 'counts') return;
  if (bin.diced) releaseGrids(bin.frame, bin.diced);
  if (bin.ready) allocator.release(bin.ready.buffer);
  bin.diced = bin.ready = undefined;
}

/** Bound/split's Process under the dicing scheduler: the bin's ready pieces, false when their grids
 * (and what shading allocates) do not fit. */
async function boundSplitFits(frame: FrameGpu, bin: DicingBin, region: Region): Promise<boolean> {
  const { gpu, layout } = frame;
  const allocator = gpu.allocator;
  const records = bin.halves!;
  // What `grids` grids packed into `gridRecords` records take: their storage and the sampler's
  // counts and offsets (sample.ts allocateCounts); and whether those fit one binding each.
  const maxBinding = gpu.maxBindingBytes();
  const bytes = (grids: number, gridRecords: number): number => gridBytes(frame, gridRecords, grids) + 2 * grids * SAMPLE_COUNT_BYTES_PER_GRID;
  const inBindings = (grids: number, gridRecords: number): boolean =>
    gridRecords * layout.recordFloats * 4 <= maxBinding && grids * SAMPLE_COUNT_BYTES_PER_GRID <= maxBinding;
  // Bound/split gives up, and the region is split, once the grids of its ready pieces cannot fit:
  // their records are at least their vertices over a record's (packed without gaps), and at least
  // as many as grids over half a record. The most grids the region could take, each the smallest
  // (2 × 2 vertices), bounds their count alone.
  const available = allocator.free() - SAMPLING_RESERVE * allocator.budget;
  const mayFit: ReadyFits = (grids, vertices, large) => {
    const leastRecords = Math.max(large, Math.ceil(vertices / layout.maxVertices));
    return bytes(grids, leastRecords) <= available && inBindings(grids, leastRecords);
  };
  const maxGrids = Math.floor(Math.min(available / bytes(1, 4 / layout.maxVertices), maxBinding / SAMPLE_COUNT_BYTES_PER_GRID));
  const source = records.batched?.source;
  let split: SplitPieces | undefined;
  if (source) {
    // With the records the region keeps, which its halves start from should it not fit.
    const batched = await boundSplitBatches(frame, region, maxGrids, source, mayFit);
    bin.halves = { ...records, batched: { ...records.batched!, source: batched.touching } };
    split = batched.split;
  } else {
    const result = await boundSplit(frame, region, maxGrids, mayFit, records.frontier);
    if (gaveUp(result)) {
      bin.halves = { ...records, frontier: result.frontier };
      return false;
    }
    split = result;
  }
  if (!split) return false;
  bin.ready = split;
  const pieces = split.count > 0 ? await gpu.readU32(split.buffer, split.count * PIECE.words) : new Uint32Array(0);
  const gridRecords = packGridRecords(layout, pieceVertices(pieces, split.count)).records;
  // Room as well for what shading allocates (schedulers/shading-scheduler.ts).
  const shading = shadingBytes(split.count, frame.pipelines.length > 1, kernelFrameUniforms(frame.spaces, split.count).byteLength);
  let fits = bytes(split.count, gridRecords) <= allocator.free() - SAMPLING_RESERVE * allocator.budget - shading && inBindings(split.count, gridRecords);
  const batched = records.batched;
  if (batched && source) {
    const packed = packRegionRecords(batched.records, pieceRecords(source, pieces, split.count, split.batchEnds), pieces, split.count);
    bin.halves = { ...records, batched: { ...batched, source: source.of(packed.global) } };
    if (fits) {
      bin.bound = bindRegionRecords(frame, packed, split, pieces);
      bin.recordsPassBinding = bin.bound === undefined;
      fits = !bin.recordsPassBinding;
      // The bin's stages bind its own records (frame.records maps them back); its tables index them.
      if (bin.bound) Object.assign(bin, { frame: bin.bound.frame, tables: bin.bound.tables });
    }
  } else if (!fits) {
    // The ready pieces cover the region: its halves start from them.
    bin.halves = { ...records, frontier: pieces };
  }
  return fits;
}
