// Geometric functions (RI 3.2 section 15.2), expected values from their definitions.
import type { OracleCase } from '../oracle-case.ts';
import { mx, nm, oc, pt, vc } from '../oracle-case.ts';
import { add, cross, dot, len, mul, rotateAbout, sub, transformNormal, transformPoint, transformVector, unit } from '../reference.ts';

const P = [1.5, -2, 0.25];
const Q = [-0.5, 3, 2];
/** A non-trivial affine matrix (rows): rotation about z by 0.6, scale (2, 1, 0.5), translation (1, -2, 3). */
const M = (() => {
  const c = Math.cos(0.6);
  const s = Math.sin(0.6);
  return [2 * c, 2 * s, 0, 0, -s, c, 0, 0, 0, 0, 0.5, 0, 1, -2, 3, 1];
})();
/** A projective matrix: the homogeneous divide matters. */
const PROJ = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 1];

function ptlined(a: number[], b: number[], p: number[]): number {
  const ab = sub(b, a);
  const t = Math.min(1, Math.max(0, dot(sub(p, a), ab) / dot(ab, ab)));
  return len(sub(p, add(a, mul(ab, t))));
}

function refract(i: number[], n: number[], eta: number): number[] {
  const c = -dot(i, n);
  const k = 1 - eta * eta * (1 - c * c);
  return k < 0 ? [0, 0, 0] : add(mul(i, eta), mul(n, eta * c - Math.sqrt(k)));
}

/** Unpolarised Fresnel reflectance for a unit I against a unit N, eta = n(incident side) / n(other side). */
function fresnelKr(i: number[], n: number[], eta: number): number {
  const cosi = Math.abs(dot(i, n));
  const sin2t = eta * eta * (1 - cosi * cosi);
  if (sin2t >= 1) return 1;
  const cost = Math.sqrt(1 - sin2t);
  const rs = ((eta * cosi - cost) / (eta * cosi + cost)) ** 2;
  const rp = ((eta * cost - cosi) / (eta * cost + cosi)) ** 2;
  return (rs + rp) / 2;
}

const I1 = unit([0.3, -0.4, 0.8]);
const N1 = unit([0, 0.2, -1]);

