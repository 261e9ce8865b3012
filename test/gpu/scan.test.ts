import { describe, expect, it } from 'vitest';
import { exclusiveScanCpu, inclusiveScanCpu } from '../../src/gpu/cpu-primitives.ts';
import { Scan } from '../../src/gpu/scan.ts';
import { firstDifference, randomWords, storageUsage, useGpuRuntime } from './gpu-fixture.ts';

const gpu = useGpuRuntime();

async function scanOnGpu(input: Uint32Array, inclusive: boolean): Promise<{ output: Uint32Array; total: number }> {
  const runtime = gpu();
  const { allocator } = runtime;
  const inputBuffer = allocator.createBufferWithData('scan input', input, storageUsage());
  const outputBuffer = allocator.createBuffer({ label: 'scan output', size: input.byteLength, usage: storageUsage() });
  const totalBuffer = allocator.createBuffer({ label: 'scan total', size: 4, usage: storageUsage() });
  try {
    await new Scan(runtime).run({ input: inputBuffer, output: outputBuffer, count: input.length, inclusive, total: totalBuffer });
    const output = await runtime.readU32(outputBuffer, input.length);
    const [total] = await runtime.readU32(totalBuffer, 1);
    return { output, total: total! };
  } finally {
    for (const buffer of [inputBuffer, outputBuffer, totalBuffer]) allocator.release(buffer);
  }
}

function sum(values: Uint32Array): number {
  let total = 0;
  for (const value of values) total = (total + value) >>> 0;
  return total;
}

describe('GPU scan of u32', () => {
  const sizes = [0, 1, 2, 255, 256, 257, 1000, 2047, 2048, 2049, 100_003, 2048 * 2048 + 1];
  for (const size of sizes) {
    it(`exclusive and inclusive scans of ${size} random elements match the CPU`, async () => {
      const input = randomWords(size, size + 1, 0xff);
      const exclusive = await scanOnGpu(input, false);
      expect(firstDifference(exclusive.output, exclusiveScanCpu(input))).toBeUndefined();
      expect(exclusive.total).toBe(sum(input));
      const inclusive = await scanOnGpu(input, true);
      expect(firstDifference(inclusive.output, inclusiveScanCpu(input))).toBeUndefined();
      expect(inclusive.total).toBe(sum(input));
    });
  }

  it('scans 2^22 + 17 elements (three levels) and wraps like u32 arithmetic', async () => {
    const input = randomWords((1 << 22) + 17, 7);
    const { output, total } = await scanOnGpu(input, false);
    expect(firstDifference(output, exclusiveScanCpu(input))).toBeUndefined();
    expect(total).toBe(sum(input));
  });

  it('scans all-equal input', async () => {
    const input = new Uint32Array(5000).fill(3);
    const { output } = await scanOnGpu(input, true);
    expect(output[0]).toBe(3);
    expect(output[4999]).toBe(15000);
    expect(firstDifference(output, inclusiveScanCpu(input))).toBeUndefined();
  });
});
