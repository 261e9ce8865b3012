// The sampling scheduler: the sampling bins' level of the stage graph (pipeline/runtime.ts runs it
// inside each dicing bin). Its Schedule rule is the sample stage's Process: a bin fits when its
// sample points (the exact total of the count pass: the covered samples) plus the subpixel framebuffer fit
// the memory left; a budget bin that does not is cut in two, a bin sampled whole fails. Then the
// points are written (sample) and composited (composite), or, with the two fused for an opaque
// frame, found by atomic depth; and the filter puts the bin's pixels into the frame's image (and,
// when asked, the primitive record of each pixel into FrameInsight.ids).
import { blitDepth, blitRgba, type FloatImage, type VariableImage } from '../../image/image.ts';
import type { FrameGpu, Region } from '../frame-gpu.ts';
import type { BinLevel } from '../pipeline/runtime.ts';
import type { DicingBin } from './dicing-scheduler.ts';
import { filterRegion } from '../stages/filter.ts';
import {
  compositeSamplePoints, countSamples, OPAQUE_SUBPIXEL_BYTES, releaseSamplePoints, releaseSubpixels, SAMPLE_PAYLOAD_BYTES, SAMPLE_POINT_BYTES,
  sampleOpaque, sampleVariable, SUBPIXEL_BYTES, SUBPIXEL_COLOR_BYTES, writeSamplePoints, type SamplePoints, type SubpixelBuffer, type SubpixelRect,
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
  /** The sample stage's points, until the composite stage has composited them. */
  points?: SamplePoints;
  sub?: SubpixelBuffer;
}

/** The sampling bins inside each dicing bin: sample (with the fit rule), composite, filter; sample
 * and composite fused (StageNode.fusedWith) where the frame is opaque. */
export function samplingLevel(target: SamplingTarget): BinLevel<DicingBin, SamplingBin> {
  return {
    kind: 'sampling',
    open: (from, region) => ({ from, rect: subpixelRect(from.frame, region), total: 0 }),
    processes: { sample: samplePoints, composite: compositePoints, filter: (bin, region) => filterInto(bin, region, target) },
    fused: { sample: sampleOpaqueFits },
    close: (bin) => {
      if (bin.points) releaseSamplePoints(bin.from.frame, bin.points);
      if (bin.sub) releaseSubpixels(bin.from.frame, bin.sub);
    },
  };
}

/** Besides the budget, each buffer must fit one storage binding (128 MiB on many adapters). */
function subpixelsFitBinding(bin: SamplingBin): boolean {
  return bin.rect.width * bin.rect.height * SUBPIXEL_COLOR_BYTES <= bin.from.frame.gpu.maxBindingBytes();
}

/** The sample stage's Process: false when the bin's points, subpixels and pixels do not fit (the
 * subpixels and pixels are allocated by the stages after it, and must be left room). */
async function samplePoints(bin: SamplingBin, region: Region): Promise<boolean> {
  const { frame, ready, diced, counts } = bin.from;
  const { rect } = bin;
  if (!subpixelsFitBinding(bin)) return false;
  const count = await countSamples(frame, ready!, diced!, counts!, rect);
  bin.total = count.points;
  const pixels = (region.x1 - region.x0) * (region.y1 - region.y0);
  // The sort's scans need a few bytes per digit-count entry beyond the per-sample estimate.
  const fitsBudget = bin.total * SAMPLE_POINT_BYTES + rect.width * rect.height * SUBPIXEL_BYTES + pixels * PIXEL_BYTES + 4096 <= frame.gpu.allocator.free();
  if (!fitsBudget || bin.total * SAMPLE_PAYLOAD_BYTES > frame.gpu.maxBindingBytes()) return false;
  bin.points = await writeSamplePoints(frame, ready!, diced!, counts!, rect, bin.total);
  frame.stats.samplePoints += count.tested;
  return true;
}

/** The composite stage's Process: the bin's points into its subpixel buffer (room left by sample). */
async function compositePoints(bin: SamplingBin): Promise<boolean> {
  const { frame } = bin.from;
  bin.sub = await compositeSamplePoints(frame, bin.points!, bin.rect);
  releaseSamplePoints(frame, bin.points!);
  delete bin.points;
  return true;
}

/** Sample and composite fused (the opaque path): false when the bin's subpixels and pixels do not fit. */
async function sampleOpaqueFits(bin: SamplingBin, region: Region): Promise<boolean> {
  const { frame, ready, diced, counts } = bin.from;
  const { rect } = bin;
  const pixels = (region.x1 - region.x0) * (region.y1 - region.y0);
  if (!subpixelsFitBinding(bin) || rect.width * rect.height * OPAQUE_SUBPIXEL_BYTES + pixels * PIXEL_BYTES > frame.gpu.allocator.free()) return false;
  bin.sub = await sampleOpaque(frame, ready!, diced!, counts!, rect, frame.sampleCounter);
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
