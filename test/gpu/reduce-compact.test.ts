import { describe, expect, it } from 'vitest';
import { Compact } from '../../src/gpu/compact.ts';
import { compactCpu } from '../../src/gpu/cpu-primitives.ts';
import { Reduce } from '../../src/gpu/reduce.ts';
import { firstDifference, randomWords, storageUsage, useGpuRuntime } from './gpu-fixture.ts';

const gpu = useGpuRuntime();

describe('GPU reduce', () => {
  async function reduce(words: Uint32Array, operation: 'sum' | 'min' | 'max', element: 'u32' | 'i32' | 'f32' = 'u32') {
    const runtime = gpu();
    const input = runtime.allocator.createBufferWithData('reduce input', words, storageUsage());
    try {
      return await new Reduce(runtime).run({ input, count: words.length, operation, element });
    } finally {
      runtime.allocator.release(input);
    }
  }

  for (const size of [1, 255, 256, 257, 2048, 2049, 1_000_003]) {
    it(`sums, minimises and maximises ${size} u32`, async () => {
      const words = randomWords(size, size, 0xffff);
      let sum = 0;
      let min = 0xffffffff;
      let max = 0;
      for (const w of words) {
        sum = (sum + w) >>> 0;
        min = Math.min(min, w);
        max = Math.max(max, w);
      }
      expect(await reduce(words, 'sum')).toBe(sum);
      expect(await reduce(words, 'min')).toBe(min);
      expect(await reduce(words, 'max')).toBe(max);
    });
  }

  it('gives the identity for an empty input', async () => {
    expect(await reduce(new Uint32Array(0), 'sum')).toBe(0);
    expect(await reduce(new Uint32Array(0), 'min')).toBe(0xffffffff);
    expect(await reduce(new Uint32Array(0), 'max')).toBe(0);
  });

  it('reduces i32 and f32 as signed and floating-point numbers', async () => {
    const ints = new Int32Array([5, -7, 3, -2, 100, -100_000]);
    const intWords = new Uint32Array(ints.buffer);
    expect(await reduce(intWords, 'min', 'i32')).toBe(-100_000);
    expect(await reduce(intWords, 'max', 'i32')).toBe(100);
    expect(await reduce(intWords, 'sum', 'i32')).toBe(5 - 7 + 3 - 2 + 100 - 100_000);
    const floats = new Float32Array(5000).map((_, i) => Math.sin(i) * 10);
    const floatWords = new Uint32Array(floats.buffer);
    expect(await reduce(floatWords, 'min', 'f32')).toBe(Math.min(...floats));
    expect(await reduce(floatWords, 'max', 'f32')).toBe(Math.max(...floats));
    const expectedSum = floats.reduce((a, b) => a + b, 0);
    expect(await reduce(floatWords, 'sum', 'f32')).toBeCloseTo(expectedSum, 1);
  });
});

describe('GPU stream compaction', () => {
  async function compact(flags: Uint32Array, values?: Uint32Array) {
    const runtime = gpu();
    const { allocator } = runtime;
    const usage = storageUsage();
    const flagBuffer = allocator.createBufferWithData('flags', flags, usage);
    const valueBuffer = values && allocator.createBufferWithData('values', values, usage);
    const output = allocator.createBuffer({ label: 'kept', size: flags.byteLength, usage });
    const keptCount = allocator.createBuffer({ label: 'kept count', size: 4, usage });
    try {
      await new Compact(runtime).run({ flags: flagBuffer, values: valueBuffer, output, count: flags.length, keptCount });
      const [kept] = await runtime.readU32(keptCount, 1);
      return { kept: kept!, output: await runtime.readU32(output, kept!) };
    } finally {
      for (const buffer of [flagBuffer, valueBuffer, output, keptCount]) if (buffer) allocator.release(buffer);
    }
  }

  for (const size of [0, 1, 255, 256, 257, 4099, (1 << 22) + 17]) {
    it(`keeps flagged values of ${size} elements in order`, async () => {
      const flags = randomWords(size, size + 3, 3).map((w) => (w === 0 ? 7 : 0)); // non-zero flags other than 1
      const values = randomWords(size, size + 5);
      const expected = new Uint32Array(size);
      const expectedKept = compactCpu(flags, values, expected);
      const { kept, output } = await compact(flags, values);
      expect(kept).toBe(expectedKept);
      expect(firstDifference(output, expected.subarray(0, expectedKept))).toBeUndefined();
    });
  }

  it('writes indices when no values are given, and keeps nothing or everything', async () => {
    const flags = new Uint32Array([0, 1, 1, 0, 1]);
    expect(await compact(flags)).toEqual({ kept: 3, output: new Uint32Array([1, 2, 4]) });
    expect((await compact(new Uint32Array(3000))).kept).toBe(0);
    const all = await compact(new Uint32Array(3000).fill(1));
    expect(all.kept).toBe(3000);
    expect(all.output[2999]).toBe(2999);
  });
});
