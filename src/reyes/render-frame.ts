// One frame, scene in, float picture out: camera, primitive conversion, then the GPU stages driven
// by the dicing scheduler (or fixed buckets), each region's pixels filtered into the image; on
// request the regions, grid outlines, progress and the primitive under each pixel are reported.
// prepareFrame keeps a frame's diced grids so shader, light and colour edits re-render with shade,
// sample, composite and filter only. The frame's Imager shader runs last, on the filtered pixels
// (stages/imager.ts), in every render of a prepared frame too.
import { gridLayout, type GridLayout, type GridVariableType } from '../layout/grid-layout.ts';
import { GpuBudgetError } from '../gpu/errors.ts';
import type { GpuRuntime } from '../gpu/runtime.ts';
import type { Frame, Options } from '../rib/scene.ts';
import { createFloatImage, type FloatImage, type VariableImage } from '../image/image.ts';
import { pixelFilterCode } from '../image/pixel-filters.ts';
import { frameCamera, type FrameCamera, type PixelRect } from './camera.ts';
import { checkFrameBindings, convertFrame, type ConvertedFrame } from './convert/convert-frame.ts';
import { isCancelled, throwIfCancelled } from './cancel.ts';
import { BudgetTooSmallError } from './errors.ts';
import type { FrameGpu, FrameInsight, Region, RegionKind } from './frame-gpu.ts';
import { RECORD } from '../layout/primitive-record.ts';
import { userPrimitiveVariables } from './primvars.ts';
import { recordSource } from './frame/record-batches.ts';
import { renderKeptRegion, renderRegion, type FrameRecords, type KeepGrids, type KeptRegion, type PrimitiveTables } from './schedulers/dicing-scheduler.ts';
import type { SamplingTarget } from './schedulers/sampling-scheduler.ts';
import { releaseGrids } from './stages/dice.ts';
import { applyImager, type ImagerInstance } from './stages/imager.ts';
import { MAX_CLIP_PLANES } from './stages/sample.ts';
import { FrameProgress } from './schedulers/progress.ts';
import { tiles } from './schedulers/regions.ts';
import { RslShadingProvider } from './shading/rsl-provider.ts';
import type { ShadingKernel, ShadingKernelProvider } from './shading/shading-kernel.ts';
import { kernelSpaces, type KernelSpaces } from './shading/spaces.ts';
import { PassProfiler } from '../gpu/pass-profiler.ts';
import { emptyStats, type FrameStats } from './stats.ts';

export interface RenderOptions {
  /** --res: overrides Format. */
  resolution?: [number, number];
  /** --samples: overrides PixelSamples (n × n). */
  samples?: number;
  /** Memory budget in bytes; default the RIB's `Option "limits" "gpumemory" [MiB]`, else the runtime's. */
  budgetBytes?: number;
  /** Bucket mode: fixed N × N buckets instead of the schedulers. */
  bucketSize?: number;
  /** Where shading kernels come from; by default compiled RSL with the standard shaders only (no
   * shader files), the built-in surfaces as its fallback. */
  shading?: ShadingKernelProvider;
  /** Grid size limit; default the largest workgroup the device allows, at most 256. */
  maxVertices?: number;
  /** Times each stage's passes on the GPU with timestamp queries (FrameStats.stageGpuMs) where the
   * adapter offers 'timestamp-query'; default true. */
  gpuTimings?: boolean;
  /** Turns the opaque fast path off (for comparisons). */
  noOpaqueFastPath?: boolean;
  /** Called for every region the schedulers finish (`split` false) or cut in two (`split` true):
   * dicing regions, sampling regions, and in bucket mode each bucket before its work. Rectangles are
   * in raster pixels of the whole image (before CropWindow), x1 and y1 exclusive. The same list is in
   * RenderedFrame.regions. */
  onRegion?(kind: RegionKind, rect: PixelRect, split: boolean): void;
  /** Called as regions finish their stages with the pixels of the (cropped) image done so far, each
   * pixel weighted by its region's last finished stage (schedulers/progress.ts): rising, reaching
   * pixelsTotal when the last region is filtered. */
  onProgress?(pixelsDone: number, pixelsTotal: number): void;
  /** Called after each sampling region's pixels are filtered into `image` (the render's own, filled
   * so far; before the Imager runs): `rect` in pixels of `image`, x1 and y1 exclusive. */
  onPixels?(image: FloatImage, rect: PixelRect): void;
  /** Cancels the render at the next stage or region: the promise rejects with an AbortError
   * (cancel.ts), every buffer of the render released and the device usable. */
  signal?: AbortSignal;
  /** Report the outline of every shaded grid (RenderedFrame.gridOutlines). */
  gridOutlines?: boolean;
  /** Report which scene primitive each pixel's nearest sample belongs to (RenderedFrame.primitiveIds). */
  primitiveIds?: boolean;
  /** Output variables to render besides colour: grid variables (N, P, s, Cs, ...) and, with a type,
   * surface shader output parameters (which join the grid layout), each sampled, composited through
   * Oi and filtered like Ci (RenderedFrame.variables). */
  outputVariables?: OutputVariableRequest[];
}

