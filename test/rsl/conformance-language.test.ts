// RSL language conformance (issue 10): constructs public shaders use that the compiler refused.
// Each is compiled and run on Dawn on a 2×2 grid with values worked out by hand from the RenderMan
// Interface 3.2 (and, where it is silent, what PRMan and Aqsis do); errors and warnings are checked
// with their positions.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { PipelineDescription } from '../../src/rsl/compile.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { expectClose, flatGrid, messages, shadeFlatGrid, surface, UV } from './flat-grid.ts';
import { shadeGrid } from './grid-runner.ts';

const gpu = useGpuRuntime();

const shade = (description: PipelineDescription, overrides: Record<string, number[] | string> = {}) => shadeFlatGrid(gpu(), description, overrides);

const RAY_WARNING = 'this renderer does not trace rays: trace(), occlusion(), indirectdiffuse() and environment("raytrace") return 0, transmission() and visibility() 1, and gather runs its else branch for every sample (warned once per shader)';

describe('ray tracing without rays', () => {
  const glass = `surface glass(float samples = 5) {
  color refl = trace(P, reflect(I, N), "samples", 4, "bias", 0.01);
  float tr = transmission(P, P + N, "samples", 4);
  float occ = occlusion(P, N, 16, "maxdist", 3);
  color ind = indirectdiffuse(P, N, 16);
  color env = environment("raytrace", reflect(I, N));
  float vis = visibility(P, P - N);
  float depth = -1, known = rayinfo("depth", depth);
  float hits = 0, misses = 0; color hitc = 0;
  gather("illuminance", P, N, PI / 2, samples, "surface:Ci", hitc) { hits += 1; } else { misses += 1; }
  Ci = color(misses, hits + depth, tr * vis + known) + refl + occ + ind + env + hitc;
  Oi = Os;
}`;

  it('compiles with one positioned warning for the shader, at its first ray-tracing call', () => {
    expect(messages(surface(glass), 'warning')).toEqual([[2, 16, RAY_WARNING]]);
  });

  it('returns what a renderer without ray tracing returns; gather runs its else branch once per sample', async () => {
    const { out } = await shade(surface(glass), { samples: [3] });
    // misses = samples, no hits; transmission · visibility = 1 and rayinfo("depth") succeeds: 2.
    expectClose(out.Ci, UV.map(() => [3, 0, 2]));
  });

  it('break inside the else branch leaves the gather loop; the warning is per shader, not per pipeline', async () => {
    const light = `light tracedlight() {
  float o = occlusion(P, N, 8);
  solar(vector(0, 0, 1), 0) Cl = 1 - o;
}`;
    const source = `surface gathers() {
  float misses = 0;
  gather("", P, N, 1, 10) { misses -= 100; } else { misses += 1; if (misses >= 4) break; }
  Ci = color(misses, 0, 0);
  illuminance(P) Ci += Cl;
}`;
    const description = surface(source, { lights: [{ source: light, file: 'light.sl' }] });
    expect(messages(description, 'warning').map(([line, column]) => [line, column])).toEqual([[2, 13], [3, 3]]);
    const { out } = await shade(description);
    expectClose(out.Ci, UV.map(() => [5, 1, 1]));
  });
});

describe('surface shaders write P and N', () => {
  it('lights see the moved P, and P and N leave the kernel as the surface left them', async () => {
    const source = `surface bumpsurf(float Km = 0.5) {
  P += Km * N;
  N = normalize(calculatenormal(P));
  Ci = 0;
  illuminance(P) Ci += Cl;
  Oi = color(N . vector(0, 0, 1));
}`;
    // A pointlight at the camera origin: Cl = intensity / |P - 0|², with P moved to z = 0.5.
    const { out } = await shade(surface(source, { lights: ['pointlight'] }), { 'light0.intensity': [1] });
    expectClose(out.Ci, UV.map(([u, v]) => {
      const c = 1 / (u * u + v * v + 0.25);
      return [c, c, c];
    }), 3);
    expectClose(out.P, UV.map(([u, v]) => [u, v, 0.5]));
    // dPdu × dPdv of the flat grid is +z.
    expectClose(out.N, UV.map(() => [0, 0, 1]));
    expectClose(out.Oi, UV.map(() => [1, 1, 1]));
  });

  it('other globals stay read-only, with the position of the assignment', () => {
    expect(messages(surface('surface s() {\n  Ng = N;\n  I = N;\n}'), 'error')).toEqual([[2, 3, "'Ng' is read-only"], [3, 3, "'I' is read-only"]]);
  });
});

