// The surface's output parameters that a Display names are stored into the grid variable of that
// name after the surface runs; a parameter of another shape is left out with a positioned warning.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/index.ts';

const SURFACE = `surface aov(output varying color foo = 0; output varying float bar = 0; varying color plain = 1)
{
  foo = color(s, t, 0.5);
  bar = s;
  Ci = Cs;
  Oi = Os;
}
`;

describe('output variables in the compiled kernel', () => {
  it('writes back exactly the output parameters named as output variables', () => {
    const primitiveVariables = [{ name: 'foo', type: 'color' as const }, { name: 'plain', type: 'color' as const }];
    const named = compilePipeline({ surface: { source: SURFACE, file: 'aov.sl' }, primitiveVariables, parameterVariables: [], outputVariables: ['foo', 'plain'], maxVertices: 64 });
    // foo is an output parameter: written; plain is not an output: left alone.
    expect(named.writes.sort()).toEqual(['Ci', 'Oi', 'foo']);
    const unnamed = compilePipeline({ surface: { source: SURFACE, file: 'aov.sl' }, primitiveVariables, parameterVariables: [], maxVertices: 64 });
    expect(unnamed.writes.sort()).toEqual(['Ci', 'Oi']);
  });

  it('warns at the parameter when its shape differs from the output variable\'s', () => {
    const compiled = compilePipeline({
      surface: { source: SURFACE, file: 'aov.sl' }, primitiveVariables: [{ name: 'bar', type: 'color' }], parameterVariables: [], outputVariables: ['bar'], maxVertices: 64,
    });
    expect(compiled.writes).not.toContain('bar');
    const warnings = compiled.diagnostics.filter((d) => d.severity === 'warning').map((d) => [d.file, d.line, d.message]);
    expect(warnings).toEqual([['aov.sl', 1, 'output parameter \'bar\' is float, the output variable "bar" a color; not written']]);
  });
});
