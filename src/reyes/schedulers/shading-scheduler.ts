// The shading scheduler: how each kernel's list of grids is cut into dispatches. A dispatch shades a
// window of the list (bound at an offset, so windows start at multiples of BATCH_ALIGN grids: 256-byte
// binding offsets), one workgroup per grid, at most as many as one dispatch may hold. What shading
// allocates is what it budgets: the per-kernel gridInfo lists (where the frame has several kernels,
// or a prepared frame's grids were diced under other parameter bases) and one uniform block per
// dispatch. The grids it shades in place were allocated, and budgeted, by dice; a kernel's workgroup
// scratch is on-chip memory, outside the budget.
import { GRID_INFO } from '../../layout/grid-layout.ts';

/** gridInfo windows start at multiples of this many grids (256-byte binding offsets). */
export const BATCH_ALIGN = 16;

export interface ShadingBatch {
  start: number;
  count: number;
}

/** The dispatches of a list of `count` grids, `maxGrids` at most each (cut to BATCH_ALIGN multiples). */
export function shadingBatches(count: number, maxGrids: number): ShadingBatch[] {
  if (count === 0) return [];
  const size = maxGrids >= count ? count : Math.floor(maxGrids / BATCH_ALIGN) * BATCH_ALIGN;
  if (size <= 0) throw new Error(`a shading dispatch must hold at least ${BATCH_ALIGN} grids, not ${maxGrids}`);
  const batches: ShadingBatch[] = [];
  for (let start = 0; start < count; start += size) batches.push({ start, count: Math.min(size, count - start) });
  return batches;
}

/** Device memory shading `grids` grids allocates besides the grids: the gridInfo lists it builds
 * (`ownLists`), and the largest dispatch's uniform block (`uniformBytes`). */
export function shadingBytes(grids: number, ownLists: boolean, uniformBytes: number): number {
  return (ownLists ? grids * GRID_INFO.words * 4 : 0) + uniformBytes;
}
