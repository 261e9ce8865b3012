// IR passes, one at a time, on small shaders.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { Diagnostics, RslCompileError } from '../../src/rsl/diagnostics.ts';
import { checkSource } from '../../src/rsl/frontend.ts';
import type { Inst, IrModule } from '../../src/rsl/ir.ts';
import { walk } from '../../src/rsl/ir.ts';
import { Lowerer } from '../../src/rsl/lower.ts';
import { minimumCliqueCover } from '../../src/rsl/passes/clique-cover.ts';
import { analyzeUniformity } from '../../src/rsl/passes/uniformity.ts';
import { StringTable } from '../../src/rsl/strings.ts';

function compileSurface(body: string, options: { lights?: string[]; merge?: boolean } = {}) {
  return compilePipeline({ surface: { source: `surface s(float Kd = 1) {\n${body}\n}` }, lights: options.lights ?? [], maxVertices: 16, ...(options.merge === false ? { noIlluminanceMerging: true } : {}) });
}

function instructions(module: IrModule): Inst[] {
  const out: Inst[] = [];
  walk(module.main, (inst) => out.push(inst));
  return out;
}

function lowerOnly(body: string, params = 'float Kd = 1'): IrModule {
  const checked = checkSource(`surface s(${params}) {\n${body}\n}`, 't.sl');
  expect(checked.diagnostics.errors).toEqual([]);
  return new Lowerer(new Diagnostics(), new StringTable(), { primitiveVariables: new Set() }).lowerPipeline({ surface: checked.shaders[0]!, lights: [] });
}

describe('cleanup passes', () => {
  it('fold constants: arithmetic of constants becomes one constant', () => {
    const { ir } = compileSurface('Ci = color(1 + 2) * 2;');
    const ciStore = instructions(ir).find((i) => i.op === 'store' && ir.vars.get(i.variable)?.name === 'Ci');
    const value = instructions(ir).find((i) => 'id' in i && ciStore?.op === 'store' && i.id === ciStore.value);
    expect(value).toMatchObject({ op: 'const', value: [6, 6, 6] });
  });
  it('an if on a constant condition keeps only the branch taken', () => {
    const { ir } = compileSurface('if (1 > 2) Ci = 0; else Ci = Cs;');
    expect(instructions(ir).some((i) => i.op === 'if')).toBe(false);
  });
  it('store forwarding turns locals into values, and DCE drops what nobody reads', () => {
    const { ir, passes } = compileSurface('float a = s; float b = a * 2; float unused = sin(t); Ci = b;');
    const loadsOfLocals = instructions(ir).filter((i) => i.op === 'load' && ir.vars.get(i.variable)?.kind === 'local');
    expect(loadsOfLocals).toEqual([]);
    expect(instructions(ir).some((i) => i.op === 'call' && i.template.startsWith('sin'))).toBe(false);
    expect(passes.forwarded).toBeGreaterThan(0);
    expect(passes.removed).toBeGreaterThan(0);
  });
  it('user functions are inlined, output parameters write the caller variable', () => {
    const { ir } = compileSurface('void twice(float x; output float y) { y = 2 * x; }\nfloat r; twice(3, r); Ci = r;');
    const ciStore = instructions(ir).find((i) => i.op === 'store' && ir.vars.get(i.variable)?.name === 'Ci');
    const value = instructions(ir).find((i) => 'id' in i && ciStore?.op === 'store' && i.id === ciStore.value);
    expect(value).toMatchObject({ op: 'const', value: [6, 6, 6] });
  });
});

describe('uniform/varying analysis', () => {
  it('separates values computed from parameters from those computed from vertex data', () => {
    const ir = lowerOnly('float a = Kd * 2; float b = s * 2; float c = 1; if (t > 0.5) c = 2; Ci = a + b + c;');
    const { varyingVars } = analyzeUniformity(ir);
    const detail = Object.fromEntries([...ir.vars.values()].filter((v) => ['a', 'b', 'c'].includes(v.name)).map((v) => [v.name, varyingVars.has(v.id)]));
    expect(detail).toEqual({ a: false, b: true, c: true });
  });
});

