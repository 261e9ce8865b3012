// Compositing of one sample region's sample points into its subpixel buffer without a global sort
// (reyes-composite.wgsl): link each subpixel's points into a list, and composite each short list
// front to back after ordering it by depth in the subpixel's own invocation, resolving CSG solids on
// the way.
import type { CommandRecorder, GpuRuntime } from '../../gpu/runtime.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';
import { SOLID_TABLE } from '../../layout/solid-table.ts';

/** Bytes per sample point compositing adds to the written keys and payload: its link (next, depth). */
export const COMPOSITE_SAMPLE_BYTES = 8;
/** Bytes per subpixel compositing adds to the subpixel buffer: its list's head. */
export const COMPOSITE_SUBPIXEL_BYTES = 4;

export interface CompositeArgs {
  /** Per sample point (depth bits, subpixel index); subpixel all ones where not covered. */
  keys: GPUBuffer;
  /** Per sample point two vec4f: (Ci, tagged record) and (Oi, depth) (reyes-sample.wgsl). */
  payload: GPUBuffer;
  sampleCount: number;
  subpixelCount: number;
  color: GPUBuffer;
  depth: GPUBuffer;
  ids: GPUBuffer;
  /** The frame's CSG table (src/layout/solid-table.ts). */
  solids: Uint32Array;
}

/** The compositing passes' pipelines: link, composite (for a frame with or without CSG solids). */
export function compositePipelines(gpu: GpuRuntime, solids: Uint32Array): Promise<GPUComputePipeline[]> {
  const constants = { SOLIDS: solids[SOLID_TABLE.leafCount]! > 0 ? 1 : 0 };
  return Promise.all([kernelPipeline(gpu, 'reyes-composite.wgsl', 'linkSamples'), kernelPipeline(gpu, 'reyes-composite.wgsl', 'composite', constants)]);
}

/** Records the compositing passes into `recorder`. */
export async function encodeComposite(gpu: GpuRuntime, recorder: CommandRecorder, args: CompositeArgs): Promise<void> {
  const [linkPass, compositePass] = await compositePipelines(gpu, args.solids);
  const heads = recorder.scratch('subpixel list heads', args.subpixelCount * 4);
  const links = recorder.scratch('sample point links', Math.max(1, args.sampleCount) * COMPOSITE_SAMPLE_BYTES);
  const params = recorder.params('composite', [args.sampleCount, args.subpixelCount, 0, 0]);
  const solids = recorder.transient(gpu.allocator.createBufferWithData('csg table', args.solids, GPUBufferUsage.STORAGE));
  recorder.encoder.clearBuffer(heads, 0, args.subpixelCount * 4);
  recorder.dispatch(linkPass!, { 0: params, 1: args.keys, 2: heads, 3: links }, Math.ceil(args.sampleCount / 256));
  recorder.dispatch(compositePass!, {
    0: params, 4: heads, 3: links, 6: args.payload, 7: args.color, 8: args.depth, 9: args.ids, 11: solids,
  }, Math.ceil(args.subpixelCount / 256));
}
