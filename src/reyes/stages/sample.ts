// The sample stage of one sample region (reyes-sample.wgsl): count (the covered samples, per
// micropolygon) → scan → write sample points, which the composite stage (composite.ts) then
// composites front to back per subpixel; or, fused with compositing where every primitive is
// opaque (stage-graph.ts, "sample+composite"), the nearest sample by atomic depth straight into the
// subpixel buffer, with no sample points written.
// The result is a subpixel buffer (premultiplied RGBA, depth and the nearest sample's primitive
// record) for the pixel filter. An output variable (Display mode "N", "s"...) is sampled by the
// same passes with the variable times Oi read where Ci is, so it is composited front to back
// exactly as colour is; a 1-component variable lands in the first channel.
import { Scan } from '../../gpu/scan.ts';
import type { CommandRecorder } from '../../gpu/runtime.ts';
import { addGpuTimes, stageRecorder, timed, type FrameGpu, type ReadyPieces } from '../frame-gpu.ts';
import { gridOffsetConstants } from '../../layout/grid-layout.ts';
import { COLOUR_LANES, MAX_CLIP_PLANES, SAMPLE_LANES, SAMPLE_PARAMS } from '../../layout/sample-params.ts';
import { OWNER_TAIL, ownerBufferBytes, TIE_ENTRIES } from '../../layout/opaque-owners.ts';
import { SAMPLE_PAYLOAD, SAMPLE_POINT_RECORD_BYTES } from '../../layout/sample-point.ts';
import { packUniform } from '../../layout/uniform-struct.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';
import { COMPOSITE_SAMPLE_BYTES, COMPOSITE_SUBPIXEL_BYTES, encodeComposite } from './composite.ts';
import type { DicedGrids } from './dice.ts';
import { motionConstants, shapeConstants, type ConvertedFrame } from '../convert/convert-frame.ts';

/** Why the frame's samples must be composited front to back rather than take the fused opaque
 * path, or undefined when every primitive is opaque. */
export function opaqueFusionBlocker(pipelines: ConvertedFrame['pipelines']): string | undefined {
  const seeThrough = pipelines.find((p) => !p.opaque);
  if (!seeThrough) return undefined;
  const { kernel } = seeThrough;
  return kernel.keepsOpaque
    ? `objects shaded by ${kernel.label} are not opaque (Opacity below 1, a varying Os, or a CSG solid)`
    : `${kernel.label} may make Oi less than 1`;
}

/** A rectangle of global subpixels. */
export interface SubpixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SubpixelBuffer {
  rect: SubpixelRect;
  color: GPUBuffer;
  depth: GPUBuffer;
  /** The primitive record of each subpixel's nearest sample (all ones where none). */
  ids: GPUBuffer;
}

/** Bytes per sample point: key and payload, and compositing's. */
export const SAMPLE_POINT_BYTES = SAMPLE_POINT_RECORD_BYTES + COMPOSITE_SAMPLE_BYTES;
/** The largest per-sample buffer (the payload): one binding must hold it for the whole region. */
export const SAMPLE_PAYLOAD_BYTES = SAMPLE_PAYLOAD.vec4s * 16;
/** The largest per-subpixel buffer (the colour). */
export const SUBPIXEL_COLOR_BYTES = 16;
/** Bytes per subpixel of the transparent path: colour 16, depth 4, primitive record 4, and compositing's. */
export const SUBPIXEL_BYTES = 24 + COMPOSITE_SUBPIXEL_BYTES;
/** About how many subpixels each workgroup of opaqueClear initialises (it divides them evenly). */
const CLEAR_SPAN = 4096;
/** Bytes per subpixel of the opaque path: depth, owner, colour, depth out, primitive record. */
export const OPAQUE_SUBPIXEL_BYTES = 32;
/** SampleParams.mode: opaqueColour's pass over tie entries, and opaqueResolve's walks (reyes-sample.wgsl). */
const COLOUR_PIXELS = 0;
const CHECK_TIES = 1;
const RESOLVE_OWNERS = 0;
const RESOLVE_COLOURS = 1;
const RESOLVE_ALL_OWNERS = 2;

