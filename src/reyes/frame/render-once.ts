// A frame rendered from scratch: its buffers uploaded, then every region (the whole frame under the
// schedulers, or fixed buckets) bound/split, diced, shaded and sampled under the frame's budget.
import type { GpuRuntime } from '../../gpu/runtime.ts';
import type { Frame } from '../../rib/scene.ts';
import { dicingBins, framePipeline } from '../pipeline/pipeline-config.ts';
import { graphPasses, runBin } from '../pipeline/runtime.ts';
import type { FrameGpu, Region } from '../frame-gpu.ts';
import { dicingLevel, type FrameRecords, type KeepGrids } from '../schedulers/dicing-scheduler.ts';
import { samplingLevel } from '../schedulers/sampling-scheduler.ts';
import { createSampleCounter, uploadFrame, type FrameBuffers } from './frame-buffers.ts';
import { underBudget } from './frame-budget.ts';
import { frameGpu } from './frame-insight.ts';
import { samplingTarget, startFrame, type FrameJob } from './frame-job.ts';
import { finish } from './frame-result.ts';
import { withAutoShadows, type RenderDepth } from '../shadows/auto-shadows.ts';
import type { RegionReport, RenderedFrame, RenderOptions } from './render-options.ts';

/** The frame after its lights' "auto" shadow maps (shadows/auto-shadows.ts). */
export async function renderFrame(gpu: GpuRuntime, frame: Frame, options: RenderOptions = {}): Promise<RenderedFrame> {
  return withAutoShadows(frame, options, depthRenderer(gpu), () => renderJob(gpu, startFrame(gpu, frame, options), options));
}

/** Depth passes render as any frame does from scratch. */
export function depthRenderer(gpu: GpuRuntime): RenderDepth {
  return (frame, options) => renderJob(gpu, startFrame(gpu, frame, options), options);
}

/** The job rendered from scratch, every buffer released afterwards. */
export async function renderJob(gpu: GpuRuntime, job: FrameJob, options: RenderOptions): Promise<RenderedFrame> {
  const owned = hasWork(job) ? [] as GPUBuffer[] : undefined;
  try {
    return await renderScratch(gpu, job, options, owned);
  } finally {
    for (const buffer of owned ?? []) gpu.allocator.release(buffer);
  }
}

/** False when there is nothing to render: no records or an empty image. */
export function hasWork(job: FrameJob): boolean {
  return job.converted.records.count > 0 && job.image.width > 0 && job.image.height > 0;
}

/** A whole render from the records: every region bound/split, diced, shaded and sampled. With
 * `owned` undefined there is nothing to render (no records or an empty image). */
export async function renderScratch(
  gpu: GpuRuntime, job: FrameJob, options: RenderOptions, owned: GPUBuffer[] | undefined, keep?: KeepGrids,
  made?: { buffers?: FrameBuffers; counter?: GPUBuffer },
): Promise<RenderedFrame> {
  const regions: RegionReport[] = [];
  let gpuFrame: FrameGpu | undefined;
  await underBudget(gpu, job, async () => {
    if (!owned) return;
    const buffers = uploadFrame(gpu, job.converted, job, owned);
    const counter = createSampleCounter(gpu, owned);
    if (made) Object.assign(made, { buffers, counter });
    gpuFrame = frameGpu(gpu, job, buffers, options, counter, regions);
    const crop = job.camera.crop;
    const whole: Region = { x0: crop.x0, y0: crop.y0, x1: crop.x1, y1: crop.y1 };
    const records: FrameRecords = { tables: buffers.tables, ...(buffers.batched ? { batched: buffers.batched } : {}) };
    const pipeline = framePipeline(options);
    const passes = graphPasses(job.stats.stages!, [dicingLevel(gpuFrame, keep), samplingLevel(samplingTarget(job))]);
    for (const bin of dicingBins(pipeline, whole)) {
      if (pipeline.dicing.bins === 'fixed') gpuFrame.insight.region('bucket', bin, false);
      await runBin(gpuFrame, passes, records, bin);
    }
  });
  return finish(gpu, job, gpuFrame, regions, options);
}
