// TrimCurve (RI 3.2 RiTrimCurve) for NuPatch records. The loops' rational B-spline curves, in
// homogeneous parameter space (u w, v w, w), are flattened into segments in the NuPatch's (u, v)
// until no chord strays from its curve by more than a 1e-4 part of the patch's parameter range,
// and each record a loop crosses gets the segments that can decide its points, in its own
// parameters (src/layout/trim-block.ts). The sampler then tests every sample point against them
// (reyes-trim.wgsl), so a trimmed edge is as smooth as a silhouette. A point is kept where a ray
// from it crosses the loops an odd number of times (the spec's odd winding rule, as Aqsis does;
// Attribute "trimcurve" "sense" "outside" keeps the rest instead). Records wholly cut away are
// left out; records no loop crosses carry no block.
import type { Attributes, TrimCurves } from '../../rib/scene.ts';
import { TRIM_BLOCK, TRIM_SEGMENT } from '../../layout/trim-block.ts';
import { basisWithDerivatives } from './nurbs-basis.ts';

/** Chord error allowed, as a part of the patch's parameter range. */
const TOLERANCE = 1e-4;
/** Halvings of a knot span at most while flattening. */
const MAX_DEPTH = 14;

/** The flattened loops of a TrimCurve: segments (ax, ay, bx, by) in the NuPatch's (u, v). */
export interface TrimRegion {
  segments: Float64Array;
  keepOutside: boolean;
}

/** The TrimCurve's loops flattened for a NuPatch whose parameters span `range` (its largest side),
 * or undefined with a warning where the TrimCurve's arrays do not describe curves. */
export function trimRegion(trim: TrimCurves, attributes: Attributes, range: number, warn: (message: string) => void): TrimRegion | undefined {
  const problem = checkTrimCurves(trim);
  if (problem) {
    warn(`TrimCurve ${problem}; this NuPatch is drawn untrimmed`);
    return undefined;
  }
  const sense = attributes.user['trimcurve']?.find((p) => p.name === 'sense')?.values[0];
  if (sense !== undefined && sense !== 'inside' && sense !== 'outside') warn(`Attribute "trimcurve" "sense" "${String(sense)}" is neither "inside" nor "outside"; using "inside"`);
  const tolerance = TOLERANCE * (range > 0 ? range : 1);
  const segments: number[] = [];
  let curve = 0;
  let [knotAt, pointAt] = [0, 0];
  for (const count of trim.ncurves) {
    const loop: number[] = [];
    for (let c = 0; c < count; c++, curve++) {
      const [order, n] = [trim.order[curve]!, trim.n[curve]!];
      const knots = trim.knot.slice(knotAt, knotAt + n + order);
      const points = { u: trim.u.slice(pointAt, pointAt + n), v: trim.v.slice(pointAt, pointAt + n), w: trim.w.slice(pointAt, pointAt + n) };
      flattenCurve(order, knots, points, trim.min[curve]!, trim.max[curve]!, tolerance, loop);
      knotAt += n + order;
      pointAt += n;
    }
    // The loop closes from its last point to its first (the spec asks for explicitly closed loops;
    // one that is not is closed by a straight line rather than left open, which would flip every
    // point beside the gap).
    for (let k = 0; k + 2 < loop.length; k += 2) segments.push(loop[k]!, loop[k + 1]!, loop[k + 2]!, loop[k + 3]!);
    if (loop.length >= 4) segments.push(loop[loop.length - 2]!, loop[loop.length - 1]!, loop[0]!, loop[1]!);
  }
  return { segments: Float64Array.from(segments), keepOutside: sense === 'outside' };
}

/** What is wrong with the TrimCurve's arrays, or undefined. */
function checkTrimCurves(trim: TrimCurves): string | undefined {
  const curves = trim.ncurves.reduce((s, n) => s + n, 0);
  if (trim.ncurves.some((n) => !(n >= 1))) return 'has a loop without curves';
  for (const [name, values] of [['order', trim.order], ['min', trim.min], ['max', trim.max], ['n', trim.n]] as const) {
    if (values.length !== curves) return `gives ${values.length} ${name} values for ${curves} curves`;
  }
  let [knots, points] = [0, 0];
  for (let c = 0; c < curves; c++) {
    const [order, n] = [trim.order[c]!, trim.n[c]!];
    if (!(order >= 2) || !(n >= order)) return `curve ${c} has order ${order} and ${n} control points (order at least 2, at most n)`;
    const k = trim.knot.slice(knots, knots + n + order);
    if (k.some((x, i) => i > 0 && x < k[i - 1]!)) return `curve ${c}'s knots decrease`;
    if (!(trim.min[c]! < trim.max[c]!) || trim.min[c]! < k[order - 1]! || trim.max[c]! > k[n]!) {
      return `curve ${c}'s range [${trim.min[c]}, ${trim.max[c]}] is not inside its knots' [${k[order - 1]}, ${k[n]}]`;
    }
    knots += n + order;
    points += n;
  }
  if (trim.knot.length !== knots) return `gives ${trim.knot.length} knots where its curves take ${knots}`;
  for (const [name, values] of [['u', trim.u], ['v', trim.v], ['w', trim.w]] as const) {
    if (values.length !== points) return `gives ${values.length} ${name} values for ${points} control points`;
  }
  if (trim.w.some((w) => !(w > 0))) return 'has a weight that is not positive';
  return undefined;
}

