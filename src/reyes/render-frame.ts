// One frame, scene in, float picture out: camera, primitive conversion, then the GPU stages driven
// by the dicing scheduler (or fixed buckets), each region's pixels filtered into the image.
import { gridLayout } from '../rsl/grid-layout.ts';
import type { GpuRuntime } from '../gpu/runtime.ts';
import type { Frame, Options } from '../rib/scene.ts';
import { createFloatImage, type FloatImage } from '../image/image.ts';
import { pixelFilterCode } from '../image/pixel-filters.ts';
import { frameCamera, type FrameCamera } from './camera.ts';
import { convertFrame } from './convert/convert-frame.ts';
import type { FrameGpu, Region } from './frame-gpu.ts';
import { RECORD } from './primitive-record.ts';
import { userPrimitiveVariables } from './primvars.ts';
import { renderRegion } from './schedulers/dicing-scheduler.ts';
import { tiles } from './schedulers/regions.ts';
import { RslShadingProvider } from './shading/rsl-provider.ts';
import type { ShadingKernelProvider } from './shading/shading-kernel.ts';
import { kernelSpaces } from './shading/spaces.ts';
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
}

export interface RenderedFrame {
  image: FloatImage;
  camera: FrameCamera;
  stats: FrameStats;
  warnings: string[];
}

export async function renderFrame(gpu: GpuRuntime, frame: Frame, options: RenderOptions = {}): Promise<RenderedFrame> {
  const started = performance.now();
  const stats = emptyStats();
  const warnings: string[] = [];
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message);
  };
  const camera = frameCamera(frame, options.resolution ? { resolution: options.resolution } : {});
  if (!['perspective', 'orthographic'].includes(frame.camera.projection)) {
    warn(`projection "${frame.camera.projection}" is not supported; using orthographic`);
  }
  const maxVertices = options.maxVertices ?? Math.min(256, gpu.limits.maxComputeInvocationsPerWorkgroup);
  // User primitive variables join the grid layout (one layout for every kernel of the frame).
  const layout = gridLayout(maxVertices, userPrimitiveVariables(frame.primitives, warn));
  const convertStart = performance.now();
  const spaces = kernelSpaces(camera);
  const converted = convertFrame(frame, spaces, layout, options.shading ?? defaultProvider().provide, warn);
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
  Object.assign(stats, {
    resolution: [camera.xResolution, camera.yResolution],
    pixelSamples: [nx, ny],
    mode: options.bucketSize ? 'bucket' : 'scheduler',
    scenePrimitives: frame.primitives.length,
    primitiveRecords: converted.records.count,
  });

  const profile = options.gpuTimings !== false && PassProfiler.supported(gpu.device);
  if (profile) stats.stageGpuMs = { convert: 0, boundSplit: 0, dice: 0, shade: 0, sample: 0, composite: 0, filter: 0 };
  const allocator = gpu.allocator;
  const previousBudget = allocator.budget;
  const budgetBytes = options.budgetBytes ?? ribBudgetBytes(frame.options, warn);
  if (budgetBytes !== undefined) {
    allocator.trim();
    allocator.setBudget(budgetBytes);
  }
  stats.budgetBytes = allocator.budget;
  allocator.resetPeak();
  const owned: GPUBuffer[] = [];
  try {
    if (converted.records.count > 0 && image.width > 0 && image.height > 0) {
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
      const prims = allocator.createBufferWithData('primitive records', converted.records.floats(), usage);
      owned.push(prims);
      const userCorners = allocator.createBufferWithData('user primitive variables', converted.records.userFloatsData(), usage);
      owned.push(userCorners);
      const pipelines = converted.pipelines.map((p) => {
        const paramBuffer = allocator.createBufferWithData(`${p.kernel.label} params`, p.params, usage);
        owned.push(paramBuffer);
        return { ...p, paramBuffer };
      });
      const frameGpu: FrameGpu = {
        gpu, camera, spaces, layout, prims, userCorners, primCount: converted.records.count, pipelines, nx, ny,
        filter: { code: filterCode, xWidth: filterOption.xWidth, yWidth: filterOption.yWidth },
        apron: Math.ceil(Math.max(filterOption.xWidth, filterOption.yWidth) / 2),
        opaque: !options.noOpaqueFastPath && !converted.hasMatte && converted.pipelines.every((p) => p.opaque),
        stats, profile,
      };
      stats.opaqueFastPath = frameGpu.opaque;
      const words = new Uint32Array(converted.records.floats().buffer, 0, converted.records.count * RECORD.floats);
      const tables = {
        pipeline: Uint32Array.from({ length: converted.records.count }, (_, k) => words[k * RECORD.floats + RECORD.pipeline]!),
        paramBase: Uint32Array.from({ length: converted.records.count }, (_, k) => words[k * RECORD.floats + RECORD.paramBase]!),
      };
      const target = { image, originX: crop.x0, originY: crop.y0 };
      const whole: Region = { x0: crop.x0, y0: crop.y0, x1: crop.x1, y1: crop.y1 };
      if (options.bucketSize) {
        for (const bucket of tiles(whole, options.bucketSize)) await renderRegion(frameGpu, tables, bucket, target, false);
      } else {
        await renderRegion(frameGpu, tables, whole, target, true);
      }
    }
  } finally {
    for (const buffer of owned) allocator.release(buffer);
    stats.peakBytes = allocator.peak;
    if (budgetBytes !== undefined) {
      allocator.trim();
      allocator.setBudget(previousBudget);
    }
  }
  stats.totalMs = performance.now() - started;
  stats.warnings = warnings;
  return { image, camera, stats, warnings };
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
