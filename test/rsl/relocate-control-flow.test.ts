// Derivatives under control flow: inside loops whose trip count is a constant or uniform, inside
// ifs with a uniform condition, after loops and branches that vary over the grid. Each shader runs
// on Dawn and in the reference interpreter (which checks that the control around each derivative
// group really is uniform); the polynomial cases are also checked against the difference quotient of
// the polynomial, computed here. Derivatives the compiler still cannot place must be errors that
// name the construct and its line.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { RslCompileError } from '../../src/rsl/diagnostics.ts';
import { interpret } from '../../src/rsl/interpreter/interpreter.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { runOnGpu } from './corpus/gpu-runner.ts';
import { GRIDS, SPACE_OVERRIDES, TO_CURRENT } from './corpus/inputs.ts';

const gpu = useGpuRuntime();
const GRID = GRIDS.curved;
const TOLERANCE = 1e-3;

interface Case {
  name: string;
  params?: string;
  body: string;
  overrides?: Record<string, number[]>;
  /** The expected Ci at each vertex, from its u, du, v and whether it is on the last column. */
  expected?: (u: number, du: number, last: boolean, v: number) => number[];
}

/** (p(u + h) - p(u)) / h, the grid's forward difference (backward on the last column). */
function differenceQuotient(p: (u: number) => number, u: number, du: number, last: boolean): number {
  return last ? (p(u) - p(u - du)) / du : (p(u + du) - p(u)) / du;
}

const FRACTAL = 'sum += abs(2 * noise(P * f) - 1) / f; f *= 2;';