const SAMPLE_VARIABLES = ['P', 'Ng', 'Ci', 'Oi', 'u', 'v'];

function storage(): number {
  return GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
}

/** The sampling kernels' parameters; `gridCount`: the grids the dispatch takes (opaqueDepth,
 * countSamples and writeSamples: those of the dicing bin's order its region takes, regionGrids),
 * else the dicing bin's. */
function sampleParams(frame: FrameGpu, diced: DicedGrids, rect: SubpixelRect, mode = COLOUR_PIXELS, gridCount = diced.count): Uint32Array {
  const planes = frame.camera.clipPlanes.slice(0, MAX_CLIP_PLANES);
  return packUniform(SAMPLE_PARAMS, {
    gridCount, nx: frame.nx, ny: frame.ny,
    originX: rect.x, originY: rect.y, width: rect.width, height: rect.height,
    near: frame.camera.near, far: frame.camera.far, perspective: frame.camera.perspective ? 1 : 0,
    clipCount: planes.length, cameraToRaster: frame.camera.cameraToRaster, clipPlanes: planes.flat(),
    lensRadius: frame.camera.lens?.radius ?? 0, focalDistance: frame.camera.lens?.focalDistance ?? 1, mode,
  });
}

/** The sampling kernels' specialisation to what the frame uses: each test a frame has no use for is
 * left out of the compiled kernel (lavapipe compiles the sampling kernels in about half the time
 * without all three). */
export function sampleFeatureConstants(frame: Pick<FrameGpu, 'recordUses' | 'camera'>): Record<string, number> {
  return {
    TRIMS: Number(frame.recordUses.trims),
    CLIP_PLANES: Number(frame.camera.clipPlanes.length > 0),
    DETAIL_LEVELS: Number(frame.recordUses.detailLevels),
  };
}

/** A blurred frame's pixel samples per axis as the sampling kernels' constants (BLUR_NX, BLUR_NY),
 * which fold the blur strata's arithmetic; a still frame leaves them 0 (read from the parameters),
 * so that still frames of any sample count share pipelines. */
export function blurStrataConstants(frame: Pick<FrameGpu, 'motion' | 'camera' | 'nx' | 'ny'>): Record<string, number> {
  const blurred = frame.motion.moves || frame.camera.lens !== null;
  return blurred ? { BLUR_NX: frame.nx, BLUR_NY: frame.ny } : {};
}

/** `variable`: the grid variable sampled in place of Ci (an output variable), default Ci itself. */
function samplePipeline(frame: FrameGpu, entryPoint: string, variable = 'Ci'): Promise<GPUComputePipeline> {
  const constants = gridOffsetConstants(frame.layout, SAMPLE_VARIABLES);
  constants.OFF_CI = gridOffsetConstants(frame.layout, [variable])[`OFF_${variable.toUpperCase()}`]!;
  constants.OUTPUT_VARIABLE = variable === 'Ci' ? 0 : 1;
  // Sampling evaluates surfaces only for deforming records' key shapes: without them the kinds are
  // left at their default, so that frames of any kinds share the sampling pipelines.
  Object.assign(constants, motionConstants(frame.motion), frame.motion.deforms ? shapeConstants(frame.shapeKinds) : {}, sampleFeatureConstants(frame),
    blurStrataConstants(frame));
  return kernelPipeline(frame.gpu, frame.camera.lens ? 'reyes-sample-lens.wgsl' : 'reyes-sample-pinhole.wgsl', entryPoint, constants);
}

/** The opaque path's pipelines: clear, depth and the per-subpixel owners (opaqueColour), and the
 * grids' nearest depths (orderNearestFirst); the walk (opaqueResolve) is made when a region needs it
 * (sampleOpaque). */
