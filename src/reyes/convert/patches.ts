// Patch and PatchMesh as records. Bicubic patches in any basis (named or explicit) become Bézier
// patches: the control points G in basis M are re-expressed as Mbez⁻¹ M G in each direction, which
// is exact (bezier.ts); vertex-class primitive variables go through the same conversion with the same
// control grid (emitPiece's BicubicGrid), so they follow the patch basis like P. Bilinear patches stay
// bilinear. Meshes are cut into their patches (periodic or not, ustep/vstep apart).
import type { Geometry } from '../../rib/scene.ts';
import type { CornerRef } from '../primvars.ts';
import { bezierControls, toBezier, type BicubicGrid } from './bezier.ts';
import { emitPiece, surfaceCorners, type ConvertContext } from './emit.ts';

export { toBezier };

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
  const grid: BicubicGrid = { index: (l, k) => l * 4 + k, cu, cv };
  emitPiece(ctx, 'bezier', bezierControls((l, k) => point(positions, grid.index(l, k)), 3, cu, cv), corners, grid);
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
        emitPiece(ctx, 'bezier', bezierControls((l, k) => point(positions, index(l, k)), 3, cu, cv), corners, { index, cu, cv });
      } else {
        emitPiece(ctx, 'bilinear', [0, 1, 2, 3].flatMap((c) => point(positions, index(c >> 1, c & 1))), corners);
      }
    }
  }
}
