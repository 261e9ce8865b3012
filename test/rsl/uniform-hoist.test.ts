// The uniform/varying split in code generation: uniform, position-independent values worth it are
// computed once per grid by invocation 0 into workgroup memory (one barrier), and the kernel gives
// the same results as without (GPU against GPU, and the interpreter, which has no such split).
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { PipelineDescription } from '../../src/rsl/compile.ts';
import { interpret } from '../../src/rsl/interpreter/interpreter.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { runOnGpu } from './corpus/gpu-runner.ts';
import { GRIDS, LIGHT_SETS, SPACE_OVERRIDES, TO_CURRENT } from './corpus/inputs.ts';

const UNIFORM_HEAVY = `surface heavy(float Kd = 0.7; float freq = 3; color tint = color(0.8, 0.5, 0.3); float rough = 0.2) {
  float wobble = noise(point(freq, Kd, rough)) + noise(point(freq * 2, Kd, rough)) / 2;
  float e = pow(abs(sin(freq) * cos(Kd)) + 0.1, 1 / rough);
  color base = color "hsv" (mod(freq * 0.13, 1), 0.6, 0.9) * tint;
  if (u > 0.5) Ci = base * e * wobble * diffuse(normalize(N)); else Ci = tint * s;
  Oi = Os;
}`;

describe('uniform values computed once per grid', () => {
  const gpu = useGpuRuntime();
  const set = LIGHT_SETS.standard!;

  it('the parameter transforms of light shaders and a uniform-heavy surface are hoisted; nothing varying is', () => {
    const plastic = compilePipeline({ surface: 'plastic', lights: set.lights, maxVertices: 16 });
    expect(plastic.uniformValues).toBeGreaterThan(0);
    const prologue = plastic.code.slice(plastic.code.indexOf('if (lid == 0u) {'), plastic.code.indexOf('workgroupBarrier();', plastic.code.indexOf('if (lid == 0u) {')));
    // The light shaders' matrices come from invocation 0's private copy of the words only the
    // prologue reads: one storage read in a loop, not one per word (wgsl.ts ParamCopy).
    expect(prologue).toContain('rsl_transform_point(mat4x4f(rsl_params[');
    expect(prologue.match(/params\[g_pbase/g)).toHaveLength(1);
    // Only invocation 0 fills the copy, so nothing outside the prologue reads it.
    expect(plastic.code.split('rsl_params[').length).toBe(prologue.split('rsl_params[').length);
    // Nothing per vertex in the prologue: no grid variables, loads or derivatives.
    expect(prologue).not.toMatch(/\bg\d+_|rsl_grid|rsl_deriv|rsl_random|\bx\d+_/);
    const heavy = compilePipeline({ surface: { source: UNIFORM_HEAVY }, lights: set.lights, maxVertices: 16 });
    expect(heavy.code.slice(heavy.code.indexOf('if (lid == 0u) {'))).toMatch(/rsl_noise1[\s\S]*workgroupBarrier/);
    const off = compilePipeline({ surface: 'plastic', lights: set.lights, maxVertices: 16, noUniformHoisting: true });
    expect(off.uniformValues).toBe(0);
    expect(off.code).not.toContain('rsl_uni_');
    // A pipeline without anything worth hoisting has no prologue (and no extra barrier).
    const matte = compilePipeline({ surface: { source: 'surface m() { Ci = Cs * s; }' } });
    expect(matte.uniformValues).toBe(0);
    expect(matte.code).not.toContain('if (lid == 0u)');
  });

  it.each([['plastic', 'plastic'], ['uniform-heavy', { source: UNIFORM_HEAVY }]] as const)('%s: same results with and without (GPU), and as the interpreter', async (_, surface) => {
    const description: PipelineDescription = { surface, lights: set.lights, maxVertices: 16 };
    const on = compilePipeline(description);
    const off = compilePipeline({ ...description, noUniformHoisting: true });
    expect(on.uniformValues).toBeGreaterThan(0);
    const g = GRIDS.curved;
    const input = (c: typeof on) => ({ nu: g.nu, nv: g.nv, grid: g.grid, params: packParameters(c, { ...SPACE_OVERRIDES, ...set.overrides }), toCurrent: TO_CURRENT });
    const a = await runOnGpu(gpu(), on, input(on));
    const b = await runOnGpu(gpu(), off, input(off));
    const reference = interpret(on, input(on));
    a.grid.Ci!.forEach((ci, k) => ci.forEach((x, c) => {
      expect(x).toBeCloseTo(b.grid.Ci![k]![c]!, 5);
      expect(Math.abs(x - reference.grid.Ci![k]![c]!)).toBeLessThanOrEqual(1e-3 * Math.max(1, Math.abs(x)));
    }));
    expect(a.grid.Ci!.some((ci) => ci.some((x) => x > 0.01))).toBe(true);
  });
});
