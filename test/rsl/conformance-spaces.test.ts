// Spaces by name at run time (issue 10): transform(), vtransform() and ntransform() with a space name
// that is a string variable look the name up in the kernel among the standard spaces and the scene's
// coordinate systems (PipelineDescription.coordinateSystems, matrices in the parameter block as
// "coordsys.NAME"); an unknown name is the identity. Run on Dawn on a 2×2 grid; the expected values
// are the matrices applied by hand.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { PipelineDescription } from '../../src/rsl/compile.ts';
import { interpret } from '../../src/rsl/interpreter/interpreter.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { shadeGrid } from './grid-runner.ts';

const gpu = useGpuRuntime();

const UV = [[0, 0], [1, 0], [0, 1], [1, 1]] as const;
const P = UV.map(([u, v]) => [u + 1, v + 2, 3]);

function grid(): Record<string, number[][]> {
  return { P, N: UV.map(() => [0, 0, -1]), u: UV.map(([u]) => [u]), v: UV.map(([, v]) => [v]), du: UV.map(() => [1]), dv: UV.map(() => [1]) };
}

// Column-major 4×4: "shader" space is 10 units along x from camera space, "mycs" is camera space
// scaled by 2, "tilted" is a quarter turn about z (x → y).
const SHADER_TO_CAMERA = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1];
const MYCS_TO_CAMERA = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1];
const TILTED_TO_CAMERA = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const MATRICES = { 'surface.__shaderToCurrent': SHADER_TO_CAMERA, 'coordsys.mycs': MYCS_TO_CAMERA, 'coordsys.tilted': TILTED_TO_CAMERA };

const SOURCE = `surface spaces(string from = "shader", to = "mycs") {
  point a = transform(from, P), b = transform(from, to, P);
  vector c = vtransform(to, vector(1, 0, 0));
  normal d = ntransform(from, "tilted", normal(0, 0, 1)) + normal(transform(to, "current", point(1, 1, 1)));
  Ci = color(a);
  Oi = color(b);
  P = c;
  N = d;
}`;

function description(coordinateSystems?: string[]): PipelineDescription {
  return { surface: { source: SOURCE, file: 'spaces.sl' }, maxVertices: 4, ...(coordinateSystems ? { coordinateSystems } : {}) };
}

async function run(coordinateSystems: string[], strings: Record<string, string>) {
  const compiled = compilePipeline(description(coordinateSystems));
  const overrides = { ...MATRICES, ...Object.fromEntries(Object.entries(strings).map(([k, v]) => [`surface.${k}`, v])) };
  const out = await shadeGrid(gpu(), compiled, 2, 2, grid(), overrides);
  // The reference interpreter runs the same IR: the lookups agree with it too.
  const reference = interpret(compiled, { nu: 2, nv: 2, grid: grid(), params: packParameters(compiled, overrides) });
  for (const name of ['Ci', 'Oi', 'P', 'N']) {
    expect(out[name]!.map((c) => c.map((x) => +x.toFixed(4)))).toEqual(reference.grid[name]!.map((c) => c.map((x) => +x.toFixed(4))));
  }
  return out;
}

const round = (rows: number[][] | undefined): number[][] | undefined => rows?.map((c) => c.map((x) => +x.toFixed(4) + 0));

describe('space names known only at run time', () => {
  it('compiles, and asks for the scene coordinate systems', () => {
    const compiled = compilePipeline(description());
    expect(compiled.usesCoordinateSystems).toBe(true);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compilePipeline({ surface: { source: 'surface s() { Ci = color(transform("world", P)); }' } }).usesCoordinateSystems).toBe(false);
  });

  it('finds "shader" and a scene coordinate system, in both directions', async () => {
    const out = await run(['mycs', 'tilted'], {});
    // transform(to, P) goes from current space to "to": camera → shader takes 10 from x. shader →
    // camera adds 10 back; camera → mycs halves.
    expect(round(out.Ci)).toEqual(P.map(([x, y, z]) => [x! - 10, y!, z!]));
    expect(round(out.Oi)).toEqual(P.map(([x, y, z]) => [(x! + 10) / 2, y! / 2, z! / 2]));
    expect(round(out.P)).toEqual(UV.map(() => [0.5, 0, 0]));
    // A normal through a translation is unchanged; into "tilted" (inverse of a quarter turn) z stays z.
    // mycs → current doubles (1, 1, 1).
    expect(round(out.N)).toEqual(UV.map(() => [2, 2, 3]));
  });

  it('other names from the parameters: a scene space, "current", and an unknown name (the identity)', async () => {
    const out = await run(['mycs', 'tilted'], { from: 'tilted', to: 'nosuch' });
    // tilted → camera turns x into y: (x, y, z) → (-y, x, z); camera → tilted the other way.
    expect(round(out.Ci)).toEqual(P.map(([x, y, z]) => [y!, -x!, z!]));
    expect(round(out.Oi)).toEqual(P.map(([x, y, z]) => [-y!, x!, z!]));
    expect(round(out.P)).toEqual(UV.map(() => [1, 0, 0]));
    const current = await run(['mycs', 'tilted'], { from: 'current', to: 'camera' });
    expect(round(current.Ci)).toEqual(P);
    expect(round(current.Oi)).toEqual(P);
  });

  it('a scene space the pipeline was not told about is the identity', async () => {
    const out = await run([], { from: 'mycs', to: 'world' });
    expect(round(out.Ci)).toEqual(P);
  });
});

describe('space names known at compile time', () => {
  it('a CoordinateSystem of the scene by constant name; an unknown constant name warns at its position', async () => {
    const source = 'surface named() {\n  Ci = color(transform("mycs", P));\n  Oi = color(transform("nowhere", P));\n}';
    const compiled = compilePipeline({ surface: { source, file: 'named.sl' }, maxVertices: 4, coordinateSystems: ['mycs'] });
    // camera → mycs halves; the unknown name leaves P alone.
    expect(compiled.usesCoordinateSystems).toBe(true);
    expect(compiled.diagnostics.map((d) => [d.severity, d.line, d.column, d.message])).toEqual([
      ['warning', 3, 14, 'unknown space "nowhere": not a standard space (current, camera, world, object, shader, screen, raster, NDC) nor a CoordinateSystem of the scene; the identity is used'],
    ]);
    const out = await shadeGrid(gpu(), compiled, 2, 2, grid(), MATRICES);
    expect(round(out.Ci)).toEqual(P.map(([x, y, z]) => [x! / 2, y! / 2, z! / 2]));
    expect(round(out.Oi)).toEqual(P);
  });
});
