// The dicing scheduler: BSP-splits a screen region (longer axis, middle, depth first) until the
// grids of the pieces its bound/split yields fit the budget minus the reserve kept for sampling (and
// the grid buffers fit one storage binding);
// each region that fits is diced, shaded and handed to the sampling scheduler. Bucket mode runs
// the same stages over fixed tiles without splitting. A prepared frame (render-frame.ts
// prepareFrame) may keep a region's ready pieces and grids after sampling (`keep`) and later shade
// and sample them again without bound/split or dicing (renderKeptRegion).
import { GpuBudgetError } from '../../gpu/errors.ts';
import { throwIfCancelled } from '../cancel.ts';
import { BindingLimitError, BudgetTooSmallError } from '../errors.ts';
import type { FrameGpu, ReadyPieces, Region } from '../frame-gpu.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { bindRegionRecords, packRegionRecords, pieceRecords, recordSource, type BoundRegionRecords, type RecordSource } from '../frame/record-batches.ts';
import type { PrimitiveRecords } from '../primitive-record.ts';
import { boundSplit } from '../stages/bound-split.ts';
import { dice, gridBytes, releaseGrids, type DicedGrids } from '../stages/dice.ts';
import { shade } from '../stages/shade.ts';
import { kernelFrameUniforms } from '../shading/spaces.ts';
import { shadingBytes } from './shading-scheduler.ts';
import { allocateCounts, releaseCounts, type SampleCounts } from '../stages/sample.ts';
import { collectOutlines } from './insight.ts';
import { canSplit, splitRegion } from './regions.ts';
import { sampleRegion, type SamplingTarget } from './sampling-scheduler.ts';

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
}

/** Whether the scheduler may cut a dicing bin (budget bins) and the sampling bins inside it
 * (pipeline/pipeline-config.ts); a bin it may not cut must fit the budget whole. */
export interface BinSplits {
  dicing: boolean;
  sampling: boolean;
}

/** A dicing region whose ready pieces and shaded grids stay on the GPU. */
export interface KeptRegion {
  region: Region;
  ready: ReadyPieces;
  diced: DicedGrids;
}

/** Says whether a finished dicing region's grids are kept (then the caller owns and releases them). */
export type KeepGrids = (kept: KeptRegion) => boolean;

