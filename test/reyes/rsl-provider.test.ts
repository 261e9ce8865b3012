// The RSL shading provider without a GPU: kernels per composition, parameter blocks with RIB values
// in camera space, shader lookup through the injected function and the search path, and the
// fallbacks (default surface, skipped lights) with their warnings.
import { mat4, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { RslShadingProvider, type ShaderLookup } from '../../src/reyes/shading/rsl-provider.ts';
import type { ShadingInstance } from '../../src/reyes/shading/shading-kernel.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import type { Frame } from '../../src/rib/scene.ts';
import { gridLayout } from '../../src/rsl/index.ts';
import { frameFromText } from './render-helpers.ts';

const layout = gridLayout(64);

function shadeAll(provider: RslShadingProvider, frame: Frame): { instances: ShadingInstance[]; warnings: string[] } {
  const spaces = kernelSpaces(frameCamera(frame));
  const warnings: string[] = [];
  const warn = (m: string): void => void (warnings.includes(m) || warnings.push(m));
  const instances = frame.primitives.map((p) => provider.provide({
    attributes: p.attributes,
    lights: p.attributes.lights.map((id) => frame.lights[id]!),
    layout,
    options: frame.options,
    objectToCamera: mat4.multiply(mat4.create(), spaces.world, p.objectToWorld as unknown as mat4),
    spaces,
    warn,
  }));
  return { instances, warnings };
}

/** The packed value of instance.name in a primitive's parameter block. */
function value(provider: RslShadingProvider, shaded: ShadingInstance, instance: string, name: string): number[] {
  const compiled = provider.compiled(shaded.kernel.key);
  const entry = compiled?.params.entries.find((e) => e.instance === instance && e.name === name);
  if (!entry) throw new Error(`no ${instance}.${name}`);
  const n = entry.type === 'float' ? 1 : 3;
  return Array.from(shaded.params.subarray(entry.offset / 4, entry.offset / 4 + n));
}

/** The space matrix (space → camera, 16 floats) of an instance in a primitive's parameter block. */
function spaceMatrix(provider: RslShadingProvider, shaded: ShadingInstance, instance: string): mat4 {
  const compiled = provider.compiled(shaded.kernel.key);
  const entry = compiled?.params.spaceMatrices.find((m) => m.instance === instance);
  if (!entry) throw new Error(`no space matrix for ${instance}`);
  return shaded.params.slice(entry.offset / 4, entry.offset / 4 + 16) as unknown as mat4;
}

const HEADER = 'Format 32 24 1\nProjection "perspective" "fov" 40\nTranslate 0 0 5\nWorldBegin\n';

describe('RslShadingProvider', () => {
  it('compiles one kernel per composition and one parameter block per primitive', async () => {
    const frame = await frameFromText(`${HEADER}LightSource "distantlight" 1
AttributeBegin Surface "plastic" "Kd" [0.25] Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Surface "plastic" "Kd" [0.75] Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Surface "matte" Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Illuminate 1 0 Surface "plastic" Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Surface "plastic" Sphere 1 -1 1 360 Translate 1 0 0 Sphere 1 -1 1 360 AttributeEnd
WorldEnd`);
    const provider = new RslShadingProvider();
    const { instances: [a, b, c, d, e, f], warnings } = shadeAll(provider, frame);
    // Primitives declared under one attribute state share their instance (one block in the frame).
    expect(e).toBe(f);
    expect(e).not.toBe(a);
    expect(warnings).toEqual([]);
    expect(a!.kernel).toBe(b!.kernel);
    expect(c!.kernel.key).not.toBe(a!.kernel.key);
    expect(d!.kernel.key).not.toBe(a!.kernel.key); // no lights: another composition
    expect(value(provider, a!, 'surface', 'Kd')).toEqual([0.25]);
    expect(value(provider, b!, 'surface', 'Kd')).toEqual([0.75]);
    expect(value(provider, a!, 'surface', 'Ks')).toEqual([0.5]); // the shader's default
    expect(a!.kernel.keepsOpaque).toBe(true);
    expect(provider.compiler.stats.misses).toBe(3);
  });

  it('brings light positions given in the light\'s space, and shader-space defaults, to camera space', async () => {
    // The light is declared under Translate 1 2 3 (its shader space); the camera is 5 units back.
    const frame = await frameFromText(`${HEADER}TransformBegin Translate 1 2 3
LightSource "pointlight" 1 "from" [0 1 0]
LightSource "distantlight" 2
TransformEnd
Surface "matte"
Sphere 1 -1 1 360
WorldEnd`);
    const provider = new RslShadingProvider();
    const { instances: [shaded] } = shadeAll(provider, frame);
    const camera = (world: number[]): number[] => Array.from(vec3.transformMat4(vec3.create(), world as vec3, frame.camera.worldToCamera as unknown as mat4));
    const close = (got: number[], want: number[]): void => got.forEach((g, k) => expect(g).toBeCloseTo(want[k]!, 5));
    // pointlight's from is a "shader" point: the RIB value in the light's space, loaded by the kernel
    // through light0's own shader → camera matrix.
    const light0 = (v: number[]): number[] => Array.from(vec3.transformMat4(vec3.create(), v as vec3, spaceMatrix(provider, shaded!, 'light0')));
    close(light0(value(provider, shaded!, 'light0', 'from')), camera([1, 3, 3]));
    close(value(provider, shaded!, 'light0', 'from'), [0, 1, 0]);
    // distantlight's defaults: from = point "shader" (0,0,0), to = point "shader" (0,0,1); the kernel
    // transforms them by the instance's own shader → camera matrix from the block.
    const toCamera = spaceMatrix(provider, shaded!, 'light1');
    close(Array.from(mat4.multiply(mat4.create(), frame.camera.worldToCamera as unknown as mat4, mat4.fromTranslation(mat4.create(), [1, 2, 3]))), Array.from(toCamera));
    const kernelValue = (v: number[]): number[] => Array.from(vec3.transformMat4(vec3.create(), v as vec3, toCamera));
    close(kernelValue(value(provider, shaded!, 'light1', 'from')), camera([1, 2, 3]));
    close(kernelValue(value(provider, shaded!, 'light1', 'to')), camera([1, 2, 4]));
    // The stored values are the defaults themselves, in shader space.
    close(value(provider, shaded!, 'light1', 'to'), [0, 0, 1]);
  });

  it('finds shaders through the lookup with the RIB search path, "&" standing for the configured one', async () => {
    const frame = await frameFromText(`Option "searchpath" "shader" ["mine:&"]
${HEADER}Surface "tinted" "tint" [0 1 0]
Sphere 1 -1 1 360
WorldEnd`);
    const asked: string[][] = [];
    const lookup: ShaderLookup = (name, searchPath) => {
      asked.push([name, ...searchPath]);
      return name === 'tinted' ? { file: 'mine/tinted.sl', text: 'surface tinted(color tint = 1) { Oi = Os; Ci = Os * Cs * tint; }' } : undefined;
    };
    const provider = new RslShadingProvider({ lookup, searchPath: ['/configured'] });
    const { instances: [shaded], warnings } = shadeAll(provider, frame);
    expect(warnings).toEqual([]);
    expect(asked).toEqual([['tinted', 'mine', '/configured']]);
    expect(shaded!.kernel.key).toMatch(/^rsl:/);
    expect(value(provider, shaded!, 'surface', 'tint')).toEqual([0, 1, 0]);
    // The compiler sees Oi = Os in a shader from a file too: the opaque fast path holds.
    expect(shaded!.kernel.keepsOpaque).toBe(true);
  });

  it('falls back with warnings: missing surface, broken shader with file:line:col, missing light, unknown parameter', async () => {
    const frame = await frameFromText(`${HEADER}LightSource "nosuchlight" 1
LightSource "distantlight" 2
AttributeBegin Surface "nosuchsurface" Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Surface "broken" Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Displacement "nosuchdisplacement" Surface "matte" "Kx" [1] Sphere 1 -1 1 360 AttributeEnd
WorldEnd`);
    const lookup: ShaderLookup = (name) => (name === 'broken' ? { file: 'broken.sl', text: 'surface broken() {\n  Ci = undefinedThing;\n}' } : undefined);
    const provider = new RslShadingProvider({ lookup });
    const { instances: [missing, broken, matte], warnings } = shadeAll(provider, frame);
    expect(missing!.kernel.key).toMatch(/^builtin:defaultsurface/);
    expect(broken!.kernel.key).toMatch(/^builtin:defaultsurface/);
    // Each at the request that names the shader (line:column in the RIB text).
    expect(warnings).toContain('<input>:7:16: surface shader "nosuchsurface" not found; using the default surface');
    expect(warnings.find((w) => w.startsWith('<input>:8:16: surface shader "broken" does not compile (1 error in broken.sl); using the default surface\n'))).toMatch(/broken\.sl:2:\d+: error/);
    expect(warnings).toContain('<input>:5:1: light shader "nosuchlight" not found; the light is skipped');
    expect(warnings).toContain('<input>:9:16: displacement shader "nosuchdisplacement" not found; left out');
    expect(warnings).toContain('"Kx" is not a parameter of shader "matte"; ignored');
    // The matte primitive keeps the light that exists: one light instance in its block.
    const compiled = provider.compiled(matte!.kernel.key)!;
    expect(new Set(compiled.params.entries.map((e) => e.instance))).toEqual(new Set(['surface', 'light0']));
    expect(compiled.params.entries.find((e) => e.instance === 'light0')!.shader).toBe('distantlight');
  });

  it('keeps the built-in kernels for the default and constant surfaces, and compiles the default surface when displaced', async () => {
    const frame = await frameFromText(`${HEADER}Sphere 1 -1 1 360
AttributeBegin Surface "constant" Sphere 1 -1 1 360 AttributeEnd
AttributeBegin Displacement "dented" Sphere 1 -1 1 360 AttributeEnd
WorldEnd`);
    const { instances: [plain, constant, displaced], warnings } = shadeAll(new RslShadingProvider(), frame);
    expect(plain!.kernel.key).toMatch(/^builtin:defaultsurface/);
    expect(constant!.kernel.key).toMatch(/^builtin:constant/);
    expect(displaced!.kernel.label).toBe('rsl defaultsurface+dented');
    expect(warnings).toEqual([]);
  });
});
