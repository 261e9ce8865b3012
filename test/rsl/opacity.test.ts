// What the compiler reports about opacity and grid writes, from the IR: whether Oi stays 1 wherever
// Os is 1 (the opaque fast path), and which dicer inputs a kernel writes back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePipeline, type PipelineDescription } from '../../src/rsl/compile.ts';

const corpus = (name: string) => ({ source: readFileSync(join(import.meta.dirname, '../../shaders/corpus', `${name}.sl`), 'utf8'), file: `${name}.sl` });
const surface = (body: string) => ({ source: `surface s(float Kd = 1) {\n${body}\n}\n`, file: 's.sl' });
const keeps = (d: PipelineDescription) => compilePipeline(d).keepsOpaque;

describe('opacity behaviour', () => {
  // The list the renderer kept by hand before the compiler reported it: standard shaders whose Oi is
  // Os wherever Os is 1.
  const OLD_LIST = ['constant', 'matte', 'metal', 'shinymetal', 'plastic', 'paintedplastic'];
  it.each(OLD_LIST)('standard surface %s keeps an opaque primitive opaque', (name) => {
    expect(keeps({ surface: name })).toBe(true);
  });
  it.each(['dented', 'bumpy'])('standard displacement %s under plastic keeps it opaque', (name) => {
    expect(keeps({ surface: 'plastic', displacement: name })).toBe(true);
  });
  it.each(['fog', 'depthcue'])('standard atmosphere %s (Oi = mix(Oi, 1, d)) keeps it opaque', (name) => {
    expect(keeps({ surface: 'plastic', atmosphere: name })).toBe(true);
  });

  it('a surface that sets Oi = 0.5 does not', () => {
    expect(keeps({ surface: surface('Oi = 0.5; Ci = Cs;') })).toBe(false);
  });

  it('Os scaled by anything but 1 does not; Os times Os, 1 and never assigning Oi do', () => {
    expect(keeps({ surface: surface('Oi = Os * 0.5; Ci = Cs;') })).toBe(false);
    expect(keeps({ surface: surface('Oi = Os * Os; Ci = Cs;') })).toBe(true);
    expect(keeps({ surface: surface('Oi = 1; Ci = Cs;') })).toBe(true);
    expect(keeps({ surface: surface('Ci = Cs;') })).toBe(true);
  });

  it('a later assignment under a condition counts', () => {
    expect(keeps({ surface: surface('Oi = Os; if (s > 0.5) Oi = 0; Ci = Cs;') })).toBe(false);
    expect(keeps({ surface: surface('color o = Os; if (s > 0.5) o = color(1, 1, 1); Oi = o; Ci = Cs;') })).toBe(true);
  });

  it('corpus shaders: glass, screen and texmap scale Os; brick sets Os; depthfade and groundfog keep it', () => {
    expect(keeps({ surface: corpus('glass') })).toBe(false);
    expect(keeps({ surface: corpus('screen') })).toBe(false);
    expect(keeps({ surface: corpus('texmap') })).toBe(false);
    expect(keeps({ surface: corpus('brick') })).toBe(true);
    expect(keeps({ surface: 'plastic', atmosphere: corpus('depthfade') })).toBe(true);
    expect(keeps({ surface: 'plastic', atmosphere: corpus('groundfog') })).toBe(true);
  });
});

describe('grid inputs a kernel writes', () => {
  it('a surface writes only its outputs; a displacement writes P and N', () => {
    expect(compilePipeline({ surface: 'plastic' }).writesGridInputs).toEqual([]);
    expect(compilePipeline({ surface: 'plastic', displacement: 'dented' }).writesGridInputs.sort()).toEqual(['N', 'P']);
  });

  it('a bump in the surface (N = ...) writes N', () => {
    expect(compilePipeline({ surface: surface('N = normalize(N + 0.1 * Ng); Ci = Cs;') }).writesGridInputs).toEqual(['N']);
  });

  it('an output variable is written but is not an input', () => {
    const compiled = compilePipeline({
      surface: { source: 'surface s(output varying float depth = 0) { depth = length(I); Ci = Cs; }', file: 's.sl' },
      primitiveVariables: [{ name: 'depth', type: 'float' }],
      outputVariables: ['depth'],
    });
    expect(compiled.writes).toContain('depth');
    expect(compiled.writesGridInputs).toEqual([]);
  });
});