function opaquePipelines(frame: FrameGpu, variable = 'Ci'): Promise<GPUComputePipeline[]> {
  const entries = ['opaqueClear', 'opaqueDepth', 'opaqueColour', 'gridNearest'];
  return Promise.all(entries.map((e) => samplePipeline(frame, e, variable)));
}

/** The sampling pipelines the frame's sample stage takes for Ci: the opaque path's, or the count
 * and write passes of sample points (the scan between them is bound/split's, Scan.prepare). */
export function samplePipelines(frame: FrameGpu): Promise<GPUComputePipeline[]> {
  if (frame.opaque) return opaquePipelines(frame);
  return Promise.all([samplePipeline(frame, 'countSamples'), samplePipeline(frame, 'writeSamples')]);
}

/** The count pass's sample counts and their offsets (reyes-sample.wgsl: a word per grid and
 * sampling invocation), sized for the grids of one dicing region. */
export interface SampleCounts {
  counts: GPUBuffer;
  offsets: GPUBuffer;
  /** The order the sampling passes take the grids in (orderNearestFirst: nearest first on the
   * opaque path, the grids' own order on the transparent one), on the GPU and here, and each grid's
   * subpixel bound (x0, y0, x1, y1, inclusive: gridNearest). */
  nearestFirst?: GPUBuffer;
  nearestOrder?: Uint32Array;
  gridSubpixels?: Int32Array;
}

/** Bytes per grid of the counts, and as many of the offsets: a word per sampling invocation. */
export const SAMPLE_COUNT_BYTES_PER_GRID = SAMPLE_LANES * 4;

export function allocateCounts(frame: FrameGpu, diced: DicedGrids): SampleCounts {
  const size = Math.max(1, diced.count) * SAMPLE_COUNT_BYTES_PER_GRID;
  const counts = frame.gpu.allocator.createBuffer({ label: 'sample counts', size, usage: storage() });
  try {
    return { counts, offsets: frame.gpu.allocator.createBuffer({ label: 'sample offsets', size, usage: storage() }) };
  } catch (error) {
    frame.gpu.allocator.release(counts);
    throw error;
  }
}

export function releaseCounts(frame: FrameGpu, c: SampleCounts): void {
  frame.gpu.allocator.release(c.counts);
  frame.gpu.allocator.release(c.offsets);
  if (c.nearestFirst) frame.gpu.allocator.release(c.nearestFirst);
}

/**
 * The order the sampling passes take a dicing bin's grids in, and each grid's subpixel bound, into
 * `counts` (the transparent path, `sort` false: the grids' own order, bounds only). The opaque
 * path's order, into `counts.nearestFirst`, is by the nearest camera
 * depth of each one's vertices (gridNearest), nearest first, which opaqueDepth takes them in. The
 * first micropolygon to reach a subpixel is then mostly the one that stays nearest, so fewer
 * become candidates only to be replaced, and a farther one skips the samples it is hidden at (the
 * depth pass on uteapot 774 → 707 ms, Airplane 636 → 499, dragonhead 391 → 335). The picture is the
 * same in any order: ties at the nearest depth go to the lowest micropolygon id. Sorted on the host:
 * a bin holds some thousands of grids, and the GPU radix sort would add its pipelines to every frame.
 */
