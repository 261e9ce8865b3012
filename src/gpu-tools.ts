/**
 * GPU building blocks the renderer is made of, for tools and checks beside it (the page's GPU
 * self-test, benchmarks): a key-value radix sort on a GpuRuntime and its plain-TypeScript
 * reference. Browser-safe, like the main entry.
 *
 * ```ts
 * import { GpuRuntime, acquireGpu } from 'webgpu-reyes';
 * import { RadixSort, radixSortCpu } from 'webgpu-reyes/gpu-tools';
 * const gpu = new GpuRuntime(await acquireGpu());
 * await new RadixSort(gpu).run({ keys, values, count });   // GPUBuffers: 2 u32 words a key, 1 a value
 * ```
 *
 * @packageDocumentation
 * @module webgpu-reyes/gpu-tools
 */
/** Stable key-value radix sort on the GPU: 64-bit keys (low word first) with u32 values, in place; `run(args)` or `encode(recorder, args)`. */
export { RadixSort } from './gpu/radix-sort.ts';
/** What RadixSort sorts: the key and value buffers, the count, and how many key bits matter. */
export type { SortArgs } from './gpu/radix-sort.ts';
/** The CPU reference of RadixSort: a stable LSD radix sort of interleaved 64-bit keys with u32 values, in place. */
export { radixSortCpu } from './gpu/cpu-primitives.ts';