/** An output variable a Display asks for: its name, and its type where the Display declares one. */
export interface OutputVariableRequest {
  name: string;
  type?: GridVariableType;
}

export type { RegionKind };

/** A region the schedulers chose (see RenderOptions.onRegion). */
export interface RegionReport {
  kind: RegionKind;
  rect: PixelRect;
  split: boolean;
}

export interface RenderedFrame {
  image: FloatImage;
  camera: FrameCamera;
  stats: FrameStats;
  warnings: string[];
  /** Every region the schedulers diced, sampled, split or (bucket mode) started, in order. */
  regions: RegionReport[];
  /** With RenderOptions.gridOutlines: 8 floats per shaded grid, the raster positions (x, y; pixels of
   * the whole image, as regions) of its corner vertices (u, v) = (0, 0), (1, 0), (1, 1), (0, 1) after
   * shading (displaced). A grid diced in several dicing regions appears once per region. */
  gridOutlines?: Float32Array;
  /** With RenderOptions.primitiveIds: per pixel of `image` (row-major), the index in Frame.primitives
   * of the primitive whose sample is nearest within the pixel, -1 where no sample covers it. */
  primitiveIds?: Int32Array;
  /** With RenderOptions.outputVariables: each variable's filtered image (its values in r, g, b;
   * coverage in alpha), for the names the grid layout has. */
  variables: Map<string, VariableImage>;
}

export async function renderFrame(gpu: GpuRuntime, frame: Frame, options: RenderOptions = {}): Promise<RenderedFrame> {
  const job = startFrame(gpu, frame, options);
  const resources = job.converted.records.count > 0 && job.image.width > 0 && job.image.height > 0 ? [] as GPUBuffer[] : undefined;
  try {
    return await renderScratch(gpu, job, options, resources);
  } finally {
    for (const buffer of resources ?? []) gpu.allocator.release(buffer);
  }
}

/** What a frame is before any GPU work: camera, grid layout, converted primitives, sampling settings. */
interface FrameJob {
  started: number;
  frame: Frame;
  stats: FrameStats;
  warnings: string[];
  warn(message: string): void;
  camera: FrameCamera;
  spaces: KernelSpaces;
  layout: GridLayout;
  converted: ConvertedFrame;
  /** The texture atlas the shading kernels read (binding 5), when their shaders name maps. */
  textures: Uint32Array | undefined;
  nx: number;
  ny: number;
  filter: { code: number; xWidth: number; yWidth: number };
  image: FloatImage;
  budgetBytes: number | undefined;
  /** The frame's imager shader, ready to run on the filtered image. */
  imager: ImagerInstance | undefined;
  variables: Map<string, VariableImage>;
}