export function orderNearestFirst(frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, counts: SampleCounts, sort = true): Promise<void> {
  return timed(frame, 'sample', async () => {
    const { gpu } = frame;
    const pipeline = await samplePipeline(frame, 'gridNearest');
    // The depths, then (at an offset a binding may start at) the subpixel bounds: one read-back.
    const grids = Math.max(1, diced.count);
    const boxesAt = Math.ceil((grids * 4) / gpu.limits.minStorageBufferOffsetAlignment) * gpu.limits.minStorageBufferOffsetAlignment;
    const nearest = gpu.allocator.createBuffer({ label: 'grid nearest depths and bounds', size: boxesAt + grids * 16, usage: storage() });
    try {
      const recorder = stageRecorder(frame, 'grid nearest depths');
      const bindings = { 21: { buffer: nearest, offset: 0, size: grids * 4 }, 24: { buffer: nearest, offset: boxesAt, size: grids * 16 } };
      recorder.dispatch(pipeline, { 0: recorder.params('sample', sampleParams(frame, diced, { x: 0, y: 0, width: 0, height: 0 })), 2: ready.buffer, 3: diced.grids, ...bindings }, Math.ceil(diced.count / 64));
      const words = await recorder.submitAndReadU32(nearest, boxesAt / 4 + grids * 4);
      addGpuTimes(frame, recorder, 'sample');
      const depths = new Float32Array(words.buffer, 0, grids);
      const order = Uint32Array.from({ length: grids }, (_, g) => g);
      if (sort) order.sort((a, b) => depths[a]! - depths[b]! || a - b);
      counts.nearestFirst = gpu.allocator.createBufferWithData(sort ? 'grids nearest first' : 'grids', order, storage());
      counts.nearestOrder = order.subarray(0, diced.count);
      counts.gridSubpixels = new Int32Array(words.buffer, boxesAt, grids * 4);
    } finally {
      gpu.allocator.release(nearest);
    }
  });
}

/** What the count pass found: the sample points `rect` takes (its covered samples) and the samples tested. */
export interface SampleCount {
  points: number;
  tested: number;
}

/** The count pass: how many sample points `rect` takes. */
export function countSamples(frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, counts: SampleCounts, rect: SubpixelRect): Promise<SampleCount> {
  return timed(frame, 'sample', async () => {
    const { gpu } = frame;
    const pipeline = await samplePipeline(frame, 'countSamples');
    const recorder = stageRecorder(frame, 'count samples');
    const grids = regionGrids(frame, recorder, diced, counts, rect);
    const params = recorder.params('sample', sampleParams(frame, diced, rect, COLOUR_PIXELS, grids.count));
    // Words: the points (the scan's total), the samples tested (the count pass's counter).
    const totals = recorder.scratch('sample totals', 8);
    const tested = recorder.scratch('samples tested', 4);
    recorder.encoder.clearBuffer(tested, 0, 4);
    // The grids the region does not take count nothing (the scan runs over every grid's words).
    if (grids.count < diced.count) recorder.encoder.clearBuffer(counts.counts, 0, diced.count * SAMPLE_COUNT_BYTES_PER_GRID);
    if (grids.count > 0) {
      recorder.dispatch(pipeline, { 0: params, 1: frame.prims, 2: ready.buffer, 3: diced.grids, 4: counts.counts, 13: tested, 14: frame.userCorners, 22: grids.order }, grids.count);
    }
    const total = recorder.scratch('sample total', 4);
    await new Scan(gpu).encode(recorder, { input: counts.counts, output: counts.offsets, count: diced.count * SAMPLE_LANES, total });
    recorder.encoder.copyBufferToBuffer(total, 0, totals, 0, 4);
    recorder.encoder.copyBufferToBuffer(tested, 0, totals, 4, 4);
    const [points, samples] = await recorder.submitAndReadU32(totals, 2);
    addGpuTimes(frame, recorder, 'sample');
    return { points: points!, tested: samples! };
  });
}

/** Sample points written for the composite stage: per point a key (depth bits, subpixel) and
 * payload (reyes-sample.wgsl), in allocator buffers the sampling bin releases. */
export interface SamplePoints {
  keys: GPUBuffer;
  payload: GPUBuffer;
  total: number;
}

