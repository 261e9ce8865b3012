// The WGSL the compiler emits, on Dawn: every standard pipeline compiles, and small grids give the
// values the language defines. Few pipelines, since the software driver compiles slowly.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { PipelineDescription } from '../../src/rsl/compile.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { shadeGrid } from './grid-runner.ts';

const gpu = useGpuRuntime();

async function compiles(description: PipelineDescription): Promise<void> {
  const compiled = compilePipeline(description);
  await gpu().kernels.pipeline({ label: 'rsl', code: compiled.code, entryPoint: compiled.entryPoint });
}

/** A flat 2×2 grid in the z = 1 plane facing the camera, u and v in {0, 1}. */
function flatGrid(): Record<string, number[][]> {
  const uv = [[0, 0], [1, 0], [0, 1], [1, 1]];
  return {
    P: uv.map(([u, v]) => [u!, v!, 1]), N: uv.map(() => [0, 0, -1]), Ng: uv.map(() => [0, 0, -1]), I: uv.map(([u, v]) => [u!, v!, 1]),
    u: uv.map(([u]) => [u!]), v: uv.map(([, v]) => [v!]), du: uv.map(() => [1]), dv: uv.map(() => [1]),
    s: uv.map(([u]) => [u!]), t: uv.map(([, v]) => [v!]), Cs: uv.map(() => [0.2, 0.4, 0.6]), Os: uv.map(() => [1, 1, 1]),
  };
}

describe('WGSL from the standard shaders compiles on Dawn', () => {
  it('every surface with every light in one pipeline, plus displacement and atmosphere', async () => {
    const lights = ['ambientlight', 'distantlight', 'pointlight', 'spotlight', 'shadowdistant', 'shadowpoint', 'shadowspot'];
    const surfaces = ['constant', 'matte', 'metal', 'shinymetal', 'plastic', 'paintedplastic'];
    for (const [k, surface] of surfaces.entries()) {
      await compiles({ surface, lights, ...(k % 2 === 0 ? { displacement: k === 0 ? 'dented' : 'bumpy', atmosphere: k === 2 ? 'depthcue' : 'fog' } : {}) });
    }
  });
});

describe('kernels shade a 2×2 grid', () => {
  it('Ci = Cs * 0.5', async () => {
    const compiled = compilePipeline({ surface: { source: 'surface half() { Ci = Cs * 0.5; Oi = Os; }' }, maxVertices: 4 });
    const out = await shadeGrid(gpu(), compiled, 2, 2, flatGrid());
    for (const c of out.Ci!) expect(c.map((x) => +x.toFixed(5))).toEqual([0.1, 0.2, 0.3]);
  });

  it('Du and Dv of a function of u and v, including inside a varying if/else', async () => {
    const source = `surface d() {
      float f = 3 * u * u + 2 * v;
      Ci = color(Du(f), Dv(f), 0);
      if (u > 0.5) Oi = color(Du(v), 0, 0); else Oi = color(Dv(v), 1, 0);
    }`;
    const compiled = compilePipeline({ surface: { source }, maxVertices: 4 });
    const out = await shadeGrid(gpu(), compiled, 2, 2, flatGrid());
    // Forward difference of 3u² over u in {0, 1} is 3 on both columns; d(2v)/dv = 2.
    for (const c of out.Ci!) expect(c).toEqual([3, 2, 0]);
    expect(out.Oi).toEqual([[1, 1, 0], [0, 0, 0], [1, 1, 0], [0, 0, 0]]);
    expect(compiled.passes.barrierPositions).toBe(1);
  });

  it('plastic lit by a distantlight matches the closed form', async () => {
    const compiled = compilePipeline({ surface: 'plastic', lights: ['distantlight'], maxVertices: 4 });
    // Light travelling along +z hits the surface whose normal faces -z head on.
    const out = await shadeGrid(gpu(), compiled, 2, 2, flatGrid(), { intensity: [2] });
    const Cs = [0.2, 0.4, 0.6];
    out.Ci!.forEach((ci, k) => {
      const [u, v] = [k % 2, Math.floor(k / 2)];
      const I = [u, v, 1];
      const len = Math.hypot(...I);
      const V = I.map((x) => -x / len);
      // H = normalize(L + V) with L = (0, 0, -1); N.H to the power 1 / (roughness / 8), PRMan's
      // highlight (src/rsl/specular.ts).
      const H0 = [V[0]!, V[1]!, V[2]! - 1];
      const hl = Math.hypot(...H0);
      const spec = Math.pow(Math.max(0, -H0[2]! / hl), 8 / 0.1);
      const expected = Cs.map((c) => c * 0.5 * 2 + 0.5 * 2 * spec);
      ci.forEach((x, c) => expect(x).toBeCloseTo(expected[c]!, 4));
    });
  });

  it('control flow: early return, break 2 / continue 2, while, ?: on a varying condition, mod', async () => {
    const source = `surface a() {
      float f(float x) { if (x > 1) return 10; return x; }
      float i, j, n = 0;
      for (i = 0; i < 4; i += 1) {
        for (j = 0; j < 4; j += 1) { if (j == 2) continue 2; if (i == 3) break 2; n += 1; }
      }
      float w = 0;
      while (w < 5) w += 2;
      Ci = color(n, f(2), f(0.5));
      Oi = color(w, u > 0.5 ? 1 : 2, mod(-1, 3));
    }`;
    const out = await shadeGrid(gpu(), compilePipeline({ surface: { source }, maxVertices: 4 }), 2, 2, flatGrid());
    for (const c of out.Ci!) expect(c).toEqual([6, 10, 0.5]);
    expect(out.Oi!.map((c) => c[1])).toEqual([2, 1, 2, 1]);
    for (const c of out.Oi!) expect([c[0], c[2]]).toEqual([6, 2]);
  });

  it('merged and separate illuminance loops shade alike, and parameters come from the buffer', async () => {
    const lights = ['pointlight', 'distantlight'];
    const overrides = { 'light0.from': [0, 0, -1], 'light0.intensity': [3], 'surface.Kd': [0.8] };
    const merged = await shadeGrid(gpu(), compilePipeline({ surface: 'plastic', lights, maxVertices: 4 }), 2, 2, flatGrid(), overrides);
    const separate = await shadeGrid(gpu(), compilePipeline({ surface: 'plastic', lights, maxVertices: 4, noIlluminanceMerging: true }), 2, 2, flatGrid(), overrides);
    merged.Ci!.forEach((c, k) => c.forEach((x, i) => expect(x).toBeCloseTo(separate.Ci![k]![i]!, 5)));
    // At vertex 0 both lights hit head on: diffuse = Kd * Cs * (3 / 2^2 + 1).
    const diffuse = 0.8 * 0.2 * (3 / 4 + 1);
    expect(merged.Ci![0]![0]!).toBeGreaterThan(diffuse);
  });
});

