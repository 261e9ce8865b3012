// spline (RI 3.2 section 15.1) in each basis of RiBasis (section 4.2.1: the basis matrices and their
// steps), by their definition: the knot sequence is cut into segments `step` knots apart, value 0 to
// 1 spans the segments evenly, and a segment is [t^3 t^2 t 1] M [k0 k1 k2 k3]^T. The linear basis
// interpolates the inner knots (the first and last are ignored, as with catmull-rom). And filterstep's
// two-value form: the step box-filtered over [s1, s2].
import type { OracleCase } from '../oracle-case.ts';
import { col, oc, pt } from '../oracle-case.ts';

const BASES: Record<string, { step: number; m: number[][] }> = {
  'catmull-rom': { step: 1, m: [[-0.5, 1.5, -1.5, 0.5], [1, -2.5, 2, -0.5], [-0.5, 0, 0.5, 0], [0, 1, 0, 0]] },
  bezier: { step: 3, m: [[-1, 3, -3, 1], [3, -6, 3, 0], [-3, 3, 0, 0], [1, 0, 0, 0]] },
  bspline: { step: 1, m: [[-1 / 6, 3 / 6, -3 / 6, 1 / 6], [3 / 6, -1, 3 / 6, 0], [-3 / 6, 0, 3 / 6, 0], [1 / 6, 4 / 6, 1 / 6, 0]] },
  hermite: { step: 2, m: [[2, 1, -2, 1], [-3, -2, 3, -1], [0, 1, 0, 0], [1, 0, 0, 0]] },
  power: { step: 4, m: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]] },
  linear: { step: 1, m: [[0, 0, 0, 0], [0, 0, 0, 0], [0, -1, 1, 0], [0, 1, 0, 0]] },
};

function spline(basis: string, x: number, knots: number[]): number {
  const { step, m } = BASES[basis]!;
  const segments = Math.floor((knots.length - 4) / step) + 1;
  const u = Math.min(1, Math.max(0, x)) * segments;
  const seg = Math.min(Math.floor(u), segments - 1);
  const t = u - seg;
  const powers = [t * t * t, t * t, t, 1];
  return [0, 1, 2, 3].reduce((sum, j) => sum + powers.reduce((w, p, i) => w + p * m[i]![j]!, 0) * knots[seg * step + j]!, 0);
}

const KNOTS: Record<string, number[]> = {
  'catmull-rom': [0, 1, 3, 2, 5, 4],
  bezier: [0, 2, 3, 1, -1, 0, 4],
  bspline: [1, 0, 3, 2, 5, 3],
  hermite: [0, 1, 2, -1, 1, 0],
  power: [1, -2, 0.5, 3],
  linear: [0, 1, 3, 2, 6],
};

const floatCase = (basis: string, x: number): OracleCase => {
  const knots = KNOTS[basis]!;
  const args = Object.fromEntries(knots.map((k, i) => [`k${i}`, k]));
  return oc('float', `spline("${basis}", x, ${knots.map((_, i) => `k${i}`).join(', ')})`, { x, ...args }, spline(basis, x, knots));
};

function filterstep(edge: number, s1: number, s2: number): number {
  return Math.min(1, Math.max(0, (s2 - edge) / (s2 - s1)));
}

export const SPLINE_CASES: OracleCase[] = [
  ...Object.keys(BASES).flatMap((basis) => [0, 0.2, 0.5, 0.85, 1].map((x) => floatCase(basis, x))),
  oc('float', 'spline(x, a, b, c, d)', { x: 0.5, a: 0, b: 1, c: 3, d: 4 }, spline('catmull-rom', 0.5, [0, 1, 3, 4])),
  oc('float', 'spline(x, a, b, c, d)', { x: -1, a: 0, b: 1, c: 3, d: 4 }, 1),
  oc('float', 'spline(x, a, b, c, d)', { x: 2, a: 0, b: 1, c: 3, d: 4 }, 3),
  oc('color', 'spline(x, c0, c1, c2, c3)', { x: 0.3, c0: col(0, 1, 2), c1: col(1, 0, 2), c2: col(3, 1, 0), c3: col(2, 2, 2) },
    [0, 1, 2].map((k) => spline('catmull-rom', 0.3, [[0, 1, 2], [1, 0, 2], [3, 1, 0], [2, 2, 2]].map((c) => c[k]!)))),
  oc('point', 'spline("bezier", x, p0, p1, p2, p3)', { x: 0.5, p0: pt(0, 0, 0), p1: pt(1, 2, 0), p2: pt(3, 2, 0), p3: pt(4, 0, 1) },
    [0, 1, 2].map((k) => spline('bezier', 0.5, [[0, 0, 0], [1, 2, 0], [3, 2, 0], [4, 0, 1]].map((c) => c[k]!)))),
  { ...oc('float', 'spline(x, arr)', { x: 0.6, a: 0, b: 2, c: 1, d: 3, e: 5 }, spline('catmull-rom', 0.6, [0, 2, 1, 3, 5])), setup: 'float arr[5] = { a, b, c, d, e };' },
  { ...oc('float', 'spline("bspline", x, arr)', { x: 0.6, a: 0, b: 2, c: 1, d: 3, e: 5 }, spline('bspline', 0.6, [0, 2, 1, 3, 5])), setup: 'float arr[5] = { a, b, c, d, e };' },
  { ...oc('float', 'spline("bezier", x, arr)', { x: 0.75, a: 0, b: 2, c: 1, d: 3, e: 5, g: 1, h: 0 }, spline('bezier', 0.75, [0, 2, 1, 3, 5, 1, 0])), setup: 'float arr[7] = { a, b, c, d, e, g, h };' },
  { ...oc('color', 'spline("linear", x, arr)', { x: 0.25, c0: col(9, 9, 9), c1: col(0, 1, 2), c2: col(2, 3, 4), c3: col(9, 9, 9) }, [0.5, 1.5, 2.5]), setup: 'color arr[4] = { c0, c1, c2, c3 };' },
  oc('float', 'filterstep(e, a, b)', { e: 0.5, a: 0.4, b: 0.8 }, filterstep(0.5, 0.4, 0.8)),
  oc('float', 'filterstep(e, a, b)', { e: 0.5, a: 0.6, b: 0.8 }, 1),
  oc('float', 'filterstep(e, a, b)', { e: 0.5, a: 0, b: 0.4 }, 0),
  oc('float', 'filterstep(e, a, b)', { e: 0.25, a: 0, b: 1 }, 0.75),
  oc('float', 'filterstep(e, a, b, "width", w)', { e: 0.5, a: 0.4, b: 0.8, w: 2 }, filterstep(0.5, 0.2, 1)),
  oc('float', 'filterstep(e, a, b, "width", w)', { e: 0.5, a: 0.4, b: 0.8, w: 0.5 }, filterstep(0.5, 0.5, 0.7)),
];