/** Writes the `total` sample points the count pass found (of `variable` in place of Ci when given). */
export function writeSamplePoints(
  frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, counts: SampleCounts, rect: SubpixelRect, total: number, variable?: string,
): Promise<SamplePoints> {
  return timed(frame, 'sample', async () => {
    const { allocator } = frame.gpu;
    const keys = allocator.createBuffer({ label: 'sample keys', size: Math.max(1, total) * 8, usage: storage() });
    let payload: GPUBuffer | undefined;
    try {
      payload = allocator.createBuffer({ label: 'sample payload', size: Math.max(1, total) * SAMPLE_PAYLOAD_BYTES, usage: storage() });
      const write = await samplePipeline(frame, 'writeSamples', variable);
      const recorder = stageRecorder(frame, 'sample points');
      const grids = regionGrids(frame, recorder, diced, counts, rect);
      const params = recorder.params('sample', sampleParams(frame, diced, rect, COLOUR_PIXELS, grids.count));
      if (!variable) frame.stats.gridsSampled += grids.count;
      if (grids.count > 0) {
        recorder.dispatch(write, { 0: params, 1: frame.prims, 2: ready.buffer, 3: diced.grids, 4: counts.counts, 5: counts.offsets, 6: keys, 8: payload, 14: frame.userCorners, 22: grids.order }, grids.count);
      }
      await recorder.submit();
      addGpuTimes(frame, recorder, 'sample');
      return { keys, payload, total };
    } catch (error) {
      allocator.release(keys);
      if (payload) allocator.release(payload);
      throw error;
    }
  });
}

export function releaseSamplePoints(frame: FrameGpu, points: SamplePoints): void {
  frame.gpu.allocator.release(points.keys);
  frame.gpu.allocator.release(points.payload);
}

/** The composite stage: `points` composited front to back into a new subpixel buffer for `rect`. */
export function compositeSamplePoints(frame: FrameGpu, points: SamplePoints, rect: SubpixelRect): Promise<SubpixelBuffer> {
  return timed(frame, 'composite', async () => {
    const out = allocateSubpixels(frame, rect);
    try {
      const recorder = stageRecorder(frame, 'composite');
      await encodeComposite(frame.gpu, recorder, {
        keys: points.keys, payload: points.payload, sampleCount: points.total, subpixelCount: rect.width * rect.height, solids: frame.solids, ...out,
      });
      await recorder.submit();
      addGpuTimes(frame, recorder, 'composite');
      return out;
    } catch (error) {
      releaseSubpixels(frame, out);
      throw error;
    }
  });
}

/** Sample and composite one after the other, for an output variable. */
async function sampleAndComposite(
  frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, counts: SampleCounts, rect: SubpixelRect, total: number, variable: string,
): Promise<SubpixelBuffer> {
  const points = await writeSamplePoints(frame, ready, diced, counts, rect, total, variable);
  try {
    return await compositeSamplePoints(frame, points, rect);
  } finally {
    releaseSamplePoints(frame, points);
  }
}

/**
 * Sample and composite fused, for an opaque frame, straight into the subpixel buffer
 * (reyes-sample.wgsl): nearest depth by atomicMin, ties counted and marked, then each subpixel's
 * owner (the one micropolygon reaching that depth, or the lowest id of those that tie) gives its
 * colour. The owners are resolved per subpixel from the depth pass's sealed candidates and tie list
 * (opaqueColour); only a region that leaves some unresolved (a candidate left stale all the same,
 * more ties than the list holds) walks its micropolygons again, those that meet the box of its tied
 * and unresolved subpixels: `FrameStats.opaqueWalks`.
 * `sampleCounter` (one u32) gains the sample points the depth pass tests: every subpixel of each
 * micropolygon's raster bound within the region, the count the transparent path's count pass makes.
 */
