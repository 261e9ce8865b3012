// Exclusive and inclusive scan of u32 on the GPU, multi-level reduce-then-scan: blocks are reduced,
// the block sums are scanned (recursively), then each block is scanned with its offset. Lengths up
// to what one storage binding holds.
import type { CommandRecorder, GpuRuntime } from './runtime.ts';
import { kernelSource } from '../layout/kernel-sources.ts';

const scanSource = kernelSource('scan.wgsl');

/** Elements one workgroup scans: WORKGROUP * ITEMS in scan.wgsl. */
export const SCAN_BLOCK = 2048;

export interface ScanArgs {
  input: GPUBuffer;
  /** Must be a different buffer from `input`. */
  output: GPUBuffer;
  count: number;
  inclusive?: boolean;
  /** Scan (flag != 0 ? 1 : 0) instead of the values: the offsets of a stream compaction. */
  flagsAsBits?: boolean;
  /** Receives the sum of all elements in its first word. */
  total?: GPUBuffer;
}

export class Scan {
  constructor(private readonly gpu: GpuRuntime) {}

  /** Records the scan into `recorder`. */
  async encode(recorder: CommandRecorder, args: ScanArgs): Promise<void> {
    if (args.input === args.output) throw new Error('Scan: input and output must be different buffers');
    const total = args.total ?? recorder.scratch('scan total', 4);
    if (args.count === 0) {
      recorder.encoder.clearBuffer(total, 0, 4);
      return;
    }
    await this.encodeLevel(recorder, args.input, args.output, args.count, args.inclusive ?? false,
      args.flagsAsBits ?? false, total);
  }

  /** The pipelines of an exclusive scan of values (every level of one), asked for ahead of its first use. */
  prepare(): Promise<GPUComputePipeline[]> {
    return Promise.all([this.pipeline('reduceBlocks', false, false), this.pipeline('scanBlocks', false, false)]);
  }

  /** Records, submits and waits for one scan. */
  async run(args: ScanArgs): Promise<void> {
    const recorder = this.gpu.recorder('scan');
    await this.encode(recorder, args);
    await recorder.submit();
  }

  private async encodeLevel(
    recorder: CommandRecorder,
    input: GPUBuffer,
    output: GPUBuffer,
    count: number,
    inclusive: boolean,
    flagsAsBits: boolean,
    total: GPUBuffer,
  ): Promise<void> {
    const blockCount = Math.ceil(count / SCAN_BLOCK);
    const params = recorder.params('scan', [count, blockCount]);
    let blockOffsets: GPUBuffer;
    if (blockCount === 1) {
      blockOffsets = recorder.scratch('scan block offsets', 4);
      recorder.encoder.clearBuffer(blockOffsets, 0, 4);
    } else {
      const blockSums = recorder.scratch('scan block sums', blockCount * 4);
      const reduce = await this.pipeline('reduceBlocks', false, flagsAsBits);
      recorder.dispatch(reduce, { 0: params, 1: input, 2: blockSums }, blockCount);
      blockOffsets = recorder.scratch('scan block offsets', blockCount * 4);
      await this.encodeLevel(recorder, blockSums, blockOffsets, blockCount, false, false, total);
    }
    const scan = await this.pipeline('scanBlocks', inclusive, flagsAsBits);
    recorder.dispatch(scan, { 0: params, 1: input, 3: output, 4: blockOffsets, 5: total }, blockCount);
  }

  private pipeline(entryPoint: string, inclusive: boolean, flagsAsBits: boolean): Promise<GPUComputePipeline> {
    return this.gpu.kernels.pipeline({
      label: 'scan.wgsl',
      code: scanSource,
      entryPoint,
      constants: { INCLUSIVE: Number(inclusive), FLAGS_AS_BITS: Number(flagsAsBits) },
    });
  }
}
