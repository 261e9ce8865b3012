// The dicing scheduler: BSP-splits a screen region (longer axis, middle, depth first) until the
// grids of the pieces its bound/split yields fit the budget minus the reserve kept for sampling;
// each region that fits is diced, shaded and handed to the sampling scheduler. Bucket mode runs
// the same stages over fixed tiles without splitting.
import { GpuBudgetError } from '../../gpu/errors.ts';
import { BudgetTooSmallError } from '../errors.ts';
import type { FrameGpu, ReadyPieces, Region } from '../frame-gpu.ts';
import { boundSplit } from '../stages/bound-split.ts';
import { dice, gridBytes, releaseGrids, type DicedGrids } from '../stages/dice.ts';
import { shade } from '../stages/shade.ts';
import { allocateCounts, releaseCounts, type SampleCounts } from '../stages/sample.ts';
import { canSplit, splitRegion } from './regions.ts';
import { sampleRegion, type SamplingTarget } from './sampling-scheduler.ts';

/** Share of the budget kept back for sampling when deciding whether a dicing region fits. */
export const SAMPLING_RESERVE = 0.25;

export interface PrimitiveTables {
  pipeline: Uint32Array;
  paramBase: Uint32Array;
}

export async function renderRegion(
  frame: FrameGpu, tables: PrimitiveTables, region: Region, target: SamplingTarget, allowSplit: boolean,
): Promise<void> {
  const { gpu, layout } = frame;
  const allocator = gpu.allocator;
  let ready: ReadyPieces | undefined;
  let fits = false;
  try {
    ready = await boundSplit(frame, region);
    const perGrid = gridBytes(frame) + layout.maxVertices * 8;
    const available = allocator.free() - SAMPLING_RESERVE * allocator.budget;
    const maxBinding = Math.min(gpu.limits.maxStorageBufferBindingSize, gpu.limits.maxBufferSize);
    fits = ready.count * perGrid <= available && ready.count * layout.recordFloats * 4 <= maxBinding &&
      ready.count * layout.maxVertices * 4 <= maxBinding;
  } catch (error) {
    if (!(error instanceof GpuBudgetError)) throw error;
  }
  if (ready && fits) {
    let diced: DicedGrids | undefined;
    let counts: SampleCounts | undefined;
    try {
      diced = await dice(frame, ready);
      await shade(frame, ready, diced, tables.pipeline, tables.paramBase);
      counts = allocateCounts(frame, diced);
      await sampleRegion(frame, ready, diced, counts, region, target, allowSplit);
      frame.stats.dicingRegions++;
      frame.stats.primitivesAfterSplit += ready.count;
      frame.stats.grids += ready.count;
      return;
    } catch (error) {
      // Too little left for sampling even one pixel: the grids take too much; cut the dicing region.
      const samplingStarved = error instanceof BudgetTooSmallError && allowSplit && canSplit(region);
      if (!(error instanceof GpuBudgetError) && !samplingStarved) throw error;
    } finally {
      if (counts) releaseCounts(frame, counts);
      if (diced) releaseGrids(frame, diced);
      allocator.release(ready.buffer);
    }
  } else if (ready) {
    allocator.release(ready.buffer);
  }
  if (!allowSplit) throw new BudgetTooSmallError(`a ${region.x1 - region.x0}×${region.y1 - region.y0} bucket does not fit the memory budget; use smaller buckets or a larger budget`);
  if (!canSplit(region)) throw new BudgetTooSmallError('the memory budget cannot hold the grids of a single pixel');
  frame.stats.dicingSplits++;
  for (const half of splitRegion(region)) await renderRegion(frame, tables, half, target, allowSplit);
}