export function sampleOpaque(
  frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, counts: SampleCounts, rect: SubpixelRect, sampleCounter: GPUBuffer, variable?: string,
): Promise<SubpixelBuffer> {
  return timed(frame, 'sample', async () => {
    const { gpu } = frame;
    const subpixels = rect.width * rect.height;
    const out = allocateSubpixels(frame, rect);
    const made: GPUBuffer[] = [];
    try {
      const [clearPass, depthPass, colourPass] = await opaquePipelines(frame, variable);
      const buffer = (label: string, size: number): GPUBuffer => {
        made.push(gpu.allocator.createBuffer({ label, size, usage: storage() }));
        return made[made.length - 1]!;
      };
      const owner = buffer('opaque owner', ownerBufferBytes(subpixels));
      const samples = stageRecorder(frame, 'opaque samples');
      // The colour pass writes every subpixel's colour (none where no sample reached it), so only
      // the owner words are cleared; the bytes in use only: a buffer may be larger (allocator.ts).
      samples.encoder.clearBuffer(owner, 0, ownerBufferBytes(subpixels));
      // Each recorder its own parameters: a recorder's transient buffers go once its work is done.
      const common = (params: GPUBuffer) => ({ 0: params, 1: frame.prims, 2: ready.buffer, 3: diced.grids, 14: frame.userCorners });
      // The depth passes work in the subpixel depth the filter reads (the bits of an f32 either way).
      const resolve = { 10: owner, 11: out.color, 12: out.ids, 16: out.depth };
      const params = samples.params('sample', sampleParams(frame, diced, rect));
      samples.dispatch(clearPass!, { 0: params, 20: out.depth, 23: out.ids }, Math.ceil(subpixels / CLEAR_SPAN));
      // The grids whose bound meets the region, nearest first.
      const grids = regionGrids(frame, samples, diced, counts, rect);
      const depthParams = grids.count === diced.count ? params : samples.params('sample', sampleParams(frame, diced, rect, COLOUR_PIXELS, grids.count));
      if (grids.count > 0) {
        samples.dispatch(depthPass!, { ...common(depthParams), 9: out.depth, 10: owner, 11: out.color, 13: sampleCounter, 22: grids.order }, grids.count);
      }
      samples.dispatch(colourPass!, { ...common(params), ...resolve }, Math.ceil(subpixels / (frame.nx * frame.ny) / COLOUR_LANES));
      const checks = samples.params('sample', sampleParams(frame, diced, rect, CHECK_TIES));
      samples.dispatch(colourPass!, { ...common(checks), ...resolve }, Math.ceil(TIE_ENTRIES / COLOUR_LANES));
      // The tail's first two words: the subpixels left unresolved, the ties.
      const [unresolved, ties] = await samples.submitAndReadU32(owner, 2, subpixels + OWNER_TAIL.unresolved);
      addGpuTimes(frame, samples, 'sample');
      if (!variable) {
        frame.stats.opaqueTies += ties!;
        frame.stats.gridsSampled += grids.count;
      }
      if (unresolved! > 0 || ties! > TIE_ENTRIES) {
        const walkPass = await samplePipeline(frame, 'opaqueResolve', variable);
        const walks = stageRecorder(frame, 'opaque owners');
        // The walk resolves the subpixels left unresolved (marked TIED) or, past the tie list, every
        // owner within the walk box: a tie beyond the list whose mark a candidate's late store
        // overwrote is not marked. The owner words are cleared, the tail with the box kept.
        const overflow = ties! > TIE_ENTRIES;
        if (overflow) walks.encoder.clearBuffer(owner, 0, subpixels * 4);
        const owners = overflow ? RESOLVE_ALL_OWNERS : RESOLVE_OWNERS;
        walks.dispatch(walkPass, { ...common(walks.params('sample', sampleParams(frame, diced, rect, owners))), ...resolve }, diced.count);
        walks.dispatch(walkPass, { ...common(walks.params('sample', sampleParams(frame, diced, rect, RESOLVE_COLOURS))), ...resolve }, diced.count);
        await walks.submit();
        addGpuTimes(frame, walks, 'sample');
        frame.stats.opaqueWalks++;
      }
      return out;
    } catch (error) {
      releaseSubpixels(frame, out);
      throw error;
    } finally {
      for (const b of made) gpu.allocator.release(b);
    }
  });
}