describe('illuminance merging', () => {
  it('fuses diffuse() and specular() of plastic: each light runs once per vertex', () => {
    const merged = compilePipeline({ surface: 'plastic', lights: ['distantlight', 'pointlight'] });
    const separate = compilePipeline({ surface: 'plastic', lights: ['distantlight', 'pointlight'], noIlluminanceMerging: true });
    expect(separate.lightEvaluationSites).toBe(2);
    expect(merged.lightEvaluationSites).toBe(1);
    expect(merged.passes.illuminanceMerged).toBe(1);
    // One call of each light function from the fused loop (plus the ambient sum, which has none here).
    expect(merged.code.match(/= light\d\(/g)?.length).toBe(2);
  });
  it('merges three independent loops written by hand', () => {
    const c = compileSurface('color a = 0, b = 0, d = 0;\nilluminance(P, N, PI/2) a += Cl;\nfloat k = Kd * 2;\nilluminance(P, N, PI/2) b += Cl * k;\nilluminance(P, N, PI/2) d += Cl;\nCi = a + b + d;', { lights: ['distantlight'] });
    expect(c.lightEvaluationSites).toBe(1);
    expect(c.passes.illuminanceMerged).toBe(2);
  });
  it('leaves a dependent pair unmerged', () => {
    const c = compileSurface('color a = 0, b = 0;\nilluminance(P, N, PI/2) a += Cl;\nilluminance(P, N, PI/2) b += Cl * a;\nCi = b;', { lights: ['distantlight'] });
    expect(c.lightEvaluationSites).toBe(2);
    expect(c.passes.illuminanceMerged).toBe(0);
  });
  it('leaves loops with different receivers (axis or category) unmerged', () => {
    const c = compileSurface('color a = 0, b = 0, d = 0;\nilluminance(P, N, PI/2) a += Cl;\nilluminance(P, -N, PI/2) b += Cl;\nilluminance("spec", P, N, PI/2) d += Cl;\nCi = a + b + d;', { lights: ['distantlight'] });
    expect(c.lightEvaluationSites).toBe(3);
  });
});

describe('derivative relocation', () => {
  it('derivatives in both branches of a varying if/else share one barrier before the if', () => {
    const c = compileSurface('if (s > 0.5) Ci = Du(s); else Ci = Dv(t);');
    expect(c.passes.barrierPositions).toBe(1);
    expect(c.passes.derivatives).toBe(2);
    const top = c.ir.main.map((i) => i.op);
    expect(top.indexOf('derivgroup')).toBeLessThan(top.indexOf('if'));
    // Nothing but the group's own barrier: exactly one workgroupBarrier in the kernel.
    expect(c.code.match(/workgroupBarrier\(\)/g)?.length).toBe(1);
  });
  it('identical derivatives merge', () => {
    const c = compileSurface('float a = Du(s); if (t > 0) a += Du(s); Ci = a;');
    expect(c.passes.derivatives).toBe(1);
    expect(c.passes.barrierPositions).toBe(1);
  });
  it('a derivative of a derivative needs a second barrier position, not more', () => {
    const c = compileSurface('float a = Du(s * s); float b = Dv(t); float c = Du(a); Ci = a + b + c;');
    expect(c.passes.derivatives).toBe(3);
    expect(c.passes.barrierPositions).toBe(2);
  });
  it('hoists the pure computation of an operand out of a varying branch', () => {
    const c = compileSurface('if (s > 0.5) { float x = u * v; Ci = Du(x) + Deriv(x, u); }');
    expect(c.passes.barrierPositions).toBe(1);
  });
  it('calculatenormal and area in a displacement shader', () => {
    const c = compilePipeline({ displacement: { source: 'displacement d() { P += N * s; N = calculatenormal(P) * area(P); }' }, surface: 'constant' });
    expect(c.passes.barrierPositions).toBe(1);
  });
  it('places a derivative of a loop-carried value inside a loop with a uniform trip count', () => {
    expect(compileSurface('float x = 0, i; for (i = 0; i < 3; i += 1) { x += s; Ci = Du(x); }').passes.derivatives).toBe(1);
  });
  it('runs a loop with a varying trip count masked, so a derivative of a value it carries stays inside', () => {
    expect(compileSurface('float x = 0, i; for (i = 0; i < 3 * s; i += 1) { x += s; Ci = Du(x); }').code).toContain('rsl_any_active(');
  });
  it('reports a derivative of a value assigned in a varying branch that leaves its loop', () => {
    expect(() => compileSurface('float x = 0, i; for (i = 0; i < 3; i += 1) if (s > 0.5) { x += s * i; Ci = Du(x); break; }')).toThrow(RslCompileError);
  });
});

describe('minimum clique cover', () => {
  it('finds the optimum where a greedy cover does not', () => {
    const edges = new Set(['0-1', '0-2', '1-3']);
    const cover = minimumCliqueCover(4, (a, b) => edges.has(`${Math.min(a, b)}-${Math.max(a, b)}`));
    expect(cover.map((g) => [...g].sort()).sort()).toEqual([[0, 2], [1, 3]]);
  });
  it('puts mutually compatible vertices in one group and incompatible ones apart', () => {
    expect(minimumCliqueCover(5, () => true)).toEqual([[0, 1, 2, 3, 4]]);
    expect(minimumCliqueCover(3, () => false)).toHaveLength(3);
  });
});
