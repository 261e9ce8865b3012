// A frame's job before any GPU work: camera, grid layout (with the user and output variables),
// converted primitives, the Imager, sampling and filter settings, the image and the budget.
import { createFloatImage, type FloatImage, type VariableImage } from '../../image/image.ts';
import { pixelFilterCode } from '../../image/pixel-filters.ts';
import { gridLayout, type GridLayout } from '../../layout/grid-layout.ts';
import type { GpuRuntime } from '../../gpu/runtime.ts';
import type { Frame } from '../../rib/scene.ts';
import { frameCamera, type FrameCamera } from '../camera.ts';
import { throwIfCancelled } from '../cancel.ts';
import { convertFrame, type ConvertedFrame } from '../convert/convert-frame.ts';
import { userPrimitiveVariables } from '../primvars.ts';
import type { SamplingTarget } from '../schedulers/sampling-scheduler.ts';
import type { ImagerInstance } from '../stages/imager.ts';
import { opaqueFusionBlocker } from '../stages/sample.ts';
import { MAX_CLIP_PLANES } from '../../layout/sample-params.ts';
import type { ShadingKernelProvider } from '../shading/shading-kernel.ts';
import type { FrameTextures } from '../../texture/texture-registry.ts';
import { kernelSpaces, type KernelSpaces } from '../shading/spaces.ts';
import { emptyStats, type FrameStats } from '../stats.ts';
import { framePipeline } from '../pipeline/pipeline-config.ts';
import { stageGraph, type StageNode } from '../pipeline/stage-graph.ts';
import { frameFusionBlocker } from '../pipeline/fusion.ts';
import { defaultProvider } from './default-provider.ts';
import { ribBudgetBytes } from './frame-budget.ts';
import type { RenderOptions } from './render-options.ts';

/** What a frame is before any GPU work: camera, grid layout, converted primitives, sampling settings. */
export interface FrameJob {
  started: number;
  /** The device's pipelines created before this frame (its KernelCache misses). */
  pipelinesBefore: number;
  frame: Frame;
  stats: FrameStats;
  warnings: string[];
  warn(message: string): void;
  camera: FrameCamera;
  spaces: KernelSpaces;
  layout: GridLayout;
  converted: ConvertedFrame;
  /** The texture maps the shading kernels read (through the tile pool), when their shaders name maps. */
  textures: FrameTextures | undefined;
  nx: number;
  ny: number;
  filter: { code: number; xWidth: number; yWidth: number };
  image: FloatImage;
  budgetBytes: number | undefined;
  /** The frame's imager shader, ready to run on the filtered image. */
  imager: ImagerInstance | undefined;
  variables: Map<string, VariableImage>;
}

export function startFrame(gpu: GpuRuntime, frame: Frame, options: RenderOptions): FrameJob {
  throwIfCancelled(options.signal);
  const started = performance.now();
  const pipelinesBefore = gpu.kernels.stats.misses;
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
  const maxVertices = options.maxVertices ?? defaultGridVertices(gpu.limits.maxComputeInvocationsPerWorkgroup);
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
  const textures = provider.textures?.(spaces);
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
    mode: framePipeline(options).dicing.bins === 'fixed' ? 'bucket' : 'scheduler',
    stages: frameStages(options, converted.pipelines, maxVertices),
    scenePrimitives: frame.primitives.length,
    primitiveRecords: converted.records.count,
  });
  const budgetBytes = options.budgetBytes ?? ribBudgetBytes(frame.options, warn);
  return {
    started, pipelinesBefore, frame, stats, warnings, warn, camera, spaces, layout, converted, nx, ny, image, budgetBytes, imager, variables, textures,
    filter: { code: filterCode, xWidth: filterOption.xWidth, yWidth: filterOption.yWidth },
  };
}

/** The stage graph a frame runs: the configuration's, with the fusions its pipelines allow. */
export function frameStages(options: RenderOptions, pipelines: ConvertedFrame['pipelines'], maxVertices: number): StageNode[] {
  return stageGraph(framePipeline(options), {
    'dice+shade': frameFusionBlocker(pipelines.map((p) => p.kernel), maxVertices),
    'sample+composite': opaqueFusionBlocker(pipelines),
  });
}

export function samplingTarget(job: FrameJob): SamplingTarget {
  return { image: job.image, originX: job.camera.crop.x0, originY: job.camera.crop.y0, variables: job.variables };
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

/** The default grid size (RenderOptions.maxVertices) on a device whose workgroups hold
 * `maxInvocations` invocations: the largest balanced binary grid within min(256, maxInvocations). */
export function defaultGridVertices(maxInvocations: number): number {
  return largestBalancedBinaryGrid(Math.min(256, maxInvocations));
}

/**
 * The most vertices a grid of binary dicing (2^a × 2^b micropolygons, a and b at most one apart)
 * has within `limit`: 153 (16 × 8) for 256. Grid records and workgroups are sized by it. Bound/split
 * halves a piece across its longer direction while its grid passes the limit, so nearly every
 * ready piece comes out balanced: with the largest binary grid of any shape as the limit (195 =
 * 64 × 2 for 256) 94-97% of the perf scenes' grids had 153 vertices, leaving 42 of each record's
 * 195 slots empty and 42 of each shading workgroup's invocations shading a copy of the last
 * vertex. Sized at 153, Airplane's grids take 4 dicing regions instead of 7 and its shading
 * 123 ms instead of 170.
 */
export function largestBalancedBinaryGrid(limit: number): number {
  let best = 0;
  for (let a = 1; a + 1 <= limit; a *= 2) {
    for (const b of [a / 2, a, a * 2]) {
      if (b >= 1 && (a + 1) * (b + 1) <= limit) best = Math.max(best, (a + 1) * (b + 1));
    }
  }
  return best;
}
