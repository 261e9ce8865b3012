import { describe, expect, it } from 'vitest';
import { acquireGpu } from '../../src/gpu/device.ts';
import { GpuBudgetError, GpuShaderError, GpuValidationError } from '../../src/gpu/errors.ts';
import { GpuRuntime } from '../../src/gpu/runtime.ts';
import { chooseVulkanDriver } from '../../src/gpu/node-gpu.ts';
import { storageUsage, useGpuRuntime } from './gpu-fixture.ts';

const MiB = 1024 * 1024;
const gpu = useGpuRuntime(4 * MiB);

describe('GPU device', () => {
  it('reports the adapter and raises limits to what the adapter offers', async () => {
    const { context } = gpu();
    expect(context.adapter.runtime).toMatch(/dawn\/vulkan/);
    expect(context.adapter.description.length + context.adapter.vendor.length).toBeGreaterThan(0);
    // WebGPU's default is 128 MiB; a device that asked for the adapter's limits gets more on lavapipe/SwiftShader.
    expect(context.limits.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(128 * MiB);
    expect(context.limits.maxComputeWorkgroupStorageSize).toBeGreaterThanOrEqual(16384);
  });

  it('turns a WGSL compile error into a GpuShaderError with line and column', async () => {
    const runtime = gpu();
    const code = 'fn ok() {}\n@compute @workgroup_size(1) fn main() {\n  let x: u32 = undefinedThing;\n}\n';
    const failure = runtime.kernels.pipeline({ label: 'broken.wgsl', code, entryPoint: 'main' });
    await expect(failure).rejects.toBeInstanceOf(GpuShaderError);
    await expect(failure).rejects.toThrow(/broken\.wgsl:3:\d+: .*undefinedThing/);
    // The error was caught by the compiler check, so it does not linger as an uncaptured error.
    expect(runtime.context.uncapturedErrors).toEqual([]);
  });

  it('turns a bad dispatch into a GpuValidationError at submit', async () => {
    const runtime = gpu();
    const code =
      '@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n' +
      '@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) { data[id.x] = id.x; }\n';
    const pipeline = await runtime.kernels.pipeline({ label: 'write.wgsl', code, entryPoint: 'main' });
    const recorder = runtime.recorder('bad binding');
    const uniform = recorder.params('wrong kind of buffer', [1]);
    recorder.dispatch(pipeline, { 0: uniform }, 1);
    await expect(recorder.submit()).rejects.toBeInstanceOf(GpuValidationError);
    runtime.context.uncapturedErrors.length = 0;
  });

  it('caches pipelines per source, entry point and constants', async () => {
    const runtime = gpu();
    const code = '@compute @workgroup_size(1) fn main() {}\n';
    const before = { ...runtime.kernels.stats };
    const first = await runtime.kernels.pipeline({ label: 'empty.wgsl', code, entryPoint: 'main' });
    const second = await runtime.kernels.pipeline({ label: 'empty.wgsl', code, entryPoint: 'main' });
    expect(second).toBe(first);
    expect(runtime.kernels.stats.misses - before.misses).toBe(1);
    expect(runtime.kernels.stats.hits - before.hits).toBe(1);
  });
});

describe('GPU allocator', () => {
  it('tracks live and peak bytes and reuses released buffers', () => {
    const { allocator } = gpu();
    allocator.trim();
    allocator.resetPeak();
    const base = allocator.live;
    const a = allocator.createBuffer({ label: 'a', size: MiB, usage: storageUsage() });
    const b = allocator.createBuffer({ label: 'b', size: 10, usage: storageUsage() });
    expect(allocator.live - base).toBe(MiB + 12); // rounded up to 4 bytes
    expect(allocator.free()).toBe(4 * MiB - allocator.live);
    allocator.release(a);
    expect(allocator.peak - base).toBe(MiB + 12);
    const again = allocator.createBuffer({ label: 'a again', size: MiB, usage: storageUsage() });
    expect(again).toBe(a); // from the pool, no new allocation
    expect(allocator.live - base).toBe(MiB + 12);
    allocator.release(again);
    allocator.release(b);
    allocator.trim();
    expect(allocator.live).toBe(base);
  });

  it('refuses a request past the budget with the budget and the request in the message', () => {
    const { allocator } = gpu();
    const held = allocator.createBuffer({ label: 'held', size: 3 * MiB, usage: storageUsage() });
    try {
      const request = () => allocator.createBuffer({ label: 'sample points', size: 2 * MiB, usage: storageUsage() });
      expect(request).toThrow(GpuBudgetError);
      expect(request).toThrow(/"sample points" asks for 2\.0 MiB while 3\.0 MiB of the 4\.0 MiB budget are in use/);
    } finally {
      allocator.release(held);
    }
  });

  it('evicts pooled buffers before refusing a request', () => {
    const { allocator } = gpu();
    allocator.trim();
    const pooled = allocator.createBuffer({ label: 'pooled', size: 3 * MiB, usage: storageUsage() });
    allocator.release(pooled);
    expect(allocator.free()).toBe(4 * MiB);
    const other = allocator.createBuffer({ label: 'other usage', size: 3 * MiB, usage: GPUBufferUsage.STORAGE });
    expect(other).not.toBe(pooled);
    allocator.release(other);
    allocator.trim();
  });

  it('pools at most a quarter of the budget, destroying the oldest released buffers first', () => {
    const { allocator } = gpu();
    allocator.trim();
    const base = allocator.live;
    // Sizes that never come again, as the grids of many differently sized regions.
    const sizes = [0.4, 0.3, 0.2, 0.1, 0.25].map((share) => 4 * Math.round((share * MiB) / 4));
    const buffers = sizes.map((size, k) => allocator.createBuffer({ label: `region ${k}`, size, usage: storageUsage() }));
    for (const buffer of buffers) allocator.release(buffer);
    // 1.25 MiB released into a 4 MiB budget: the first (0.4 MiB) goes, 0.85 MiB stays pooled.
    expect(allocator.live - base).toBe(sizes.slice(1).reduce((a, b) => a + b, 0));
    expect(allocator.createBuffer({ label: 'reused', size: sizes[1]!, usage: storageUsage() })).toBe(buffers[1]);
    expect(allocator.createBuffer({ label: 'not pooled any more', size: sizes[0]!, usage: storageUsage() })).not.toBe(buffers[0]);
    allocator.trim();
  });

  it('hands a request the smallest pooled buffer of its usage that holds it, up to twice its size', () => {
    const { allocator } = gpu();
    allocator.trim();
    const base = allocator.live;
    // The next region's grids are a little smaller than this one's: no new buffer, no new pages.
    const KiB = 1024;
    const [large, medium] = [512, 300].map((kib) => allocator.createBuffer({ label: `region grids ${kib} KiB`, size: kib * KiB, usage: storageUsage() }));
    allocator.release(large!);
    allocator.release(medium!);
    const smaller = allocator.createBuffer({ label: 'next region grids', size: 280 * KiB, usage: storageUsage() });
    expect(smaller).toBe(medium);
    expect(smaller.size).toBe(300 * KiB);
    expect(allocator.live - base).toBe(812 * KiB);
    // Past twice the request, a pooled buffer would hold memory the request does not need.
    const tiny = allocator.createBuffer({ label: 'tiny', size: 200 * KiB, usage: storageUsage() });
    expect(tiny).not.toBe(large);
    expect(tiny.size).toBe(200 * KiB);
    allocator.release(smaller);
    allocator.release(tiny);
    allocator.trim();
  });
});

describe('Vulkan driver choice in Node', () => {
  it('honours REYES_VULKAN and VK_ICD_FILENAMES', () => {
    expect(chooseVulkanDriver({ REYES_VULKAN: 'swiftshader' }).choice).toBe('swiftshader');
    expect(chooseVulkanDriver({ REYES_VULKAN: 'system' })).toEqual({ choice: 'system' });
    expect(chooseVulkanDriver({ VK_ICD_FILENAMES: '/x/icd.json' })).toEqual({ choice: 'environment', icd: '/x/icd.json' });
  });
});

describe('a second device', () => {
  it('can be acquired and destroyed next to the first, and reports its loss', async () => {
    const context = await acquireGpu();
    const runtime = new GpuRuntime(context, MiB);
    expect(runtime.allocator.budget).toBe(MiB);
    context.destroy();
    const lost = await context.lost;
    expect(lost.reason).toBe('destroyed');
    expect(lost.message.length).toBeGreaterThanOrEqual(0);
    expect(context.lostError).toBe(lost);
  });
});

describe('pass profiling with timestamp queries', () => {
  it('times every pass of a sort by kernel', async () => {
    const runtime = gpu();
    expect(runtime.context.features).toContain('timestamp-query'); // lavapipe, SwiftShader and GPUs offer it
    const { RadixSort } = await import('../../src/gpu/radix-sort.ts');
    const count = 5000;
    const recorder = runtime.recorder('profiled sort', { profile: true });
    const keys = recorder.scratch('keys', count * 8);
    const values = recorder.scratch('values', count * 4);
    await new RadixSort(runtime).encode(recorder, { keys, values, count, keyBits: 24 });
    await recorder.submit();
    const byLabel = new Map(recorder.timings!.map((timing) => [timing.label, timing]));
    expect(byLabel.get('radix-sort.wgsl:countDigits')?.passes).toBe(6); // 24 bits, 4 a pass
    expect(byLabel.get('radix-sort.wgsl:scatterBlock')?.passes).toBe(6);
    expect(byLabel.get('scan.wgsl:scanBlocks')?.passes).toBeGreaterThanOrEqual(6);
    for (const timing of recorder.timings!) expect(timing.milliseconds).toBeGreaterThanOrEqual(0);
    const total = recorder.timings!.reduce((sum, timing) => sum + timing.milliseconds, 0);
    expect(total).toBeGreaterThan(0);
  });
});
