// What the compiler gives a shading pipeline for the loop cap: the cap read from the frame uniforms
// (FrameUniforms.loopCap, 0 for the compiled cap) by every loop that can repeat, a flag per RSL loop
// position where the description asks for flags (binding 12), and nothing at all in a kernel without
// such loops.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { PipelineDescription } from '../../src/rsl/compile.ts';
import { LOOP_FLAG_BINDING } from '../../src/rsl/wgsl.ts';

const surface = (source: string, extra: Partial<PipelineDescription> = {}): PipelineDescription => ({ surface: { source, file: 's.sl' }, loopFlags: true, ...extra });
const at = (compiled: { loopSites: { file: string; line: number; column: number }[] }): string[] => compiled.loopSites.map((p) => `${p.file}:${p.line}:${p.column}`);

describe('the loop cap in compiled kernels', () => {
  it('a pipeline without loops has no cap, no flags and no flag binding', () => {
    for (const description of [{ surface: 'plastic', lights: ['pointlight', 'ambientlight'], loopFlags: true } as PipelineDescription,
      // An early return inlines to a loop that runs once: no cap either.
      surface('float f(float a) { if (a > 1) return 1; return a; }\nsurface s() { Ci = f(s); }')]) {
      const compiled = compilePipeline(description);
      expect(compiled.code).not.toContain('rsl_loop_cap');
      expect(compiled.code).not.toContain(`@binding(${LOOP_FLAG_BINDING})`);
      expect(compiled.loopSites).toEqual([]);
      expect(compiled.loopFlagBinding).toBeUndefined();
    }
  });

  it('each loop position gets a flag, stored where the loop leaves through the cap after its own test', () => {
    const compiled = compilePipeline(surface(`float count(float n) {
  float x = 0, i;
  for (i = 0; i < n; i += 1) x += 1;
  return x;
}
surface s() {
  float x = count(3) + count(4);
  while (x < 100) x *= 2;
  Ci = x;
}`));
    // count() inlined twice shares its flag.
    expect(at(compiled)).toEqual(['s.sl:3:3', 's.sl:8:3']);
    expect(compiled.loopFlagBinding).toBe(LOOP_FLAG_BINDING);
    expect(compiled.code).toContain(`@group(0) @binding(${LOOP_FLAG_BINDING}) var<storage, read_write> rsl_loop_flags: array<u32>;`);
    expect(compiled.code).toContain('fn rsl_loop_cap() -> u32 { return select(frame.loopCap, 100000u, frame.loopCap == 0u); }');
    const checks = compiled.code.split('\n').filter((l) => l.includes('rsl_loop_cap()) {')).map((l) => l.trim());
    expect(checks).toEqual([
      'if (rsl_iter0 >= rsl_loop_cap()) { rsl_loop_flags[0] = 1u; break; }',
      'if (rsl_iter1 >= rsl_loop_cap()) { rsl_loop_flags[0] = 1u; break; }',
      'if (rsl_iter2 >= rsl_loop_cap()) { rsl_loop_flags[1] = 1u; break; }',
    ]);
    // The while's test comes first: a loop that ends after exactly the cap's iterations raises nothing.
    const body = compiled.code.slice(compiled.code.indexOf('var rsl_iter2'));
    expect(body.indexOf('break;')).toBeLessThan(body.indexOf('rsl_loop_flags[1]'));
  });

  it('gather loops have their position; without loopFlags loops are capped but raise no flag', () => {
    const gather = compilePipeline(surface('surface s() { float n = 0; gather("illuminance", P, N, 0, 1e9) { } else { n += 1; } Ci = n; }'));
    expect(at(gather)).toEqual(['s.sl:1:28']);
    const plain = compilePipeline(surface('surface s() { float x = 0; while (1) { x += 1; } Ci = x; }', { loopFlags: false, maxLoopIterations: 7 }));
    expect(plain.code).toContain('select(frame.loopCap, 7u, frame.loopCap == 0u)');
    expect(plain.code).not.toContain('rsl_loop_flags');
    expect(plain.loopSites).toEqual([]);
    expect(plain.maxLoopIterations).toBe(7);
  });
});
