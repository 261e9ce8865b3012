// NuPatch (any order and knot vectors, rational with "Pw" or not, "Pz" height fields) as bicubic
// Bézier records. Each knot span pair inside [umin, umax] × [vmin, vmax] is cut into pieces, and
// each piece becomes the bicubic Hermite patch of the surface's exact positions, first derivatives
// and twists at its corners (evaluated homogeneously, nurbs-basis.ts). That is exact for polynomial
// patches of order up to 4 (one piece a span); rational patches and higher orders are cut finer
// until their edge midpoints and centres are within 1e-4 of the patch's size of the surface (at most
// 16 pieces a span each way; a column of spans shares its count along u, a row along v). Neighbouring
// pieces then share whole edges, built from the same corner values, so the surface is watertight
// (joinBezierEdges closes the seams between their grids).
// Vertex-class variables are evaluated with the same rational basis as P; varying and facevarying
// ones bilinearly between the segment corners; uniform ones per segment. The current TrimCurve
// trims the pieces per sample point (trim-curves.ts).
import type { Geometry, Parameter } from '../../rib/scene.ts';
import type { CornerRef } from '../primvars.ts';
import { Primvars } from '../primvars.ts';
import { bezierControls } from './bezier.ts';
import { emitPiece, type ConvertContext } from './emit.ts';
import { basisWithDerivatives } from './nurbs-basis.ts';
import { recordTrim, trimRegion } from './trim-curves.ts';

const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const TOLERANCE = 1e-4;
const MAX_PIECES = 16;
const TRIMMED_PIECES = 8;

/** A tensor-product rational B-spline surface in `dimension` numbers (homogeneous: each control
 * value holds dimension numbers times its weight, then the weight). */
export interface RationalSurface {
  nu: number; uorder: number; uknot: readonly number[];
  nv: number; vorder: number; vknot: readonly number[];
  /** nu × nv control values (u fastest), dimension + 1 numbers each. */
  homogeneous: Float64Array;
  dimension: number;
}

interface SurfaceValue { S: Float64Array; Su: Float64Array; Sv: Float64Array; Suv: Float64Array }

/** Position, derivatives and twist at (u, v), with the polynomial pieces of spans (i, j). */
function evaluate(s: RationalSurface, i: number, j: number, u: number, v: number): SurfaceValue {
  const D = s.dimension;
  const H = D + 1;
  const bu = basisWithDerivatives(s.uknot, s.uorder, i, u);
  const bv = basisWithDerivatives(s.vknot, s.vorder, j, v);
  const [A, Au, Av, Auv] = [new Float64Array(H), new Float64Array(H), new Float64Array(H), new Float64Array(H)];
  for (let b = 0; b < s.vorder; b++) {
    const row = j - s.vorder + 1 + b;
    for (let a = 0; a < s.uorder; a++) {
      const at = (row * s.nu + i - s.uorder + 1 + a) * H;
      const [n, nu, nv, nuv] = [bu.N[a]! * bv.N[b]!, bu.dN[a]! * bv.N[b]!, bu.N[a]! * bv.dN[b]!, bu.dN[a]! * bv.dN[b]!];
      for (let d = 0; d < H; d++) {
        const c = s.homogeneous[at + d]!;
        A[d]! += n * c; Au[d]! += nu * c; Av[d]! += nv * c; Auv[d]! += nuv * c;
      }
    }
  }
  // Quotient rule: S = A / w and its derivatives.
  const [w, wu, wv, wuv] = [A[D]!, Au[D]!, Av[D]!, Auv[D]!];
  const [S, Su, Sv, Suv] = [new Float64Array(D), new Float64Array(D), new Float64Array(D), new Float64Array(D)];
  for (let d = 0; d < D; d++) {
    S[d] = A[d]! / w;
    Su[d] = (Au[d]! - wu * S[d]!) / w;
    Sv[d] = (Av[d]! - wv * S[d]!) / w;
  }
  for (let d = 0; d < D; d++) Suv[d] = (Auv[d]! - wuv * S[d]! - wu * Sv[d]! - wv * Su[d]!) / w;
  return { S, Su, Sv, Suv };
}

