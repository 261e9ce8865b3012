// One GPU runtime per test file, on Dawn with the software Vulkan driver in CI.
import { afterAll, beforeAll } from 'vitest';
import { acquireGpu, limitEntries } from '../../src/gpu/device.ts';
import { GpuRuntime } from '../../src/gpu/runtime.ts';

export function useGpuRuntime(budgetBytes?: number): () => GpuRuntime {
  let runtime: GpuRuntime | undefined;
  beforeAll(async () => {
    const context = await acquireGpu();
    runtime = new GpuRuntime(context, budgetBytes);
  });
  afterAll(() => {
    // Dropping every reference lets the Vitest worker exit.
    runtime?.allocator.trim();
    runtime?.context.destroy();
    runtime = undefined;
  });
  return () => {
    if (!runtime) throw new Error('GPU runtime not ready');
    return runtime;
  };
}

/** The same device, reporting a smaller storage binding limit than it has (to test splitting work). */
export function withBindingLimit(runtime: GpuRuntime, bytes: number): GpuRuntime {
  const limits = { ...Object.fromEntries(limitEntries(runtime.limits)), maxStorageBufferBindingSize: bytes };
  return new GpuRuntime({ ...runtime.context, limits: limits as unknown as GPUSupportedLimits }, runtime.allocator.budget);
}

/** A deterministic pseudo-random u32 stream (xorshift32), so failures reproduce. */
export function randomWords(count: number, seed = 0x9e3779b9, mask = 0xffffffff): Uint32Array {
  const words = new Uint32Array(count);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    words[i] = (state & mask) >>> 0;
  }
  return words;
}

/** Usage of the tests' input and output buffers (read after acquireGpu installed the globals). */
export function storageUsage(): number {
  return GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
}

/**
 * Compares large word arrays quickly (Vitest's deep equality takes seconds on millions of
 * elements) and reports the first difference.
 */
export function firstDifference(actual: ArrayLike<number>, expected: ArrayLike<number>): string | undefined {
  if (actual.length !== expected.length) return `length ${actual.length}, expected ${expected.length}`;
  for (let i = 0; i < actual.length; i++) {
    if (actual[i] !== expected[i]) return `element ${i} is ${actual[i]}, expected ${expected[i]}`;
  }
  return undefined;
}
