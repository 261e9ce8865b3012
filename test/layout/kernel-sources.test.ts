// The kernel loader: every kernel file's includes and layouts are expanded once, none is left as a
// directive, and a bad directive names the file and line.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandKernel, kernelSource, type KernelFile } from '../../src/layout/kernel-sources.ts';
import { upperSnake, wgslConstants } from '../../src/layout/wgsl-constants.ts';

// Every kernel file of the project, so that one the loader does not know fails here.
const FILES = readdirSync(join(import.meta.dirname, '../../shaders/kernels')).filter((name) => name.endsWith('.wgsl')) as KernelFile[];

describe('kernel sources', () => {
  it('knows every kernel file', () => {
    expect(FILES.length).toBeGreaterThan(10);
  });

  it.each(FILES)('%s loads with no directive left and each constant declared once', (file) => {
    const code = kernelSource(file);
    expect(code).not.toMatch(/^\s*\/\/ @(include|layout)\b/m);
    const declared = [...code.matchAll(/^\s*const (\w+)\s*:/gm)].map((m) => m[1]);
    expect(declared.length).toBe(new Set(declared).size);
  });

  it('a directive naming no layout is an error with the file and line', () => {
    expect(() => expandKernel('bad.wgsl', '// header\n// @layout no-such-layout\n', {})).toThrow(/bad.wgsl:2: unknown @layout no-such-layout/);
    expect(() => expandKernel('bad.wgsl', '// @include missing.wgsl\n', {})).toThrow(/bad.wgsl:1: @include of unknown kernel file missing.wgsl/);
  });

  it('dice gets the primitive record once although it includes reyes-surface.wgsl, which asks for it too', () => {
    const code = kernelSource('reyes-dice.wgsl');
    expect(code.match(/const REC_FLOATS: u32/g)).toHaveLength(1);
    expect(code).toContain('fn evalShape(');
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
