// Compositing of one sample region's sample points into its subpixel buffer without a global sort
// (reyes-composite.wgsl): count the points of each subpixel, scan the counts into each subpixel's
// start, scatter the points' indices into per-subpixel lists, and composite each short list front
// to back after ordering it by depth in the subpixel's own invocation, resolving CSG solids on the way.
import type { CommandRecorder, GpuRuntime } from '../../gpu/runtime.ts';
import { Scan } from '../../gpu/scan.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';

/** Bytes per sample point compositing adds to the written keys and payload: rank 4, list entry 4. */
export const COMPOSITE_SAMPLE_BYTES = 8;
/** Bytes per subpixel compositing adds to the subpixel buffer: count 4, list start 4. */
export const COMPOSITE_SUBPIXEL_BYTES = 8;

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

/** The compositing passes' pipelines: count, scatter, composite. */
export function compositePipelines(gpu: GpuRuntime): Promise<GPUComputePipeline[]> {
  return Promise.all(['countSubpixels', 'scatterSamples', 'composite'].map((entry) => kernelPipeline(gpu, 'reyes-composite.wgsl', entry)));
}

/** Records the compositing passes into `recorder`. */
export async function encodeComposite(gpu: GpuRuntime, recorder: CommandRecorder, args: CompositeArgs): Promise<void> {
  const [countPass, scatterPass, compositePass] = await compositePipelines(gpu);
  const samples = Math.max(1, args.sampleCount);
  const counts = recorder.scratch('subpixel sample counts', args.subpixelCount * 4);
  const starts = recorder.scratch('subpixel list starts', args.subpixelCount * 4);
  const rank = recorder.scratch('sample rank', samples * 4);
  const order = recorder.scratch('subpixel lists', samples * 4);
  const params = recorder.params('composite', [args.sampleCount, args.subpixelCount, 0, 0]);
  const solids = recorder.transient(gpu.allocator.createBufferWithData('csg table', args.solids, GPUBufferUsage.STORAGE));
  recorder.encoder.clearBuffer(counts);
  recorder.dispatch(countPass!, { 0: params, 1: args.keys, 2: counts, 3: rank }, Math.ceil(args.sampleCount / 256));
  await new Scan(gpu).encode(recorder, { input: counts, output: starts, count: args.subpixelCount });
  recorder.dispatch(scatterPass!, { 0: params, 1: args.keys, 3: rank, 4: starts, 5: order }, Math.ceil(args.sampleCount / 256));
  recorder.dispatch(compositePass!, {
    0: params, 1: args.keys, 4: starts, 5: order, 6: args.payload, 7: args.color, 8: args.depth, 9: args.ids, 10: counts, 11: solids,
  }, Math.ceil(args.subpixelCount / 256));
}