const CASES: Case[] = [
  {
    name: 'Du inside a loop with a constant trip count',
    body: `float sum = 0, f = 1, i; for (i = 0; i < 4; i += 1) { ${FRACTAL} Ci += color(Du(sum), Dv(sum), 0); }`,
  },
  {
    name: 'Du inside a loop whose trip count is a parameter',
    params: 'float octaves = 3',
    body: `float sum = 0, f = 1, i; for (i = 0; i < octaves; i += 1) { ${FRACTAL} Ci += color(Du(sum), Dv(sum), area(P * f)); }`,
    overrides: { 'surface.octaves': [5] },
  },
  {
    name: 'a polynomial in u accumulated in a uniform loop, Du per iteration (analytic)',
    params: 'float n = 4',
    body: 'float acc = 0, dsum = 0, i; for (i = 1; i <= n; i += 1) { acc += i * u; dsum += Du(acc); } Ci = color(dsum, Du(acc), 0);',
    // Du(Σ_{k<=j} k u) = j (j + 1) / 2 exactly; summed over j = 1..4: 1 + 3 + 6 + 10.
    expected: () => [20, 10, 0],
  },
  {
    name: 'a quadratic in u built in a constant loop, Du after each step (analytic)',
    body: 'float acc = 0, i, last = 0; for (i = 1; i < 4; i += 1) { acc += i * u * u + 0.5 * u; last = Du(acc); } Ci = color(last, 0, 0);',
    // acc = (1 + 2 + 3) u² + 1.5 u after the loop.
    expected: (u, du, last) => [differenceQuotient((x) => 6 * x * x + 1.5 * x, u, du, last), 0, 0],
  },
  {
    name: 'calculatenormal of a displaced point after a uniform fractal loop',
    params: 'float octaves = 4',
    body: `float sum = 0, f = 1, i; for (i = 0; i < octaves; i += 1) { ${FRACTAL} } Ci = color(normalize(calculatenormal(P + 0.1 * sum * normalize(N))));`,
  },
  {
    name: 'a uniform loop left by a break under a uniform condition',
    params: 'float limit = 3',
    body: `float sum = 0, f = 1, i; for (i = 0; i < 10; i += 1) { if (i >= limit) break; ${FRACTAL} Ci += color(Du(sum), 0, Dv(sum)); }`,
  },
  {
    name: 'Du inside a uniform if, of a value computed in a loop inside it',
    params: 'float mode = 1',
    body: 'float x = s * s; if (mode > 0.5) { float i; for (i = 0; i < 3; i += 1) x += t * x; Ci = color(Du(x), Dv(x), 0); } else Ci = color(0, 0, Du(t));',
  },
  {
    name: 'the other branch of the uniform if',
    params: 'float mode2 = 0',
    body: 'float x = s * s; if (mode2 > 0.5) { float i; for (i = 0; i < 3; i += 1) x += t * x; Ci = color(Du(x), Dv(x), 0); } else Ci = color(0, 0, Du(t * x));',
  },
  {
    name: 'Du inside a loop whose trip count varies over the grid (masked)',
    body: 'float sum = 0, f = 1; while (f < 4 + 16 * s) { sum += noise(P * f) / f; Ci += color(Du(sum), Dv(sum), 0); f *= 2; }',
  },
  {
    name: 'a masked loop with break and continue, Du per iteration',
    body: 'float sum = 0, f = 1, k = 0; while (1) { k += 1; if (k > 2 + 4 * t) break; f *= 1.5; if (mod(k, 2) == 0) continue; sum += f * s * s; Ci += color(Du(sum), Dv(sum), k); }',
  },
  {
    name: 'a polynomial in u accumulated in a loop whose trip count varies by row (analytic)',
    body: 'float acc = 0, dsum = 0, n = 0; while (n < 1 + floor(3 * v)) { n += 1; acc += n * u; dsum += Du(acc); } Ci = color(dsum, n, 0);',
    // Rows v = 0, 0.5, 1 run 1, 2, 4 iterations; the u neighbours of a vertex run as many, and
    // Du(Σ_{k<=j} k u) = j (j + 1) / 2 in iteration j.
    expected: (_u, _du, _last, v) => {
      const n = 1 + Math.floor(3 * v);
      let sum = 0;
      for (let j = 1; j <= n; j++) sum += (j * (j + 1)) / 2;
      return [sum, n, 0];
    },
  },
  {
    name: 'Du inside a varying if, of a value computed by a loop in that branch (masked)',
    body: 'float x = 0, i; if (v > 0.25) { for (i = 1; i <= 3; i += 1) x += i * u * u; Ci = color(Du(x), 0, 0); } else { x = 2 * u; Ci = color(0, Du(x), 0); }',
    // Rows v = 0.5 and 1 take the then branch (Σ i = 6: 6 u²), row v = 0 the else branch (2 u); a
    // vertex and its u neighbour are in the same row, so each sees an exact difference quotient.
    expected: (u, du, last, v) => (v > 0.25 ? [differenceQuotient((x) => 6 * x * x, u, du, last), 0, 0] : [0, 2, 0]),
  },
  {
    name: 'Du after a loop whose trip count varies over the grid',
    body: 'float sum = 0, f = 1; while (f < 4 + 16 * s) { sum += noise(P * f) / f; f *= 2; } Ci = color(Du(sum), Dv(sum), f);',
  },
  {
    name: 'Du after a varying loop nested in a uniform loop',
    params: 'float outer = 2',
    body: 'float j, acc = 0; for (j = 0; j < outer; j += 1) { float f = 1, sum = 0; while (f < 2 + 8 * t) { sum += f * s; f *= 2; } acc += Du(sum); } Ci = color(acc, 0, 0);',
  },
  {
    name: 'Du inside a varying if of a value computed before it',
    body: 'float x = s * t; if (s > 0.5) Ci = color(Du(x * x), 0, 0); else Ci = color(0, Dv(x), 0);',
  },
  {
    name: 'Du in an inlined function with an early return, called in a uniform loop',
    body: 'float i, acc = 0; for (i = 1; i < 3; i += 1) acc += slope(i * u * u); Ci = color(acc, 0, 0);',
    params: 'float unused = 0',
  },
];

const FUNCTIONS = 'float slope(float x) { if (x < 0) return 0; return Du(x); }';

