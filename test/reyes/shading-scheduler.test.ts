// The shading scheduler cuts a kernel's grid list into dispatches at 256-byte binding offsets and
// budgets only what shading allocates: the gridInfo lists it builds and a uniform block.
import { describe, expect, it } from 'vitest';
import { GRID_INFO } from '../../src/layout/grid-layout.ts';
import { BATCH_ALIGN, shadingBatches, shadingBytes } from '../../src/reyes/schedulers/shading-scheduler.ts';

describe('shading scheduler', () => {
  it('takes the whole list in one dispatch when it fits, else windows at aligned starts', () => {
    expect(shadingBatches(40, 1000)).toEqual([{ start: 0, count: 40 }]);
    expect(shadingBatches(40, 40)).toEqual([{ start: 0, count: 40 }]);
    // 35 per dispatch cut to 32 (two aligned windows of 16): starts 0, 32.
    expect(shadingBatches(40, 35)).toEqual([{ start: 0, count: 32 }, { start: 32, count: 8 }]);
    for (const batch of shadingBatches(1000, 100)) expect((batch.start * GRID_INFO.words * 4) % 256).toBe(0);
    expect(shadingBatches(0, 100)).toEqual([]);
    expect(() => shadingBatches(40, BATCH_ALIGN - 1)).toThrow(/at least 16 grids/);
  });

  it('budgets the lists it builds and the uniforms, not the grids or workgroup scratch', () => {
    expect(shadingBytes(100, false, 256)).toBe(256);
    expect(shadingBytes(100, true, 256)).toBe(100 * GRID_INFO.words * 4 + 256);
  });
});