function startFrame(gpu: GpuRuntime, frame: Frame, options: RenderOptions): FrameJob {
  throwIfCancelled(options.signal);
  const started = performance.now();
  const stats = emptyStats();
  const warnings: string[] = [];
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message);
  };
  const camera = frameCamera(frame, options.resolution ? { resolution: options.resolution } : {}, warn);
  if (camera.clipPlanes.length > MAX_CLIP_PLANES) {
    warn(`${camera.clipPlanes.length} ClippingPlane requests: only the first ${MAX_CLIP_PLANES} clip; the others are ignored`);
  }
  if (!['perspective', 'orthographic'].includes(frame.camera.projection)) {
    warn(`projection "${frame.camera.projection}" is not supported; using orthographic`);
  }
  const maxVertices = options.maxVertices ?? Math.min(256, gpu.limits.maxComputeInvocationsPerWorkgroup);
  // User primitive variables join the grid layout (one layout for every kernel of the frame), and
  // so do the typed output variables it does not have yet: shader outputs, 0 where no shader writes them.
  const primitiveVariables = userPrimitiveVariables(frame.primitives, warn);
  const inLayout = new Set(gridLayout(maxVertices, primitiveVariables).variables.map((v) => v.name));
  const shaderOutputs = (options.outputVariables ?? []).flatMap(({ name, type }) => (type && !inLayout.has(name) ? [{ name, type }] : []));
  const layout = gridLayout(maxVertices, [...primitiveVariables, ...shaderOutputs]);
  const convertStart = performance.now();
  const spaces = kernelSpaces(camera, frame.coordinateSystems);
  const provider = options.shading ?? defaultProvider().provide;
  const converted = convertFrame(frame, camera, spaces, layout, provider, warn);
  const imager = frameImager(frame, camera, provider, spaces, maxVertices, warn);
  const textures = provider.textureAtlas?.(spaces);
  stats.stageMs.convert = performance.now() - convertStart;

  const [nx, ny] = options.samples ? [options.samples, options.samples] : frame.options.pixelSamples.map((n) => Math.max(1, Math.round(n))) as [number, number];
  const filterOption = frame.options.pixelFilter;
  let filterCode = pixelFilterCode(filterOption.name);
  if (filterCode === undefined) {
    warn(`pixel filter "${filterOption.name}" is unknown; using gaussian`);
    filterCode = pixelFilterCode('gaussian')!;
  }
  const crop = camera.crop;
  const image = createFloatImage(crop.x1 - crop.x0, crop.y1 - crop.y0);
  const variables = new Map<string, VariableImage>();
  for (const { name } of options.outputVariables ?? []) {
    const variable = layout.variables.find((v) => v.name === name);
    if (!variable) {
      warn(`output variable "${name}" is not a grid variable of this frame and the Display gives it no type; not rendered`);
      continue;
    }
    const noShaderWrites = shaderOutputs.some((v) => v.name === name) && !converted.pipelines.some((p) => p.kernel.writes?.includes(name));
    variables.set(name, { components: variable.components, image: createFloatImage(image.width, image.height), ...(noShaderWrites ? { noShaderWrites } : {}) });
  }
  Object.assign(stats, {
    resolution: [camera.xResolution, camera.yResolution],
    pixelSamples: [nx, ny],
    mode: options.bucketSize ? 'bucket' : 'scheduler',
    scenePrimitives: frame.primitives.length,
    primitiveRecords: converted.records.count,
  });
  const budgetBytes = options.budgetBytes ?? ribBudgetBytes(frame.options, warn);
  return {
    started, frame, stats, warnings, warn, camera, spaces, layout, converted, nx, ny, image, budgetBytes, imager, variables, textures,
    filter: { code: filterCode, xWidth: filterOption.xWidth, yWidth: filterOption.yWidth },
  };
}

/** Runs `work` under the job's budget (restoring the allocator's afterwards) and records the peak. */
async function underBudget<T>(gpu: GpuRuntime, job: FrameJob, work: () => Promise<T>): Promise<T> {
  const allocator = gpu.allocator;
  const previousBudget = allocator.budget;
  if (job.budgetBytes !== undefined) {
    allocator.trim();
    allocator.setBudget(job.budgetBytes);
  }
  job.stats.budgetBytes = allocator.budget;
  allocator.resetPeak();
  try {
    return await work();
  } finally {
    job.stats.peakBytes = allocator.peak;
    if (job.budgetBytes !== undefined) {
      allocator.trim();
      allocator.setBudget(previousBudget);
    }
  }
}

/** The per-frame GPU buffers: primitive records, user corner values, parameter blocks. */
interface FrameBuffers {
  prims: GPUBuffer;
  userCorners: GPUBuffer;
  pipelines: FrameGpu['pipelines'];
  textures: GPUBuffer;
  tables: PrimitiveTables;
  /** Records past one storage binding: taken in batches, each dicing region binding its own
   * (frame/record-batches.ts); `prims` and `userCorners` then hold none. */
  batched?: FrameRecords['batched'];
}

