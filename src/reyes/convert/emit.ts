// What every primitive converter shares: the record fields common to a primitive's pieces, and
// emitting one piece with its corner values (N taken to camera space with the normal matrix).
import { mat3, vec3 } from 'gl-matrix';
import type { Attributes } from '../../rib/scene.ts';
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
  warn(message: string): void;
}

export function emitPiece(ctx: ConvertContext, kind: PrimitiveKindName, geometry: ArrayLike<number>, refs: readonly CornerRef[]): void {
  const corners = ctx.primvars.corners(ctx.attributes, refs);
  let N: number[] | undefined;
  if (corners.N) {
    N = [];
    for (let k = 0; k < 4; k++) {
      const n = vec3.fromValues(corners.N[k * 3]!, corners.N[k * 3 + 1]!, corners.N[k * 3 + 2]!);
      vec3.transformMat3(n, n, ctx.normalMatrix);
      N.push(n[0], n[1], n[2]);
    }
  }
  ctx.records.add({ ...ctx.common, kind, geometry, s: corners.s, t: corners.t, Cs: corners.Cs, Os: corners.Os, ...(N ? { N } : {}) }, ctx.source);
}

/** Corner references of the whole surface of a primitive with one face and four varying corners. */
export function surfaceCorners(): CornerRef[] {
  return [0, 1, 2, 3].map((k) => ({ uniform: 0, varying: k, vertex: k, facevarying: k, u: k & 1, v: k >> 1 }));
}
