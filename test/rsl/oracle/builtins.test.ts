// The oracle: every built-in function and operator of RSL, run through the whole compiler on Dawn,
// against values computed from the RenderMan Interface Specification 3.2 in plain TypeScript
// (test/rsl/oracle/cases, never from src/rsl). Unlike the snippet corpus, which compares the GPU
// with an interpreter of the same IR, a mistake in the front end, the lowering or a pass shows here.
import { describe, expect, it } from 'vitest';
import type { ShaderRef } from '../../../src/rsl/compile.ts';
import { useGpuRuntime } from '../../gpu/gpu-fixture.ts';
import { COLOR_CASES } from './cases/color.ts';
import { GEOMETRY_CASES } from './cases/geometry.ts';
import { LIGHTING_CASES, LIGHTS } from './cases/lighting.ts';
import { MATH_CASES } from './cases/math.ts';
import { MATRIX_CASES } from './cases/matrix.ts';
import { OPERATOR_CASES } from './cases/operators.ts';
import { SPLINE_CASES } from './cases/spline.ts';
import { STRING_CASES } from './cases/strings.ts';
import { caseName } from './oracle-case.ts';
import type { OracleCase } from './oracle-case.ts';
import { agrees, batchCases, compileError, runBatch } from './oracle-runner.ts';

const gpu = useGpuRuntime();

const GROUPS: Record<string, OracleCase[]> = {
  math: MATH_CASES,
  geometry: GEOMETRY_CASES,
  color: COLOR_CASES,
  matrix: MATRIX_CASES,
  operators: OPERATOR_CASES,
  strings: STRING_CASES,
  'spline and filterstep': SPLINE_CASES,
  lighting: LIGHTING_CASES,
};

/** The lights a group's pipelines bind. */
const GROUP_LIGHTS: Record<string, ShaderRef[]> = { lighting: LIGHTS };

describe('RSL built-ins against the specification', () => {
  it('has at least 300 cases', () => {
    expect(Object.values(GROUPS).flat().length).toBeGreaterThanOrEqual(300);
  });

  it.each(Object.entries(GROUPS))('%s', { timeout: 600_000 }, async (group, cases) => {
    const lights = GROUP_LIGHTS[group] ?? [];
    const problems: string[] = [];
    for (const batch of batchCases(cases)) {
      // A batch that does not compile is rerun without the cases that do not compile alone.
      const errors = new Map<OracleCase, string>();
      let run: Awaited<ReturnType<typeof runBatch>> | undefined;
      try {
        run = await runBatch(gpu(), batch, lights);
      } catch {
        for (const c of batch) {
          const error = compileError(c, lights);
          if (error) errors.set(c, error);
        }
        const rest = batch.filter((c) => !errors.has(c));
        if (rest.length > 0) run = await runBatch(gpu(), rest, lights);
      }
      for (const [c, error] of errors) problems.push(`${caseName(c)}: ${error}`);
      for (const { case: c, actual } of run?.results ?? []) {
        if (!agrees(c, actual)) problems.push(`${caseName(c)}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(c.expect)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