function uploadFrame(gpu: GpuRuntime, converted: ConvertedFrame, textureAtlas: Uint32Array | undefined, owned: GPUBuffer[]): FrameBuffers {
  const { allocator } = gpu;
  // Counted against the budget like every buffer; a kernel without lookups leaves it unbound.
  const textures = allocator.createBufferWithData('texture atlas', textureAtlas ?? new Uint32Array(4), GPUBufferUsage.STORAGE);
  owned.push(textures);
  const maxBinding = gpu.maxBindingBytes();
  checkFrameBindings(converted, maxBinding);
  const { records } = converted;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const tables = primitiveTables(converted);
  if (records.floats().byteLength > maxBinding || records.userFloatsData().byteLength > maxBinding) {
    const none = allocator.createBufferWithData('no records bound whole (batched per region)', new Float32Array(4), usage);
    owned.push(none);
    return { prims: none, userCorners: none, pipelines: uploadParams(gpu, converted, owned), textures, tables, batched: { records, source: recordSource(gpu, records) } };
  }
  const prims = allocator.createBufferWithData('primitive records', records.floats(), usage);
  owned.push(prims);
  const userCorners = allocator.createBufferWithData('user primitive variables', records.userFloatsData(), usage);
  owned.push(userCorners);
  return { prims, userCorners, pipelines: uploadParams(gpu, converted, owned), textures, tables };
}

function uploadParams(gpu: GpuRuntime, converted: ConvertedFrame, owned: GPUBuffer[]): FrameBuffers['pipelines'] {
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  return converted.pipelines.map((p) => {
    const paramBuffer = gpu.allocator.createBufferWithData(`${p.kernel.label} params`, p.params, usage);
    owned.push(paramBuffer);
    return { ...p, paramBuffer };
  });
}

function primitiveTables(converted: ConvertedFrame): PrimitiveTables {
  const count = converted.records.count;
  const words = new Uint32Array(converted.records.floats().buffer, converted.records.floats().byteOffset, count * RECORD.floats);
  return {
    pipeline: Uint32Array.from({ length: count }, (_, k) => words[k * RECORD.floats + RECORD.pipeline]!),
    paramBase: Uint32Array.from({ length: count }, (_, k) => words[k * RECORD.floats + RECORD.paramBase]!),
  };
}

