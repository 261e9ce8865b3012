// Primitive variables by storage class: the values of Cs, Os, s, t, st and N at the corners of a
// GPU record. A corner names its place once per storage class (the uniform face, the varying and
// vertex index, the facevarying index); each variable reads the index its class asks for.
import type { Attributes, Parameter } from '../rib/scene.ts';
import type { GridVariableType } from '../layout/grid-layout.ts';
import { bezierControls, type BicubicGrid } from './convert/bezier.ts';

/** Primitive variables the renderer itself consumes; the others are user variables. */
const STANDARD = new Set(['P', 'Pw', 'Pz', 'N', 'Np', 'Cs', 'Os', 's', 't', 'st', 'width', 'constantwidth']);
const USER_TYPES: ReadonlySet<string> = new Set(['float', 'color', 'point', 'vector', 'normal']);

/**
 * The user primitive variables of a frame's primitives (scalar float, color, point, vector, normal),
 * in first-seen order: they join the frame's grid layout after the standard variables, and a shader
 * parameter of the same name (and size) reads them per vertex. A name met again with another type
 * keeps its first type (the other primitive's values are ignored, with a warning).
 */
export function userPrimitiveVariables(primitives: readonly { geometry: { params: readonly Parameter[] } }[], warn: (message: string) => void = () => {}): { name: string; type: GridVariableType }[] {
  const found = new Map<string, GridVariableType>();
  for (const primitive of primitives) {
    for (const p of primitive.geometry.params) {
      if (STANDARD.has(p.name) || !USER_TYPES.has(p.type) || (p.arrayLength !== null && p.arrayLength !== 1)) continue;
      const known = found.get(p.name);
      if (known === undefined) found.set(p.name, p.type as GridVariableType);
      else if (known !== p.type) warn(`primitive variable "${p.name}" is a ${p.type} here and a ${known} elsewhere in the frame; this one is ignored`);
    }
  }
  return [...found].map(([name, type]) => ({ name, type }));
}

/** TextureCoordinates' s (k 0) or t (k 1) at a corner's surface (u, v): bilinear between the
 * four pairs. (A module function: one made per corner cost a million points a second of naming.) */
function textureCoordinate(tc: readonly number[], ref: CornerRef, k: number): number {
  return (1 - ref.u) * (1 - ref.v) * tc[k]! + ref.u * (1 - ref.v) * tc[k + 2]! + (1 - ref.u) * ref.v * tc[k + 4]! + ref.u * ref.v * tc[k + 6]!;
}

/** Numbers per element of a primitive variable ("float[2] st" has 2; a color 3). */
function elementSize(param: Parameter, components: number): number {
  const base = param.type === 'float' || param.type === 'integer' ? 1 : param.type === 'color' || param.type === 'point' || param.type === 'vector' || param.type === 'normal' ? 3 : param.type === 'hpoint' ? 4 : param.type === 'matrix' ? 16 : components;
  return base * (param.arrayLength ?? 1);
}

export interface CornerRef {
  uniform: number;
  varying: number;
  vertex: number;
  facevarying: number;
  /** Surface (u, v) of the corner, for the default s, t (TextureCoordinates). */
  u: number;
  v: number;
}

/** Corner values in record order: 4 corners × components. */
export interface CornerValues {
  s: number[];
  t: number[];
  Cs: number[];
  Os: number[];
  /** Object-space corner normals, when the primitive gives N. */
  N: number[] | undefined;
  /** User variables (corners(..., user)): per variable, per component, the four corners. */
  user: number[];
}

export class Primvars {
  private readonly byName = new Map<string, Parameter>();

  constructor(params: readonly Parameter[]) {
    for (const p of params) this.byName.set(p.name, p);
  }

  get(name: string): Parameter | undefined {
    return this.byName.get(name);
  }

  /** `components` numbers of `param` at corner `ref` (by the parameter's storage class). */
  valueAt(param: Parameter, ref: CornerRef, components: number): number[] {
    const values = param.values as number[];
    let index: number;
    switch (param.storage) {
      case 'constant': index = 0; break;
      case 'uniform': index = ref.uniform; break;
      case 'varying': index = ref.varying; break;
      case 'vertex': index = ref.vertex; break;
      case 'facevarying': case 'facevertex': index = ref.facevarying; break;
    }
    const stride = elementSize(param, components);
    const out: number[] = [];
    for (let c = 0; c < components; c++) out.push(values[index * stride + c] ?? 0);
    return out;
  }

  /** The record's corner values for `refs` (four corners, record order). */
  corners(attributes: Attributes, refs: readonly CornerRef[], user: readonly { name: string; type: GridVariableType }[] = []): CornerValues {
    const cs = this.get('Cs');
    const os = this.get('Os');
    const st = this.get('st');
    const s = this.get('s');
    const t = this.get('t');
    const n = this.get('N');
    const out: CornerValues = { s: [], t: [], Cs: [], Os: [], N: n ? [] : undefined, user: [] };
    const tc = attributes.textureCoordinates;
    for (const ref of refs) {
      out.Cs.push(...(cs ? this.valueAt(cs, ref, 3) : attributes.color.slice(0, 3)));
      out.Os.push(...(os ? this.valueAt(os, ref, 3) : attributes.opacity.slice(0, 3)));
      const stValue = st ? this.valueAt(st, ref, 2) : undefined;
      out.s.push(s ? this.valueAt(s, ref, 1)[0]! : stValue ? stValue[0]! : textureCoordinate(tc, ref, 0));
      out.t.push(t ? this.valueAt(t, ref, 1)[0]! : stValue ? stValue[1]! : textureCoordinate(tc, ref, 1));
      if (n && out.N) out.N.push(...this.valueAt(n, ref, 3));
    }
    // Component-major, as the dicer reads them: variable, component, corner.
    for (const variable of user) {
      const components = variable.type === 'float' ? 1 : 3;
      const p = this.get(variable.name);
      const mine = p !== undefined && p.type === variable.type;
      const values = refs.map((ref) => (mine ? this.valueAt(p, ref, components) : new Array<number>(components).fill(0)));
      for (let c = 0; c < components; c++) for (const v of values) out.user.push(v[c] ?? 0);
    }
    return out;
  }

  /**
   * A vertex-class `param` on a bicubic patch as Bézier control values, like P: component-major
   * (`components` rows of 16 values, row v, column u), components `first` onwards. Undefined for
   * the other storage classes (they stay corner values).
   */
  bicubicControls(param: Parameter, grid: BicubicGrid, components: number, first = 0): number[][] | undefined {
    if (param.storage !== 'vertex') return undefined;
    const values = param.values as number[];
    const stride = elementSize(param, components);
    const interleaved = bezierControls((l, k) => {
      const at = grid.index(l, k) * stride + first;
      return Array.from({ length: components }, (_, c) => values[at + c] ?? 0);
    }, components, grid.cu, grid.cv);
    return Array.from({ length: components }, (_, c) => Array.from({ length: 16 }, (_, i) => interleaved[i * components + c]!));
  }

  /** Positions: P, or Pw divided by w. */
  positions(): number[] | undefined {
    const p = this.get('P');
    if (p) return p.values as number[];
    const pw = this.get('Pw');
    if (!pw) return undefined;
    const v = pw.values as number[];
    const out: number[] = [];
    for (let i = 0; i + 3 < v.length; i += 4) {
      const w = v[i + 3]! || 1;
      out.push(v[i]! / w, v[i + 1]! / w, v[i + 2]! / w);
    }
    return out;
  }
}