function source(c: Case): string {
  return `surface relocate(${c.params ?? ''}) {\n${c.body.includes('slope(') ? FUNCTIONS : ''}\n${c.body}\n}\n`;
}

function close(actual: number, reference: number): boolean {
  return Math.abs(actual - reference) <= TOLERANCE * Math.max(1, Math.abs(reference));
}

describe('derivatives under control flow', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: the GPU agrees with the interpreter', async (_, c) => {
    const compiled = compilePipeline({ surface: { source: source(c), file: 'relocate.sl' }, maxVertices: 16 });
    const input = { nu: GRID.nu, nv: GRID.nv, grid: GRID.grid, params: packParameters(compiled, { ...SPACE_OVERRIDES, ...(c.overrides ?? {}) }), toCurrent: TO_CURRENT, time: 0 };
    const reference = interpret(compiled, input);
    const actual = await runOnGpu(gpu(), compiled, input);
    const problems: string[] = [];
    actual.grid.Ci!.forEach((value, vertex) => {
      const ref = reference.grid.Ci![vertex]!;
      if (!value.every((x, k) => close(x, ref[k]!))) problems.push(`vertex ${vertex}: GPU ${JSON.stringify(value)}, interpreter ${JSON.stringify(ref)}`);
      if (c.expected) {
        const u = GRID.grid.u![vertex]![0]!;
        const expected = c.expected(u, GRID.grid.du![vertex]![0]!, vertex % GRID.nu === GRID.nu - 1, GRID.grid.v![vertex]![0]!);
        if (!value.every((x, k) => close(x, expected[k]!))) problems.push(`vertex ${vertex}: GPU ${JSON.stringify(value)}, analytic ${JSON.stringify(expected)}`);
      }
    });
    expect(problems).toEqual([]);
    // Not all zero: the derivatives were computed, not dropped.
    expect(actual.grid.Ci!.some((value) => value.some((x) => Math.abs(x) > 1e-4))).toBe(true);
  });

  it('names the construct that keeps a derivative from a barrier', () => {
    const failure = (body: string): string => {
      try {
        compilePipeline({ surface: { source: `surface bad() {\n${body}\n}\n`, file: 'bad.sl' } });
      } catch (error) {
        expect(error).toBeInstanceOf(RslCompileError);
        return (error as RslCompileError).diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n');
      }
      return 'compiled';
    };
    // A varying loop that also leaves the loop around it cannot run masked.
    expect(failure('float sum = 0, f = 1, i;\nfor (i = 0; i < 2; i += 1) {\n  while (f < 4 + 16 * s) {\n    sum += noise(P * f);\n    Ci += Du(sum);\n    if (sum > 3) break 2;\n    f *= 2;\n  }\n}')).toMatch(
      /^bad\.sl:6:11: .*operand is assigned under the while loop at line 4, whose exit condition varies over the grid/,
    );
    // A derivative in a varying branch of a masked loop.
    expect(failure('float sum = 0, f = 1;\nwhile (f < 4 + 16 * s) {\n  sum += noise(P * f);\n  if (s > 0.5)\n    Ci += Du(sum);\n  f *= 2;\n}')).toMatch(
      /^bad\.sl:6:11: .*operand is assigned under the if at line 5, whose condition varies over the grid/,
    );
    // A varying branch that leaves the loop around it cannot run masked.
    expect(failure('float x = 0, i;\nfor (i = 0; i < 3; i += 1) {\n  if (s > 0.5) {\n    x += t * i;\n    Ci = Du(x);\n    break;\n  }\n}')).toMatch(
      /^bad\.sl:6:10: .*operand is assigned under the if at line 4, whose condition varies over the grid/,
    );
    expect(failure('float x = 0;\nilluminance (P) {\n  x += comp(Cl, 0);\n  Ci += Du(x);\n}')).toMatch(/^bad\.sl:5:9: .*under the illuminance loop at line 3/);
  });
});
