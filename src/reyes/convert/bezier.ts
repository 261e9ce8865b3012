// Bicubic bases re-expressed in Bézier form: the control values G of a 4×4 patch in basis M become
// Mbez⁻¹ M G in each direction, which is exact. P and the vertex-class primitive variables of a
// bicubic patch go through the same conversion, so the dicer evaluates both with the Bernstein basis.
import { mat4 } from 'gl-matrix';
import type { Basis } from '../../rib/scene.ts';
import { BEZIER_BASIS } from '../../rib/basis.ts';

/** C = Mbez⁻¹ M as 16 numbers with C(i, k) at [i * 4 + k]: Bézier point i = Σk C(i, k) G[k]. */
export function toBezier(basis: Basis): Float32Array {
  // gl-matrix reads RI's row-major matrix as its transpose; (Mbez⁻¹ M)ᵀ = Mᵀ (Mbezᵀ)⁻¹.
  const mT = mat4.clone(basis.matrix as unknown as mat4);
  const bezT = mat4.clone(BEZIER_BASIS.matrix as unknown as mat4);
  const inverse = mat4.invert(mat4.create(), bezT);
  if (!inverse) throw new Error('the Bézier basis is singular');
  return mat4.multiply(mat4.create(), mT, inverse) as Float32Array;
}

/** A bicubic patch's 4×4 control grid: vertex index of control point (row l along v, column k along
 * u), and the Bézier conversions of its u and v bases (toBezier). */
export interface BicubicGrid {
  index(l: number, k: number): number;
  cu: Float32Array;
  cv: Float32Array;
}

/**
 * Bézier control values of a 4×4 grid of `components`-vectors `value(l, k)`: 16 control values
 * (row v, column u), each `components` numbers, interleaved ([point][component]).
 */
export function bezierControls(value: (l: number, k: number) => readonly number[], components: number, cu: Float32Array, cv: Float32Array): number[] {
  const out: number[] = [];
  for (let j = 0; j < 4; j++) {
    for (let i = 0; i < 4; i++) {
      const p = new Array<number>(components).fill(0);
      for (let l = 0; l < 4; l++) {
        const wv = cv[j * 4 + l]!;
        if (wv === 0) continue;
        for (let k = 0; k < 4; k++) {
          const w = wv * cu[i * 4 + k]!;
          if (w === 0) continue;
          const g = value(l, k);
          for (let c = 0; c < components; c++) p[c]! += w * (g[c] ?? 0);
        }
      }
      out.push(...p);
    }
  }
  return out;
}