describe('uniform forms', () => {
  it('a uniform variable gets one random() per grid; a varying one a stream per vertex', async () => {
    const source = `surface rnd() {
  uniform color c = color(random(), random(), random());
  uniform float f;
  f = random();
  Ci = c;
  Oi = color(random(), f, 0);
}`;
    const { out } = await shade(surface(source));
    const ci = out.Ci!;
    for (const c of ci) expect(c).toEqual(ci[0]);
    expect(new Set(ci[0]).size).toBe(3);
    for (const x of ci[0]!) expect(x >= 0 && x < 1).toBe(true);
    const oi = out.Oi!;
    for (const o of oi) expect(o[1]).toBe(oi[0]![1]);
    expect(new Set(oi.map((o) => o[0])).size).toBe(4);
  });

  it('option(), attribute() and rendererinfo() write uniform variables', async () => {
    const source = `surface passes() {
  uniform string passname = "";
  uniform float weight = 0, ok = option("user:pass", passname) + attribute("user:weight", weight);
  uniform string who = "";
  ok += rendererinfo("renderer", who);
  Ci = color(passname == "beauty" ? 1 : 0, weight, ok);
  Oi = who == "webgpu-reyes" ? 1 : 0;
}`;
    const { out } = await shade(surface(source, { options: { 'user:pass': 'beauty' } }), { 'attribute:user:weight': [0.25] });
    expectClose(out.Ci, UV.map(() => [1, 0.25, 3]));
    expectClose(out.Oi, UV.map(() => [1, 1, 1]));
  });

  it('a value that varies over the grid is still refused for a uniform variable', () => {
    expect(messages(surface('surface s() {\n  uniform float x = random() * s;\n}'), 'error')).toEqual([[2, 30, "cannot assign a varying value to uniform variable 'x'"]]);
  });
});

describe('scoping', () => {
  it('parameters named max, min, mix and normalize do not hide the functions, in the shader or the library', async () => {
    const source = `surface scoped(float max = 0.75, min = 0.25, mix = 0.9, normalize = 3) {
  Ci = color(clamp(mix, min, max), max(min, mix), length(normalize(P - point(0, 0, 1) + vector(0, 0, 1))) * normalize);
  Oi = phong(N, -I, 10) + diffuse(N) * 0;
}`;
    const { out } = await shade(surface(source, { lights: ['distantlight'] }), { 'light0.intensity': [1] });
    expectClose(out.Ci, UV.map(() => [0.75, 0.9, 3]));
    // distantlight shines along +z onto N = -z: phong's R . L with V = -I; at u = v = 0 R = (0, 0, 1).
    expect(out.Oi![0]![0]).toBeCloseTo(1, 4);
  });
});

describe('small gaps', () => {
  it('array lengths are constant expressions; a length that is not a positive integer is a positioned error', async () => {
    const source = '#define K 2\nsurface arrays() {\n  float a[(1+1+1)] = { 1, 2, 4 };\n  float b[K * 2];\n  b[3] = 5;\n  Ci = color(a[0] + a[1] + a[2], b[3], 0);\n}';
    const { out } = await shade(surface(source));
    expectClose(out.Ci, UV.map(() => [7, 5, 0]));
    expect(messages(surface('surface bad() {\n  float c[2 - 2];\n  float d[s];\n}'), 'error')).toEqual([
      [2, 13, "expected a positive integer constant for the length of array 'c', found 0"],
      [3, 11, "expected a positive integer constant for the length of array 'd'"],
    ]);
  });

  it('parameters without a default warn at their position and are zero (the empty string for strings)', async () => {
    const source = 'surface nodefault(float k; color c;\n  string name) {\n  Ci = color(k) + c + (name == "" ? 1 : 0);\n  Oi = 1;\n}';
    const description = surface(source);
    expect(messages(description, 'warning')).toEqual([
      [1, 25, "shader parameter 'k' has no default value; it defaults to 0"],
      [1, 34, "shader parameter 'c' has no default value; it defaults to 0"],
      [2, 10, "shader parameter 'name' has no default value; it defaults to the empty string"],
    ]);
    const { out } = await shade(description);
    expectClose(out.Ci, UV.map(() => [1, 1, 1]));
    const given = await shadeGrid(gpu(), compilePipeline(description), 2, 2, flatGrid(), { k: [0.5], c: [0, 0.25, 0] });
    expectClose(given.Ci, UV.map(() => [1.5, 1.75, 1.5]));
  });

  it('what still cannot compile is named at its position', () => {
    expect(messages(surface('surface s(string sp = "world") {\n  float c[];\n  point p = point sp (1, 2, 3);\n}'), 'error')).toEqual([
      [2, 11, "array 'c' has no length: give one, or an initializer {...} to size it"],
      [3, 19, "'sp' is a string variable, not a function; the space of a type cast must be a string constant (transform(sp, p) looks a space up at run time)"],
    ]);
    expect(messages(surface('surface s(string q = "depth") {\n  float d = 0;\n  Ci = rayinfo(q, d);\n}'), 'warning')).toEqual([[3, 8, 'rayinfo() needs a constant query name; it returns 0']]);
  });

  it('light shaders see I, the incident ray of the point they light', async () => {
    const light = 'light eyelight() {\n  solar(vector(0, 0, 1), 0) Cl = length(I);\n}';
    const { out } = await shade(surface('surface lit() { Ci = 0; illuminance(P) Ci += Cl; }', { lights: [{ source: light, file: 'eyelight.sl' }] }));
    expectClose(out.Ci, UV.map(([u, v]) => {
      const l = Math.hypot(u, v, 1);
      return [l, l, l];
    }));
  });
});

describe('relations as components', () => {
  it('a relation inside color(...) is a float 0 or 1 (the checker allows bool → float there)', async () => {
    const { out } = await shade(surface('surface s() { Oi = 1; Ci = color(u > 0.5, v > 0.5, u > 0.5 && v > 0.5); }'));
    expectClose(out.Ci, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 1]]);
  });
});
