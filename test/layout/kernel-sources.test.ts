// The kernel loader: every kernel file's includes and layouts are expanded once, none is left as a
// directive, and a bad directive names the file and line.
import { describe, expect, it } from 'vitest';
import { kernelSource, type KernelFile } from '../../src/layout/kernel-sources.ts';
import { upperSnake, wgslConstants } from '../../src/layout/wgsl-constants.ts';

const FILES: KernelFile[] = [
  'compact.wgsl', 'image-filter.wgsl', 'imager-tiles.wgsl', 'radix-sort.wgsl', 'reduce.wgsl', 'reyes-bound-split.wgsl',
  'reyes-builtin-surfaces.wgsl', 'reyes-composite.wgsl', 'reyes-dice.wgsl', 'reyes-jitter.wgsl', 'reyes-sample.wgsl',
  'reyes-surface.wgsl', 'scan.wgsl', 'workgroup-scan.wgsl',
];

describe('kernel sources', () => {
  it.each(FILES)('%s has no directive left and declares each constant once', (file) => {
    const code = kernelSource(file);
    expect(code).not.toMatch(/^\s*\/\/ @(include|layout)\b/m);
    const declared = [...code.matchAll(/^\s*const (\w+)\s*:/gm)].map((m) => m[1]);
    expect(declared.length).toBe(new Set(declared).size);
  });

  it('dice gets the primitive record once although it includes reyes-surface.wgsl, which asks for it too', () => {
    const code = kernelSource('reyes-dice.wgsl');
    expect(code.match(/const REC_FLOATS: u32/g)).toHaveLength(1);
    expect(code).toContain('fn evalObject(');
  });

  it('scan and radix sort get workgroupExclusiveScan', () => {
    expect(kernelSource('scan.wgsl')).toContain('fn workgroupExclusiveScan');
    expect(kernelSource('radix-sort.wgsl')).toContain('fn workgroupExclusiveScan');
  });
});

describe('generated constants', () => {
  it('names camelCase keys in upper snake case', () => {
    expect(upperSnake('paramBase')).toBe('PARAM_BASE');
    expect(upperSnake('Cs')).toBe('CS');
    expect(upperSnake('u0')).toBe('U0');
    expect(upperSnake('displacementBound')).toBe('DISPLACEMENT_BOUND');
  });

  it('writes u32 constants and refuses values that are not', () => {
    expect(wgslConstants([{ prefix: 'X_', values: { a: 1, bC: 0x10000 } }])).toBe('const X_A: u32 = 1u;\nconst X_B_C: u32 = 65536u;');
    expect(() => wgslConstants([{ prefix: 'X_', values: { a: -1 } }])).toThrow(/X_A = -1 is not a u32/);
    expect(() => wgslConstants([{ prefix: 'X_', values: { a: 1.5 } }])).toThrow(/not a u32/);
  });
});
