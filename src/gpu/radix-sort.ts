// Stable key-value radix sort on the GPU: 64-bit keys (pairs of u32, low word first) with u32 values,
// least significant digit first, 4 bits a pass, over only the key bits in use. Each pass counts
// digits per block, scans the counts, and scatters (radix-sort.wgsl).
import type { CommandRecorder, GpuRuntime } from './runtime.ts';
import { Scan } from './scan.ts';
import { kernelSource } from '../layout/kernel-sources.ts';

const sortSource = kernelSource('radix-sort.wgsl');

/** Elements one workgroup handles: WORKGROUP * ITEMS in radix-sort.wgsl. */
const SORT_BLOCK = 1024;
const RADIX_BITS = 4;
const RADIX = 1 << RADIX_BITS;

export interface SortArgs {
  /** `count` keys of two u32 words each: low word, then high word. Sorted in place. */
  keys: GPUBuffer;
  /** `count` u32 values, moved with their keys. Sorted in place. */
  values: GPUBuffer;
  count: number;
  /** Sort by the low `keyBits` bits of the keys (1..64); higher bits are ignored. Default 64. */
  keyBits?: number;
}

export class RadixSort {
  private readonly scan: Scan;

  constructor(private readonly gpu: GpuRuntime) {
    this.scan = new Scan(gpu);
  }

  async encode(recorder: CommandRecorder, args: SortArgs): Promise<void> {
    const keyBits = args.keyBits ?? 64;
    if (!Number.isInteger(keyBits) || keyBits < 1 || keyBits > 64) {
      throw new RangeError(`RadixSort: keyBits must be an integer in 1..64, got ${keyBits}`);
    }
    const { count } = args;
    if (count <= 1) return;
    const pipeline = (entryPoint: string) =>
      this.gpu.kernels.pipeline({ label: 'radix-sort.wgsl', code: sortSource, entryPoint });
    const [countDigits, scatterBlock] = await Promise.all([pipeline('countDigits'), pipeline('scatterBlock')]);
    const blockCount = Math.ceil(count / SORT_BLOCK);
    const histograms = recorder.scratch('sort digit counts', RADIX * blockCount * 4);
    const offsets = recorder.scratch('sort digit offsets', RADIX * blockCount * 4);
    let keys = args.keys;
    let values = args.values;
    let spareKeys = recorder.scratch('sort keys', count * 8);
    let spareValues = recorder.scratch('sort values', count * 4);
    for (let shift = 0; shift < keyBits; shift += RADIX_BITS) {
      const digitBits = Math.min(RADIX_BITS, keyBits - shift);
      const params = recorder.params('sort pass', [count, blockCount, shift, digitBits]);
      recorder.dispatch(countDigits, { 0: params, 1: keys, 2: histograms }, blockCount);
      await this.scan.encode(recorder, { input: histograms, output: offsets, count: RADIX * blockCount });
      recorder.dispatch(
        scatterBlock,
        { 0: params, 1: keys, 3: offsets, 4: values, 5: spareKeys, 6: spareValues },
        blockCount,
      );
      [keys, spareKeys] = [spareKeys, keys];
      [values, spareValues] = [spareValues, values];
    }
    if (keys !== args.keys) {
      recorder.encoder.copyBufferToBuffer(keys, 0, args.keys, 0, count * 8);
      recorder.encoder.copyBufferToBuffer(values, 0, args.values, 0, count * 4);
    }
  }

  /** Records, submits and waits for one sort. */
  async run(args: SortArgs): Promise<void> {
    const recorder = this.gpu.recorder('radix sort');
    await this.encode(recorder, args);
    await recorder.submit();
  }
}
