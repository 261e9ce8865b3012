// RIB shader parameters to a compiled pipeline's parameter block. Values given in a RIB
// (Surface, LightSource, ...) for point, vector and normal parameters are in the shader's space
// (the transform current at the call), and shader defaults such as `point "shader" (0,0,0)` are in
// the space they name; both are brought to camera space here, then stored so that the kernel's own
// load-time transform (the default's space → camera) lands on the camera value. The kernel reads
// "shader" space (per instance) and "object" space (per primitive) from the parameter block's space
// matrices, filled here too; the other spaces from FrameUniforms.
import { mat4, vec3 } from 'gl-matrix';
import type { CompiledPipeline, ParamEntry } from '../../rsl/index.ts';
import { spaceIndex } from '../../layout/grid-layout.ts';
import type { SpaceName } from '../../layout/grid-layout.ts';
import type { SourcePosition } from '../../rib/diagnostics.ts';
import type { Parameter } from '../../rib/scene.ts';
import type { KernelSpaces } from './spaces.ts';

/** One shader instance of the pipeline: "surface", "displacement", "atmosphere", "light0", ... */
export interface InstanceValues {
  instance: string;
  params: readonly Parameter[];
  /** The instance's "shader" space → camera. */
  shaderToCamera: mat4;
  /** The request that gave the values: warnings about them are placed there. */
  source?: SourcePosition;
}

export interface PackContext {
  kernelSpaces: KernelSpaces;
  objectToCamera: mat4;
  warn(message: string): void;
}

const COMPONENTS: Record<string, number> = { float: 1, string: 1, color: 3, point: 3, vector: 3, normal: 3, matrix: 16 };

function isPointLike(type: string): type is 'point' | 'vector' | 'normal' {
  return type === 'point' || type === 'vector' || type === 'normal';
}

/** Transforms a point, vector or normal by m (normals by the inverse transpose). */
export function transformTriple(kind: 'point' | 'vector' | 'normal', m: mat4, v: ArrayLike<number>): number[] {
  const x = v[0] ?? 0, y = v[1] ?? 0, z = v[2] ?? 0;
  if (kind === 'point') return Array.from(vec3.transformMat4(vec3.create(), [x, y, z], m));
  if (kind === 'vector') return [m[0]! * x + m[4]! * y + m[8]! * z, m[1]! * x + m[5]! * y + m[9]! * z, m[2]! * x + m[6]! * y + m[10]! * z];
  const inv = mat4.invert(mat4.create(), m) ?? mat4.create();
  // (M⁻¹)ᵀ n: row r of M⁻¹ᵀ is column r of M⁻¹.
  return [0, 1, 2].map((r) => inv[r * 4]! * x + inv[r * 4 + 1]! * y + inv[r * 4 + 2]! * z);
}

function mapTriples(values: number[], f: (triple: number[]) => number[]): number[] {
  const out: number[] = [];
  for (let k = 0; k + 2 < values.length; k += 3) out.push(...f(values.slice(k, k + 3)));
  return out;
}

function spaceToCamera(space: string, instance: InstanceValues, ctx: PackContext): mat4 {
  if (space === 'shader') return instance.shaderToCamera;
  if (space === 'object') return ctx.objectToCamera;
  const k = spaceIndex(space);
  return k === undefined ? mat4.create() : ctx.kernelSpaces[(space === 'current' ? 'camera' : space) as SpaceName];
}