export const GEOMETRY_CASES: OracleCase[] = [
  oc('float', 'xcomp(p)', { p: pt(P[0]!, P[1]!, P[2]!) }, P[0]!),
  oc('float', 'ycomp(v)', { v: vc(P[0]!, P[1]!, P[2]!) }, P[1]!),
  oc('float', 'zcomp(n)', { n: nm(P[0]!, P[1]!, P[2]!) }, P[2]!),
  { ...oc('point', 'w', { p: pt(1, 2, 3), a: 7 }, [7, 2, 3]), setup: 'point w = p; setxcomp(w, a);' },
  { ...oc('vector', 'w', { v: vc(1, 2, 3), a: -7 }, [1, -7, 3]), setup: 'vector w = v; setycomp(w, a);' },
  { ...oc('normal', 'w', { n: nm(1, 2, 3), a: 0.5 }, [1, 2, 0.5]), setup: 'normal w = n; setzcomp(w, a);' },
  oc('float', 'length(v)', { v: vc(3, 4, 12) }, 13),
  oc('float', 'length(n)', { n: nm(-1, 2, -2) }, 3),
  oc('vector', 'normalize(v)', { v: vc(3, 4, 12) }, [3 / 13, 4 / 13, 12 / 13]),
  oc('normal', 'normalize(n)', { n: nm(0, -5, 0) }, [0, -1, 0]),
  oc('float', 'distance(p, q)', { p: pt(P[0]!, P[1]!, P[2]!), q: pt(Q[0]!, Q[1]!, Q[2]!) }, len(sub(P, Q))),
  oc('float', 'distance(p, q)', { p: pt(0, 0, 0), q: pt(1, 1, 1) }, Math.sqrt(3)),
  oc('float', 'ptlined(a, b, p)', { a: pt(0, 0, 0), b: pt(2, 0, 0), p: pt(1, 3, 0) }, 3),
  oc('float', 'ptlined(a, b, p)', { a: pt(0, 0, 0), b: pt(2, 0, 0), p: pt(-3, 4, 0) }, 5),
  oc('float', 'ptlined(a, b, p)', { a: pt(0, 0, 0), b: pt(2, 0, 0), p: pt(5, 0, 4) }, 5),
  oc('float', 'ptlined(a, b, p)', { a: pt(1, -1, 2), b: pt(-2, 3, 0.5), p: pt(0.3, 0.7, -1) }, ptlined([1, -1, 2], [-2, 3, 0.5], [0.3, 0.7, -1])),
  oc('point', 'rotate(q, a, p0, p1)', { q: pt(1, 0, 0), a: Math.PI / 2, p0: pt(0, 0, 0), p1: pt(0, 0, 1) }, [0, 1, 0]),
  oc('point', 'rotate(q, a, p0, p1)', { q: pt(1, 2, 3), a: 0.7, p0: pt(0.5, -1, 0), p1: pt(1, 1, 2) }, rotateAbout([1, 2, 3], 0.7, [0.5, -1, 0], [0.5, 2, 2])),
  oc('point', 'rotate(q, a, p0, p1)', { q: pt(2, 2, 2), a: -1.1, p0: pt(1, 0, 0), p1: pt(1, 3, 0) }, rotateAbout([2, 2, 2], -1.1, [1, 0, 0], [0, 3, 0])),
  // faceforward(N, I, Nref) = sign(-I . Nref) N.
  oc('vector', 'faceforward(n, i, r)', { n: vc(0, 0, 1), i: vc(0, 0, 1), r: vc(0, 0, 1) }, [0, 0, -1]),
  oc('vector', 'faceforward(n, i, r)', { n: vc(0, 0, 1), i: vc(0, 0, -1), r: vc(0, 0, 1) }, [0, 0, 1]),
  oc('vector', 'faceforward(n, i, r)', { n: vc(1, 2, 3), i: vc(1, 0, 0), r: vc(-1, 1, 0) }, [1, 2, 3]),
  // reflect(I, N) = I - 2 (I . N) N.
  oc('vector', 'reflect(i, n)', { i: vc(1, -1, 0), n: vc(0, 1, 0) }, [1, 1, 0]),
  oc('vector', 'reflect(i, n)', { i: vc(I1[0], I1[1], I1[2]), n: vc(N1[0], N1[1], N1[2]) }, sub(I1, mul(N1, 2 * dot(I1, N1)))),
  // refract(I, N, eta): Snell's law; the zero vector on total internal reflection.
  oc('vector', 'refract(i, n, e)', { i: vc(0, 0, -1), n: vc(0, 0, 1), e: 1 / 1.5 }, [0, 0, -1]),
  oc('vector', 'refract(i, n, e)', { i: vc(I1[0], I1[1], I1[2]), n: vc(-N1[0], -N1[1], -N1[2]), e: 1 / 1.33 }, refract(I1, mul(N1, -1), 1 / 1.33)),
  oc('vector', 'refract(i, n, e)', { i: vc(I1[0], I1[1], I1[2]), n: vc(-N1[0], -N1[1], -N1[2]), e: 1.5 }, refract(I1, mul(N1, -1), 1.5)),
  oc('vector', 'refract(i, n, e)', { i: vc(0.8, 0, -0.6), n: vc(0, 0, 1), e: 1.5 }, [0, 0, 0]),
  // fresnel(I, N, eta, Kr, Kt [, R, T]): Kr + Kt = 1, R and T the reflected and refracted directions.
  { ...oc('color', 'color(kr, kt, 0)', { i: vc(I1[0], I1[1], I1[2]), n: vc(-N1[0], -N1[1], -N1[2]), e: 1 / 1.5 }, [fresnelKr(I1, N1, 1 / 1.5), 1 - fresnelKr(I1, N1, 1 / 1.5), 0]), setup: 'float kr, kt; fresnel(i, n, e, kr, kt);' },
  { ...oc('color', 'color(kr, kt, 0)', { i: vc(0, 0, -1), n: nm(0, 0, 1), e: 1 / 1.5 }, [0.04, 0.96, 0]), setup: 'float kr, kt; fresnel(i, n, e, kr, kt);' },
  { ...oc('color', 'color(kr, kt, 0)', { i: vc(0.8, 0, -0.6), n: nm(0, 0, 1), e: 1.5 }, [1, 0, 0]), setup: 'float kr, kt; fresnel(i, n, e, kr, kt);' },
  { ...oc('vector', 'rv + tv * 10', { i: vc(I1[0], I1[1], I1[2]), n: vc(-N1[0], -N1[1], -N1[2]), e: 1 / 1.33 },
    add(sub(I1, mul(mul(N1, -1), 2 * dot(I1, mul(N1, -1)))), mul(refract(I1, mul(N1, -1), 1 / 1.33), 10))), setup: 'float kr, kt; vector rv, tv; fresnel(i, n, e, kr, kt, rv, tv);' },
  // transform(matrix, p): p M with the homogeneous divide; vtransform drops translation; ntransform uses the inverse transpose.
  oc('point', 'transform(m, p)', { m: mx(M), p: pt(P[0]!, P[1]!, P[2]!) }, transformPoint(M, P)),
  oc('point', 'transform(m, p)', { m: mx(PROJ), p: pt(1, 2, 2) }, transformPoint(PROJ, [1, 2, 2])),
  oc('vector', 'vtransform(m, v)', { m: mx(M), v: vc(Q[0]!, Q[1]!, Q[2]!) }, transformVector(M, Q)),
  oc('normal', 'ntransform(m, n)', { m: mx(M), n: nm(0.2, 0.3, 0.9) }, transformNormal(M, [0.2, 0.3, 0.9])),
  oc('float', 'ntransform(m, n) . vtransform(m, v)', { m: mx(M), n: nm(...(cross([1, 2, 0], [0, 1, 3]) as [number, number, number])), v: vc(1, 2, 0) }, 0),
  oc('point', 'transform("current", p)', { p: pt(1, 2, 3) }, [1, 2, 3]),
  oc('point', 'transform("current", "current", p)', { p: pt(1, 2, 3) }, [1, 2, 3]),
  oc('vector', 'vtransform("current", v)', { v: vc(1, 2, 3) }, [1, 2, 3]),
  oc('normal', 'ntransform("current", n)', { n: nm(1, 2, 3) }, [1, 2, 3]),
  oc('point', 'transform("current", m, p)', { m: mx(M), p: pt(P[0]!, P[1]!, P[2]!) }, transformPoint(M, P)),
  oc('vector', 'vtransform("current", m, v)', { m: mx(M), v: vc(Q[0]!, Q[1]!, Q[2]!) }, transformVector(M, Q)),
  oc('normal', 'ntransform("current", m, n)', { m: mx(M), n: nm(0.2, 0.3, 0.9) }, transformNormal(M, [0.2, 0.3, 0.9])),
];