export async function renderRegion(
  frame: FrameGpu, records: FrameRecords, region: Region, target: SamplingTarget, splits: BinSplits, keep?: KeepGrids,
): Promise<void> {
  throwIfCancelled(frame.signal);
  const { gpu, layout } = frame;
  const allocator = gpu.allocator;
  let ready: ReadyPieces | undefined;
  let bound: BoundRegionRecords | undefined;
  let fits = false;
  let recordsPassBinding = false;
  // With batched records, what the halves of a split region bound and split: the records this
  // region's pieces came from, once its bound/split has finished.
  let halves = records;
  try {
    // The most grids the region could take (memory, and the grids and per-micropolygon buffers in one
    // binding each): bound/split gives up past it, and the region is split.
    const perGrid = gridBytes(frame) + layout.maxVertices * 8;
    const maxBinding = gpu.maxBindingBytes();
    const maxGrids = (available: number): number =>
      Math.floor(Math.min(available / perGrid, maxBinding / (layout.recordFloats * 4), maxBinding / (layout.maxVertices * 4)));
    const reserve = SAMPLING_RESERVE * allocator.budget;
    const split = await boundSplit(frame, region, maxGrids(allocator.free() - reserve), records.batched?.source);
    ready = split;
    // Room as well for what shading allocates (schedulers/shading-scheduler.ts).
    const shading = split ? shadingBytes(split.count, frame.pipelines.length > 1, kernelFrameUniforms(frame.spaces, split.count).byteLength) : 0;
    fits = split !== undefined && split.count <= maxGrids(allocator.free() - reserve - shading);
    const batched = records.batched;
    if (split && batched) {
      const pieces = await gpu.readU32(split.buffer, split.count * PIECE.words);
      const packed = packRegionRecords(batched.records, pieceRecords(batched.source, pieces, split.count, split.batchEnds), pieces, split.count);
      halves = { ...records, batched: { ...batched, source: recordSource(gpu, batched.records, packed.global) } };
      if (fits) {
        bound = bindRegionRecords(frame, packed, split, pieces);
        recordsPassBinding = bound === undefined;
        fits = !recordsPassBinding;
      }
    }
  } catch (error) {
    if (!(error instanceof GpuBudgetError)) throw error;
  }
  if (ready && fits) {
    // With batched records the region's stages bind its own records (frame.records maps them back).
    const regionFrame = bound?.frame ?? frame;
    const tables = bound?.tables ?? records.tables;
    let diced: DicedGrids | undefined;
    let counts: SampleCounts | undefined;
    let kept = false;
    try {
      frame.insight.stageDone(region, 'boundSplit');
      diced = await dice(regionFrame, ready);
      frame.stats.gridsDiced += diced.count;
      frame.insight.stageDone(region, 'dice');
      throwIfCancelled(frame.signal);
      await shade(regionFrame, ready, diced, tables.pipeline, tables.paramBase);
      frame.insight.stageDone(region, 'shade');
      throwIfCancelled(frame.signal);
      if (frame.insight.outlines) await collectOutlines(regionFrame, ready, diced, frame.insight.outlines);
      counts = allocateCounts(regionFrame, diced);
      await sampleRegion(regionFrame, ready, diced, counts, region, target, splits.sampling);
      frame.stats.dicingRegions++;
      frame.stats.primitivesAfterSplit += ready.count;
      frame.stats.grids += ready.count;
      frame.insight.region('dicing', region, false);
      if (keep && !bound) {
        releaseCounts(frame, counts);
        counts = undefined;
        kept = keep({ region, ready, diced });
      }
      return;
    } catch (error) {
      // Too little left for sampling even one pixel: the grids take too much; cut the dicing region.
      const samplingStarved = error instanceof BudgetTooSmallError && splits.dicing && canSplit(region);
      if (!(error instanceof GpuBudgetError) && !samplingStarved) throw error;
      frame.insight.redo(region);
    } finally {
      if (counts) releaseCounts(frame, counts);
      if (!kept) {
        if (diced) releaseGrids(frame, diced);
        allocator.release(ready.buffer);
      }
      bound?.release();
    }
  } else if (ready) {
    allocator.release(ready.buffer);
  }
  if (!splits.dicing) throw new BudgetTooSmallError(`a ${region.x1 - region.x0}×${region.y1 - region.y0} bin (bucket) does not fit the memory budget; use smaller bins or a larger budget`);
  if (!canSplit(region) && recordsPassBinding) {
    throw new BindingLimitError(`the primitive records under pixel (${region.x0}, ${region.y0}) take more than one storage binding of this device holds (${gpu.maxBindingBytes()} bytes)`);
  }
  if (!canSplit(region)) throw new BudgetTooSmallError('the memory budget cannot hold the grids of a single pixel');
  frame.stats.dicingSplits++;
  frame.insight.region('dicing', region, true);
  for (const half of splitRegion(region)) await renderRegion(frame, halves, half, target, splits, keep);
}

/**
 * Shades and samples a kept region's grids again (new shader parameters, lights or colours): no
 * bound/split; dicing again only with `redice` (the grids' inputs changed, or a kernel overwrote
 * them: displacement). `gridInfoCurrent` says whether the grids' gridInfo still holds each
 * primitive's parameter base (else shading builds its lists from `tables`).
 */
export async function renderKeptRegion(
  frame: FrameGpu, tables: PrimitiveTables, kept: KeptRegion, target: SamplingTarget, redice: boolean, gridInfoCurrent: boolean,
): Promise<void> {
  throwIfCancelled(frame.signal);
  const { ready, region } = kept;
  if (redice) {
    const fresh = await dice(frame, ready);
    releaseGrids(frame, kept.diced);
    kept.diced = fresh;
    frame.stats.gridsDiced += fresh.count;
  } else {
    frame.stats.gridsReused += kept.diced.count;
  }
  frame.insight.stageDone(region, 'dice');
  const diced = kept.diced;
  await shade(frame, ready, diced, tables.pipeline, tables.paramBase, redice || gridInfoCurrent);
  frame.insight.stageDone(region, 'shade');
  if (frame.insight.outlines) await collectOutlines(frame, ready, diced, frame.insight.outlines);
  const counts = allocateCounts(frame, diced);
  try {
    await sampleRegion(frame, ready, diced, counts, region, target, true);
  } finally {
    releaseCounts(frame, counts);
  }
  frame.stats.dicingRegions++;
  frame.stats.primitivesAfterSplit += ready.count;
  frame.stats.grids += ready.count;
  frame.insight.region('dicing', region, false);
}
