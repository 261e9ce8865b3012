// The page's check that its GPU device really computes: the renderer's radix sort against the CPU.
import type { GpuRuntime } from '../index.ts';
import { RadixSort, radixSortCpu } from '../gpu-tools.ts';

export interface SelfTestResult {
  passed: boolean;
  count: number;
  milliseconds: number;
  detail: string;
}

export async function runSortSelfTest(gpu: GpuRuntime, count = 10_000): Promise<SelfTestResult> {
  const keys = new Uint32Array(2 * count);
  // getRandomValues fills at most 64 KiB a call.
  for (let start = 0; start < keys.length; start += 16384) crypto.getRandomValues(keys.subarray(start, start + 16384));
  const values = new Uint32Array(count).map((_, i) => i);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const keyBuffer = gpu.allocator.createBufferWithData('self-test keys', keys, usage);
  const valueBuffer = gpu.allocator.createBufferWithData('self-test values', values, usage);
  try {
    const start = performance.now();
    await new RadixSort(gpu).run({ keys: keyBuffer, values: valueBuffer, count });
    const milliseconds = performance.now() - start;
    const gpuKeys = await gpu.readU32(keyBuffer, 2 * count);
    const gpuValues = await gpu.readU32(valueBuffer, count);
    radixSortCpu(keys, values);
    for (let i = 0; i < count; i++) {
      if (gpuKeys[2 * i] !== keys[2 * i] || gpuKeys[2 * i + 1] !== keys[2 * i + 1] || gpuValues[i] !== values[i]) {
        return { passed: false, count, milliseconds, detail: `element ${i} differs from the CPU sort` };
      }
    }
    return { passed: true, count, milliseconds, detail: `${count} keys sorted in ${milliseconds.toFixed(0)} ms, same as the CPU` };
  } finally {
    gpu.allocator.release(keyBuffer);
    gpu.allocator.release(valueBuffer);
  }
}
