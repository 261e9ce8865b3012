// Built-ins that read neighbouring vertices (Du, Dv, Deriv, area, calculatenormal and filterstep's
// one-value form), on a 4 × 4 grid where P and s are linear in u and v: every difference scheme gives
// the exact derivative there, so the expected values follow from the definitions alone.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../../src/rsl/compile.ts';
import { useGpuRuntime } from '../../gpu/gpu-fixture.ts';
import { shadeGrid } from '../grid-runner.ts';
import { cross, len, mul } from './reference.ts';

const gpu = useGpuRuntime();
const N = 4;
const D = 1 / (N - 1);
const DPDU = [2, 1, 0.5];
const DPDV = [1, -1, 0];
const DSDU = 0.5;
const DSDV = 0.25;

const vertices = [...Array(N * N).keys()].map((k) => ({ u: (k % N) * D, v: Math.floor(k / N) * D }));
const P = ({ u, v }: { u: number; v: number }): number[] => [2 * u + v, u - v, 3 + 0.5 * u];
const S = ({ u, v }: { u: number; v: number }): number => 0.3 + DSDU * u + DSDV * v;
const GRID = {
  u: vertices.map((x) => [x.u]),
  v: vertices.map((x) => [x.v]),
  du: vertices.map(() => [D]),
  dv: vertices.map(() => [D]),
  P: vertices.map(P),
  s: vertices.map((x) => [S(x)]),
};

/** Box-filtered step over [x - w/2, x + w/2]. */
const boxStep = (edge: number, x: number, w: number): number => Math.min(1, Math.max(0, (x + w / 2 - edge) / w));
/** filterstep's width for s: how much s changes across one micropolygon in u plus in v. */
const WIDTH = Math.abs(DSDU * D) + Math.abs(DSDV * D);

async function shade(body: string): Promise<{ Ci: number[][]; Oi: number[][] }> {
  const compiled = compilePipeline({ surface: { source: `surface deriv() {\n${body}\n}`, file: 'deriv.sl' }, maxVertices: 16 });
  const grid = await shadeGrid(gpu(), compiled, N, N, GRID);
  return { Ci: grid.Ci!, Oi: grid.Oi! };
}

function expectClose(actual: number[][], expected: (k: number) => number[], tolerance = 1e-4): void {
  const problems = actual.flatMap((a, k) => (a.every((x, c) => Math.abs(x - expected(k)[c]!) <= tolerance * Math.max(1, Math.abs(expected(k)[c]!))) ? [] : [`vertex ${k}: ${JSON.stringify(a)} vs ${JSON.stringify(expected(k))}`]));
  expect(problems).toEqual([]);
}

describe('derivative built-ins on a linear grid', () => {
  it('Du, Dv and Deriv of a float and of a point', async () => {
    const { Ci, Oi } = await shade('Ci = color(Du(s), Dv(s), Deriv(s, u)); Oi = color(Du(P)) + color(Dv(P)) * 10;');
    expectClose(Ci, () => [DSDU, DSDV, DSDU]);
    expectClose(Oi, () => DPDU.map((x, c) => x + 10 * DPDV[c]!));
  });

  it('area and calculatenormal', async () => {
    const { Ci, Oi } = await shade('normal n = calculatenormal(P); Ci = color(xcomp(n), ycomp(n), zcomp(n)); Oi = color(area(P), 0, 0);');
    expectClose(Ci, () => cross(DPDU, DPDV));
    expectClose(Oi, () => [len(cross(mul(DPDU, D), mul(DPDV, D))), 0, 0]);
  });

  it('filterstep(edge, s) box-filters the step over the change of s across a micropolygon', async () => {
    const { Ci, Oi } = await shade('Ci = color(filterstep(0.5, s), filterstep(0.45, s, "width", 2), filterstep(0.6, s, "filter", "box")); Oi = color(step(0.5, s), 0, 0);');
    expectClose(Ci, (k) => [boxStep(0.5, S(vertices[k]!), WIDTH), boxStep(0.45, S(vertices[k]!), 2 * WIDTH), boxStep(0.6, S(vertices[k]!), WIDTH)]);
    // Somewhere the filtered step is strictly between 0 and 1, where the plain step jumps.
    expect(Ci.some((c) => c[0]! > 0.01 && c[0]! < 0.99)).toBe(true);
  });

  it('filterstep warns about a filter it does not apply', () => {
    const compiled = compilePipeline({ surface: { source: 'surface f() { Ci = filterstep(0.5, s, "filter", "gaussian"); }', file: 'f.sl' } });
    expect(compiled.diagnostics.map((d) => d.message)).toContainEqual(expect.stringContaining('filter "gaussian" is not supported'));
  });
});
