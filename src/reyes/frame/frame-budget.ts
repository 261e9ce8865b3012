// The memory budget of a frame: the RIB's option for it, and the allocator's budget swapped in for
// the frame's work (and back afterwards), its peak recorded.
import type { GpuRuntime } from '../../gpu/runtime.ts';
import type { Options } from '../../rib/scene.ts';
import type { FrameStats } from '../stats.ts';

/** The budget a RIB asks for with `Option "limits" "gpumemory" [MiB]`, in bytes; undefined when absent
 * (or not a positive number, with a warning). */
export function ribBudgetBytes(options: Options, warn: (message: string) => void = () => {}): number | undefined {
  const param = options.user['limits']?.find((p) => p.name === 'gpumemory');
  if (!param) return undefined;
  const mib = param.values[0];
  if (typeof mib !== 'number' || !(mib > 0)) {
    warn(`Option "limits" "gpumemory" must be a positive number of MiB; ignored`);
    return undefined;
  }
  return Math.floor(mib * 1024 * 1024);
}

/** Runs `work` under the job's budget (restoring the allocator's afterwards) and records the peak. */
export async function underBudget<T>(gpu: GpuRuntime, job: { budgetBytes: number | undefined; stats: FrameStats }, work: () => Promise<T>): Promise<T> {
  const allocator = gpu.allocator;
  const previousBudget = allocator.budget;
  if (job.budgetBytes !== undefined) {
    allocator.trim();
    allocator.setBudget(job.budgetBytes);
  }
  job.stats.budgetBytes = allocator.budget;
  allocator.resetPeak();
  try {
    return await work();
  } finally {
    job.stats.peakBytes = allocator.peak;
    if (job.budgetBytes !== undefined) {
      allocator.trim();
      allocator.setBudget(previousBudget);
    }
  }
}
