// Imager shaders compile alone to a kernel over tiles of pixels (RI 3.2 section 12.5: P, Ci, Oi,
// alpha, ncomps, time, dtime and the parameters); what an imager cannot have (lights, derivatives
// across pixels, surface variables) is a positioned error.
import { describe, expect, it } from 'vitest';
import { compilePipeline, formatDiagnostic, RslCompileError, type PipelineDescription } from '../../src/rsl/index.ts';
import { IMAGER_GRID_VARIABLES } from '../../src/layout/grid-layout.ts';
import { reyes } from '../cli/run-reyes.ts';

/** The formatted errors of a description that must not compile. */
function errors(description: PipelineDescription): string[] {
  try {
    compilePipeline(description);
  } catch (error) {
    if (error instanceof RslCompileError) return error.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
    throw error;
  }
  throw new Error('expected a compile error');
}

const imager = (body: string, params = ''): PipelineDescription => ({ imager: { source: `imager probe(${params})\n{\n${body}\n}\n`, file: 'probe.sl' } });

describe('imager shaders compile', () => {
  it('the standard background imager: its parameters, the pixel layout and the variables it writes', () => {
    const compiled = compilePipeline({ imager: 'background' });
    expect(compiled.params.entries.map((e) => [e.instance, e.name, e.type, e.default])).toEqual([
      ['imager', 'bgcolor', 'color', [1, 1, 1]], ['imager', 'background', 'color', [1, 1, 1]],
    ]);
    expect(compiled.layout.variables.map((v) => v.name)).toEqual(IMAGER_GRID_VARIABLES.map((v) => v.name));
    expect(compiled.layout.recordFloats).toBe(10 * 256);
    expect(compiled.writes.sort()).toEqual(['Ci', 'Oi', 'alpha']);
    expect(compiled.code).toMatch(/@compute @workgroup_size\(256\)/);
  });

  it('reports which outputs an imager writes (alpha only when it assigns alpha)', () => {
    expect(compilePipeline(imager('Oi = 1;')).writes).toEqual(['Oi']);
    expect(compilePipeline(imager('alpha = 0.5; Ci = color(xcomp(P), 0, 0);')).writes.sort()).toEqual(['Ci', 'alpha']);
  });

  it('sees ncomps, time, dtime, colour functions, noise and option()', () => {
    const compiled = compilePipeline({
      ...imager(`float res[3];
  option("Format", res);
  Ci = mix(Ci, ctransform("hsv", "rgb", color(0.5, 1, 1)), ycomp(P) / res[1]) * ncomps / 3 + (time + dtime) * color noise(P);`),
      options: { Format: [64, 48, 1] },
    });
    expect(compiled.optionNames).toEqual(['Format']);
    expect(compiled.writes).toEqual(['Ci']);
  });

  it('refuses illuminance, lights and derivatives with their positions', () => {
    expect(errors(imager('  illuminance(P) { Ci += Cl; }'))).toEqual(expect.arrayContaining([
      'probe.sl:3:3: error: illuminance is only allowed in surface and volume shaders',
    ]));
    expect(errors(imager('  Ci = diffuse(normal(0, 0, 1));'))).toEqual([
      "probe.sl:3:8: error: 'diffuse' is not available in imager shaders: an imager has no lights",
    ]);
    expect(errors(imager('  Ci = ambient();'))).toEqual([
      "probe.sl:3:8: error: 'ambient' is not available in imager shaders: an imager has no lights",
    ]);
    expect(errors(imager('  alpha = Du(xcomp(P));'))).toEqual([
      "probe.sl:3:11: error: 'Du' is not available in imager shaders: an imager has no derivatives across pixels",
    ]);
    expect(errors(imager('  alpha = filterstep(0.5, xcomp(P));'))).toEqual([
      "probe.sl:3:11: error: 'filterstep' is not available in imager shaders: it filters with derivatives, and an imager has none across pixels",
    ]);
  });

  it('has no surface variables: s, t, N are undefined', () => {
    expect(errors(imager('  Ci = noise(s, t);'))).toEqual([
      "probe.sl:3:14: error: undefined variable 's'",
      "probe.sl:3:17: error: undefined variable 't'",
    ]);
    expect(errors(imager('  Ci = N;'))).toEqual(["probe.sl:3:8: error: undefined variable 'N'"]);
  });

  it('runs alone: not as a surface, not beside one', () => {
    expect(errors({ surface: { source: 'imager probe() { Oi = 1; }\n', file: 'probe.sl' } })).toEqual([
      "probe.sl:1:1: error: expected a surface shader, found imager shader 'probe'",
    ]);
    expect(errors({ ...imager('Oi = 1;'), surface: 'constant' })).toEqual([
      "probe.sl:1:1: error: imager shader 'probe' runs on pixels, alone: it cannot share a pipeline with surface, displacement, light or atmosphere shaders",
    ]);
    expect(errors({ imager: 'plastic' })).toEqual(["plastic.sl:2:1: error: expected an imager shader, found surface shader 'plastic'"]);
  });
});

describe('reyes compile-shader', () => {
  it('compiles an imager shader to its kernel', async () => {
    const { code, stdout, stderr } = await reyes(['compile-shader', 'shaders/background.sl']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/@compute @workgroup_size\(\d+\)/);
    expect(stderr).toMatch(/imager background: \d+ lines of WGSL .*parameters bgcolor:color background:color/);
  });
});
