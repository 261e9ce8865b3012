// Message passing between the shaders of one pipeline beyond the surface-only corpus: a displacement
// output read by the surface, the atmosphere's parameter read by the surface (bound before any shader
// runs), the surface's parameter as the surface left it read by the atmosphere and by a light; the
// warnings for incident()/opposite(); and that pipelines whose lights lack __nondiffuse/__nonspecular
// pay nothing for them. Each runs on the interpreter and on the GPU (lavapipe).
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { interpret } from '../../src/rsl/interpreter/interpreter.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { runOnGpu } from './corpus/gpu-runner.ts';
import { GRIDS } from './corpus/inputs.ts';

const DISPLACEMENT = `displacement lift(float amp = 0.5; output varying float lifted = 0) { lifted = amp * 2 + u; }`;
const SURFACE = `surface reader(float Kd = 0.25) {
  float d = -1; float a = -1; float miss = 3;
  float ok = displacement("lifted", d) + atmosphere("density", a) + atmosphere("nosuch", miss);
  Kd = Kd * 4;
  illuminance(P) { Oi = Cl; }
  Ci = color(ok, d, a);
}`;
const LIGHT = `light kdlight() { float k = -1; surface("Kd", k); solar(vector(0, 0, 1), 0) Cl = color(k); }`;
const ATMOSPHERE = `volume haze(float density = 0.125) { float k = -1; float ok = surface("Kd", k); Ci = Ci + color(0, 0, k * ok + density); }`;

describe('message passing across displacement, surface, lights and atmosphere', () => {
  const gpu = useGpuRuntime();

  it('reads parameters as the other shader left them, on the interpreter and the GPU', async () => {
    const compiled = compilePipeline({ displacement: { source: DISPLACEMENT }, surface: { source: SURFACE }, atmosphere: { source: ATMOSPHERE }, lights: [{ source: LIGHT }], maxVertices: 16 });
    const g = GRIDS.curved;
    const input = { nu: g.nu, nv: g.nv, grid: g.grid, params: packParameters(compiled, { 'atmosphere.density': [0.5] }) };
    const reference = interpret(compiled, input);
    const gpuResult = await runOnGpu(gpu(), compiled, input);
    for (const result of [reference, gpuResult]) {
      result.grid.Ci!.forEach((ci, k) => {
        const u = g.grid.u![k]![0]!;
        // ok = 2 (lifted, density), d = 0.5 * 2 + u, then the atmosphere adds Kd (1 after the surface) + density.
        expect(ci[0]).toBeCloseTo(2, 5);
        expect(ci[1]).toBeCloseTo(1 + u, 5);
        expect(ci[2]).toBeCloseTo(0.5 + 1 + 0.5, 5);
      });
      // The light saw Kd as the surface had set it when illuminance ran.
      for (const oi of result.grid.Oi!) expect(oi).toEqual([1, 1, 1]);
    }
  });

  it('incident() and opposite() warn at compile time and return 0', () => {
    const compiled = compilePipeline({ atmosphere: { source: 'volume v() { float x = 2; Ci = incident("a", x) + opposite("b", x) + x; }' } });
    expect(compiled.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message)).toEqual([
      expect.stringMatching(/incident\(\).*ray tracing.*returns 0/), expect.stringMatching(/opposite\(\).*ray tracing.*returns 0/),
    ]);
  });

  it('standard lights give diffuse() and specular() no message traffic; a light with __nonspecular does', () => {
    const standard = compilePipeline({ surface: 'plastic', lights: ['ambientlight', 'distantlight', 'pointlight'] });
    expect(standard.ir.messages).toEqual([]);
    expect(standard.code).not.toContain('lmsg');
    const withMessage = compilePipeline({ surface: 'plastic', lights: ['distantlight', { source: 'light l(float __nonspecular = 1) { solar(vector(0, 0, 1), 0) Cl = 1; }' }] });
    expect(withMessage.ir.messages.map((m) => [m.name, m.sources.map((s) => s !== undefined)])).toEqual([['__nonspecular', [false, true]]]);
  });

  it('specular() scales a light by 1 - __nonspecular and diffuse() by 1 - __nondiffuse (interpreter)', () => {
    const light = (extra: string): string => `light l(${extra}) { solar(vector(0.3, -0.2, 1), 0) Cl = color(1, 0.5, 0.25); }`;
    const run = (surface: string, extra: string, values: Record<string, number[]>): number[][] => {
      const compiled = compilePipeline({ surface: { source: surface }, lights: [{ source: light(extra) }], maxVertices: 16 });
      const g = GRIDS.curved;
      return interpret(compiled, { nu: g.nu, nv: g.nv, grid: g.grid, params: packParameters(compiled, values) }).grid.Ci!;
    };
    const spec = 'surface s() { Ci = specular(normalize(N), -normalize(I), 0.3); }';
    const diff = 'surface s() { Ci = diffuse(normalize(N)); }';
    const plainSpec = run(spec, '', {});
    const plainDiff = run(diff, '', {});
    const scaled = (a: number[][], f: number): number[][] => a.map((x) => x.map((c) => c * f));
    const near = (a: number[][], b: number[][]): void => a.forEach((x, k) => x.forEach((c, j) => expect(c).toBeCloseTo(b[k]![j]!, 5)));
    expect(plainSpec.some((x) => x[0]! > 0.01)).toBe(true);
    near(run(spec, 'float __nonspecular = 0', { __nonspecular: [0.75] }), scaled(plainSpec, 0.25));
    near(run(spec, 'float __nondiffuse = 1', {}), plainSpec);
    near(run(diff, 'float __nondiffuse = 0', { __nondiffuse: [0.4] }), scaled(plainDiff, 0.6));
    near(run(diff, 'float __nonspecular = 1', {}), plainDiff);
  });
});

describe('rendererinfo', () => {
  it('reports the package version', async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    const { RENDERER_INFO } = await import('../../src/rsl/index.ts');
    expect(RENDERER_INFO.versionstring).toBe(pkg.version);
    expect((RENDERER_INFO.version as number[]).slice(0, 3).join('.')).toBe(pkg.version);
    expect(RENDERER_INFO.renderer).toBe(pkg.name);
  });
});
