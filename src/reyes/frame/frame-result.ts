// A render's result and statistics: the opaque path's sample count, the eye-split and loop-cap warnings, the
// insight results mapped to scene primitives, the Imager, the total time.
import type { GpuRuntime } from '../../gpu/runtime.ts';
import type { FrameGpu } from '../frame-gpu.ts';
import { applyImager } from '../stages/imager.ts';
import { reportCappedLoops } from '../shading/loop-cap.ts';
import type { FrameJob } from './frame-job.ts';
import type { RegionReport, RenderedFrame, RenderOptions } from './render-options.ts';

/** The rendered frame: insight results mapped to scene primitives, the opaque path's sample count. */
export async function finish(gpu: GpuRuntime, job: FrameJob, frame: FrameGpu | undefined, regions: RegionReport[], options: RenderOptions): Promise<RenderedFrame> {
  const { stats, warnings, image, camera } = job;
  const rendered: RenderedFrame = { image, camera, stats, warnings, regions, variables: job.variables };
  if (frame) stats.samplePoints += (await gpu.readU32(frame.sampleCounter, 1))[0]!;
  // Loops the shader loop cap cut short: a warning at each loop (shading/loop-cap.ts).
  if (frame) await reportCappedLoops(gpu, frame.pipelines, job.warn);
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
  stats.pipelinesCreated = gpu.kernels.stats.misses - job.pipelinesBefore;
  stats.pipelinesCreatedOnUse = stats.pipelinesCreated - (frame?.pipelinesPrepared ?? 0);
  stats.warnings = warnings;
  return rendered;
}
