// Reduction of 32-bit words (sum, min or max of u32, i32 or f32) to one word, in levels: each
// workgroup reduces a block to a partial result until one is left.
import { kernelSource } from '../layout/kernel-sources.ts';
import type { CommandRecorder, GpuRuntime } from './runtime.ts';

export type ReduceOperation = 'sum' | 'min' | 'max';
export type ReduceElement = 'u32' | 'i32' | 'f32';

/** Elements one workgroup reduces: WORKGROUP * ITEMS in reduce.wgsl. */
const REDUCE_BLOCK = 2048;
const OPERATIONS: Record<ReduceOperation, number> = { sum: 0, min: 1, max: 2 };
const ELEMENTS: Record<ReduceElement, number> = { u32: 0, i32: 1, f32: 2 };

export interface ReduceArgs {
  input: GPUBuffer;
  count: number;
  operation: ReduceOperation;
  element?: ReduceElement;
  /** Receives the result in its first word (the operation's identity when count is 0). */
  result: GPUBuffer;
}

export class Reduce {
  constructor(private readonly gpu: GpuRuntime) {}

  async encode(recorder: CommandRecorder, args: ReduceArgs): Promise<void> {
    const pipeline = await this.gpu.kernels.pipeline({
      label: 'reduce.wgsl',
      code: kernelSource('reduce.wgsl'),
      entryPoint: 'reduceBlocks',
      constants: { OPERATION: OPERATIONS[args.operation], ELEMENT: ELEMENTS[args.element ?? 'u32'] },
    });
    let input = args.input;
    let count = args.count;
    do {
      const blockCount = Math.max(1, Math.ceil(count / REDUCE_BLOCK));
      const partials = blockCount === 1 ? args.result : recorder.scratch('reduce partials', blockCount * 4);
      recorder.dispatch(pipeline, { 0: recorder.params('reduce', [count, blockCount]), 1: input, 2: partials }, blockCount);
      input = partials;
      count = blockCount;
    } while (count > 1);
  }

  /** Records, submits and reads back one reduction. */
  async run(args: Omit<ReduceArgs, 'result'>): Promise<number> {
    const recorder = this.gpu.recorder('reduce');
    const result = recorder.scratch('reduce result', 4);
    await this.encode(recorder, { ...args, result });
    const word = (await recorder.submitAndReadU32(result, 1)).buffer;
    const element = args.element ?? 'u32';
    if (element === 'f32') return new Float32Array(word)[0]!;
    if (element === 'i32') return new Int32Array(word)[0]!;
    return new Uint32Array(word)[0]!;
  }
}
