// Specialisation of kernel text to pipeline constants (src/layout/kernel-specialise.ts): which
// `// @if` blocks go, which stay, that line numbers survive, and that malformed directives are
// reported with their line.
import { describe, expect, it } from 'vitest';
import { specialiseKernel } from '../../src/layout/kernel-specialise.ts';
import { kernelSource } from '../../src/layout/kernel-sources.ts';

const KERNEL = [
  'const LENS = false;',
  'const KIND_SPHERE: u32 = 2u;',
  'fn f() {',
  '  // @if MOTION',
  '  motion();',
  '  // @endif',
  '  // @if MOTION || LENS',
  '  blurred();',
  '  // @if TRIMS',
  '  trims();',
  '  // @endif',
  '  // @endif',
  '  // @if !MOTION',
  '  still();',
  '  // @endif',
  '  // @if KINDS bit KIND_SPHERE',
  '  sphere();',
  '  // @endif',
  '  // @if UNKNOWN',
  '  kept();',
  '  // @endif',
  '}',
].join('\n');

/** The statements left of the kernel (its lines with a call). */
function calls(code: string): string[] {
  return code.split('\n').filter((line) => line.includes('()')).map((line) => line.trim());
}

describe('kernel specialisation', () => {
  it('drops the blocks whose every name is known false, keeps the rest, and keeps line numbers', () => {
    const still = specialiseKernel(KERNEL, { MOTION: 0, TRIMS: 1, KINDS: 0b011 });
    expect(calls(still)).toEqual(['fn f() {', 'still();', 'kept();']);
    expect(still.split('\n')).toHaveLength(KERNEL.split('\n').length);
    const moving = specialiseKernel(KERNEL, { MOTION: 1, TRIMS: 0, KINDS: 0b100 });
    expect(calls(moving)).toEqual(['fn f() {', 'motion();', 'blurred();', 'sphere();', 'kept();']);
  });

  it('keeps every block where the constants are not given', () => {
    expect(calls(specialiseKernel(KERNEL))).toEqual(['fn f() {', 'motion();', 'blurred();', 'trims();', 'still();', 'sphere();', 'kept();']);
  });

  it('reports an unbalanced or malformed directive with its line', () => {
    expect(() => specialiseKernel('a\n// @if A\nb')).toThrow(/line 2: \/\/ @if without \/\/ @endif/);
    expect(() => specialiseKernel('// @if A\n// @endif\n// @endif')).toThrow(/line 3: \/\/ @endif without \/\/ @if/);
    expect(() => specialiseKernel('// @if A && B\n// @endif')).toThrow(/line 1: .*not "A && B"/);
  });

  it('leaves a still frame\'s pinhole sampling kernels without their blurred, trimmed and clipped paths', () => {
    const code = specialiseKernel(kernelSource('reyes-sample-pinhole.wgsl'), { MOTION_MOVES: 0, TRIMS: 0, CLIP_PLANES: 0, DETAIL_LEVELS: 0 });
    const lines = code.split('\n');
    /** The text of function `name`, from its first line to its closing brace. */
    const body = (name: string): string => {
      const first = lines.findIndex((line) => line.startsWith(`fn ${name}(`));
      return lines.slice(first, lines.indexOf('}', first) + 1).join('\n');
    };
    const sampling = ['micropolygon', 'sampleAt', 'triangle', 'stratum', 'cornerImages', 'cellAt', 'subpixelSample'].map(body).join('\n');
    for (const call of ['placeCorners(', 'stratumTime(', 'stratumSubpixel(', 'trimmedAway(', 'trimCover(', 'clipped(', 'motionKeyMatrix(', 'keyDeformation(', 'detailImportance(']) {
      expect({ call, present: sampling.includes(call) }).toEqual({ call, present: false });
    }
    // The same functions keep them where the frame needs them.
    const full = kernelSource('reyes-sample-pinhole.wgsl');
    expect(full).toContain('placeCorners(mp, time, lens, &r)');
  });
});