/** The bicubic Bézier control values (row v, column u) of the Hermite patch over [u0, u1] × [v0, v1]. */
function hermitePatch(s: RationalSurface, i: number, j: number, u0: number, u1: number, v0: number, v1: number): Float64Array[] {
  const D = s.dimension;
  const out: Float64Array[] = Array.from({ length: 16 }, () => new Float64Array(D));
  const [du, dv] = [(u1 - u0) / 3, (v1 - v0) / 3];
  for (const [cu, cv] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
    const e = evaluate(s, i, j, cu ? u1 : u0, cv ? v1 : v0);
    const [su, sv] = [cu ? -1 : 1, cv ? -1 : 1];
    const [col, row] = [cu * 3, cv * 3];
    for (let d = 0; d < D; d++) {
      out[row * 4 + col]![d] = e.S[d]!;
      out[row * 4 + col + su]![d] = e.S[d]! + su * du * e.Su[d]!;
      out[(row + sv) * 4 + col]![d] = e.S[d]! + sv * dv * e.Sv[d]!;
      out[(row + sv) * 4 + col + su]![d] = e.S[d]! + su * du * e.Su[d]! + sv * dv * e.Sv[d]! + su * sv * du * dv * e.Suv[d]!;
    }
  }
  return out;
}

function bezierAt(controls: Float64Array[], dimensions: number, s: number, t: number): number[] {
  const b = (x: number) => [(1 - x) ** 3, 3 * x * (1 - x) ** 2, 3 * x * x * (1 - x), x ** 3];
  const [bu, bv] = [b(s), b(t)];
  const out = new Array<number>(dimensions).fill(0);
  for (let l = 0; l < 4; l++) for (let k = 0; k < 4; k++) for (let d = 0; d < dimensions; d++) out[d]! += bv[l]! * bu[k]! * controls[l * 4 + k]![d]!;
  return out;
}

export interface SurfacePiece {
  /** Segment (uniform index) and the piece's place in its segment, as fractions of it. */
  segment: number;
  corners: { u: number; v: number; su: number; sv: number }[];
  controls: Float64Array[];
}

type Range = { umin: number; umax: number; vmin: number; vmax: number };

/** Each span pair's part inside `range`, with its spans (i, j) and segment numbers. */
function spanPairs(s: RationalSurface, range: Range): { si: number; sj: number; i: number; j: number; ua: number; ub: number; va: number; vb: number }[] {
  const out = [];
  for (let sj = 0; sj < s.nv - s.vorder + 1; sj++) {
    const j = s.vorder - 1 + sj;
    const [va, vb] = [Math.max(s.vknot[j]!, range.vmin), Math.min(s.vknot[j + 1]!, range.vmax)];
    if (!(vb > va)) continue;
    for (let si = 0; si < s.nu - s.uorder + 1; si++) {
      const i = s.uorder - 1 + si;
      const [ua, ub] = [Math.max(s.uknot[i]!, range.umin), Math.min(s.uknot[i + 1]!, range.umax)];
      if (ub > ua) out.push({ si, sj, i, j, ua, ub, va, vb });
    }
  }
  return out;
}

/** Pieces per u segment and per v segment: each span pair's pieces are doubled along the direction
 * whose edge midpoints miss the surface by more than the tolerance; a column of span pairs takes the
 * most any of them needs along u, a row along v, so that neighbouring pieces share whole edges. */
export function pieceCounts(s: RationalSurface, range: Range, exact: boolean): { u: number[]; v: number[] } {
  const counts = { u: new Array<number>(s.nu - s.uorder + 1).fill(1), v: new Array<number>(s.nv - s.vorder + 1).fill(1) };
  if (exact) return counts;
  let size = 0;
  for (let k = 0; k + s.dimension < s.homogeneous.length; k += s.dimension + 1) {
    const w = s.homogeneous[k + s.dimension]!;
    for (let d = 0; d < Math.min(3, s.dimension); d++) size = Math.max(size, Math.abs(s.homogeneous[k + d]! / w));
  }
  const tolerance = TOLERANCE * Math.max(size, 1e-30);
  for (const { si, sj, i, j, ua, ub, va, vb } of spanPairs(s, range)) {
    let [nU, nV] = [1, 1];
    for (;;) {
      const error = [0, 0, 0];
      for (let b = 0; b < nV; b++) {
        for (let a = 0; a < nU; a++) {
          const [u0, u1] = [ua + ((ub - ua) * a) / nU, ua + ((ub - ua) * (a + 1)) / nU];
          const [v0, v1] = [va + ((vb - va) * b) / nV, va + ((vb - va) * (b + 1)) / nV];
          const controls = hermitePatch(s, i, j, u0, u1, v0, v1);
          // Along u (midpoints of the edges along u), along v, and the centre.
          ([[0.5, 0, 0], [0.5, 1, 0], [0, 0.5, 1], [1, 0.5, 1], [0.5, 0.5, 2]] as const).forEach(([x, y, which]) => {
            const exactValue = evaluate(s, i, j, u0 + (u1 - u0) * x, v0 + (v1 - v0) * y).S;
            const approx = bezierAt(controls, Math.min(3, s.dimension), x, y);
            error[which] = Math.max(error[which]!, Math.hypot(...approx.map((q, d) => q - exactValue[d]!)));
          });
        }
      }
      const [alongU, alongV, centre] = [error[0]! > tolerance, error[1]! > tolerance, error[2]! > tolerance];
      const finer = [alongU || (centre && !alongV) ? Math.min(MAX_PIECES, nU * 2) : nU, alongV || (centre && !alongU) ? Math.min(MAX_PIECES, nV * 2) : nV];
      if (finer[0] === nU && finer[1] === nV) break;
      [nU, nV] = finer as [number, number];
    }
    counts.u[si] = Math.max(counts.u[si]!, nU);
    counts.v[sj] = Math.max(counts.v[sj]!, nV);
  }
  return counts;
}

