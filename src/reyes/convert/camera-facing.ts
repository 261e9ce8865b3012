// What camera-facing primitives (Points, Curves without N) share: the direction the eye looks along
// at a camera-space point, the object → camera length scale that widths are measured with, and the
// widths a primitive gives ("width" per varying value or vertex, "constantwidth", default 1).
import { vec3 } from 'gl-matrix';
import type { Parameter } from '../../rib/scene.ts';
import type { Primvars } from '../primvars.ts';

/** The unit direction from the eye through camera-space `p` (+z everywhere for orthographic). */
export function viewDirection(p: ArrayLike<number>, perspective: boolean): vec3 {
  if (!perspective) return vec3.fromValues(0, 0, 1);
  const d = vec3.fromValues(p[0]!, p[1]!, p[2]!);
  const length = vec3.length(d);
  return length > 0 ? vec3.scale(d, d, 1 / length) : vec3.fromValues(0, 0, 1);
}

/** How much longer a length in object space is in camera space (the cube root of the volume scale:
 * exact for similarity transforms, an average for others). */
export function lengthScale(objectToCamera: ArrayLike<number>): number {
  const m = objectToCamera;
  const det = m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) - m[4]! * (m[1]! * m[10]! - m[2]! * m[9]!) + m[8]! * (m[1]! * m[6]! - m[2]! * m[5]!);
  return Math.cbrt(Math.abs(det));
}

/** A primitive's width primitive variable: "width" (one value per element of its storage class),
 * else "constantwidth", else the default 1. */
export type Widths = { param: Parameter; values: readonly number[] } | { constant: number };

export function widths(primvars: Primvars): Widths {
  const width = primvars.get('width');
  if (width) return { param: width, values: width.values as number[] };
  const constant = primvars.get('constantwidth');
  return { constant: constant ? (constant.values as number[])[0] ?? 1 : 1 };
}