/** The FrameGpu of one render, with the insight hooks the options ask for. */
function frameGpu(gpu: GpuRuntime, job: FrameJob, buffers: FrameBuffers, options: RenderOptions, sampleCounter: GPUBuffer, regions: RegionReport[]): FrameGpu {
  const { stats, image } = job;
  const total = image.width * image.height;
  const progress = options.onProgress ? new FrameProgress(job.camera.crop, options.onProgress) : undefined;
  const insight: FrameInsight = {
    region: (kind, rect, split) => {
      const copy = { x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1 };
      regions.push({ kind, rect: copy, split });
      options.onRegion?.(kind, { ...copy }, split);
      if (kind === 'sampling' && !split && options.onPixels) {
        const { x0, y0 } = job.camera.crop;
        options.onPixels(image, { x0: copy.x0 - x0, y0: copy.y0 - y0, x1: copy.x1 - x0, y1: copy.y1 - y0 });
      }
    },
    stageDone: (rect, stage) => progress?.stageDone(rect, stage),
    redo: (rect) => progress?.redo(rect),
  };
  if (options.gridOutlines) insight.outlines = [];
  if (options.primitiveIds) insight.ids = new Uint32Array(total).fill(0xffffffff);
  const profile = options.gpuTimings !== false && PassProfiler.supported(gpu.device);
  if (profile) stats.stageGpuMs = { convert: 0, boundSplit: 0, dice: 0, shade: 0, sample: 0, composite: 0, filter: 0, imager: 0 };
  const filter = job.frame.options.pixelFilter;
  const opaque = !options.noOpaqueFastPath && job.converted.pipelines.every((p) => p.opaque);
  stats.opaqueFastPath = opaque;
  return {
    gpu, camera: job.camera, spaces: job.spaces, layout: job.layout, prims: buffers.prims, userCorners: buffers.userCorners,
    primCount: buffers.batched ? 0 : job.converted.records.count, edgeNeighbours: job.converted.records.edgeNeighbours(), pipelines: buffers.pipelines, textures: buffers.textures, nx: job.nx, ny: job.ny, filter: job.filter,
    apron: Math.ceil(Math.max(filter.xWidth, filter.yWidth) / 2), opaque, stats, profile, sampleCounter, insight,
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

function samplingTarget(job: FrameJob): SamplingTarget {
  return { image: job.image, originX: job.camera.crop.x0, originY: job.camera.crop.y0, variables: job.variables };
}

/** The rendered frame: insight results mapped to scene primitives, the opaque path's sample count. */
async function finish(gpu: GpuRuntime, job: FrameJob, frame: FrameGpu | undefined, regions: RegionReport[], options: RenderOptions): Promise<RenderedFrame> {
  const { stats, warnings, image, camera } = job;
  const rendered: RenderedFrame = { image, camera, stats, warnings, regions, variables: job.variables };
  if (frame) stats.samplePoints += (await gpu.readU32(frame.sampleCounter, 1))[0]!;
  if (stats.eyeSplitCulls > 0) {
    const pieces = stats.eyeSplitCulls === 1 ? '1 piece' : `${stats.eyeSplitCulls} pieces`;
    job.warn(`${pieces} still straddling the eye plane after ${camera.eyeSplits} eye splits culled (Option "limits" "eyesplits")`);
  }
  if (options.gridOutlines) rendered.gridOutlines = Float32Array.from(frame?.insight.outlines ?? []);
  if (options.primitiveIds) {
    const sources = job.converted.records.sources;
    const records = frame?.insight.ids;
    rendered.primitiveIds = Int32Array.from({ length: image.width * image.height }, (_, k) => {
      const record = records?.[k] ?? 0xffffffff;
      return record === 0xffffffff ? -1 : (sources[record] ?? -1);
    });
  }
  if (job.imager) {
    const start = performance.now();
    const profile = !!stats.stageGpuMs;
    const { gpuMs } = await applyImager(gpu, image, camera.crop.x0, camera.crop.y0, job.imager, job.spaces, profile);
    stats.stageMs.imager = performance.now() - start;
    if (stats.stageGpuMs) stats.stageGpuMs.imager = gpuMs;
  }
  stats.totalMs = performance.now() - job.started;
  stats.warnings = warnings;
  return rendered;
}

/** The frame's Imager request compiled by the provider, or undefined (with a warning where it cannot run). */
function frameImager(
  frame: Frame, camera: FrameCamera, provider: ShadingKernelProvider, spaces: KernelSpaces, maxVertices: number, warn: (message: string) => void,
): ImagerInstance | undefined {
  const imager = frame.options.imager;
  if (!imager) return undefined;
  if (!provider.imager) {
    warn(`imager shader "${imager.name}" is left out: the shading provider compiles no imagers`);
    return undefined;
  }
  // option("Format") answers the resolution rendered (--res, the page's previews), which P spans.
  const options = { ...frame.options, xResolution: camera.xResolution, yResolution: camera.yResolution };
  return provider.imager({ imager, options, spaces, maxVertices, warn });
}

function createSampleCounter(gpu: GpuRuntime, owned: GPUBuffer[]): GPUBuffer {
  const counter = gpu.allocator.createBufferWithData('sample counter', new Uint32Array(4), GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
  owned.push(counter);
  return counter;
}

/** A whole render from the records: every region bound/split, diced, shaded and sampled. With
 * `owned` undefined there is nothing to render (no records or an empty image). */
async function renderScratch(
  gpu: GpuRuntime, job: FrameJob, options: RenderOptions, owned: GPUBuffer[] | undefined, keep?: KeepGrids,
  made?: { buffers?: FrameBuffers; counter?: GPUBuffer },
): Promise<RenderedFrame> {
  const regions: RegionReport[] = [];
  let gpuFrame: FrameGpu | undefined;
  await underBudget(gpu, job, async () => {
    if (!owned) return;
    const buffers = uploadFrame(gpu, job.converted, job.textures, owned);
    const counter = createSampleCounter(gpu, owned);
    if (made) Object.assign(made, { buffers, counter });
    gpuFrame = frameGpu(gpu, job, buffers, options, counter, regions);
    const crop = job.camera.crop;
    const whole: Region = { x0: crop.x0, y0: crop.y0, x1: crop.x1, y1: crop.y1 };
    const target = samplingTarget(job);
    const records: FrameRecords = { tables: buffers.tables, ...(buffers.batched ? { batched: buffers.batched } : {}) };
    if (options.bucketSize) {
      for (const bucket of tiles(whole, options.bucketSize)) {
        gpuFrame.insight.region('bucket', bucket, false);
        await renderRegion(gpuFrame, records, bucket, target, false, keep);
      }
    } else {
      await renderRegion(gpuFrame, records, whole, target, true, keep);
    }
  });
  return finish(gpu, job, gpuFrame, regions, options);
}

// ── Prepared frames: re-render after shader, light or colour edits without bound/split or dicing ──

/** Share of the budget a prepared frame may keep in ready pieces and grids; past it, it keeps none. */
export const KEEP_SHARE = 0.5;

/** What a prepared frame's render may change besides the frame itself. */
export type PreparedRenderOptions = Pick<RenderOptions, 'shading' | 'onRegion' | 'onProgress' | 'onPixels' | 'gridOutlines' | 'primitiveIds' | 'gpuTimings' | 'signal'>;

/**
 * A frame rendered once whose dicing regions' ready pieces and shaded grids stay on the GPU (while
 * they fit KEEP_SHARE of the budget), so that edits of shader parameters, lights (on/off too),
 * colours and opacities re-render with shade → sample → composite → filter only.
 */
export interface PreparedFrame {
  /** The render that prepared it (its stats.reuse says 'prepared' or 'full: <why>'). */
  readonly first: RenderedFrame;
  /** True while the grids of every dicing region are kept; false: render() renders from scratch. */
  readonly retained: boolean;
  /** GPU bytes of the kept ready pieces and grids. */
  readonly retainedBytes: number;
  /**
   * Renders `edited` (default: the prepared frame as it is now), which must keep the camera,
   * resolution, pixel samples, filter, shading rates and geometry; shader, light and colour edits are
   * what it is for. The kept grids are shaded again; they are diced again (from the kept ready
   * pieces) only where colours, opacities or primitive variables changed or a kernel overwrites its
   * inputs (displacement: re-dicing costs one dispatch, less than keeping a pristine copy of every
   * grid). Anything else renders from scratch (stats.reuse 'full: <why>') and lets the grids go.
   */
  render(edited?: Frame, options?: PreparedRenderOptions): Promise<RenderedFrame>;
  /** Releases the kept buffers. */
  dispose(): void;
}

export async function prepareFrame(gpu: GpuRuntime, frame: Frame, options: RenderOptions = {}): Promise<PreparedFrame> {
  const prepared = new Prepared(gpu, frame, options);
  await prepared.start();
  return prepared;
}

class Prepared implements PreparedFrame {
  first!: RenderedFrame;
  private kept: KeptRegion[] = [];
  private keeping = true;
  private owned: GPUBuffer[] = [];
  private job!: FrameJob;
  private buffers: FrameBuffers | undefined;
  private counter: GPUBuffer | undefined;
  /** Each record's parameter base when its grids were diced (what their gridInfo holds). */
  private dicedParamBase: Uint32Array = new Uint32Array(0);
  private disposed = false;

  constructor(private readonly gpu: GpuRuntime, private readonly frame: Frame, private readonly options: RenderOptions) {}

  get retained(): boolean {
    return this.keeping && this.kept.length > 0;
  }

  get retainedBytes(): number {
    return this.kept.reduce((n, k) => n + k.ready.buffer.size + k.diced.grids.size + k.diced.gridInfo.size, 0);
  }

  async start(): Promise<void> {
    const job = startFrame(this.gpu, this.frame, this.options);
    this.job = job;
    if (job.converted.records.count === 0 || job.image.width === 0 || job.image.height === 0) {
      this.keeping = false;
      this.first = await renderScratch(this.gpu, job, this.options, undefined);
      this.first.stats.reuse = 'full: nothing to keep';
      return;
    }
    // The budget the keep decisions weigh against: the one the render runs under.
    const budget = (): number => this.gpu.allocator.budget;
    const keep: KeepGrids = (region) => {
      if (!this.keeping) return false;
      const bytes = region.ready.buffer.size + region.diced.grids.size + region.diced.gridInfo.size;
      if (this.retainedBytes + bytes > KEEP_SHARE * budget()) {
        this.keeping = false;
        this.releaseKept();
        return false;
      }
      this.kept.push(region);
      return true;
    };
    const made: { buffers?: FrameBuffers; counter?: GPUBuffer } = {};
    try {
      this.first = await renderScratch(this.gpu, job, this.options, this.owned, keep, made);
    } catch (error) {
      this.dispose();
      throw error;
    }
    this.buffers = made.buffers;
    this.counter = made.counter;
    this.dicedParamBase = primitiveTables(job.converted).paramBase;
    this.first.stats.reuse = this.retained ? 'prepared'
      : this.buffers?.batched ? 'full: the primitive records take more than one storage binding'
      : `full: the grids take more than ${KEEP_SHARE * 100}% of the budget`;
    if (!this.retained) this.releaseAll();
  }

  async render(edited: Frame = this.frame, extra: PreparedRenderOptions = {}): Promise<RenderedFrame> {
    if (this.disposed) throw new Error('PreparedFrame.render after dispose()');
    const options: RenderOptions = { ...this.options, ...extra };
    if (!this.retained || !this.buffers || !this.counter) return this.fromScratch(edited, options, this.first.stats.reuse?.startsWith('full: ') ? this.first.stats.reuse.slice(6) : 'no grids kept');
    const job = startFrame(this.gpu, edited, options);
    const why = incompatibility(this.job, job);
    if (why) {
      this.releaseAll();
      return this.fromScratch(edited, options, why, job);
    }
    const { converted } = job;
    const before = this.job.converted.records;
    const inputsChanged = !sameRange(before.floats(), converted.records.floats(), RECORD.s, RECORD.floats) ||
      !sameFloats(before.userFloatsData(), converted.records.userFloatsData());
    const tables = primitiveTables(converted);
    const gridInfoCurrent = tables.paramBase.every((b, k) => b === this.dicedParamBase[k]);
    const overwrites = [...this.job.converted.pipelines, ...converted.pipelines].some((p) => kernelWritesInputs(p.kernel, job.layout));
    const redice = inputsChanged || overwrites;
    // New records (parameter bases, pipelines, colours) and parameter blocks; the old blocks go.
    const { device, allocator } = this.gpu;
    device.queue.writeBuffer(this.buffers.prims, 0, converted.records.floats() as Float32Array<ArrayBuffer>);
    if (inputsChanged) device.queue.writeBuffer(this.buffers.userCorners, 0, converted.records.userFloatsData() as Float32Array<ArrayBuffer>);
    for (const p of this.buffers.pipelines) {
      allocator.release(p.paramBuffer);
      this.owned.splice(this.owned.indexOf(p.paramBuffer), 1);
    }
    this.buffers.pipelines = [];
    const regions: RegionReport[] = [];
    let gpuFrame: FrameGpu | undefined;
    try {
      await underBudget(this.gpu, job, async () => {
        this.buffers!.pipelines = uploadParams(this.gpu, converted, this.owned);
        this.buffers!.tables = tables;
        const counter = this.counter!;
        device.queue.writeBuffer(counter, 0, new Uint32Array(4));
        gpuFrame = frameGpu(this.gpu, job, this.buffers!, options, counter, regions);
        const target = samplingTarget(job);
        for (const kept of this.kept) await renderKeptRegion(gpuFrame, tables, kept, target, redice, gridInfoCurrent);
      });
    } catch (error) {
      if (isCancelled(error)) {
        // Some kept regions may be diced again and others not: keep none (the next render starts afresh).
        this.releaseAll();
        throw error;
      }
      if (!(error instanceof BudgetTooSmallError) && !(error instanceof GpuBudgetError)) throw error;
      this.releaseAll();
      return this.fromScratch(edited, options, `the kept grids leave too little memory (${(error as Error).message})`);
    }
    if (redice) this.dicedParamBase = tables.paramBase;
    this.job = job;
    job.stats.reuse = redice ? 'rediced' : 'reused';
    if (this.options.bucketSize) job.stats.mode = 'bucket';
    return finish(this.gpu, job, gpuFrame, regions, options);
  }

  private async fromScratch(frame: Frame, options: RenderOptions, why: string, job = startFrame(this.gpu, frame, options)): Promise<RenderedFrame> {
    const rendered = await renderFrameWith(this.gpu, job, options);
    rendered.stats.reuse = `full: ${why}`;
    return rendered;
  }

  private releaseKept(): void {
    for (const k of this.kept) {
      releaseGrids({ gpu: this.gpu } as FrameGpu, k.diced);
      this.gpu.allocator.release(k.ready.buffer);
    }
    this.kept = [];
  }

  private releaseAll(): void {
    this.keeping = false;
    this.releaseKept();
    for (const buffer of this.owned) this.gpu.allocator.release(buffer);
    this.owned = [];
    this.buffers = undefined;
    this.counter = undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.releaseAll();
  }
}

async function renderFrameWith(gpu: GpuRuntime, job: FrameJob, options: RenderOptions): Promise<RenderedFrame> {
  const owned = job.converted.records.count > 0 && job.image.width > 0 && job.image.height > 0 ? [] as GPUBuffer[] : undefined;
  try {
    return await renderScratch(gpu, job, options, owned);
  } finally {
    for (const buffer of owned ?? []) gpu.allocator.release(buffer);
  }
}

/** Why a prepared frame's kept grids cannot serve `next`, or undefined when they can. */
function incompatibility(prepared: FrameJob, next: FrameJob): string | undefined {
  const a = prepared.camera;
  const b = next.camera;
  if (a.xResolution !== b.xResolution || a.yResolution !== b.yResolution) return 'the resolution changed';
  if (!sameFloats(a.cameraToRaster, b.cameraToRaster) || !sameFloats(prepared.spaces.world, next.spaces.world) ||
    a.near !== b.near || a.far !== b.far || a.perspective !== b.perspective) return 'the camera changed';
  // Bound/split culls against them: kept ready pieces hold only what the old planes left.
  if (!sameFloats(a.clipPlanes.flat(), b.clipPlanes.flat())) return 'the clipping planes changed';
  if (a.eyeSplits !== b.eyeSplits) return 'the eye splits changed';
  if (a.crop.x0 !== b.crop.x0 || a.crop.y0 !== b.crop.y0 || a.crop.x1 !== b.crop.x1 || a.crop.y1 !== b.crop.y1) return 'the crop window changed';
  if (prepared.nx !== next.nx || prepared.ny !== next.ny) return 'the pixel samples changed';
  if (prepared.filter.code !== next.filter.code || prepared.filter.xWidth !== next.filter.xWidth || prepared.filter.yWidth !== next.filter.yWidth) return 'the pixel filter changed';
  if (prepared.budgetBytes !== next.budgetBytes) return 'the memory budget changed';
  if (prepared.layout.recordFloats !== next.layout.recordFloats || prepared.layout.maxVertices !== next.layout.maxVertices) return 'the grid layout changed';
  const ra = prepared.converted.records;
  const rb = next.converted.records;
  if (ra.count !== rb.count || ra.userFloatsData().length !== rb.userFloatsData().length) return 'the geometry changed';
  // Everything bound/split reads (kind, flags, shading rate, displacement bound, matrix, geometry).
  const fa = ra.floats();
  const fb = rb.floats();
  const wa = new Uint32Array(fa.buffer, fa.byteOffset, fa.length);
  const wb = new Uint32Array(fb.buffer, fb.byteOffset, fb.length);
  for (let r = 0; r < ra.count; r++) {
    const base = r * RECORD.floats;
    for (let k = 0; k < RECORD.s; k++) {
      if (k === RECORD.paramBase || k === RECORD.pipeline) continue;
      if (wa[base + k] !== wb[base + k]) return 'the geometry or shading rate changed';
    }
  }
  return undefined;
}

/** Equal words in [from, to) of every record. */
function sameRange(a: Float32Array, b: Float32Array, from: number, to: number): boolean {
  const wa = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const wb = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let base = 0; base < wa.length; base += RECORD.floats) {
    for (let k = from; k < to; k++) if (wa[base + k] !== wb[base + k]) return false;
  }
  return true;
}

function sameFloats(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k] && !(Number.isNaN(a[k]) && Number.isNaN(b[k]))) return false;
  return true;
}

