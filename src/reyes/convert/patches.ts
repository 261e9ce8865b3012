// Patch and PatchMesh as records. Bicubic patches in any basis (named or explicit) become Bézier
// patches: the control points G in basis M are re-expressed as Mbez⁻¹ M G in each direction, which
// is exact (bezier.ts); vertex-class primitive variables go through the same conversion with the same
// control grid (emitPiece's BicubicGrid), so they follow the patch basis like P. Bilinear patches stay
// bilinear. Meshes are cut into their patches (periodic or not, ustep/vstep apart); where two
// neighbouring patches bound the same curve (any basis whose step keeps the mesh continuous), the
// records are joined along it (PrimitiveRecords.join) and the boundary control points they share are
// made the same numbers, so that the dicer can close the seam between grids of different rates.
// "Pz" gives a height field over the unit square; "Pw" with weights other than 1 makes true rational
// patches, cut into pieces by nurbs.ts.
import type { Geometry } from '../../rib/scene.ts';
import type { CornerRef } from '../primvars.ts';
import { PrimitiveKind, RECORD, RecordEdge } from '../../layout/primitive-record.ts';
import type { PrimitiveRecords } from '../primitive-record.ts';
import { bezierControls, toBezier, type BicubicGrid } from './bezier.ts';
import { emitPiece, surfaceCorners, type ConvertContext } from './emit.ts';
import { convertRationalPatches } from './nurbs.ts';

export { toBezier };

function point(positions: readonly number[], index: number): number[] {
  return [positions[index * 3]!, positions[index * 3 + 1]!, positions[index * 3 + 2]!];
}

/** Control points: P, Pw divided by w, or a "Pz" height field over the unit square (RI 3.2: point
 * (i, j) of the nu × nv control points at x = i / (nu - 1), y = j / (nv - 1)). */
function patchPositions(ctx: ConvertContext, nu: number, nv: number): number[] | undefined {
  const pz = ctx.primvars.get('P') || ctx.primvars.get('Pw') ? undefined : ctx.primvars.get('Pz');
  if (!pz) return ctx.primvars.positions();
  return (pz.values as number[]).flatMap((z, k) => [(k % nu) / (nu - 1), Math.floor(k / nu) / (nv - 1), z]);
}

/** Whether "Pw" gives a weight other than 1 (a true rational patch, nurbs.ts). */
function rational(ctx: ConvertContext): boolean {
  const pw = ctx.primvars.get('Pw')?.values as number[] | undefined;
  return pw !== undefined && pw.some((w, k) => k % 4 === 3 && w !== 1);
}