/** The surface over `range` as Hermite pieces, `counts` of them along each segment. */
export function surfacePieces(s: RationalSurface, range: Range, counts: { u: readonly number[]; v: readonly number[] }): SurfacePiece[] {
  const pieces: SurfacePiece[] = [];
  const useg = s.nu - s.uorder + 1;
  for (const { si, sj, i, j, ua, ub, va, vb } of spanPairs(s, range)) {
    const [spanU0, spanU1, spanV0, spanV1] = [s.uknot[i]!, s.uknot[i + 1]!, s.vknot[j]!, s.vknot[j + 1]!];
    const [nU, nV] = [counts.u[si]!, counts.v[sj]!];
    const corner = (u: number, v: number) => ({ u, v, su: (u - spanU0) / (spanU1 - spanU0), sv: (v - spanV0) / (spanV1 - spanV0) });
    for (let b = 0; b < nV; b++) {
      for (let a = 0; a < nU; a++) {
        const [u0, u1] = [ua + ((ub - ua) * a) / nU, ua + ((ub - ua) * (a + 1)) / nU];
        const [v0, v1] = [va + ((vb - va) * b) / nV, va + ((vb - va) * (b + 1)) / nV];
        pieces.push({ segment: sj * useg + si, corners: [corner(u0, v0), corner(u1, v0), corner(u0, v1), corner(u1, v1)], controls: hermitePatch(s, i, j, u0, u1, v0, v1) });
      }
    }
  }
  return pieces;
}

/** Greville abscissae: where a height field's control points sit so that x(u) = u exactly. */
function greville(knots: readonly number[], order: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => {
    let sum = 0;
    for (let k = 1; k < order; k++) sum += knots[i + k]!;
    return order > 1 ? sum / (order - 1) : knots[i]!;
  });
}

export function convertNuPatch(ctx: ConvertContext, geometry: Geometry): void {
  const a = geometry.args;
  const [nu, uorder, nv, vorder] = [a.nu as number, a.uorder as number, a.nv as number, a.vorder as number];
  const [uknot, vknot] = [a.uknot as number[], a.vknot as number[]];
  for (const [name, knots] of [['uknot', uknot], ['vknot', vknot]] as const) {
    if (knots.some((k, i) => i > 0 && k < knots[i - 1]!)) return ctx.warn(`NuPatch ${name} decreases; skipped`);
  }
  const count = nu * nv;
  const P = ctx.primvars.get('P');
  const Pw = ctx.primvars.get('Pw');
  const Pz = ctx.primvars.get('Pz');
  const vertexParams = geometry.params.filter((p) => p.storage === 'vertex' && !['P', 'Pw', 'Pz'].includes(p.name) && typeof p.values[0] !== 'string');
  const strides = vertexParams.map((p) => p.values.length / count);
  const D = 3 + strides.reduce((s, n) => s + n, 0);
  const homogeneous = new Float64Array(count * (D + 1));
  const gu = greville(uknot, uorder, nu);
  const gv = greville(vknot, vorder, nv);
  let rational = false;
  for (let k = 0; k < count; k++) {
    const at = k * (D + 1);
    let w = 1;
    if (Pw) {
      const v = Pw.values as number[];
      w = v[k * 4 + 3]!;
      if (!(w > 0)) return ctx.warn(`NuPatch weight ${w} at control point ${k} is not positive; skipped`);
      if (w !== 1) rational = true;
      for (let d = 0; d < 3; d++) homogeneous[at + d] = v[k * 4 + d]!;
    } else if (P) {
      for (let d = 0; d < 3; d++) homogeneous[at + d] = (P.values as number[])[k * 3 + d]!;
    } else if (Pz) {
      homogeneous[at] = gu[k % nu]!;
      homogeneous[at + 1] = gv[Math.floor(k / nu)]!;
      homogeneous[at + 2] = (Pz.values as number[])[k]!;
    } else return ctx.warn('NuPatch without P, Pw or Pz is skipped');
    let d = 3;
    vertexParams.forEach((p, q) => {
      for (let c = 0; c < strides[q]!; c++) homogeneous[at + d++] = w * (p.values as number[])[k * strides[q]! + c]!;
    });
    homogeneous[at + D] = w;
  }
  const surface: RationalSurface = { nu, uorder, uknot, nv, vorder, vknot, homogeneous, dimension: D };
  const range = { umin: a.umin as number, umax: a.umax as number, vmin: a.vmin as number, vmax: a.vmax as number };
  const region = ctx.attributes.trimCurves
    ? trimRegion(ctx.attributes.trimCurves, ctx.attributes, Math.max(range.umax - range.umin, range.vmax - range.vmin), ctx.warn)
    : undefined;
  const counts = pieceCounts(surface, range, !rational && uorder <= 4 && vorder <= 4);
  // A trimmed patch is cut into at least TRIMMED_PIECES pieces each way: each then carries only the
  // segments near it, and pieces wholly cut away are left out.
  const finer = (c: number[]): number[] => c.map((n) => Math.min(MAX_PIECES, Math.max(n, Math.ceil(TRIMMED_PIECES / c.length))));
  let pieces = surfacePieces(surface, range, region ? { u: finer(counts.u), v: finer(counts.v) } : counts);
  const trims: (Float32Array | undefined)[] = [];
  if (region) {
    pieces = pieces.filter((piece) => {
      const [c0, c3] = [piece.corners[0]!, piece.corners[3]!];
      const trim = recordTrim(region, c0.u, c3.u, c0.v, c3.v);
      if (trim === 'removed') return false;
      trims.push(trim === 'whole' ? undefined : trim);
      return true;
    });
  }
  emitSurfacePieces(ctx, geometry, pieces, vertexParams, strides, (nu - uorder + 2), trims);
}

