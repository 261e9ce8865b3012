// The Material panel's kernel line (material-panel.ts kernelPassesText): one pass, a built-in
// surface, and a kernel the compiler split under the tiny resource profile.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { TINY_RESOURCES } from '../../src/rsl/partition/model.ts';
import type { ShadingKernel } from '../../src/reyes/shading/shading-kernel.ts';
import { kernelPassesText } from '../../src/viewer/material-panel.ts';
import { corpusPipeline, corpusShader } from '../reyes/partition-grids.ts';

const kernel = (label: string, passes?: ShadingKernel['passes']): ShadingKernel => ({ label, ...(passes ? { passes } : {}) }) as ShadingKernel;

describe("the Material panel's kernel line", () => {
  it('says how many passes the kernel ran, and how the compiler split it', () => {
    expect(kernelPassesText(undefined, undefined)).toBe('kernel: not rendered yet');
    expect(kernelPassesText(kernel('builtin defaultsurface'), undefined)).toBe('kernel: 1 pass (builtin defaultsurface)');
    const description = corpusPipeline(corpusShader('wood'));
    expect(kernelPassesText(kernel('wood'), compilePipeline(description))).toBe('kernel: 1 pass');
    const split = compilePipeline({ ...description, partition: { algorithm: 'rds_h', resources: TINY_RESOURCES } });
    expect(kernelPassesText(kernel('wood', split.multipass), split)).toMatch(/^kernel: \d+ passes \(split: RDS_h, \d+ floats a vertex saved between them, predicted cost \d+\)$/);
  });
});
