// What every primitive converter shares: the record fields common to a primitive's pieces, and
// emitting one piece with its corner values (N taken to camera space with the normal matrix), and on
// bicubic patches the Bézier control values of its vertex-class variables (bezier.ts).
import { vec3, type mat3, type mat4 } from 'gl-matrix';
import type { SourcePosition } from '../../rib/diagnostics.ts';
import type { Attributes } from '../../rib/scene.ts';
import type { GridVariableType } from '../../layout/grid-layout.ts';
import type { CornerRef, CornerValues, Primvars } from '../primvars.ts';
import type { PrimitiveKindName } from '../../layout/primitive-record.ts';
import type { BicubicVertexValues, PrimitiveRecordInput, PrimitiveRecords } from '../primitive-record.ts';
import type { BicubicGrid } from './bezier.ts';

export interface ConvertContext {
  records: PrimitiveRecords;
  /** Index of the scene primitive. */
  source: number;
  /** Where the primitive's request is, for messages about it. */
  position?: SourcePosition;
  common: Pick<PrimitiveRecordInput, 'flags' | 'paramBase' | 'pipeline' | 'shadingRate' | 'displacementBound' | 'objectToCamera' | 'lod' | 'motion' | 'trim' | 'solid'>;
  /** object → camera for normals (inverse transpose). */
  normalMatrix: mat3;
  primvars: Primvars;
  attributes: Attributes;
  /** Deformation blur: each record's own motion block (its shape at each key), by the index it is
   * added at; where given, it replaces common.motion. */
  motionOf?: (record: number) => Float32Array;
  /** The frame's user primitive variables (grid layout order). */
  user?: readonly { name: string; type: GridVariableType }[];
  warn(message: string): void;
}

/** A point, vector or normal (xyz in `v`) from object to camera space, in place. */
export function toCamera(ctx: ConvertContext, type: GridVariableType, v: vec3): void {
  if (type === 'point') vec3.transformMat4(v, v, ctx.common.objectToCamera as mat4);
  else if (type === 'normal') vec3.transformMat3(v, v, ctx.normalMatrix);
  else if (type === 'vector') {
    const m = ctx.common.objectToCamera;
    const [x, y, z] = [v[0], v[1], v[2]];
    vec3.set(v, m[0]! * x + m[4]! * y + m[8]! * z, m[1]! * x + m[5]! * y + m[9]! * z, m[2]! * x + m[6]! * y + m[10]! * z);
  }
}

/** Rows of a 3-component variable (component-major, `count` values a row) to camera space. */
function rowsToCamera(ctx: ConvertContext, type: GridVariableType, rows: number[][], count: number): void {
  if (type === 'float' || type === 'color') return;
  for (let k = 0; k < count; k++) {
    const v = vec3.fromValues(rows[0]![k]!, rows[1]![k]!, rows[2]![k]!);
    toCamera(ctx, type, v);
    for (let c = 0; c < 3; c++) rows[c]![k] = v[c]!;
  }
}

/** The vertex-class variables of a bicubic piece as Bézier control values (camera space where
 * they are points, vectors or normals). */
function bicubicVertexValues(ctx: ConvertContext, grid: BicubicGrid): BicubicVertexValues | undefined {
  const pv = ctx.primvars;
  const out: BicubicVertexValues = {};
  let any = false;
  const take = (name: string, components: number, first = 0): number[][] | undefined => {
    const p = pv.get(name);
    const rows = p ? pv.bicubicControls(p, grid, components, first) : undefined;
    if (rows) any = true;
    return rows;
  };
  const cs = take('Cs', 3);
  if (cs) out.Cs = cs.flat();
  const os = take('Os', 3);
  if (os) out.Os = os.flat();
  // s and t as corners() reads them: s and t, else st.
  const s = pv.get('s') ? take('s', 1) : pv.get('st') ? take('st', 1, 0) : undefined;
  if (s) out.s = s.flat();
  const t = pv.get('t') ? take('t', 1) : pv.get('st') ? take('st', 1, 1) : undefined;
  if (t) out.t = t.flat();
  const n = take('N', 3);
  if (n) {
    rowsToCamera(ctx, 'normal', n, 16);
    out.N = n.flat();
  }
  const userRows: (number[] | undefined)[] = [];
  for (const variable of ctx.user ?? []) {
    const components = variable.type === 'float' ? 1 : 3;
    const p = pv.get(variable.name);
    const rows = p && p.type === variable.type ? pv.bicubicControls(p, grid, components) : undefined;
    if (rows) {
      any = true;
      rowsToCamera(ctx, variable.type, rows, 16);
    }
    for (let c = 0; c < components; c++) userRows.push(rows?.[c]);
  }
  if (userRows.some((r) => r !== undefined)) out.userRows = userRows;
  return any ? out : undefined;
}

