// RSL conformance leftovers of issue 10: uniform user functions, textureinfo() array outputs, shader
// parameters that are arrays without a length, run-time strings in match(), and environment() with a
// run-time "raytrace" name. Snippets compile and run on Dawn on a 2×2 grid; expected values are
// worked out by hand from the RenderMan Interface 3.2.
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../src/rib/scene.ts';
import { parameterOverrides } from '../../src/reyes/shading/shader-params.ts';
import type { KernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { PipelineDescription } from '../../src/rsl/compile.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { expectClose, flatGrid, messages, shadeFlatGrid, surface, UV } from './flat-grid.ts';
import { shadeGrid } from './grid-runner.ts';

const gpu = useGpuRuntime();

const shade = (description: PipelineDescription, overrides: Record<string, number[] | string> = {}) => shadeFlatGrid(gpu(), description, overrides);

describe('user functions in a uniform context', () => {
  it('a function returning random() gives a uniform variable one value per grid, a varying one a stream', async () => {
    const source = `float myrand() { return random(); }
color rgb() { return color(myrand(), random(), 0.5); }
surface s() {
  uniform float r = myrand();
  uniform color c = rgb();
  float v = myrand();
  Ci = color(r, v, 0);
  Oi = c;
}`;
    const { out } = await shade(surface(source));
    const ci = out.Ci!;
    for (const c of ci) expect(c[0]).toBe(ci[0]![0]);
    expect(ci[0]![0]! >= 0 && ci[0]![0]! < 1).toBe(true);
    expect(new Set(ci.map((c) => c[1])).size).toBe(4);
    const oi = out.Oi!;
    for (const o of oi) expect(o).toEqual(oi[0]);
    expect(oi[0]![0]).not.toBe(oi[0]![1]);
    expect(oi[0]![2]).toBe(0.5);
  });

  it('a function reading a varying input or given a varying argument is still refused for a uniform variable', () => {
    const source = `float at() { return random() + s; }
float scaled(float x) { return x * random(); }
surface s() {
  uniform float a = at();
  uniform float b = scaled(t);
}`;
    expect(messages(surface(source), 'error')).toEqual([
      [4, 21, "cannot assign a varying value to uniform variable 'a'"],
      [5, 21, "cannot assign a varying value to uniform variable 'b'"],
    ]);
  });
});

describe('shader parameters that are arrays without a length', () => {
  const source = `surface sized(float a[] = {1, 2, 3}; color c[] = {color(0.5, 0, 0), color(0, 0.25, 0)}) {
  Ci = color(arraylength(a), a[2], arraylength(c)) + c[1];
  Oi = a[0] + a[1];
}`;

  it('take the length of their default; arraylength() sees it', async () => {
    const { compiled, out } = await shade(surface(source));
    expect(compiled.params.entries.filter((e) => e.instance === 'surface').map((e) => [e.name, e.arrayLength, e.default])).toEqual([
      ['a', 3, [1, 2, 3]],
      ['c', 2, [0.5, 0, 0, 0, 0.25, 0]],
    ]);
    expectClose(out.Ci, UV.map(() => [3, 3.25, 2]));
    expectClose(out.Oi, UV.map(() => [3, 3, 3]));
  });

  it('a RIB value of the default\'s length replaces it; another length warns and keeps the default', async () => {
    const compiled = compilePipeline(surface(source));
    const warnings: string[] = [];
    const request = { file: 'scene.rib', line: 3, column: 1 };
    const instance = (values: number[]) => [{ instance: 'surface', shaderToCamera: mat4.create(), source: request, params: [{ name: 'a', type: 'float', arrayLength: 3, values, inferred: true } as Parameter] }];
    const ctx = { kernelSpaces: {} as KernelSpaces, objectToCamera: mat4.create(), warn: (m: string) => warnings.push(m) };
    const given = parameterOverrides(compiled, instance([4, 5, 6]), ctx);
    expect(given['surface.a']).toEqual([4, 5, 6]);
    const out = await shadeGrid(gpu(), compiled, 2, 2, flatGrid(), given);
    expectClose(out.Ci, UV.map(() => [3, 6.25, 2]));
    expectClose(out.Oi, UV.map(() => [9, 9, 9]));
    expect(warnings).toEqual([]);
    expect(parameterOverrides(compiled, instance([4, 5]), ctx)['surface.a']).toBeUndefined();
    // At the request that gave the value.
    expect(warnings).toEqual(['scene.rib:3:1: parameter "a" of shader "sized" needs 3 number(s), the RIB gave 2 (ignored)']);
  });

  it('an array without a length or an initializer to size it is a positioned error', () => {
    expect(messages(surface('surface s() {\n  float a[];\n  float b[] = 2;\n}'), 'error')).toEqual([
      [2, 11, "array 'a' has no length: give one, or an initializer {...} to size it"],
      [3, 11, "array 'b' has no length: give one, or an initializer {...} to size it"],
    ]);
  });
});

describe('textureinfo()', () => {
  it('takes the spec\'s outputs (float[2] resolution, matrices, string, float); without the map it returns 0 and leaves them unchanged', async () => {
    const source = `surface info(string map = "grid.tx") {
  uniform float res[2] = {7, 8}, channels = 5;
  uniform matrix vm = matrix(2), pm = matrix(3);
  uniform string kind = "none";
  uniform float ok = textureinfo(map, "resolution", res) + textureinfo(map, "viewingmatrix", vm)
    + textureinfo(map, "projectionmatrix", pm) + textureinfo(map, "type", kind) + textureinfo(map, "channels", channels);
  Ci = color(res[0], res[1], ok);
  Oi = color(comp(vm, 0, 0), comp(pm, 1, 1), kind == "none" ? channels : -1);
}`;
    const description = surface(source);
    expect(messages(description, 'warning')).toEqual([]);
    const { out } = await shade(description);
    expectClose(out.Ci, UV.map(() => [7, 8, 0]));
    expectClose(out.Oi, UV.map(() => [2, 3, 5]));
  });

  it('warns at a data name the spec does not list and at an output of the wrong shape', () => {
    const source = `surface info() {
  float r = 0, res[3] = {0, 0, 0};
  float ok = textureinfo("a.tx", "resolutoin", r) + textureinfo("a.tx", "resolution", res) + textureinfo("a.tx", "viewingmatrix", r);
}`;
    expect(messages(surface(source), 'warning')).toEqual([
      [3, 34, 'textureinfo(): unknown data name "resolutoin"; the spec\'s are "resolution" (float[2]), "type" (string), "channels" (float), "viewingmatrix" (matrix), "projectionmatrix" (matrix)'],
      [3, 87, 'textureinfo(): "resolution" is a float[2], the output variable is a float[3]; it is never set'],
      [3, 131, 'textureinfo(): "viewingmatrix" is a matrix, the output variable is a float; it is never set'],
    ]);
  });
});

describe('environment() with a name known at run time', () => {
  const RAY_WARNING = 'this renderer does not trace rays: trace(), occlusion(), indirectdiffuse() and environment("raytrace") return 0, transmission() and visibility() 1, and gather runs its else branch for every sample (warned once per shader)';
  const mirror = (name: string) => `surface mirror(string envname = "${name}"; float Kr = 1) {
  color refl = environment(envname, reflect(I, N));
  Ci = 0.25 + Kr * refl;
  Oi = Os;
}`;

  it('a parameter whose default is "raytrace" is the traced environment (0, the one ray-tracing warning)', async () => {
    const description = surface(mirror('raytrace'));
    expect(messages(description, 'warning')).toEqual([[2, 16, RAY_WARNING]]);
    const { compiled, out } = await shade(description);
    expect(compiled.params.entries.find((e) => e.name === 'envname')?.namesEnvironment).toBe(true);
    expectClose(out.Ci, UV.map(() => [0.25, 0.25, 0.25]));
  });

  it('another default is a map lookup (the fill value 0 with no map bound); a RIB value "raytrace" warns at render time that the environment is traced', async () => {
    const description = surface(mirror('sky.env'));
    expect(messages(description, 'warning')).toEqual([]);
    const compiled = compilePipeline(description);
    const warnings: string[] = [];
    const ctx = { kernelSpaces: {} as KernelSpaces, objectToCamera: mat4.create(), warn: (m: string) => warnings.push(m) };
    const given = (value: string) => [{ instance: 'surface', shaderToCamera: mat4.create(), params: [{ name: 'envname', type: 'string', values: [value], inferred: false } as Parameter] }];
    parameterOverrides(compiled, given('other.env'), ctx);
    expect(warnings).toEqual([]);
    const overrides = parameterOverrides(compiled, given('raytrace'), ctx);
    expect(warnings).toEqual(['parameter "envname" of shader "mirror" is "raytrace", the ray-traced environment: this renderer does not trace rays, so environment() returns 0']);
    const out = await shadeGrid(gpu(), compiled, 2, 2, flatGrid(), overrides);
    expectClose(out.Ci, UV.map(() => [0.25, 0.25, 0.25]));
  });
});

describe('match() and concat() of strings known only at run time', () => {
  it('match() with a constant pattern looks the run-time subject up per token: the shader\'s strings and the scene\'s', async () => {
    const source = `surface passes(string pass = "shadow_key"; string other = "beauty") {
  uniform string name = "";
  attribute("identifier:name", name);
  string pick = s > 0.5 ? "rim_shadow" : "diffuse";
  Ci = color(match("^shadow", pass), match("shadow", pick), match("^b.*y$", other));
  Oi = color(match("^shadow", other), match("[0-9]+", name), match("shadow", "no"));
}`;
    const description = surface(source);
    expect(messages(description, 'error')).toEqual([]);
    const { compiled, out } = await shade(description);
    expect(compiled.params.matchTables?.map((t) => t.pattern)).toEqual(['^shadow', 'shadow', '^b.*y$', '[0-9]+']);
    // Defaults: "shadow_key" matches ^shadow; pick is "rim_shadow" where s = 1; "beauty" matches ^b.*y$.
    expectClose(out.Ci, UV.map(([u]) => [1, u, 1]));
    // No attribute given: name stays "" (no digits).
    expectClose(out.Oi, UV.map(() => [0, 0, 0]));
    // Values the shader never mentions (fresh tokens) are matched too.
    const given = await shadeGrid(gpu(), compiled, 2, 2, flatGrid(), { pass: 'beauty_pass', other: 'shadowy', 'attribute:identifier:name': 'sphere42' });
    // "beauty_pass" does not start with shadow; "shadowy" does not start with b.
    expectClose(given.Ci, UV.map(([u]) => [0, u, 0]));
    expectClose(given.Oi, UV.map(() => [1, 1, 0]));
  });

  it('concat() of run-time strings and match() with a run-time pattern stay positioned errors', () => {
    const source = `surface s(string a = "x"; string p = "^x") {
  string c = concat(a, "y");
  float m = match(p, "xyz");
  float bad = match("(", a);
}`;
    expect(messages(surface(source), 'error')).toEqual([
      [2, 14, 'concat() of strings not known at compile time is not supported on the GPU (strings are tokens there: it cannot make new ones)'],
      [3, 13, 'match() with a pattern not known at compile time is not supported on the GPU (strings are tokens there: give the pattern as a constant string; the subject may vary)'],
      [4, 15, 'bad regular expression "("'],
    ]);
  });
});
