// Running a shading kernel the compiler split into passes (src/rsl/partition): per shading batch, the
// passes in order, one workgroup per grid each, over the same bindings (less the loop flags and the
// texture atlas where a pass does not declare them) plus an intermediate buffer
// of the batch's grids × vertices × the intermediate floats per vertex, through the allocator (so it
// is budgeted) and released when the batch's commands have run. Dispatches of one command buffer
// see each other's storage writes in order, so a pass reads what the passes before it saved.
import type { Bindings, CommandRecorder, GpuRuntime } from '../../gpu/runtime.ts';
import { LOOP_FLAG_BINDING } from '../../rsl/wgsl.ts';
import { TEXTURE_BINDING, TEXTURE_FEEDBACK_BINDING } from '../../texture/texture-wgsl.ts';

export interface ShadingPasses {
  /** `loopFlags`: the pass declares the loop flags (binding 12), which a pass without them is not given;
   * `textures`: likewise the atlas and its feedback (bindings 5 and 6). */
  passes: readonly { code: string; entryPoint: string; loopFlags?: boolean; textures?: boolean }[];
  /** Floats per vertex of the intermediate buffer. */
  intermediateFloats: number;
  /** Its binding in every pass. */
  intermediateBinding: number;
}

/** Bytes of the intermediate buffer for a batch of `grids` grids of `maxVertices` vertices. */
export function intermediateBytes(passes: ShadingPasses, grids: number, maxVertices: number): number {
  return Math.max(4, grids * maxVertices * passes.intermediateFloats * 4);
}

/** Most grids a batch of `kernel` may hold so its intermediate buffer fits one storage binding
 * (no limit for a kernel of one pass). */
export function maxGridsPerBatch(kernel: { passes?: ShadingPasses }, maxVertices: number, maxBindingBytes: number): number {
  if (!kernel.passes) return Infinity;
  return Math.max(1, Math.floor(maxBindingBytes / Math.max(4, maxVertices * kernel.passes.intermediateFloats * 4)));
}

/** The passes' pipelines (compiled once per device by the kernel cache). */
export function passPipelines(gpu: GpuRuntime, label: string, passes: ShadingPasses): Promise<GPUComputePipeline[]> {
  return Promise.all(passes.passes.map((pass, p) => gpu.kernels.pipeline({ label: `${label} pass ${p + 1}`, code: pass.code, entryPoint: pass.entryPoint })));
}

/** Records the passes for `grids` grids (one workgroup each) with `bindings`, and the intermediates. */
export function dispatchPasses(gpu: GpuRuntime, recorder: CommandRecorder, passes: ShadingPasses, pipelines: GPUComputePipeline[], bindings: Bindings, grids: number, maxVertices: number): void {
  const intermediates = recorder.transient(gpu.allocator.createBuffer({ label: 'shading intermediates', size: intermediateBytes(passes, grids, maxVertices), usage: GPUBufferUsage.STORAGE }));
  pipelines.forEach((pipeline, p) => {
    const { loopFlags, textures } = passes.passes[p]!;
    // A binding the pass does not declare is not in its 'auto' layout: binding it is an error.
    const own = Object.fromEntries(Object.entries(bindings).filter(([b]) => (loopFlags || Number(b) !== LOOP_FLAG_BINDING) && (textures || (Number(b) !== TEXTURE_BINDING && Number(b) !== TEXTURE_FEEDBACK_BINDING))));
    recorder.dispatch(pipeline, { ...own, [passes.intermediateBinding]: intermediates }, grids);
  });
}

/** A shading kernel as the shade stage runs it: its one pipeline, or its passes. */
export type KernelDispatch = (recorder: CommandRecorder, bindings: Bindings, grids: number) => void;

type RunnableKernel = { label: string; code: string; entryPoint: string; constants?: Record<string, number>; passes?: ShadingPasses };

/** A shading kernel's pipelines: its one pipeline, or one per pass. */
export function kernelPipelines(gpu: GpuRuntime, kernel: RunnableKernel): Promise<GPUComputePipeline[]> {
  if (kernel.passes) return passPipelines(gpu, kernel.label, kernel.passes);
  return Promise.all([gpu.kernels.pipeline({ label: kernel.label, code: kernel.code, entryPoint: kernel.entryPoint, ...(kernel.constants ? { constants: kernel.constants } : {}) })]);
}

export async function kernelDispatch(gpu: GpuRuntime, kernel: RunnableKernel, maxVertices: number): Promise<KernelDispatch> {
  const { passes } = kernel;
  const pipelines = await kernelPipelines(gpu, kernel);
  if (passes) return (recorder, bindings, grids) => dispatchPasses(gpu, recorder, passes, pipelines, bindings, grids, maxVertices);
  return (recorder, bindings, grids) => recorder.dispatch(pipelines[0]!, bindings, grids);
}
