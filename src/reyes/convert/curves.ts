// Curves as ribbons. Each cubic segment (any basis and step from the v basis, periodic or not) becomes
// a bicubic Bézier patch: v along the curve (the segment's control points converted to Bézier, exactly,
// as patches.ts does), u across it (linear from -width / 2 to +width / 2 along the side direction; the
// edges are the cubics through the exact offset points at t = 0, 1/3, 2/3, 1), so the dicer and sampler treat hair like any patch: a ribbon thinner than a pixel
// gets thin micropolygons whose sample coverage gives its share of the pixel. Each linear segment is
// a bilinear patch whose end sides are shared with its neighbours (the mean tangent at a vertex).
// Without N a ribbon faces the camera (the side is view × tangent, computed in camera space where
// the camera is known); with N it is oriented: the side is tangent × N, so the ribbon's normal is N.
// The geometry goes to the records in camera space; widths are object-space lengths.
import { mat4, vec3 } from 'gl-matrix';
import type { Geometry, Parameter } from '../../rib/scene.ts';
import type { CornerRef } from '../primvars.ts';
import { PrimitiveFlag } from '../../layout/primitive-record.ts';
import type { BicubicGrid } from './bezier.ts';
import { toBezier } from './bezier.ts';
import { lengthScale, viewDirection, widths } from './camera-facing.ts';
import { emitPiece, type ConvertContext } from './emit.ts';

const IDENTITY_BASIS = mat4.create() as Float32Array;
const CAMERA_SPACE = mat4.create();
/** Bézier control point j of the cubic through E0..E3 at t = 0, 1/3, 2/3, 1: Σk weights[j][k] Ek
 * (the inverse of the Bernstein matrix at those parameters). */
const INTERPOLATE_THIRDS = [[1, 0, 0, 0], [-5 / 6, 3, -3 / 2, 1 / 3], [1 / 3, -3 / 2, 3, -5 / 6], [0, 0, 0, 1]];

/** One curve's segment: the varying values at its ends and the vertex indices of its control points. */
interface Segment {
  curve: number;
  /** Index of the segment along its curve and the curve's segment count (v = index / count). */
  index: number;
  count: number;
  varying: [number, number];
  controls: number[];
  /** Linear curves: the vertex before the first control point and after the last, where there is one. */
  before?: number;
  after?: number;
}

function segmentsOf(nvertices: readonly number[], cubic: boolean, periodic: boolean, step: number): Segment[] {
  const out: Segment[] = [];
  let vertexBase = 0;
  let varyingBase = 0;
  nvertices.forEach((nv, curve) => {
    const count = cubic ? (periodic ? nv / step : (nv - 4) / step + 1) : periodic ? nv : nv - 1;
    const varyingCount = cubic ? (periodic ? count : count + 1) : nv;
    for (let s = 0; s < count; s++) {
      const controls = cubic
        ? [0, 1, 2, 3].map((k) => vertexBase + ((s * step + k) % nv))
        : [vertexBase + s, vertexBase + ((s + 1) % nv)];
      const segment: Segment = { curve, index: s, count, varying: [varyingBase + s, varyingBase + ((s + 1) % varyingCount)], controls };
      if (!cubic) {
        if (s > 0 || periodic) segment.before = vertexBase + ((s + nv - 1) % nv);
        if (s + 2 < nv || periodic) segment.after = vertexBase + ((s + 2) % nv);
      }
      out.push(segment);
    }
    vertexBase += nv;
    varyingBase += varyingCount;
  });
  return out;
}

/** Bézier weights of the point and the tangent at t. */
function bernstein(t: number): { b: number[]; d: number[] } {
  const s = 1 - t;
  return { b: [s * s * s, 3 * t * s * s, 3 * t * t * s, t * t * t], d: [-3 * s * s, 3 * s * s - 6 * t * s, 6 * t * s - 3 * t * t, 3 * t * t] };
}

function combine(points: readonly vec3[], weights: readonly number[]): vec3 {
  const out = vec3.create();
  points.forEach((p, k) => vec3.scaleAndAdd(out, out, p, weights[k]!));
  return out;
}

/** The side direction of a ribbon at a point with tangent `t`: view × t facing the camera, else t × n. */
function side(t: vec3, at: vec3, perspective: boolean, normal: vec3 | undefined): vec3 {
  const out = normal ? vec3.cross(vec3.create(), t, normal) : vec3.cross(vec3.create(), viewDirection(at, perspective), t);
  const length = vec3.length(out);
  return length > 0 ? vec3.scale(out, out, 1 / length) : vec3.fromValues(1, 0, 0);
}