/** Appends to `out` (x, y pairs) the curve's points over [min, max], its first point included. */
function flattenCurve(order: number, knots: readonly number[], points: { u: readonly number[]; v: readonly number[]; w: readonly number[] },
  min: number, max: number, tolerance: number, out: number[]): void {
  const at = (span: number, t: number): [number, number] => {
    const { N } = basisWithDerivatives(knots, order, span, t);
    let [x, y, w] = [0, 0, 0];
    for (let a = 0; a < order; a++) {
      const k = span - order + 1 + a;
      x += N[a]! * points.u[k]!;
      y += N[a]! * points.v[k]!;
      w += N[a]! * points.w[k]!;
    }
    return [x / w, y / w];
  };
  const n = points.u.length;
  let first = true;
  for (let span = order - 1; span < n; span++) {
    const [a, b] = [Math.max(knots[span]!, min), Math.min(knots[span + 1]!, max)];
    if (!(b > a)) continue;
    if (first) out.push(...at(span, a));
    first = false;
    // Each span starts as four pieces (a conic's quarter turn stays well inside one), then halves
    // a piece while its midpoint or quarter points stray from the chord.
    for (let q = 0; q < 4; q++) flattenPiece(at, span, a + ((b - a) * q) / 4, a + ((b - a) * (q + 1)) / 4, tolerance, 0, out);
  }
}

function flattenPiece(at: (span: number, t: number) => [number, number], span: number, t0: number, t1: number, tolerance: number, depth: number, out: number[]): void {
  const [p0, p1] = [at(span, t0), at(span, t1)];
  const straight = [0.25, 0.5, 0.75].every((f) => distanceToChord(at(span, t0 + (t1 - t0) * f), p0, p1) <= tolerance);
  if (straight || depth >= MAX_DEPTH) {
    out.push(...p1);
    return;
  }
  const tm = (t0 + t1) / 2;
  flattenPiece(at, span, t0, tm, tolerance, depth + 1, out);
  flattenPiece(at, span, tm, t1, tolerance, depth + 1, out);
}

function distanceToChord(p: readonly number[], a: readonly number[], b: readonly number[]): number {
  const [dx, dy] = [b[0]! - a[0]!, b[1]! - a[1]!];
  const length = Math.hypot(dx, dy);
  if (length === 0) return Math.hypot(p[0]! - a[0]!, p[1]! - a[1]!);
  return Math.abs(dx * (p[1]! - a[1]!) - dy * (p[0]! - a[0]!)) / length;
}

/** Whether the odd winding rule (a ray towards +x, half-open in y) puts (x, y) inside. */
export function insideLoops(segments: ArrayLike<number>, x: number, y: number): boolean {
  let odd = false;
  for (let k = 0; k + 3 < segments.length; k += 4) {
    const [ax, ay, bx, by] = [segments[k]!, segments[k + 1]!, segments[k + 2]!, segments[k + 3]!];
    if ((ay <= y) !== (by <= y) && ax + ((y - ay) / (by - ay)) * (bx - ax) > x) odd = !odd;
  }
  return odd;
}

/**
 * How a record over the NuPatch's [u0, u1] × [v0, v1] is trimmed: 'removed' where the trim cuts all
 * of it away, 'whole' where it keeps all of it, else its trim block (the segments that can decide
 * one of its points: those reaching into its t range and not wholly left of it, in its (s, t)).
 */
export function recordTrim(region: TrimRegion, u0: number, u1: number, v0: number, v1: number): 'removed' | 'whole' | Float32Array {
  const [du, dv] = [u1 - u0, v1 - v0];
  const local: number[] = [];
  let crosses = false;
  const { segments } = region;
  for (let k = 0; k + 3 < segments.length; k += 4) {
    const [ax, ay, bx, by] = [(segments[k]! - u0) / du, (segments[k + 1]! - v0) / dv, (segments[k + 2]! - u0) / du, (segments[k + 3]! - v0) / dv];
    if (Math.max(ay, by) < 0 || Math.min(ay, by) > 1 || Math.max(ax, bx) < 0) continue;
    local.push(ax, ay, bx, by);
    if (!crosses && segmentMeetsUnitSquare(ax, ay, bx, by)) crosses = true;
  }
  if (!crosses) return insideLoops(local, 0.5, 0.5) !== region.keepOutside ? 'whole' : 'removed';
  const block = new Float32Array(TRIM_BLOCK.segments + local.length);
  block[TRIM_BLOCK.count] = local.length / TRIM_SEGMENT.floats;
  block[TRIM_BLOCK.sense] = region.keepOutside ? 1 : 0;
  for (let k = 0; k < local.length; k += TRIM_SEGMENT.floats) {
    const at = TRIM_BLOCK.segments + k;
    block[at + TRIM_SEGMENT.ax] = local[k]!;
    block[at + TRIM_SEGMENT.ay] = local[k + 1]!;
    block[at + TRIM_SEGMENT.bx] = local[k + 2]!;
    block[at + TRIM_SEGMENT.by] = local[k + 3]!;
  }
  return block;
}

/** Whether the segment touches [0, 1]²: its box overlaps the square and the square's corners are not
 * all strictly on one side of its line. */
function segmentMeetsUnitSquare(ax: number, ay: number, bx: number, by: number): boolean {
  if (Math.max(ax, bx) < 0 || Math.min(ax, bx) > 1 || Math.max(ay, by) < 0 || Math.min(ay, by) > 1) return false;
  const side = (x: number, y: number) => Math.sign((bx - ax) * (y - ay) - (by - ay) * (x - ax));
  const sides = [side(0, 0), side(1, 0), side(0, 1), side(1, 1)];
  return !(sides.every((s) => s > 0) || sides.every((s) => s < 0));
}
