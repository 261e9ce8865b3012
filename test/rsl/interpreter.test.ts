// The reference interpreter on hand-computed cases (no GPU): derivatives by the kernel's finite
// differences, lights, and what it refuses to guess.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { interpret } from '../../src/rsl/interpreter/interpreter.ts';
import { evaluateTemplate } from '../../src/rsl/interpreter/template.ts';
import { packParameters } from '../../src/rsl/params.ts';

function run(source: string, nu: number, nv: number, grid: Record<string, number[][]>, lights: string[] = []): number[][] {
  const compiled = compilePipeline({ surface: { source }, lights, maxVertices: 16 });
  return interpret(compiled, { nu, nv, grid, params: packParameters(compiled) }).grid.Ci!;
}

describe('reference interpreter', () => {
  it('derivatives: forward differences, backward on the last column and row, over du and dv', () => {
    // A 3 × 2 grid with f = u² at u = 0, 0.5, 1 (du = 0.5) and v = 0, 1 (dv = 1).
    const us = [0, 0.5, 1, 0, 0.5, 1];
    const vs = [0, 0, 0, 1, 1, 1];
    const grid = { u: us.map((x) => [x]), v: vs.map((x) => [x]), du: us.map(() => [0.5]), dv: us.map(() => [1]) };
    const ci = run('surface d() { float f = u * u + 3 * v * u; Ci = color(Du(f), Dv(f), 0); }', 3, 2, grid);
    // Du: (0.25 - 0) / 0.5, (1 - 0.25) / 0.5, backward (1 - 0.25) / 0.5; plus 3v. Dv: 3u.
    expect(ci.map((c) => c.slice(0, 2))).toEqual([[0.5, 0], [1.5, 1.5], [1.5, 3], [3.5, 0], [4.5, 1.5], [4.5, 3]]);
  });

  it('a pointlight at the origin lights a point at distance 2 with 1/4', () => {
    const ci = run('surface s() { Ci = 0; illuminance(P) Ci += Cl; }', 1, 1, { P: [[0, 0, 2]] }, ['pointlight']);
    expect(ci[0]!.map((x) => +x.toFixed(6))).toEqual([0.25, 0.25, 0.25]);
  });

  it('rejects templates it does not know instead of guessing', () => {
    const env = { toCurrent: [], fromCurrent: [], time: 0, paramFloat: () => 0, paramWord: () => 0, nextRandom: () => 0, nextUniformRandom: () => 0 };
    expect(() => evaluateTemplate('rsl_unknown($0)', [1], env)).toThrow(/does not know the function 'rsl_unknown'/);
    expect(evaluateTemplate('clamp($0, 0.0, 1.0) * 3.0', [0.5], env)).toBe(1.5);
    expect(evaluateTemplate('$0[u32($1)][u32($2)]', [[...Array(16).keys()], 2, 3], env)).toBe(11);
  });
});