export function convertCurves(ctx: ConvertContext, geometry: Geometry, perspective: boolean): void {
  const positions = ctx.primvars.positions();
  if (!positions) return ctx.warn('Curves without P is skipped');
  const cubic = geometry.args.type === 'cubic';
  const periodic = geometry.args.wrap === 'periodic';
  const basis = ctx.attributes.vBasis;
  const segments = segmentsOf(geometry.args.nvertices as number[], cubic, periodic, cubic ? basis.step : 1);
  const objectToCamera = ctx.common.objectToCamera as mat4;
  const scale = lengthScale(objectToCamera);
  const points = Array.from({ length: positions.length / 3 }, (_, i) =>
    vec3.transformMat4(vec3.create(), vec3.fromValues(positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!), objectToCamera));
  const given = widths(ctx.primvars);
  const normals = ctx.primvars.get('N');
  // The side direction already fixes which way dPdu × dPdv points (at the eye, or along N).
  const facing: ConvertContext = { ...ctx, common: { ...ctx.common, flags: (ctx.common.flags & ~PrimitiveFlag.flipNormal) | PrimitiveFlag.ribbon } };
  const cv = cubic ? toBezier(basis) : undefined;

  /** A primitive variable of `components` numbers at fraction t along a segment whose Bézier control
   * values are wanted (cubic) or at its ends (linear, t 0 or 1): varying values interpolate linearly,
   * vertex values follow the curve basis, uniform and constant ones are the curve's. */
  const along = (param: Parameter, seg: Segment, components: number, t: number): number[] => {
    const ref = (varying: number, vertex: number): CornerRef => ({ uniform: seg.curve, varying, vertex, facevarying: varying, u: 0, v: 0 });
    if (param.storage === 'vertex' && cv) {
      // Σj Bj(t) Σl cv(j, l) G(l): the curve basis, through its Bézier form.
      const { b } = bernstein(t);
      const out = new Array<number>(components).fill(0);
      seg.controls.forEach((vertex, l) => {
        const value = ctx.primvars.valueAt(param, ref(seg.varying[0], vertex), components);
        const weight = b.reduce((sum, bj, j) => sum + bj * cv[j * 4 + l]!, 0);
        for (let c = 0; c < components; c++) out[c]! += weight * value[c]!;
      });
      return out;
    }
    const a = ctx.primvars.valueAt(param, ref(seg.varying[0], seg.controls[0]!), components);
    const b = ctx.primvars.valueAt(param, ref(seg.varying[1], seg.controls[seg.controls.length - 1]!), components);
    return a.map((x, c) => x + (b[c]! - x) * t);
  };
  const widthAt = (seg: Segment, t: number): number => ('constant' in given ? given.constant : along(given.param, seg, 1, t)[0]!) * scale;
  const normalAt = (seg: Segment, t: number): vec3 | undefined => {
    if (!normals) return undefined;
    const n = along(normals, seg, 3, t);
    return vec3.transformMat3(vec3.create(), vec3.fromValues(n[0]!, n[1]!, n[2]!), ctx.normalMatrix);
  };

  for (const seg of segments) {
    const v0 = seg.index / seg.count;
    const v1 = (seg.index + 1) / seg.count;
    const corners = (ends: [number, number]): CornerRef[] => [0, 1, 2, 3].map((k) => ({
      uniform: seg.curve, varying: seg.varying[k >> 1]!, vertex: ends[k >> 1]!, facevarying: seg.varying[k >> 1]!, u: k & 1, v: k >> 1 ? v1 : v0,
    }));
    if (cv) {
      const control = seg.controls.map((i) => points[i]!);
      const bezier = [0, 1, 2, 3].map((j) => combine(control, [0, 1, 2, 3].map((l) => cv[j * 4 + l]!)));
      // Rows across the ribbon at t = 0, 1/3, 2/3, 1: the exact offset points, which the Bézier rows
      // then interpolate (the centre line, a cubic, is reproduced exactly).
      const rows: vec3[][] = [];
      for (let j = 0; j < 4; j++) {
        const { b, d } = bernstein(j / 3);
        let tangent = combine(bezier, d);
        if (vec3.length(tangent) === 0) tangent = vec3.subtract(vec3.create(), bezier[3]!, bezier[0]!);
        const centre = combine(bezier, b);
        const s = side(tangent, centre, perspective, normalAt(seg, j / 3));
        const half = widthAt(seg, j / 3) / 2;
        rows.push([0, 1, 2, 3].map((i) => vec3.scaleAndAdd(vec3.create(), centre, s, (i / 3 - 0.5) * 2 * half)));
      }
      const geometryPoints: number[] = [];
      for (let j = 0; j < 4; j++) {
        for (let i = 0; i < 4; i++) {
          const p = combine(rows.map((row) => row[i]!), INTERPOLATE_THIRDS[j]!);
          geometryPoints.push(p[0], p[1], p[2]);
        }
      }
      // Vertex-class variables follow the curve basis along v and are constant across u.
      const grid: BicubicGrid = { index: (l) => seg.controls[l]!, cu: IDENTITY_BASIS, cv };
      emitPiece(facing, 'bezier', geometryPoints, corners([seg.controls[0]!, seg.controls[3]!]), grid, CAMERA_SPACE);
    } else {
      const [a, b] = seg.controls as [number, number];
      const geometryPoints: number[] = [];
      [a, b].forEach((vertex, end) => {
        const s = side(vertexTangent(points, seg, end), points[vertex]!, perspective, normalAt(seg, end));
        const half = widthAt(seg, end) / 2;
        for (const sign of [-1, 1]) {
          const p = vec3.scaleAndAdd(vec3.create(), points[vertex]!, s, sign * half);
          geometryPoints.push(p[0], p[1], p[2]);
        }
      });
      emitPiece(facing, 'bilinear', geometryPoints, corners([a, b]), undefined, CAMERA_SPACE);
    }
  }
}

/** The tangent of a linear curve at one end of a segment: the mean of the unit directions of the
 * segments that meet there (one at an open curve's ends), so neighbouring segments share the side. */
function vertexTangent(points: readonly vec3[], seg: Segment, end: number): vec3 {
  const [a, b] = seg.controls as [number, number];
  const here = vec3.normalize(vec3.create(), vec3.subtract(vec3.create(), points[b]!, points[a]!));
  const across = end === 0 ? seg.before : seg.after;
  if (across === undefined) return here;
  const other = end === 0 ? vec3.subtract(vec3.create(), points[a]!, points[across]!) : vec3.subtract(vec3.create(), points[across]!, points[b]!);
  if (vec3.length(other) === 0) return here;
  return vec3.add(here, here, vec3.normalize(other, other));
}