/**
 * Adds one record: `geometry` in the kind's form, its corner values from the primitive variables at
 * `refs`; for a bicubic piece, `grid` (its 4×4 control grid and basis conversions) makes vertex-class
 * variables follow the patch basis like P instead of the four corners. `geometryToCamera` places the
 * geometry where it is not in object space (camera-facing points and curves); the variables are still
 * taken to camera space with the object's matrix.
 */
export function emitPiece(ctx: ConvertContext, kind: PrimitiveKindName, geometry: ArrayLike<number>, refs: readonly CornerRef[], grid?: BicubicGrid, geometryToCamera?: ArrayLike<number>): void {
  const user = ctx.user ?? [];
  const corners = cameraCorners(ctx, refs);
  const bicubic = kind === 'bezier' && grid ? bicubicVertexValues(ctx, grid) : undefined;
  const common = ctx.common;
  // Every field named (one object shape): spreading the common fields cost more than the record.
  ctx.records.add({
    kind, flags: common.flags, paramBase: common.paramBase, pipeline: common.pipeline, shadingRate: common.shadingRate,
    displacementBound: common.displacementBound, objectToCamera: geometryToCamera ?? common.objectToCamera, geometry,
    s: corners.s, t: corners.t, Cs: corners.Cs, Os: corners.Os, N: corners.N, lod: common.lod, user: user.length ? corners.user : undefined, bicubic,
    motion: ctx.motionOf?.(ctx.records.count) ?? common.motion, trim: common.trim, solid: common.solid,
  }, ctx.source);
}

/** The corner values of the primitive variables at `refs` (four corners, record order), with points,
 * vectors and normals (N too) in camera space. */
export function cameraCorners(ctx: ConvertContext, refs: readonly CornerRef[]): CornerValues {
  const user = ctx.user ?? [];
  const corners = ctx.primvars.corners(ctx.attributes, refs, user);
  // Points, vectors and normals to camera space.
  let at = 0;
  for (const variable of user) {
    if (variable.type === 'float' || variable.type === 'color') {
      at += variable.type === 'float' ? 4 : 12;
      continue;
    }
    for (let k = 0; k < 4; k++) {
      const v = vec3.fromValues(corners.user[at + k]!, corners.user[at + 4 + k]!, corners.user[at + 8 + k]!);
      toCamera(ctx, variable.type, v);
      for (let c = 0; c < 3; c++) corners.user[at + c * 4 + k] = v[c]!;
    }
    at += 12;
  }
  return { ...corners, N: corners.N ? normalsToCamera(corners.N, ctx.normalMatrix) : undefined };
}

/** Four corner normals (xyz each) to camera space with the normal matrix, as vec3.transformMat3
 * on float32 vectors does it (the same record bits). */
function normalsToCamera(normals: readonly number[], m: mat3): number[] {
  const out = new Array<number>(12);
  for (let k = 0; k < 12; k += 3) {
    const x = Math.fround(normals[k]!), y = Math.fround(normals[k + 1]!), z = Math.fround(normals[k + 2]!);
    out[k] = m[0]! * x + m[3]! * y + m[6]! * z;
    out[k + 1] = m[1]! * x + m[4]! * y + m[7]! * z;
    out[k + 2] = m[2]! * x + m[5]! * y + m[8]! * z;
  }
  return out;
}

/** Corner references of the whole surface of a primitive with one face and four varying corners. */
export function surfaceCorners(): CornerRef[] {
  return [0, 1, 2, 3].map((k) => ({ uniform: 0, varying: k, vertex: k, facevarying: k, u: k & 1, v: k >> 1 }));
}
