// A frame asks for the pipelines its stages will use all at once, as soon as its GPU state exists,
// rather than each stage at its first dispatch: pipeline creation (createComputePipelineAsync) then
// runs on the implementation's threads alongside the first stages' work, and a real GPU's driver
// compiles the kernels in parallel. The stages ask again and get them from the kernel cache.
import type { FrameGpu } from '../frame-gpu.ts';
import type { StageNode } from '../pipeline/stage-graph.ts';
import { kernelPipelines } from '../shading/multipass.ts';
import { boundSplitPipelines } from '../stages/bound-split.ts';
import { compositePipelines } from '../stages/composite.ts';
import { dicePipeline } from '../stages/dice.ts';
import { filterPipeline } from '../stages/filter.ts';
import { samplePipelines } from '../stages/sample.ts';
import { Scan } from '../../gpu/scan.ts';

/**
 * Asks the kernel cache for the pipelines of the frame's bound/split, the scan (bound/split's and
 * the sample count pass's, the same exclusive scan of values), dicing and
 * shading (unless fused: pipeline/fusion.ts makes its own), sampling, compositing where samples are
 * see-through, and filter. Returns how many pipelines that created (FrameStats.pipelinesCreatedOnUse
 * counts the others). A pipeline that fails is made again, and its error reported, by the stage.
 */
export function requestFramePipelines(frame: FrameGpu, stages: readonly StageNode[]): number {
  const { gpu } = frame;
  const before = gpu.kernels.stats.misses;
  const diceFused = stages.some((node) => node.stage === 'dice' && node.fusedWith === 'shade');
  const requests: Promise<unknown>[] = [
    boundSplitPipelines(frame),
    new Scan(gpu).prepare(),
    ...(diceFused ? [] : [dicePipeline(frame), ...frame.pipelines.map((p) => kernelPipelines(gpu, p.kernel))]),
    samplePipelines(frame),
    ...(frame.opaque ? [] : [compositePipelines(gpu, frame.solids)]),
    filterPipeline(frame),
  ];
  for (const request of requests) request.catch(() => undefined);
  return gpu.kernels.stats.misses - before;
}