/**
 * Whether a shading kernel writes grid variables other than its outputs Ci and Oi (displacement
 * writes P and N; a surface may assign a global): then kept grids must be diced again before it
 * shades them again. Compiled RSL stores through rsl_grid_store_*(offset); the built-in surfaces
 * write Ci and Oi only; any other kernel is assumed to write its inputs.
 */
export function kernelWritesInputs(kernel: ShadingKernel, layout: GridLayout): boolean {
  if (kernel.key.startsWith('builtin:')) return false;
  const outputs = new Set(['Ci', 'Oi'].map((name) => layout.variables.find((v) => v.name === name)?.offset));
  const stores = [...kernel.code.matchAll(/rsl_grid_store_\w+\((\d+)u/g)];
  if (stores.length === 0) return !kernel.code.includes('rsl_grid_');
  return stores.some((m) => !outputs.has(Number(m[1])));
}

/** The budget a RIB asks for with `Option "limits" "gpumemory" [MiB]`, in bytes; undefined when absent
 * (or not a positive number, with a warning). */
export function ribBudgetBytes(options: Options, warn: (message: string) => void = () => {}): number | undefined {
  const param = options.user['limits']?.find((p) => p.name === 'gpumemory');
  if (!param) return undefined;
  const mib = param.values[0];
  if (typeof mib !== 'number' || !(mib > 0)) {
    warn(`Option "limits" "gpumemory" must be a positive number of MiB; ignored`);
    return undefined;
  }
  return Math.floor(mib * 1024 * 1024);
}

let standardProvider: RslShadingProvider | undefined;

/** One provider (and compile cache) for every render that does not bring its own. */
function defaultProvider(): RslShadingProvider {
  standardProvider ??= new RslShadingProvider();
  return standardProvider;
}
