// A frame asks for the pipelines its stages will use as soon as its GPU state exists (bound/split's
// first), rather than each stage at its first dispatch: pipeline creation
// (createComputePipelineAsync) then runs on the implementation's threads alongside the first stages'
// work, and a real GPU's driver compiles the kernels in parallel. The stages ask again and get them
// from the kernel cache.
import type { GpuRuntime } from '../../gpu/runtime.ts';
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
 * see-through, and filter. Bound/split's and the scan's come first, the others once those are made:
 * the frame cannot start before bound/split's classify pipeline exists, and asked for all at once the
 * others' creation and the parsing of their WGSL (createShaderModule is synchronous) held it up (on
 * the 2-core lavapipe machine bound/split's first dispatch went out 100-300 ms later). Returns how
 * many pipelines the first requests created; the later ones add theirs to `frame.pipelinesPrepared`
 * (FrameStats.pipelinesCreatedOnUse counts the rest). A pipeline that fails is made again, and its
 * error reported, by the stage.
 */
export function requestFramePipelines(frame: FrameGpu, stages: readonly StageNode[]): number {
  const { gpu } = frame;
  const diceFused = stages.some((node) => node.stage === 'dice' && node.fusedWith === 'shade');
  const later = (): Promise<unknown>[] => [
    ...(diceFused ? [] : [dicePipeline(frame), ...frame.pipelines.map((p) => kernelPipelines(gpu, p.kernel))]),
    samplePipelines(frame),
    ...(frame.opaque ? [] : [compositePipelines(gpu, frame.solids)]),
    filterPipeline(frame),
  ];
  const first = requestAll(gpu, () => [boundSplitPipelines(frame), new Scan(gpu).prepare()]);
  // After a task, so that bound/split's own continuation dispatches its first pass before these parse.
  const requestLater = (): void => {
    setTimeout(() => {
      frame.pipelinesPrepared += requestAll(gpu, later).created;
    }, 0);
  };
  first.done.then(requestLater, requestLater);
  return first.created;
}

/** Makes the requests; how many pipelines they created, and when they are all settled. */
function requestAll(gpu: GpuRuntime, requests: () => Promise<unknown>[]): { created: number; done: Promise<unknown> } {
  const before = gpu.kernels.stats.misses;
  const made = requests();
  for (const request of made) request.catch(() => undefined);
  return { created: gpu.kernels.stats.misses - before, done: Promise.all(made) };
}