export function convertPatch(ctx: ConvertContext, geometry: Geometry): void {
  const type = geometry.args.type as string;
  const positions = patchPositions(ctx, type === 'bilinear' ? 2 : 4, type === 'bilinear' ? 2 : 4);
  if (!positions) return ctx.warn('Patch without P is skipped');
  if (rational(ctx)) {
    const bicubic = type !== 'bilinear';
    const corners = surfaceCorners().map((c) => ({ ...c, vertex: bicubic ? [0, 3, 12, 15][c.vertex]! : c.vertex }));
    const index = (l: number, k: number) => l * (bicubic ? 4 : 2) + k;
    return convertRationalPatches(ctx, geometry, [{ index, corners }], bicubic ? toBezier(ctx.attributes.uBasis) : undefined, bicubic ? toBezier(ctx.attributes.vBasis) : undefined);
  }
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

/** Control point indices along each record edge (RecordEdge order), in the parameter's direction:
 * Bézier 4 × 4 (row v, column u) and bilinear 2 × 2. */
const EDGE_POINTS = {
  bezier: [[0, 1, 2, 3], [12, 13, 14, 15], [0, 4, 8, 12], [3, 7, 11, 15]],
  bilinear: [[0, 1], [2, 3], [0, 2], [1, 3]],
} as const;

/** Two patches' edges that bound one curve: patch, RecordEdge, patch, RecordEdge. */
type JoinedEdges = [number, number, number, number];

/**
 * The edges of neighbouring patches (row-major, `du` × `dv`, wrapping where periodic) that have the
 * same control points up to the rounding of the conversion (its basis matrices are f32); each set of
 * control points joined that way gets one value, in place, so that both patches evaluate the same
 * bits along the edge.
 */
function joinPatches(controls: number[][], kind: 'bezier' | 'bilinear', du: MeshDirection, dv: MeshDirection): JoinedEdges[] {
  const edges = EDGE_POINTS[kind];
  const points = edges[0].length ** 2;
  const joined: JoinedEdges[] = [];
  let scale = 1e-30;
  for (const patch of controls) for (const x of patch) scale = Math.max(scale, Math.abs(x));
  // Union-find over (patch * points + control point).
  const parent = Array.from({ length: controls.length * points }, (_, k) => k);
  const root = (k: number): number => (parent[k] === k ? k : (parent[k] = root(parent[k]!)));
  const join = (a: number, edgeA: number, b: number, edgeB: number) => {
    const [pa, pb] = [edges[edgeA]!, edges[edgeB]!];
    const same = pa.every((ia, k) => [0, 1, 2].every((c) => Math.abs(controls[a]![ia * 3 + c]! - controls[b]![pb[k]! * 3 + c]!) <= 1e-6 * scale));
    if (!same) return;
    joined.push([a, edgeA, b, edgeB]);
    pa.forEach((ia, k) => (parent[root(a * points + ia)] = root(b * points + pb[k]!)));
  };
  for (let pj = 0; pj < dv.patches; pj++) {
    for (let pi = 0; pi < du.patches; pi++) {
      const patch = pj * du.patches + pi;
      if (pi + 1 < du.patches || du.periodic) join(patch, RecordEdge.u1, pj * du.patches + ((pi + 1) % du.patches), RecordEdge.u0);
      if (pj + 1 < dv.patches || dv.periodic) join(patch, RecordEdge.v1, ((pj + 1) % dv.patches) * du.patches + pi, RecordEdge.v0);
    }
  }
  for (let k = 0; k < parent.length; k++) {
    const r = root(k);
    if (r === k) continue;
    for (let c = 0; c < 3; c++) controls[Math.floor(k / points)]![(k % points) * 3 + c] = controls[Math.floor(r / points)]![(r % points) * 3 + c]!;
  }
  return joined;
}

export function convertPatchMesh(ctx: ConvertContext, geometry: Geometry): void {
  const a = geometry.args;
  const positions = patchPositions(ctx, a.nu as number, a.nv as number);
  if (!positions) return ctx.warn('PatchMesh without P is skipped');
  const bicubic = a.type === 'bicubic';
  const du = direction(a.nu as number, a.uwrap as string, bicubic, ctx.attributes.uBasis.step);
  const dv = direction(a.nv as number, a.vwrap as string, bicubic, ctx.attributes.vBasis.step);
  const cu = bicubic ? toBezier(ctx.attributes.uBasis) : undefined;
  const cv = bicubic ? toBezier(ctx.attributes.vBasis) : undefined;
  const patches: { index: (l: number, k: number) => number; corners: CornerRef[] }[] = [];
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
      patches.push({ index, corners });
    }
  }
  if (rational(ctx)) return convertRationalPatches(ctx, geometry, patches, cu, cv);
  const controls = patches.map(({ index }) => cu && cv
    ? bezierControls((l, k) => point(positions, index(l, k)), 3, cu, cv)
    : [0, 1, 2, 3].flatMap((c) => point(positions, index(c >> 1, c & 1))));
  const joined = joinPatches(controls, cu && cv ? 'bezier' : 'bilinear', du, dv);
  const first = ctx.records.count;
  patches.forEach(({ index, corners }, k) => {
    if (cu && cv) emitPiece(ctx, 'bezier', controls[k]!, corners, { index, cu, cv });
    else emitPiece(ctx, 'bilinear', controls[k]!, corners);
  });
  for (const [a, edgeA, b, edgeB] of joined) ctx.records.join(first + a, edgeA, first + b, edgeB, false);
}

/**
 * Joins the edges of separate bicubic records (Patch after Patch, as models like the teapot come)
 * that are one curve: the same object → camera matrix and the same four boundary control points up
 * to the conversion's rounding, either way along the edge, shared by exactly two edges not joined
 * yet; then gives the joined control points one value each. A reversed pair's positions along the
 * edge may still differ in their last bit (the Bernstein weights are rounded apart).
 */
