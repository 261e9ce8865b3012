// The FrameGpu of one render: the job and its buffers, with the insight hooks (regions, progress,
// pixels, grid outlines, primitive ids) and the GPU timings the options ask for.
import type { GpuRuntime } from '../../gpu/runtime.ts';
import { PassProfiler } from '../../gpu/pass-profiler.ts';
import type { FrameGpu, FrameInsight } from '../frame-gpu.ts';
import { requestFramePipelines } from './prewarm.ts';
import { FrameProgress } from '../schedulers/progress.ts';
import type { FrameBuffers } from './frame-buffers.ts';
import type { FrameJob } from './frame-job.ts';
import type { RegionReport, RenderOptions } from './render-options.ts';

/** The FrameGpu of one render, with the insight hooks the options ask for. */
export function frameGpu(gpu: GpuRuntime, job: FrameJob, buffers: FrameBuffers, options: RenderOptions, sampleCounter: GPUBuffer, regions: RegionReport[]): FrameGpu {
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
  if (profile) {
    stats.stageGpuMs = { convert: 0, boundSplit: 0, dice: 0, shade: 0, sample: 0, composite: 0, filter: 0, imager: 0 };
    stats.passGpuMs = {};
  }
  const filter = job.frame.options.pixelFilter;
  // Sample and composite fused: the opaque path (stages/sample.ts).
  const opaque = job.stats.stages!.some((node) => node.stage === 'sample' && node.fusedWith === 'composite');
  stats.opaqueFastPath = opaque;
  const frame: FrameGpu = {
    gpu, camera: job.camera, spaces: job.spaces, layout: job.layout, prims: buffers.prims, userCorners: buffers.userCorners,
    primCount: buffers.batched ? 0 : job.converted.records.count, edgeNeighbours: job.converted.records.edgeNeighbours(), pipelines: buffers.pipelines, textures: buffers.textures, nx: job.nx, ny: job.ny, filter: job.filter,
    apron: Math.ceil(Math.max(filter.xWidth, filter.yWidth) / 2), opaque, solids: job.converted.solids, motion: job.converted.motion, shapeKinds: job.converted.records.kinds,
    recordUses: { trims: job.converted.records.trims, detailLevels: job.converted.records.detailLevels }, stats, profile, sampleCounter, insight,
    ...(options.signal ? { signal: options.signal } : {}),
    pipelinesPrepared: 0,
  };
  frame.pipelinesPrepared = requestFramePipelines(frame, job.stats.stages!);
  return frame;
}
