// The sampling scheduler: BSP-splits a dicing region until its sample points (the exact total of
// the conservative count pass) plus the subpixel framebuffer fit the memory left, then samples,
// composites and filters each piece and puts its pixels into the frame's image (and, when asked,
// the primitive record of each pixel into FrameInsight.ids), reporting each finished region.
import { GpuBudgetError } from '../../gpu/errors.ts';
import { blitDepth, blitRgba, type FloatImage, type VariableImage } from '../../image/image.ts';
import { throwIfCancelled } from '../cancel.ts';
import { BudgetTooSmallError } from '../errors.ts';
import type { FrameGpu, ReadyPieces, Region } from '../frame-gpu.ts';
import type { DicedGrids } from '../stages/dice.ts';
import { filterRegion } from '../stages/filter.ts';
import {
  countSamples, OPAQUE_SUBPIXEL_BYTES, releaseSubpixels, SAMPLE_PAYLOAD_BYTES, SAMPLE_POINT_BYTES, sampleAndComposite,
  sampleOpaque, sampleVariable, SUBPIXEL_BYTES, SUBPIXEL_COLOR_BYTES, type SampleCounts, type SubpixelBuffer, type SubpixelRect,
} from '../stages/sample.ts';
import { canSplit, splitRegion } from './regions.ts';

/** Bytes per output pixel of the filter stage (RGBA, depth, primitive record) and its read-back copies. */
const PIXEL_BYTES = 48;

export interface SamplingTarget {
  image: FloatImage;
  /** Global pixel of the image's (0, 0): the crop window's corner. */
  originX: number;
  originY: number;
  /** Output variables by grid variable name, each filtered into its own image like colour. */
  variables: Map<string, VariableImage>;
}

export function subpixelRect(frame: FrameGpu, region: Region): SubpixelRect {
  const a = frame.apron;
  return {
    x: (region.x0 - a) * frame.nx,
    y: (region.y0 - a) * frame.ny,
    width: (region.x1 - region.x0 + 2 * a) * frame.nx,
    height: (region.y1 - region.y0 + 2 * a) * frame.ny,
  };
}

export async function sampleRegion(
  frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, counts: SampleCounts, region: Region, target: SamplingTarget,
  allowSplit: boolean,
): Promise<void> {
  throwIfCancelled(frame.signal);
  const rect = subpixelRect(frame, region);
  const subpixels = rect.width * rect.height;
  const pixels = (region.x1 - region.x0) * (region.y1 - region.y0);
  const free = frame.gpu.allocator.free();
  // Besides the budget, each buffer must fit one storage binding (128 MiB on many adapters).
  const maxBinding = frame.gpu.maxBindingBytes();
  const subpixelsBind = subpixels * SUBPIXEL_COLOR_BYTES <= maxBinding;
  let sub: SubpixelBuffer | undefined;
  let total = 0;
  try {
    if (frame.opaque) {
      if (subpixelsBind && subpixels * OPAQUE_SUBPIXEL_BYTES + pixels * PIXEL_BYTES <= free) sub = await sampleOpaque(frame, ready, diced, rect, frame.sampleCounter);
    } else {
      total = await countSamples(frame, ready, diced, counts, rect);
      // The sort's scans need a few bytes per digit-count entry beyond the per-sample estimate.
      const fitsBudget = total * SAMPLE_POINT_BYTES + subpixels * SUBPIXEL_BYTES + pixels * PIXEL_BYTES + 4096 <= free;
      if (fitsBudget && subpixelsBind && total * SAMPLE_PAYLOAD_BYTES <= maxBinding) {
        sub = await sampleAndComposite(frame, ready, diced, counts, rect, total);
      }
    }
  } catch (error) {
    if (!(error instanceof GpuBudgetError)) throw error;
  }
  if (sub) {
    try {
      frame.insight.stageDone(region, 'sample');
      throwIfCancelled(frame.signal);
      const ids = frame.insight.ids;
      const filtered = await filterRegion(frame, sub, region, ids !== undefined);
      const w = region.x1 - region.x0;
      const h = region.y1 - region.y0;
      blitRgba(target.image, region.x0 - target.originX, region.y0 - target.originY, w, h, filtered.rgba);
      blitDepth(target.image, region.x0 - target.originX, region.y0 - target.originY, w, h, filtered.depth.map((d) => (d >= 1e38 ? Infinity : d)));
      if (ids && filtered.ids) {
        const global = frame.records;
        if (global) filtered.ids = filtered.ids.map((record) => (record === 0xffffffff ? record : global[record]!));
        for (let y = 0; y < h; y++) ids.set(filtered.ids.subarray(y * w, (y + 1) * w), (region.y0 - target.originY + y) * target.image.width + region.x0 - target.originX);
      }
      for (const [name, { image }] of target.variables) {
        const variable = await sampleVariable(frame, ready, diced, counts, rect, total, name);
        try {
          blitRgba(image, region.x0 - target.originX, region.y0 - target.originY, w, h, (await filterRegion(frame, variable, region)).rgba);
        } finally {
          releaseSubpixels(frame, variable);
        }
      }
      frame.stats.samplingRegions++;
      frame.insight.region('sampling', region, false);
      frame.insight.stageDone(region, 'filter');
      return;
    } finally {
      releaseSubpixels(frame, sub);
    }
  }
  if (!allowSplit) throw new BudgetTooSmallError(`a ${region.x1 - region.x0}×${region.y1 - region.y0} bin (bucket) does not fit the memory budget; use smaller bins or a larger budget`);
  if (!canSplit(region)) throw new BudgetTooSmallError('the memory budget cannot hold the sample points of a single pixel');
  frame.stats.samplingSplits++;
  frame.insight.region('sampling', region, true);
  for (const half of splitRegion(region)) await sampleRegion(frame, ready, diced, counts, half, target, allowSplit);
}