export function joinBezierEdges(records: PrimitiveRecords): void {
  const floats = records.floats();
  const words = new Uint32Array(floats.buffer, floats.byteOffset, floats.length);
  const joined = records.edgeNeighbours();
  const bezier: number[] = [];
  for (let r = 0; r < records.count; r++) if (words[r * RECORD.floats + RECORD.kind] === PrimitiveKind.bezier) bezier.push(r);
  let scale = 1e-30;
  for (const r of bezier) for (let i = 0; i < 48; i++) scale = Math.max(scale, Math.abs(floats[r * RECORD.floats + RECORD.geometry + i]!));
  /** Float offset of control point i of record r. */
  const at = (r: number, i: number) => r * RECORD.floats + RECORD.geometry + i * 3;
  // Candidates by matrix and end points on a grid far coarser than rounding, far finer than a patch.
  // Keys are built from numbers per edge (the conversion's hot spot on models of many patches).
  const quantum = 1e-5 * scale;
  const endKey = (o: number) => `${Math.round(floats[o]! / quantum)},${Math.round(floats[o + 1]! / quantum)},${Math.round(floats[o + 2]! / quantum)}`;
  const matrices = new Map<string, number>();
  const candidates = new Map<string, { record: number; edge: number }[]>();
  for (const r of bezier) {
    const matrixWords = words.subarray(r * RECORD.floats + RECORD.matrix, r * RECORD.floats + RECORD.matrix + 16).join(',');
    let matrix = matrices.get(matrixWords);
    if (matrix === undefined) matrices.set(matrixWords, (matrix = matrices.size));
    EDGE_POINTS.bezier.forEach((indices, edge) => {
      if (joined[r * 4 + edge]! >= 0) return;
      const start = endKey(at(r, indices[0]!));
      const end = endKey(at(r, indices[3]!));
      const key = start < end ? `${matrix};${start};${end}` : `${matrix};${end};${start}`;
      const list = candidates.get(key);
      if (list) list.push({ record: r, edge });
      else candidates.set(key, [{ record: r, edge }]);
    });
  }
  const tolerance = 1e-6 * scale;
  const close = (a: number, b: number) => Math.abs(floats[a]! - floats[b]!) <= tolerance && Math.abs(floats[a + 1]! - floats[b + 1]!) <= tolerance && Math.abs(floats[a + 2]! - floats[b + 2]!) <= tolerance;
  // Union-find over (record * 16 + control point) of the joined edges.
  const parent = new Map<number, number>();
  const root = (k: number): number => {
    const p = parent.get(k) ?? k;
    if (p === k) return k;
    const r = root(p);
    parent.set(k, r);
    return r;
  };
  /** Whether the control points of edge a run through those of edge b, forwards (step 1) or
   * backwards (step -1). */
  const along = (a: { record: number; edge: number }, b: { record: number; edge: number }, step: 1 | -1): boolean => {
    const pa = EDGE_POINTS.bezier[a.edge]!;
    const pb = EDGE_POINTS.bezier[b.edge]!;
    for (let k = 0; k < 4; k++) if (!close(at(a.record, pa[k]!), at(b.record, pb[step === 1 ? k : 3 - k]!))) return false;
    return true;
  };
  /** Whether edges a and b are one curve: undefined if not, else whether they run opposite ways. */
  const sameCurve = (a: { record: number; edge: number }, b: { record: number; edge: number }): boolean | undefined => {
    if (a.record === b.record) return undefined;
    if (along(a, b, 1)) return false;
    if (along(a, b, -1)) return true;
    return undefined;
  };
  for (const list of candidates.values()) {
    // An edge alone on its end points has nothing to join.
    if (list.length < 2) continue;
    // Edges with the same end points may differ between them (a lid's rim on a body's): join the
    // pairs that are one curve with no third edge on it.
    const n = list.length;
    const matches: (boolean | undefined)[] = [];
    const matchCount = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const m = sameCurve(list[i]!, list[j]!);
        matches.push(m);
        if (m !== undefined) matchCount[i]! += 1;
      }
    }
    for (let i = 0; i < n; i++) {
      if (matchCount[i] !== 1) continue;
      let j = 0;
      while (matches[i * n + j] === undefined) j++;
      if (j <= i || matchCount[j] !== 1) continue;
      const a = list[i]!;
      const b = list[j]!;
      const reversed = matches[i * n + j]!;
      const [pa, pb] = [EDGE_POINTS.bezier[a.edge]!, EDGE_POINTS.bezier[b.edge]!];
      records.join(a.record, a.edge, b.record, b.edge, reversed);
      for (let k = 0; k < 4; k++) parent.set(root(a.record * 16 + pa[k]!), root(b.record * 16 + pb[reversed ? 3 - k : k]!));
    }
  }
  for (const k of parent.keys()) {
    const r = root(k);
    if (r !== k) floats.copyWithin(at(Math.floor(k / 16), k % 16), at(Math.floor(r / 16), r % 16), at(Math.floor(r / 16), r % 16) + 3);
  }
}
