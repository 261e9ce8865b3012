// Stream compaction by flag: the elements (or indices) whose flag is non-zero, in their order, and
// how many there are. A flag scan gives each kept element its slot; a scatter writes it there.
import { kernelSource } from '../layout/kernel-sources.ts';
import type { CommandRecorder, GpuRuntime } from './runtime.ts';
import { Scan } from './scan.ts';

export interface CompactArgs {
  flags: GPUBuffer;
  /** Values to keep; without it the kept elements' indices are written. */
  values?: GPUBuffer;
  output: GPUBuffer;
  count: number;
  /** Receives the number of kept elements in its first word. */
  keptCount: GPUBuffer;
}

export class Compact {
  private readonly scan: Scan;

  constructor(private readonly gpu: GpuRuntime) {
    this.scan = new Scan(gpu);
  }

  async encode(recorder: CommandRecorder, args: CompactArgs): Promise<void> {
    const offsets = recorder.scratch('compact offsets', args.count * 4);
    await this.scan.encode(recorder, {
      input: args.flags,
      output: offsets,
      count: args.count,
      flagsAsBits: true,
      total: args.keptCount,
    });
    if (args.count === 0) return;
    const writeIndices = args.values === undefined;
    const pipeline = await this.gpu.kernels.pipeline({
      label: 'compact.wgsl',
      code: kernelSource('compact.wgsl'),
      entryPoint: 'scatterKept',
      constants: { WRITE_INDICES: Number(writeIndices) },
    });
    // The kernel declares `values` either way; the flags stand in when indices are written.
    const bindings = { 0: recorder.params('compact', [args.count]), 1: args.flags, 2: offsets, 3: args.values ?? args.flags, 4: args.output };
    recorder.dispatch(pipeline, bindings, Math.ceil(args.count / 256));
  }

  async run(args: CompactArgs): Promise<void> {
    const recorder = this.gpu.recorder('compact');
    await this.encode(recorder, args);
    await recorder.submit();
  }
}
