// CPU conversion: basis changes, triangulation with holes, and records per primitive.
import { describe, expect, it } from 'vitest';
import { namedBasis } from '../../src/rib/basis.ts';
import { toBezier } from '../../src/reyes/convert/patches.ts';
import { triangulateLoops } from '../../src/reyes/convert/triangulate.ts';

describe('conversion', () => {
  it('B-spline to Bézier: B0 = (P0 + 4 P1 + P2) / 6, B1 = (2 P1 + P2) / 3', () => {
    const c = toBezier(namedBasis('b-spline', 1)!);
    expect(Array.from(c.slice(0, 4)).map((v) => Number(v.toFixed(5)))).toEqual([0.16667, 0.66667, 0.16667, 0]);
    expect(Array.from(c.slice(4, 8)).map((v) => Number(v.toFixed(5)))).toEqual([0, 0.66667, 0.33333, 0]);
  });

  it('Bézier to Bézier is the identity', () => {
    const c = toBezier(namedBasis('bezier', 3)!);
    for (let i = 0; i < 4; i++) for (let k = 0; k < 4; k++) expect(c[i * 4 + k]!).toBeCloseTo(i === k ? 1 : 0);
  });

  it('triangulates a square with two holes into positive triangles of the right area', () => {
    const P = [-1.2, -1, 0, 1.2, -1, 0, 1.2, 1, 0, -1.2, 1, 0, -0.9, -0.6, 0, -0.2, -0.6, 0, -0.55, 0.4, 0,
      0.2, -0.3, 0, 0.8, -0.3, 0, 0.8, 0.5, 0, 0.2, 0.5, 0];
    const triangles = triangulateLoops(P, [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9, 10]]);
    expect(triangles.length).toBe(11 + 2 * 2 - 2);
    let area = 0;
    for (const [a, b, c] of triangles) {
      const s = ((P[b * 3]! - P[a * 3]!) * (P[c * 3 + 1]! - P[a * 3 + 1]!) - (P[b * 3 + 1]! - P[a * 3 + 1]!) * (P[c * 3]! - P[a * 3]!)) / 2;
      expect(s).toBeGreaterThan(0);
      area += s;
    }
    expect(area).toBeCloseTo(2.4 * 2 - 0.35 - 0.48, 5);
  });
});