/**
 * Records for the pieces: P from their controls, vertex variables (the controls' further numbers)
 * through an identity Bézier grid, varying and facevarying values bilinear within each segment
 * between its corner values (`varyingRow` of them a row; facevarying 4 a segment), uniform per
 * segment; `trims[k]` the trim block of piece k where a trim curve crosses it.
 */
export function emitSurfacePieces(ctx: ConvertContext, geometry: Geometry, pieces: readonly SurfacePiece[], vertexParams: readonly Parameter[],
  strides: readonly number[], varyingRow: number, trims: readonly (Float32Array | undefined)[] = []): void {
  const params: Parameter[] = geometry.params.filter((p) => p.storage === 'constant' || p.storage === 'uniform');
  let offset = 3;
  vertexParams.forEach((p, q) => {
    const values: number[] = [];
    for (const piece of pieces) for (const c of piece.controls) for (let d = 0; d < strides[q]!; d++) values.push(c[offset + d]!);
    params.push({ ...p, values });
    offset += strides[q]!;
  });
  const useg = varyingRow - 1;
  for (const p of geometry.params.filter((x) => (x.storage === 'varying' || x.storage === 'facevarying' || x.storage === 'facevertex') && typeof x.values[0] !== 'string')) {
    const values = p.values as number[];
    const varying = p.storage === 'varying';
    const stride = values.length / (varying ? geometry.counts.varying : geometry.counts.facevarying);
    const out: number[] = [];
    for (const piece of pieces) {
      const [si, sj] = [piece.segment % useg, Math.floor(piece.segment / useg)];
      // The segment's corner values (00, 10, 01, 11).
      const at = varying ? [sj * varyingRow + si, sj * varyingRow + si + 1, (sj + 1) * varyingRow + si, (sj + 1) * varyingRow + si + 1]
        : [0, 1, 2, 3].map((k) => piece.segment * 4 + k);
      for (const c of piece.corners) {
        for (let d = 0; d < stride; d++) {
          const v = (k: number) => values[at[k]! * stride + d]!;
          out.push((1 - c.su) * (1 - c.sv) * v(0) + c.su * (1 - c.sv) * v(1) + (1 - c.su) * c.sv * v(2) + c.su * c.sv * v(3));
        }
      }
    }
    params.push({ ...p, values: out });
  }
  const patchCtx: ConvertContext = { ...ctx, primvars: new Primvars(params) };
  pieces.forEach((piece, k) => {
    const refs: CornerRef[] = piece.corners.map((c, corner) => ({
      uniform: piece.segment, varying: k * 4 + corner, vertex: k * 16 + [0, 3, 12, 15][corner]!, facevarying: k * 4 + corner, u: c.u, v: c.v,
    }));
    const geometry48 = piece.controls.flatMap((c) => [c[0]!, c[1]!, c[2]!]);
    const trim = trims[k];
    emitPiece(trim ? { ...patchCtx, common: { ...patchCtx.common, trim } } : patchCtx, 'bezier', geometry48, refs, { index: (l, m) => k * 16 + l * 4 + m, cu: IDENTITY, cv: IDENTITY });
  });
}

