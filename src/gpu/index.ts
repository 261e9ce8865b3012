// The GPU layer: device acquisition (page and Node), the budgeted allocator, the kernel cache and
// the data-parallel primitives every stage of the renderer reuses.
export * from './errors.ts';
export { acquireGpu, checkUncapturedErrors, withGpuErrorScope } from './device.ts';
export type { AcquireOptions, AdapterDescription, GpuContext } from './device.ts';
export { GpuAllocator } from './allocator.ts';
export type { BufferRequest } from './allocator.ts';
export { KernelCache, compileModule } from './kernels.ts';
export type { KernelSpec } from './kernels.ts';
export { CommandRecorder, GpuRuntime, defaultBudget } from './runtime.ts';
export { Scan, SCAN_BLOCK } from './scan.ts';
export type { ScanArgs } from './scan.ts';
export { Compact } from './compact.ts';
export type { CompactArgs } from './compact.ts';
export { Reduce } from './reduce.ts';
export type { ReduceArgs, ReduceElement, ReduceOperation } from './reduce.ts';
export { RadixSort } from './radix-sort.ts';
export type { SortArgs } from './radix-sort.ts';
export { PassProfiler } from './pass-profiler.ts';
export type { PassTiming } from './pass-profiler.ts';
