// The sampling scheduler: the sampling bins' level of the stage graph (pipeline/runtime.ts runs it
// inside each dicing bin). Its Schedule rule is the sample stage's Process: a bin fits when its
// sample points (the exact total of the conservative count pass) plus the subpixel framebuffer fit
// the memory left; a budget bin that does not is cut in two, a bin sampled whole fails. Then the
// points are written and composited (one command buffer) or take the opaque path, and the filter
// puts the bin's pixels into the frame's image (and, when asked, the primitive record of each pixel
// into FrameInsight.ids).
import { blitDepth, blitRgba, type FloatImage, type VariableImage } from '../../image/image.ts';
import type { FrameGpu, Region } from '../frame-gpu.ts';
import type { BinLevel } from '../pipeline/runtime.ts';
import type { DicingBin } from './dicing-scheduler.ts';
import { filterRegion } from '../stages/filter.ts';
import {
  countSamples, OPAQUE_SUBPIXEL_BYTES, releaseSubpixels, SAMPLE_PAYLOAD_BYTES, SAMPLE_POINT_BYTES, sampleAndComposite,
  sampleOpaque, sampleVariable, SUBPIXEL_BYTES, SUBPIXEL_COLOR_BYTES, type SubpixelBuffer, type SubpixelRect,
} from '../stages/sample.ts';

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

/** What the stages of one sampling bin share: the dicing bin it lies in, its subpixels and points. */
interface SamplingBin {
  from: DicingBin;
  rect: SubpixelRect;
  total: number;
  sub?: SubpixelBuffer;
}

/** The sampling bins inside each dicing bin: sample (with the fit rule; composite recorded with it), filter. */
export function samplingLevel(target: SamplingTarget): BinLevel<DicingBin, SamplingBin> {
  return {
    kind: 'sampling',
    open: (from, region) => ({ from, rect: subpixelRect(from.frame, region), total: 0 }),
    processes: { sample: sampleFits, filter: (bin, region) => filterInto(bin, region, target) },
    close: (bin) => {
      if (bin.sub) releaseSubpixels(bin.from.frame, bin.sub);
    },
  };
}

/** The sample stage's Process: false when the bin's points and subpixels do not fit. */
async function sampleFits(bin: SamplingBin, region: Region): Promise<boolean> {
  const { frame, ready, diced, counts } = bin.from;
  const { rect } = bin;
  const subpixels = rect.width * rect.height;
  const pixels = (region.x1 - region.x0) * (region.y1 - region.y0);
  const free = frame.gpu.allocator.free();
  // Besides the budget, each buffer must fit one storage binding (128 MiB on many adapters).
  const maxBinding = frame.gpu.maxBindingBytes();
  if (subpixels * SUBPIXEL_COLOR_BYTES > maxBinding) return false;
  if (frame.opaque) {
    if (subpixels * OPAQUE_SUBPIXEL_BYTES + pixels * PIXEL_BYTES > free) return false;
    bin.sub = await sampleOpaque(frame, ready!, diced!, rect, frame.sampleCounter);
    return true;
  }
  bin.total = await countSamples(frame, ready!, diced!, counts!, rect);
  // The sort's scans need a few bytes per digit-count entry beyond the per-sample estimate.
  const fitsBudget = bin.total * SAMPLE_POINT_BYTES + subpixels * SUBPIXEL_BYTES + pixels * PIXEL_BYTES + 4096 <= free;
  if (!fitsBudget || bin.total * SAMPLE_PAYLOAD_BYTES > maxBinding) return false;
  bin.sub = await sampleAndComposite(frame, ready!, diced!, counts!, rect, bin.total);
  return true;
}

/** The filter stage's Process: the bin's pixels (and output variables) into the frame's images. */
async function filterInto(bin: SamplingBin, region: Region, target: SamplingTarget): Promise<boolean> {
  const { frame, ready, diced, counts } = bin.from;
  const ids = frame.insight.ids;
  const filtered = await filterRegion(frame, bin.sub!, region, ids !== undefined);
  const w = region.x1 - region.x0;
  const h = region.y1 - region.y0;
  const x = region.x0 - target.originX;
  const y = region.y0 - target.originY;
  blitRgba(target.image, x, y, w, h, filtered.rgba);
  blitDepth(target.image, x, y, w, h, filtered.depth.map((d) => (d >= 1e38 ? Infinity : d)));
  if (ids && filtered.ids) {
    const global = frame.records;
    if (global) filtered.ids = filtered.ids.map((record) => (record === 0xffffffff ? record : global[record]!));
    for (let row = 0; row < h; row++) ids.set(filtered.ids.subarray(row * w, (row + 1) * w), (y + row) * target.image.width + x);
  }
  for (const [name, { image }] of target.variables) {
    const variable = await sampleVariable(frame, ready!, diced!, counts!, bin.rect, bin.total, name);
    try {
      blitRgba(image, x, y, w, h, (await filterRegion(frame, variable, region)).rgba);
    } finally {
      releaseSubpixels(frame, variable);
    }
  }
  return true;
}