/** The override for one parameter entry, or undefined to keep the compiled default. */
function entryValue(entry: ParamEntry, instance: InstanceValues, ctx: PackContext): number[] | string | undefined {
  const given = instance.params.find((p) => p.name === entry.name);
  const count = (COMPONENTS[entry.type] ?? 1) * (entry.arrayLength ?? 1);
  let camera: number[] | undefined;
  if (given) {
    if (entry.type === 'string') {
      if (typeof given.values[0] === 'string') return given.values[0];
      ctx.warn(`parameter "${entry.name}" of shader "${entry.shader}" is a string; the RIB gave numbers (ignored)`);
      return undefined;
    }
    const numbers = given.values.filter((v): v is number => typeof v === 'number');
    if (numbers.length !== count) {
      ctx.warn(`parameter "${entry.name}" of shader "${entry.shader}" needs ${count} number(s), the RIB gave ${given.values.length} (ignored)`);
      return undefined;
    }
    if (!isPointLike(entry.type)) return numbers;
    const kind = entry.type;
    camera = mapTriples(numbers, (t) => transformTriple(kind, instance.shaderToCamera, t));
  } else {
    if (entry.space === undefined || !isPointLike(entry.type) || typeof entry.default === 'string') return undefined;
    const kind = entry.type;
    const m = spaceToCamera(entry.space, instance, ctx);
    camera = mapTriples(entry.default, (t) => transformTriple(kind, m, t));
  }
  if (entry.space === undefined) return camera;
  // The kernel applies toCurrent[space] on load: store the value in that (kernel) space.
  const kind = entry.type as 'point' | 'vector' | 'normal';
  const fromCamera = mat4.invert(mat4.create(), spaceToKernel(entry.space, instance, ctx)) ?? mat4.create();
  return mapTriples(camera, (t) => transformTriple(kind, fromCamera, t));
}

/** The matrix the kernel applies on load for a default given in `space`. */
function spaceToKernel(space: string, instance: InstanceValues, ctx: PackContext): mat4 {
  if (space === 'shader') return instance.shaderToCamera;
  if (space === 'object') return ctx.objectToCamera;
  return ctx.kernelSpaces[(space === 'current' ? 'camera' : space) as SpaceName] ?? mat4.create();
}

/** Overrides by "instance.name" for packParameters. */
export function parameterOverrides(compiled: Pick<CompiledPipeline, 'params'>, instances: readonly InstanceValues[], ctx: PackContext): Record<string, number[] | string> {
  const overrides: Record<string, number[] | string> = {};
  for (const entry of compiled.params.entries) {
    const instance = instances.find((i) => i.instance === entry.instance);
    if (!instance) continue;
    const at = instance.source ? `${instance.source.file}:${instance.source.line}:${instance.source.column}: ` : '';
    const warn = (message: string): void => ctx.warn(`${at}${message}`);
    const value = entryValue(entry, instance, { ...ctx, warn });
    if (value !== undefined) overrides[`${entry.instance}.${entry.name}`] = value;
    const space = value ?? entry.default;
    if (entry.namesSpace && typeof space === 'string' && spaceIndex(space) === undefined && !ctx.kernelSpaces.named?.[space]) {
      warn(`parameter "${entry.name}" of shader "${entry.shader}" names the space "${space}", which is neither a standard space nor a CoordinateSystem of the scene; the identity is used`);
    }
    // The compile warned as for the default; a RIB value "raytrace" asks for the traced environment.
    if (entry.namesEnvironment && value === 'raytrace' && entry.default !== 'raytrace') {
      warn(`parameter "${entry.name}" of shader "${entry.shader}" is "raytrace", the ray-traced environment: this renderer does not trace rays, so environment() returns 0`);
    }
  }
  // Space matrices: an instance's shader → camera (world → camera for an instance the RIB did not
  // name, e.g. the default surface standing in for a missing one), the primitive's object → camera.
  for (const m of compiled.params.spaceMatrices ?? []) {
    if (m.space === 'named') {
      // A scene coordinate system; one the scene does not define stays the identity.
      const named = ctx.kernelSpaces.named?.[m.name];
      if (named) overrides[`${m.instance}.${m.name}`] = Array.from(named);
      continue;
    }
    const matrix = m.space === 'object' ? ctx.objectToCamera : (instances.find((i) => i.instance === m.instance)?.shaderToCamera ?? ctx.kernelSpaces.world);
    overrides[`${m.instance}.${m.name}`] = Array.from(matrix);
  }
  return overrides;
}
