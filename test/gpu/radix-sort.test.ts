import { describe, expect, it } from 'vitest';
import { radixSortCpu } from '../../src/gpu/cpu-primitives.ts';
import { RadixSort } from '../../src/gpu/radix-sort.ts';
import { firstDifference, randomWords, storageUsage, useGpuRuntime } from './gpu-fixture.ts';

const gpu = useGpuRuntime();

/** Sorts on the GPU and on the CPU and returns both (keys interleaved low, high). */
async function sortBoth(keys: Uint32Array, keyBits = 64) {
  const count = keys.length / 2;
  const values = new Uint32Array(count).map((_, i) => i);
  const runtime = gpu();
  const { allocator } = runtime;
  const keyBuffer = allocator.createBufferWithData('keys', keys, storageUsage());
  const valueBuffer = allocator.createBufferWithData('values', values, storageUsage());
  try {
    await new RadixSort(runtime).run({ keys: keyBuffer, values: valueBuffer, count, keyBits });
    const gpuKeys = await runtime.readU32(keyBuffer, 2 * count);
    const gpuValues = await runtime.readU32(valueBuffer, count);
    const cpuKeys = keys.slice();
    const cpuValues = values.slice();
    radixSortCpu(cpuKeys, cpuValues, keyBits);
    return { gpuKeys, gpuValues, cpuKeys, cpuValues };
  } finally {
    allocator.release(keyBuffer);
    allocator.release(valueBuffer);
  }
}

function expectSameSort(result: Awaited<ReturnType<typeof sortBoth>>) {
  expect(firstDifference(result.gpuKeys, result.cpuKeys)).toBeUndefined();
  // Values are the original indices: equal to the CPU's means the sort is stable.
  expect(firstDifference(result.gpuValues, result.cpuValues)).toBeUndefined();
}

function isSorted(keys: Uint32Array): boolean {
  for (let i = 1; i < keys.length / 2; i++) {
    const [h0, l0, h1, l1] = [keys[2 * i - 1]!, keys[2 * i - 2]!, keys[2 * i + 1]!, keys[2 * i]!];
    if (h1 < h0 || (h1 === h0 && l1 < l0)) return false;
  }
  return true;
}

describe('GPU radix sort of 64-bit keys with u32 values', () => {
  for (const count of [0, 1, 2, 255, 256, 257, 1023, 1024, 1025, 5000, 100_003]) {
    it(`sorts ${count} random 64-bit keys stably`, async () => {
      const result = await sortBoth(randomWords(2 * count, count + 11));
      expectSameSort(result);
      expect(isSorted(result.gpuKeys)).toBe(true);
    });
  }

  it('sorts 2^22 + 17 random 64-bit keys', async () => {
    const result = await sortBoth(randomWords(2 * ((1 << 22) + 17), 99));
    expect(isSorted(result.gpuKeys)).toBe(true);
    expectSameSort(result);
  });

  it('keeps the order of all-equal keys', async () => {
    const keys = new Uint32Array(2 * 3000).fill(0xabcdef);
    const { gpuValues } = await sortBoth(keys);
    expect(gpuValues).toEqual(new Uint32Array(3000).map((_, i) => i));
  });

  it('sorts already sorted and reverse-sorted keys', async () => {
    const count = 4099;
    const ascending = new Uint32Array(2 * count);
    for (let i = 0; i < count; i++) {
      ascending[2 * i] = (i * 2654435761) >>> 0; // low word scrambled, high word ordered
      ascending[2 * i + 1] = i;
    }
    expectSameSort(await sortBoth(ascending));
    const descending = new Uint32Array(2 * count);
    for (let i = 0; i < count; i++) {
      descending[2 * i] = count - i;
      descending[2 * i + 1] = (count - i) >> 4;
    }
    const result = await sortBoth(descending);
    expectSameSort(result);
    expect(result.gpuValues[0]).toBe(count - 1);
  });

  it('sorts only the key bits in use: the rest keep their input order', async () => {
    // A 20-bit key in the low word with noise above it: only the low 20 bits decide the order.
    const count = 10_000;
    const keys = randomWords(2 * count, 5);
    const result = await sortBoth(keys, 20);
    expectSameSort(result);
    for (let i = 1; i < count; i++) {
      expect((result.gpuKeys[2 * i]! & 0xfffff) >= (result.gpuKeys[2 * i - 2]! & 0xfffff)).toBe(true);
    }
    // A key of 40 bits spans both words.
    const wide = randomWords(2 * count, 6).map((w, i) => (i % 2 === 1 ? w & 0xff : w));
    const wideResult = await sortBoth(wide, 40);
    expectSameSort(wideResult);
    expect(isSorted(wideResult.gpuKeys)).toBe(true);
  });

  it('rejects a key width outside 1..64', async () => {
    const runtime = gpu();
    const recorder = runtime.recorder('bad sort');
    const buffer = recorder.scratch('keys', 64);
    await expect(new RadixSort(runtime).encode(recorder, { keys: buffer, values: buffer, count: 4, keyBits: 65 })).rejects.toThrow(
      /keyBits must be an integer in 1\.\.64/,
    );
    await recorder.submit();
  });
});
