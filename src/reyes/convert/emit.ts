// What every primitive converter shares: the record fields common to a primitive's pieces, and
// emitting one piece with its corner values (N taken to camera space with the normal matrix).
import { vec3, type mat3, type mat4 } from 'gl-matrix';
import type { Attributes } from '../../rib/scene.ts';
import type { GridVariableType } from '../../rsl/grid-layout.ts';
import type { CornerRef, Primvars } from '../primvars.ts';
import type { PrimitiveKindName, PrimitiveRecordInput, PrimitiveRecords } from '../primitive-record.ts';

export interface ConvertContext {
  records: PrimitiveRecords;
  /** Index of the scene primitive. */
  source: number;
  common: Pick<PrimitiveRecordInput, 'flags' | 'paramBase' | 'pipeline' | 'shadingRate' | 'displacementBound' | 'objectToCamera'>;
  /** object → camera for normals (inverse transpose). */
  normalMatrix: mat3;
  primvars: Primvars;
  attributes: Attributes;
  /** The frame's user primitive variables (grid layout order). */
  user?: readonly { name: string; type: GridVariableType }[];
  warn(message: string): void;
}

export function emitPiece(ctx: ConvertContext, kind: PrimitiveKindName, geometry: ArrayLike<number>, refs: readonly CornerRef[]): void {
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
      if (variable.type === 'point') vec3.transformMat4(v, v, ctx.common.objectToCamera as mat4);
      else if (variable.type === 'normal') vec3.transformMat3(v, v, ctx.normalMatrix);
      else {
        const m = ctx.common.objectToCamera;
        const [x, y, z] = [v[0], v[1], v[2]];
        vec3.set(v, m[0]! * x + m[4]! * y + m[8]! * z, m[1]! * x + m[5]! * y + m[9]! * z, m[2]! * x + m[6]! * y + m[10]! * z);
      }
      for (let c = 0; c < 3; c++) corners.user[at + c * 4 + k] = v[c]!;
    }
    at += 12;
  }
  let N: number[] | undefined;
  if (corners.N) {
    N = [];
    for (let k = 0; k < 4; k++) {
      const n = vec3.fromValues(corners.N[k * 3]!, corners.N[k * 3 + 1]!, corners.N[k * 3 + 2]!);
      vec3.transformMat3(n, n, ctx.normalMatrix);
      N.push(n[0], n[1], n[2]);
    }
  }
  ctx.records.add({ ...ctx.common, kind, geometry, s: corners.s, t: corners.t, Cs: corners.Cs, Os: corners.Os, ...(N ? { N } : {}), ...(user.length ? { user: corners.user } : {}) }, ctx.source);
}

/** Corner references of the whole surface of a primitive with one face and four varying corners. */
export function surfaceCorners(): CornerRef[] {
  return [0, 1, 2, 3].map((k) => ({ uniform: 0, varying: k, vertex: k, facevarying: k, u: k & 1, v: k >> 1 }));
}
