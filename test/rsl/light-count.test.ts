// Illuminance merging, measured: kernels compiled with countLightEvaluations add 1 to a per-vertex,
// per-light counter on every light-shader call, read back from the GPU. With merging, each light
// runs once per vertex however many equivalent loops the surface has; a loop that reads what an
// earlier one computed stays separate, so its lights run twice. The interpreter counts the same.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { PipelineDescription } from '../../src/rsl/compile.ts';
import { interpret } from '../../src/rsl/interpreter/interpreter.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { runOnGpu } from './corpus/gpu-runner.ts';
import { GRIDS, SPACE_OVERRIDES, TO_CURRENT } from './corpus/inputs.ts';

const gpu = useGpuRuntime();

// diffuse() and specular() are illuminance(P, normalize(Nn), PI / 2) loops; the third loop matches them.
const THREE_LOOPS = `surface three() {
  normal Nf = normalize(N);
  color c = 0;
  illuminance(P, normalize(Nf), PI / 2) c += Cl * 0.5;
  Ci = diffuse(Nf) + specular(Nf, -normalize(I), 0.2) + c;
}`;

// The second loop reads `a`, which the first computes: merging them would change the result.
const DEPENDENT = `surface dependent() {
  normal Nf = normalize(N);
  color a = 0, c = 0;
  illuminance(P, Nf, PI / 2) a += Cl;
  illuminance(P, Nf, PI / 2) c += Cl * comp(a, 0);
  Ci = c;
}`;

const LIGHTS = ['pointlight', 'distantlight', 'ambientlight'];
const OVERRIDES = { 'light0.from': [0.5, 1, -1], 'light0.intensity': [5] };

async function counts(description: PipelineDescription): Promise<{ gpu: number[][]; cpu: number[][]; ci: number[][]; sites: number }> {
  const compiled = compilePipeline({ ...description, lights: LIGHTS, maxVertices: 16, countLightEvaluations: true });
  const g = GRIDS.curved;
  const input = { nu: g.nu, nv: g.nv, grid: g.grid, params: packParameters(compiled, { ...SPACE_OVERRIDES, ...OVERRIDES }), toCurrent: TO_CURRENT };
  const result = await runOnGpu(gpu(), compiled, input);
  return { gpu: result.lightEvaluations!, cpu: interpret(compiled, input).lightEvaluations, ci: result.grid.Ci!, sites: compiled.lightEvaluationSites };
}

describe('light-shader evaluations counted on the GPU', () => {
  it('three equivalent loops: each light runs once per vertex when merged, three times when not', async () => {
    const merged = await counts({ surface: { source: THREE_LOOPS } });
    const separate = await counts({ surface: { source: THREE_LOOPS }, noIlluminanceMerging: true });
    expect(merged.sites).toBe(1);
    expect(separate.sites).toBe(3);
    // Per vertex: [pointlight, distantlight, ambientlight]; ambient lights only feed ambient().
    for (const c of merged.gpu) expect(c).toEqual([1, 1, 0]);
    for (const c of separate.gpu) expect(c).toEqual([3, 3, 0]);
    expect(merged.cpu).toEqual(merged.gpu);
    expect(separate.cpu).toEqual(separate.gpu);
    // Merging does not change the picture.
    merged.ci.forEach((c, k) => c.forEach((x, i) => expect(x).toBeCloseTo(separate.ci[k]![i]!, 5)));
    expect(merged.ci.some((c) => c[0]! > 0.05)).toBe(true);
  });

  it('a dependent pair stays unmerged: each light runs twice per vertex', async () => {
    const dependent = await counts({ surface: { source: DEPENDENT } });
    expect(dependent.sites).toBe(2);
    for (const c of dependent.gpu) expect(c).toEqual([2, 2, 0]);
    expect(dependent.cpu).toEqual(dependent.gpu);
  });

  it('ambient() evaluates the ambient lights once per call', async () => {
    const result = await counts({ surface: { source: 'surface amb() { Ci = ambient() + ambient() * 0.5; }' } });
    for (const c of result.gpu) expect(c).toEqual([0, 0, 2]);
    expect(result.cpu).toEqual(result.gpu);
  });
});
