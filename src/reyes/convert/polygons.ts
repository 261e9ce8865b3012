// Polygons as bilinear pieces: a convex face is fanned into quads (v0, vi, vi+1, vi+2) with a
// closing triangle; a face with holes (or any GeneralPolygon) is triangulated. A triangle is a
// bilinear patch whose v = 1 edge has collapsed to a point. Piece corners keep the winding of the
// face, so dPdu × dPdv has the face's orientation.
import type { Geometry } from '../../rib/scene.ts';
import type { CornerRef } from '../primvars.ts';
import { emitPiece, type ConvertContext } from './emit.ts';
import { triangulateLoops } from './triangulate.ts';

/** One vertex of a face: its point index and its facevarying index. */
interface FaceVertex {
  point: number;
  faceVarying: number;
}

function emitFace(ctx: ConvertContext, positions: readonly number[], face: number, corners: readonly FaceVertex[]): void {
  const ref = (fv: FaceVertex, u: number, v: number): CornerRef => ({
    uniform: face, varying: fv.point, vertex: fv.point, facevarying: fv.faceVarying, u, v,
  });
  const xyz = (fv: FaceVertex): number[] => [positions[fv.point * 3]!, positions[fv.point * 3 + 1]!, positions[fv.point * 3 + 2]!];
  // Record corner order: (0,0), (1,0), (0,1), (1,1); a quad a b c d goes to a, b, d, c.
  const quad = (a: FaceVertex, b: FaceVertex, c: FaceVertex, d: FaceVertex): void => {
    emitPiece(ctx, 'bilinear', [...xyz(a), ...xyz(b), ...xyz(d), ...xyz(c)], [ref(a, 0, 0), ref(b, 1, 0), ref(d, 0, 1), ref(c, 1, 1)]);
  };
  if (corners.length === 3) quad(corners[0]!, corners[1]!, corners[2]!, corners[2]!);
  else if (corners.length >= 4) {
    let i = 1;
    for (; i + 2 < corners.length; i += 2) quad(corners[0]!, corners[i]!, corners[i + 1]!, corners[i + 2]!);
    if (i + 1 < corners.length) quad(corners[0]!, corners[i]!, corners[i + 1]!, corners[i + 1]!);
  }
}

/** A face given as loops of face vertices (loop 0 outer): fanned when it has one loop, else triangulated. */
function emitLoops(ctx: ConvertContext, positions: readonly number[], face: number, loops: FaceVertex[][]): void {
  if (loops.length === 1) return emitFace(ctx, positions, face, loops[0]!);
  const flat = loops.flat();
  const triangles = triangulateLoops(positions, loops.map((loop) => loop.map((fv) => fv.point)));
  // triangulateLoops answers point indexes; map back to face vertices (first match in loop order).
  const byPoint = new Map<number, FaceVertex>();
  for (const fv of flat) if (!byPoint.has(fv.point)) byPoint.set(fv.point, fv);
  for (const [a, b, c] of triangles) emitFace(ctx, positions, face, [byPoint.get(a)!, byPoint.get(b)!, byPoint.get(c)!]);
}

export function convertPolygons(ctx: ConvertContext, geometry: Geometry): void {
  const positions = ctx.primvars.positions();
  if (!positions) return ctx.warn(`${geometry.type} without P is skipped`);
  const a = geometry.args;
  const count = (name: string): number[] => (a[name] as number[] | undefined) ?? [];
  switch (geometry.type) {
    case 'Polygon': {
      const n = positions.length / 3;
      emitLoops(ctx, positions, 0, [Array.from({ length: n }, (_, k) => ({ point: k, faceVarying: k }))]);
      return;
    }
    case 'GeneralPolygon': {
      let next = 0;
      const loops = count('nvertices').map((n) => Array.from({ length: n }, () => ({ point: next, faceVarying: next++ })));
      // A GeneralPolygon may be concave even with one loop: always triangulate it.
      const triangles = triangulateLoops(positions, loops.map((loop) => loop.map((fv) => fv.point)));
      for (const [p, q, r] of triangles) emitFace(ctx, positions, 0, [p, q, r].map((i) => ({ point: i, faceVarying: i })));
      return;
    }
    case 'PointsPolygons': {
      const vertices = count('vertices');
      let next = 0;
      count('nvertices').forEach((n, face) => {
        const loop = Array.from({ length: n }, () => ({ point: vertices[next]!, faceVarying: next++ }));
        emitLoops(ctx, positions, face, [loop]);
      });
      return;
    }
    case 'PointsGeneralPolygons': {
      const vertices = count('vertices');
      const nvertices = count('nvertices');
      let loopIndex = 0;
      let next = 0;
      count('nloops').forEach((nloops, face) => {
        const loops: FaceVertex[][] = [];
        for (let l = 0; l < nloops; l++) {
          const n = nvertices[loopIndex++] ?? 0;
          loops.push(Array.from({ length: n }, () => ({ point: vertices[next]!, faceVarying: next++ })));
        }
        if (loops.length === 1 && loops[0]!.length > 4) {
          const triangles = triangulateLoops(positions, [loops[0]!.map((fv) => fv.point)]);
          const byPoint = new Map(loops[0]!.map((fv) => [fv.point, fv] as const));
          for (const [p, q, r] of triangles) emitFace(ctx, positions, face, [byPoint.get(p)!, byPoint.get(q)!, byPoint.get(r)!]);
        } else {
          emitLoops(ctx, positions, face, loops);
        }
      });
      return;
    }
    default:
      throw new Error(`not a polygon: ${geometry.type}`);
  }
}