/** The grids a sampling pass over `rect` takes (gridsMeeting), in `order` on the GPU: the dicing
 * bin's own list where it takes them all, else a transient buffer of `recorder`'s. */
function regionGrids(frame: FrameGpu, recorder: CommandRecorder, diced: DicedGrids, counts: SampleCounts, rect: SubpixelRect): { order: GPUBuffer; count: number } {
  const meeting = gridsMeeting(counts, rect);
  if (meeting.length === diced.count) return { order: counts.nearestFirst!, count: diced.count };
  const order = recorder.scratch('grids in the region', Math.max(1, meeting.length) * 4);
  if (meeting.length > 0) frame.gpu.device.queue.writeBuffer(order, 0, meeting as Uint32Array<ArrayBuffer>);
  return { order, count: meeting.length };
}

/** The grids of the dicing bin's order (orderNearestFirst) whose subpixel bound (gridNearest) meets
 * `rect`, in that order: a grid it misses holds no micropolygon that tests a subpixel of `rect`, and
 * a dicing bin cut into sampling regions (a frame larger than the subpixel buffer's binding) would
 * otherwise build every micropolygon of the bin in each region only to find most outside. */
export function gridsMeeting(counts: Pick<SampleCounts, 'nearestOrder' | 'gridSubpixels'>, rect: SubpixelRect): Uint32Array {
  const order = counts.nearestOrder!;
  const box = counts.gridSubpixels!;
  const x1 = rect.x + rect.width - 1;
  const y1 = rect.y + rect.height - 1;
  const meets = (g: number): boolean => box[g * 4]! <= x1 && box[g * 4 + 2]! >= rect.x && box[g * 4 + 1]! <= y1 && box[g * 4 + 3]! >= rect.y;
  if (order.every(meets)) return order;
  return order.filter(meets);
}

/** The subpixels a SubpixelBuffer of `rect` holds: whole vec4s of depths and records, as the filter
 * reads them four at a time (image-filter.wgsl). */
function subpixelSlots(rect: SubpixelRect): number {
  return Math.ceil((rect.width * rect.height) / 4) * 4;
}

/** Colour, depth and primitive record buffers for the subpixels of `rect`. */
export function allocateSubpixels(frame: FrameGpu, rect: SubpixelRect): SubpixelBuffer {
  const subpixels = subpixelSlots(rect);
  const { allocator } = frame.gpu;
  const made: GPUBuffer[] = [];
  try {
    for (const [label, bytes] of [['subpixel colour', SUBPIXEL_COLOR_BYTES], ['subpixel depth', 4], ['subpixel primitive', 4]] as const) {
      made.push(allocator.createBuffer({ label, size: subpixels * bytes, usage: storage() }));
    }
    return { rect, color: made[0]!, depth: made[1]!, ids: made[2]! };
  } catch (error) {
    for (const buffer of made) allocator.release(buffer);
    throw error;
  }
}

export function releaseSubpixels(frame: FrameGpu, buffer: SubpixelBuffer): void {
  frame.gpu.allocator.release(buffer.color);
  frame.gpu.allocator.release(buffer.depth);
  frame.gpu.allocator.release(buffer.ids);
}

/**
 * Output variable `variable` of a region already sampled for colour: the transparent path again
 * with the count pass's `total`, or the opaque path with a counter of its own (the colour pass
 * counted the sample points).
 */
export async function sampleVariable(
  frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, counts: SampleCounts, rect: SubpixelRect, total: number, variable: string,
): Promise<SubpixelBuffer> {
  if (!frame.opaque) return sampleAndComposite(frame, ready, diced, counts, rect, total, variable);
  const counter = frame.gpu.allocator.createBuffer({ label: 'output variable sample count', size: 4, usage: storage() });
  try {
    return await sampleOpaque(frame, ready, diced, counts, rect, counter, variable);
  } finally {
    frame.gpu.allocator.release(counter);
  }
}
