import { describe, expect, it } from 'vitest';
import { parseRibSync, storageCounts } from '../../src/rib/index.ts';
import type { Basis } from '../../src/rib/index.ts';

const bezier: Basis = { name: 'bezier', matrix: [], step: 3 };
const bspline: Basis = { name: 'b-spline', matrix: [], step: 1 };
const c = (uniform: number, varying: number, vertex: number, facevarying: number) =>
  ({ constant: 1, uniform, varying, vertex, facevarying, facevertex: facevarying });

describe('storage-class counts per primitive', () => {
  it.each([
    ['Sphere', {}, 0, bezier, c(1, 4, 4, 4)],
    ['Torus', {}, 0, bezier, c(1, 4, 4, 4)],
    ['Polygon', {}, 5, bezier, c(1, 5, 5, 5)],
    ['GeneralPolygon', { nvertices: [4, 3] }, 7, bezier, c(1, 7, 7, 7)],
    ['PointsPolygons', { nvertices: [3, 4], vertices: [0, 1, 2, 2, 1, 3, 4] }, 5, bezier, c(2, 5, 5, 7)],
    ['PointsGeneralPolygons', { nloops: [2, 1], nvertices: [4, 3, 3], vertices: [0, 1, 2, 3, 4, 5, 6, 0, 1, 7] }, 8, bezier, c(2, 8, 8, 10)],
    ['Patch', { type: 'bilinear' }, 4, bezier, c(1, 4, 4, 4)],
    ['Patch', { type: 'bicubic' }, 16, bezier, c(1, 4, 16, 4)],
    // Bilinear meshes: nonperiodic has n-1 patches along a direction, periodic n.
    ['PatchMesh', { type: 'bilinear', nu: 2, uwrap: 'nonperiodic', nv: 3, vwrap: 'nonperiodic' }, 6, bezier, c(2, 6, 6, 8)],
    ['PatchMesh', { type: 'bilinear', nu: 4, uwrap: 'periodic', nv: 3, vwrap: 'nonperiodic' }, 12, bezier, c(8, 12, 12, 32)],
    // Bicubic Bézier (step 3): nonperiodic 7 → 2 patches, 3 varying; periodic 12 → 4 patches, 4 varying.
    ['PatchMesh', { type: 'bicubic', nu: 7, uwrap: 'nonperiodic', nv: 4, vwrap: 'nonperiodic' }, 28, bezier, c(2, 6, 28, 8)],
    ['PatchMesh', { type: 'bicubic', nu: 12, uwrap: 'periodic', nv: 7, vwrap: 'nonperiodic' }, 84, bezier, c(8, 12, 84, 32)],
    // B-spline (step 1): nonperiodic 13 → 10 patches; periodic 8 → 8 patches.
    ['PatchMesh', { type: 'bicubic', nu: 13, uwrap: 'nonperiodic', nv: 8, vwrap: 'periodic' }, 104, bspline, c(80, 88, 104, 320)],
    ['NuPatch', { nu: 4, uorder: 3, uknot: [0, 0, 0, 1, 2, 2, 2], nv: 2, vorder: 2, vknot: [0, 0, 1, 1] }, 8, bezier, c(2, 6, 8, 8)],
    ['SubdivisionMesh', { nvertices: [4, 4], vertices: [0, 1, 4, 3, 1, 2, 5, 4] }, 6, bezier, c(2, 6, 6, 8)],
    ['Points', {}, 7, bezier, c(1, 7, 7, 7)],
    // Linear curves: varying = vertices; cubic Bézier nonperiodic 7 → 2 segments → 3 varying.
    ['Curves', { type: 'linear', nvertices: [3, 2], wrap: 'nonperiodic' }, 5, bezier, c(2, 5, 5, 5)],
    ['Curves', { type: 'cubic', nvertices: [7, 4], wrap: 'nonperiodic' }, 11, bezier, c(2, 5, 11, 5)],
    ['Curves', { type: 'cubic', nvertices: [6], wrap: 'periodic' }, 6, bezier, c(1, 2, 6, 2)],
    ['Blobby', { nleaf: 3 }, 0, bezier, c(1, 3, 3, 3)],
  ] as const)('%s %j', (type, args, points, basis, expected) => {
    expect(storageCounts(type, args as Record<string, number | string | number[]>, points, basis, basis)).toEqual(expected);
  });

  it.each([
    ['PatchMesh', { type: 'bicubic', nu: 6, uwrap: 'nonperiodic', nv: 4, vwrap: 'nonperiodic' }, 'nu (6) must be 4 + a multiple of the u basis step (3)'],
    ['PatchMesh', { type: 'bicubic', nu: 8, uwrap: 'periodic', nv: 4, vwrap: 'nonperiodic' }, 'nu (8) must be a multiple of the u basis step (3) for a periodic mesh'],
    ['PatchMesh', { type: 'bilinear', nu: 2, uwrap: 'sometimes', nv: 2, vwrap: 'nonperiodic' }, 'uwrap must be "periodic" or "nonperiodic", not "sometimes"'],
    ['NuPatch', { nu: 4, uorder: 3, uknot: [0, 1], nv: 2, vorder: 2, vknot: [0, 0, 1, 1] }, 'uknot must have nu + uorder = 7 values, found 2'],
    ['PointsPolygons', { nvertices: [3], vertices: [0, 1] }, 'nvertices adds up to 3 but vertices has 2 indices'],
    ['Curves', { type: 'cubic', nvertices: [5], wrap: 'nonperiodic' }, 'a cubic curve needs 4 + a multiple of the basis step (3) vertices, not 5'],
  ] as const)('rejects inconsistent %s %j', (type, args, message) => {
    expect(storageCounts(type, args as Record<string, number | string | number[]>, 100, bezier, bezier)).toBe(message);
  });
});

