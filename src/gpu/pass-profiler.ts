// GPU time per compute pass from timestamp queries, summed by pass label: the per-stage times of
// the renderer's statistics on adapters that offer 'timestamp-query'.
import type { GpuAllocator } from './allocator.ts';

export interface PassTiming {
  /** The pass label (the pipeline label, "file.wgsl:entryPoint"). */
  label: string;
  milliseconds: number;
  passes: number;
}

/** Passes past this many in one recorder are not timed (and counted in `untimedPasses`). */
const MAX_TIMED_PASSES = 2048;

export class PassProfiler {
  private readonly querySet: GPUQuerySet;
  private readonly labels: string[] = [];
  untimedPasses = 0;

  constructor(private readonly device: GPUDevice) {
    this.querySet = device.createQuerySet({ type: 'timestamp', count: 2 * MAX_TIMED_PASSES, label: 'pass timestamps' });
  }

  static supported(device: GPUDevice): boolean {
    return device.features.has('timestamp-query');
  }

  /** Timestamp writes for the next pass, or undefined once the query set is full. */
  nextPass(label: string): GPUComputePassTimestampWrites | undefined {
    if (this.labels.length >= MAX_TIMED_PASSES) {
      this.untimedPasses++;
      return undefined;
    }
    const index = this.labels.length;
    this.labels.push(label);
    return { querySet: this.querySet, beginningOfPassWriteIndex: 2 * index, endOfPassWriteIndex: 2 * index + 1 };
  }

  /** Records the copy of the timestamps into a buffer; call before finishing the encoder. */
  resolve(encoder: GPUCommandEncoder, allocator: GpuAllocator): GPUBuffer | undefined {
    if (this.labels.length === 0) return undefined;
    const buffer = allocator.createBuffer({
      label: 'pass timestamps',
      size: this.labels.length * 16,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    encoder.resolveQuerySet(this.querySet, 0, 2 * this.labels.length, buffer, 0);
    return buffer;
  }

  /** Sums the resolved timestamps (nanoseconds, as u64 pairs) by label, in first-seen order. */
  timings(resolved: ArrayBuffer): PassTiming[] {
    const stamps = new BigUint64Array(resolved);
    const byLabel = new Map<string, PassTiming>();
    this.labels.forEach((label, index) => {
      const begin = stamps[2 * index]!;
      const end = stamps[2 * index + 1]!;
      const timing = byLabel.get(label) ?? { label, milliseconds: 0, passes: 0 };
      timing.milliseconds += end > begin ? Number(end - begin) / 1e6 : 0;
      timing.passes++;
      byLabel.set(label, timing);
    });
    return [...byLabel.values()];
  }

  destroy(): void {
    this.querySet.destroy();
  }
}
