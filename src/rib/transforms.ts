// Matrix helpers for the RI transformation requests, on gl-matrix. RenderMan writes matrices for
// row vectors (p' = p·M) row by row; read as gl-matrix's column-major array that is the same
// 16 numbers, so a RIB matrix is used as is and "concatenate M" is ctm = ctm · M.

import { mat3, mat4, vec3 } from 'gl-matrix';
import type { Matrix4 } from './scene.ts';

export function identity(): Matrix4 {
  return Array.from(mat4.create());
}

export function toMatrix(m: mat4): Matrix4 {
  return Array.from(m as ArrayLike<number>);
}

/** ctm · m: m applies to points first (RenderMan's ConcatTransform). */
export function concat(ctm: Matrix4, m: Matrix4): Matrix4 {
  return toMatrix(mat4.multiply(mat4.create(), ctm, m));
}

export function invert(m: Matrix4): Matrix4 | null {
  const out = mat4.invert(mat4.create(), m);
  return out ? toMatrix(out) : null;
}

export function translation(dx: number, dy: number, dz: number): Matrix4 {
  return toMatrix(mat4.fromTranslation(mat4.create(), [dx, dy, dz]));
}

export function scaling(sx: number, sy: number, sz: number): Matrix4 {
  return toMatrix(mat4.fromScaling(mat4.create(), [sx, sy, sz]));
}

/** Rotation by `degrees` about the axis; null when the axis has no length. */
export function rotation(degrees: number, dx: number, dy: number, dz: number): Matrix4 | null {
  const m = mat4.fromRotation(mat4.create(), (degrees * Math.PI) / 180, [dx, dy, dz]);
  return m ? toMatrix(m) : null;
}

/** RI Perspective: projects onto z = 1 with the given full field of view, w = z. */
export function perspective(fovDegrees: number): Matrix4 {
  const t = 1 / Math.tan((fovDegrees * Math.PI) / 360);
  return [t, 0, 0, 0, 0, t, 0, 0, 0, 0, 1, 1, 0, 0, -1, 0];
}

/**
 * RI Skew: a shear that turns the direction d1 by `degrees` toward d2 within their plane.
 * Points move along d2 in proportion to their distance along the part of d1 perpendicular to d2.
 * Returns a message when the vectors are parallel or the angle turns d1 past d2.
 */
export function skew(degrees: number, d1: [number, number, number], d2: [number, number, number]): Matrix4 | string {
  const a = vec3.normalize(vec3.create(), d2);
  const along = vec3.dot(d1, a);
  const perp = vec3.scaleAndAdd(vec3.create(), d1, a, -along);
  const perpLength = vec3.length(perp);
  if (vec3.length(a) === 0 || perpLength < 1e-12) return 'the two skew directions must not be parallel (or zero)';
  const b = vec3.scale(vec3.create(), perp, 1 / perpLength);
  const alpha = Math.atan2(perpLength, along); // angle between d1 and d2
  const angle = (degrees * Math.PI) / 180;
  if (angle >= alpha || alpha - angle >= Math.PI) return `the skew angle must be less than the angle between the directions (${((alpha * 180) / Math.PI).toFixed(3)} degrees)`;
  const k = 1 / Math.tan(alpha - angle) - along / perpLength;
  const m = identity();
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m[r * 4 + c]! += k * b[r]! * a[c]!;
  return m;
}

/** Applies a matrix to a point (row-vector convention, with the homogeneous divide). */
export function transformPoint(m: Matrix4, p: [number, number, number]): [number, number, number] {
  const out = vec3.transformMat4(vec3.create(), p, m);
  return [out[0]!, out[1]!, out[2]!];
}

/** Applies a matrix to a normal (the inverse transpose of its linear part); null when m is singular. */
export function transformNormal(m: Matrix4, n: [number, number, number]): [number, number, number] | null {
  const normalMatrix = mat3.normalFromMat4(mat3.create(), m);
  if (!normalMatrix) return null;
  const out = vec3.transformMat3(vec3.create(), n, normalMatrix);
  return [out[0]!, out[1]!, out[2]!];
}