/**
 * Patch and PatchMesh given "Pw" with weights other than 1: true rational patches. Each patch's
 * homogeneous control points (with w times its vertex variables) go to Bézier form through the
 * basis conversions `cu`, `cv` (bicubic; none for bilinear), which is exact in homogeneous space, and
 * the patch is cut into Hermite pieces like a NuPatch (every patch of a mesh as finely, so their
 * shared edges match). `patches` gives each patch's control vertex (row l along v, column k) and its
 * corner references (record order).
 */
export function convertRationalPatches(ctx: ConvertContext, geometry: Geometry,
  patches: readonly { index(l: number, k: number): number; corners: readonly CornerRef[] }[], cu?: Float32Array, cv?: Float32Array): void {
  const pw = ctx.primvars.get('Pw')!.values as number[];
  const vertexParams = geometry.params.filter((p) => p.storage === 'vertex' && !['P', 'Pw', 'Pz'].includes(p.name) && typeof p.values[0] !== 'string');
  const strides = vertexParams.map((p) => p.values.length / geometry.counts.vertex);
  const D = 3 + strides.reduce((s, n) => s + n, 0);
  const order = cu && cv ? 4 : 2;
  const knots = order === 4 ? [0, 0, 0, 0, 1, 1, 1, 1] : [0, 0, 1, 1];
  const homogeneousAt = (vertex: number): number[] => {
    const w = pw[vertex * 4 + 3]!;
    const out = [pw[vertex * 4]!, pw[vertex * 4 + 1]!, pw[vertex * 4 + 2]!];
    vertexParams.forEach((p, q) => {
      for (let c = 0; c < strides[q]!; c++) out.push(w * (p.values as number[])[vertex * strides[q]! + c]!);
    });
    out.push(w);
    return out;
  };
  const surfaces = patches.map(({ index }) => {
    const homogeneous = cu && cv
      ? Float64Array.from(bezierControls((l, k) => homogeneousAt(index(l, k)), D + 1, cu, cv))
      : Float64Array.from([0, 1, 2, 3].flatMap((c) => homogeneousAt(index(c >> 1, c & 1))));
    return { nu: order, uorder: order, uknot: knots, nv: order, vorder: order, vknot: knots, homogeneous, dimension: D };
  });
  const unit = { umin: 0, umax: 1, vmin: 0, vmax: 1 };
  let [nU, nV] = [1, 1];
  for (const s of surfaces) {
    const c = pieceCounts(s, unit, false);
    [nU, nV] = [Math.max(nU, ...c.u), Math.max(nV, ...c.v)];
  }
  const sliceAt = (p: Parameter, count: number, at: number): number[] => {
    const stride = p.values.length / count;
    return (p.values as number[]).slice(at * stride, (at + 1) * stride);
  };
  surfaces.forEach((s, k) => {
    const corners = patches[k]!.corners;
    const [u0, u1, v0, v1] = [corners[0]!.u, corners[1]!.u, corners[0]!.v, corners[2]!.v];
    const pieces = surfacePieces(s, unit, { u: [nU], v: [nV] }).map((piece) => ({
      ...piece, corners: piece.corners.map((c) => ({ ...c, u: u0 + (u1 - u0) * c.u, v: v0 + (v1 - v0) * c.v })),
    }));
    // This patch's own values: its uniform value, and its four varying and facevarying corner values.
    const params = geometry.params.filter((p) => typeof p.values[0] !== 'string').flatMap((p): Parameter[] => {
      const { counts } = geometry;
      if (p.storage === 'constant' || p.storage === 'vertex') return [p];
      if (p.storage === 'uniform') return [{ ...p, values: sliceAt(p, counts.uniform, corners[0]!.uniform) }];
      const varying = p.storage === 'varying';
      return [{ ...p, values: corners.flatMap((c) => sliceAt(p, varying ? counts.varying : counts.facevarying, varying ? c.varying : c.facevarying)) }];
    });
    const patch: Geometry = { ...geometry, params, counts: { constant: 1, uniform: 1, varying: 4, vertex: geometry.counts.vertex, facevarying: 4, facevertex: 4 } };
    emitSurfacePieces(ctx, patch, pieces, vertexParams, strides, 2);
  });
}