describe('primitive variables are checked against the counts', () => {
  const run = (body: string) => parseRibSync(`WorldBegin\n${body}\nWorldEnd\n`, { fileName: 'c.rib' });

  it('accepts one value set per storage class on a PatchMesh', () => {
    const scene = run(`PatchMesh "bilinear" 2 "nonperiodic" 3 "nonperiodic" "P" [0 0 0 1 0 0 0 1 0 1 1 0 0 2 0 1 2 0]
      "constant float k" [1] "uniform float u" [1 2] "varying float v" [1 2 3 4 5 6] "vertex float w" [1 2 3 4 5 6]
      "facevarying float f" [1 2 3 4 5 6 7 8] "Cs" [1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0]`);
    expect(scene.errors).toEqual([]);
    expect(scene.frames[0]!.primitives[0]!.geometry.params.map((p) => p.storage)).toEqual(['vertex', 'constant', 'uniform', 'varying', 'vertex', 'facevarying', 'varying']);
  });

  it.each([
    ['Sphere 1 -1 1 360 "varying float v" [1 2 3]', 'parameter "v" (varying float) needs 4 values on this Sphere (4 × 1), found 3'],
    ['Polygon "P" [0 0 0 1 0 0 1 1 0] "Cs" [1 0 0]', 'parameter "Cs" (varying color) needs 9 values on this Polygon (3 × 3), found 3'],
    ['PointsPolygons [3 3] [0 1 2 2 1 3] "P" [0 0 0 1 0 0 0 1 0 1 1 0] "uniform float id" [7]', 'parameter "id" (uniform float) needs 2 values on this PointsPolygons (2 × 1), found 1'],
    ['Patch "bicubic" "P" [0 0 0 1 0 0 0 1 0 1 1 0]', 'parameter "P" (vertex point) needs 48 values on this Patch (16 × 3), found 12'],
    ['Points "P" [0 0 0 1 1 1] "float[2] uv" [0 0 1]', 'parameter "uv" (uniform float[2]) needs 2 values on this Points (1 × 2), found 3'],
  ])('reports %s', (body, message) => {
    const scene = run(body);
    expect(scene.errors.map((e) => [e.message, e.line])).toEqual([[message, 2]]);
    expect(scene.frames[0]!.primitives).toEqual([]);
  });
});
