// Patch and PatchMesh as records. Bicubic patches in any basis (named or explicit) become Bézier
// patches: the control points G in basis M are re-expressed as Mbez⁻¹ M G in each direction, which
// is exact. Bilinear patches stay bilinear. Meshes are cut into their patches (periodic or not).
import { mat4 } from 'gl-matrix';
import type { Basis, Geometry } from '../../rib/scene.ts';
import { BEZIER_BASIS } from '../../rib/basis.ts';
import type { CornerRef } from '../primvars.ts';
import { emitPiece, surfaceCorners, type ConvertContext } from './emit.ts';

/** C = Mbez⁻¹ M as 16 numbers with C(i, k) at [i * 4 + k]: Bézier point i = Σk C(i, k) G[k]. */
export function toBezier(basis: Basis): Float32Array {
  // gl-matrix reads RI's row-major matrix as its transpose; (Mbez⁻¹ M)ᵀ = Mᵀ (Mbezᵀ)⁻¹.
  const mT = mat4.clone(basis.matrix as unknown as mat4);
  const bezT = mat4.clone(BEZIER_BASIS.matrix as unknown as mat4);
  const inverse = mat4.invert(mat4.create(), bezT);
  if (!inverse) throw new Error('the Bézier basis is singular');
  return mat4.multiply(mat4.create(), mT, inverse) as Float32Array;
}

/** Bézier control points (row v, column u; xyz) of a 4×4 control grid `grid(l, k)` → xyz. */
function bezierPoints(grid: (l: number, k: number) => number[], cu: Float32Array, cv: Float32Array): number[] {
  const out: number[] = [];
  for (let j = 0; j < 4; j++) {
    for (let i = 0; i < 4; i++) {
      const p: [number, number, number] = [0, 0, 0];
      for (let l = 0; l < 4; l++) {
        const wv = cv[j * 4 + l]!;
        if (wv === 0) continue;
        for (let k = 0; k < 4; k++) {
          const w = wv * cu[i * 4 + k]!;
          if (w === 0) continue;
          const g = grid(l, k);
          p[0] += w * g[0]!; p[1] += w * g[1]!; p[2] += w * g[2]!;
        }
      }
      out.push(...p);
    }
  }
  return out;
}

function point(positions: readonly number[], index: number): number[] {
  return [positions[index * 3]!, positions[index * 3 + 1]!, positions[index * 3 + 2]!];
}

export function convertPatch(ctx: ConvertContext, geometry: Geometry): void {
  const positions = ctx.primvars.positions();
  if (!positions) return ctx.warn('Patch without P is skipped');
  const type = geometry.args.type as string;
  if (type === 'bilinear') {
    emitPiece(ctx, 'bilinear', positions.slice(0, 12), surfaceCorners());
    return;
  }
  const cu = toBezier(ctx.attributes.uBasis);
  const cv = toBezier(ctx.attributes.vBasis);
  const corners = surfaceCorners().map((c) => ({ ...c, vertex: [0, 3, 12, 15][c.vertex]! }));
  emitPiece(ctx, 'bezier', bezierPoints((l, k) => point(positions, l * 4 + k), cu, cv), corners);
}

interface MeshDirection {
  patches: number;
  /** Control points along this direction. */
  n: number;
  periodic: boolean;
  step: number;
  /** Varying values along this direction. */
  varying: number;
}

function direction(n: number, wrap: string, bicubic: boolean, step: number): MeshDirection {
  const periodic = wrap === 'periodic';
  if (!bicubic) {
    const patches = periodic ? n : n - 1;
    return { patches, n, periodic, step: 1, varying: periodic ? patches : patches + 1 };
  }
  const patches = periodic ? n / step : (n - 4) / step + 1;
  return { patches, n, periodic, step, varying: periodic ? patches : patches + 1 };
}

export function convertPatchMesh(ctx: ConvertContext, geometry: Geometry): void {
  const positions = ctx.primvars.positions();
  if (!positions) return ctx.warn('PatchMesh without P is skipped');
  const a = geometry.args;
  const bicubic = a.type === 'bicubic';
  const du = direction(a.nu as number, a.uwrap as string, bicubic, ctx.attributes.uBasis.step);
  const dv = direction(a.nv as number, a.vwrap as string, bicubic, ctx.attributes.vBasis.step);
  const cu = bicubic ? toBezier(ctx.attributes.uBasis) : undefined;
  const cv = bicubic ? toBezier(ctx.attributes.vBasis) : undefined;
  for (let pj = 0; pj < dv.patches; pj++) {
    for (let pi = 0; pi < du.patches; pi++) {
      const index = (l: number, k: number): number =>
        ((pj * dv.step + l) % dv.n) * du.n + ((pi * du.step + k) % du.n);
      const corners: CornerRef[] = [0, 1, 2, 3].map((c) => {
        const a1 = c & 1;
        const b1 = c >> 1;
        const last = bicubic ? 3 : 1;
        return {
          uniform: pj * du.patches + pi,
          varying: ((pj + b1) % dv.varying) * du.varying + ((pi + a1) % du.varying),
          vertex: index(b1 * last, a1 * last),
          facevarying: ((pj + b1) % dv.varying) * du.varying + ((pi + a1) % du.varying),
          u: (pi + a1) / du.patches,
          v: (pj + b1) / dv.patches,
        };
      });
      if (cu && cv) {
        emitPiece(ctx, 'bezier', bezierPoints((l, k) => point(positions, index(l, k)), cu, cv), corners);
      } else {
        emitPiece(ctx, 'bilinear', [0, 1, 2, 3].flatMap((c) => point(positions, index(c >> 1, c & 1))), corners);
      }
    }
  }
}
