// How many values each storage class needs on each kind of primitive (RI 3.2, section 5 and
// appendix on primitive variables). A parameter's value count is checked against these.

import type { Basis, PrimitiveType, StorageCounts } from './scene.ts';

type Args = Record<string, number | string | number[] | string[]>;

function counts(uniform: number, varying: number, vertex: number, facevarying: number): StorageCounts {
  return { constant: 1, uniform, varying, vertex, facevarying, facevertex: facevarying };
}

// Plain loops: these run over every vertex index of large meshes.
function sum(xs: number[]): number {
  let total = 0;
  for (let i = 0; i < xs.length; i++) total += xs[i]!;
  return total;
}
function maxPlusOne(xs: number[]): number {
  let max = -1;
  for (let i = 0; i < xs.length; i++) if (xs[i]! > max) max = xs[i]!;
  return max + 1;
}

/** Patches along one direction of a patch mesh, and the varying values along it. */
function patchMeshDirection(
  n: number, wrap: string, bicubic: boolean, step: number, dir: string,
): { patches: number; varying: number } | string {
  const periodic = wrap === 'periodic';
  if (!periodic && wrap !== 'nonperiodic') return `${dir}wrap must be "periodic" or "nonperiodic", not "${wrap}"`;
  if (!bicubic) {
    if (n < 2) return `n${dir} must be at least 2 for a bilinear patch mesh`;
    const patches = periodic ? n : n - 1;
    return { patches, varying: periodic ? patches : patches + 1 };
  }
  if (periodic) {
    if (n % step !== 0) return `n${dir} (${n}) must be a multiple of the ${dir} basis step (${step}) for a periodic mesh`;
    return { patches: n / step, varying: n / step };
  }
  if (n < 4 || (n - 4) % step !== 0) return `n${dir} (${n}) must be 4 + a multiple of the ${dir} basis step (${step})`;
  const patches = (n - 4) / step + 1;
  return { patches, varying: patches + 1 };
}

/** Segments and varying values of one curve with `nv` vertices. */
function curveCounts(nv: number, cubic: boolean, periodic: boolean, step: number): { varying: number } | string {
  if (!cubic) {
    if (nv < 2 && !periodic) return `a linear curve needs at least 2 vertices, not ${nv}`;
    return { varying: nv };
  }
  if (periodic) {
    if (nv % step !== 0) return `a periodic cubic curve needs a multiple of the basis step (${step}) vertices, not ${nv}`;
    return { varying: nv / step };
  }
  if (nv < 4 || (nv - 4) % step !== 0) return `a cubic curve needs 4 + a multiple of the basis step (${step}) vertices, not ${nv}`;
  return { varying: (nv - 4) / step + 2 };
}

/**
 * Storage-class counts for a primitive, or a message when its arguments are inconsistent.
 * `points` is the number of positions given by P (or Pw, Pz), needed where the arguments do
 * not say how many vertices there are (Polygon, GeneralPolygon, Points).
 */
export function storageCounts(
  type: PrimitiveType, args: Args, points: number, uBasis: Basis, vBasis: Basis,
): StorageCounts | string {
  switch (type) {
    case 'Sphere': case 'Cone': case 'Cylinder': case 'Hyperboloid': case 'Paraboloid':
    case 'Disk': case 'Torus':
      return counts(1, 4, 4, 4);
    case 'Polygon':
      if (points < 3) return `a polygon needs at least 3 vertices, found ${points}`;
      return counts(1, points, points, points);
    case 'GeneralPolygon': {
      const nv = args.nvertices as number[];
      if (nv.length === 0) return 'a general polygon needs at least one loop';
      if (sum(nv) !== points) return `the loops have ${sum(nv)} vertices but P gives ${points}`;
      return counts(1, points, points, points);
    }
    case 'PointsPolygons': case 'PointsGeneralPolygons': {
      const vertices = args.vertices as number[];
      const nvertices = args.nvertices as number[];
      let faces: number;
      if (type === 'PointsGeneralPolygons') {
        const nloops = args.nloops as number[];
        if (sum(nloops) !== nvertices.length) return `nloops adds up to ${sum(nloops)} loops but nvertices has ${nvertices.length}`;
        faces = nloops.length;
      } else faces = nvertices.length;
      if (sum(nvertices) !== vertices.length) return `nvertices adds up to ${sum(nvertices)} but vertices has ${vertices.length} indices`;
      if (vertices.some((v) => v < 0)) return 'vertex indices must not be negative';
      const n = maxPlusOne(vertices);
      return counts(faces, n, n, vertices.length);
    }
    case 'SubdivisionMesh': {
      const vertices = args.vertices as number[];
      const nvertices = args.nvertices as number[];
      if (sum(nvertices) !== vertices.length) return `nvertices adds up to ${sum(nvertices)} but vertices has ${vertices.length} indices`;
      if (vertices.some((v) => v < 0)) return 'vertex indices must not be negative';
      const n = maxPlusOne(vertices);
      return counts(nvertices.length, n, n, vertices.length);
    }
    case 'Patch': {
      const kind = args.type as string;
      if (kind === 'bilinear') return counts(1, 4, 4, 4);
      if (kind === 'bicubic') return counts(1, 4, 16, 4);
      return `patch type must be "bilinear" or "bicubic", not "${kind}"`;
    }
    case 'PatchMesh': {
      const kind = args.type as string;
      if (kind !== 'bilinear' && kind !== 'bicubic') return `patch type must be "bilinear" or "bicubic", not "${kind}"`;
      const bicubic = kind === 'bicubic';
      const nu = args.nu as number;
      const nv = args.nv as number;
      const u = patchMeshDirection(nu, args.uwrap as string, bicubic, uBasis.step, 'u');
      if (typeof u === 'string') return u;
      const v = patchMeshDirection(nv, args.vwrap as string, bicubic, vBasis.step, 'v');
      if (typeof v === 'string') return v;
      const patches = u.patches * v.patches;
      return counts(patches, u.varying * v.varying, nu * nv, patches * 4);
    }
    case 'NuPatch': {
      const nu = args.nu as number, uorder = args.uorder as number;
      const nv = args.nv as number, vorder = args.vorder as number;
      if (uorder < 1 || vorder < 1) return 'orders must be at least 1';
      if (nu < uorder || nv < vorder) return `nu (${nu}) and nv (${nv}) must be at least the orders (${uorder}, ${vorder})`;
      if ((args.uknot as number[]).length !== nu + uorder) return `uknot must have nu + uorder = ${nu + uorder} values, found ${(args.uknot as number[]).length}`;
      if ((args.vknot as number[]).length !== nv + vorder) return `vknot must have nv + vorder = ${nv + vorder} values, found ${(args.vknot as number[]).length}`;
      const segments = (nu - uorder + 1) * (nv - vorder + 1);
      return counts(segments, (nu - uorder + 2) * (nv - vorder + 2), nu * nv, segments * 4);
    }
    case 'Points':
      return counts(1, points, points, points);
    case 'Curves': {
      const kind = args.type as string;
      if (kind !== 'linear' && kind !== 'cubic') return `curve type must be "linear" or "cubic", not "${kind}"`;
      const wrap = args.wrap as string;
      if (wrap !== 'periodic' && wrap !== 'nonperiodic') return `wrap must be "periodic" or "nonperiodic", not "${wrap}"`;
      const nvertices = args.nvertices as number[];
      let varying = 0;
      for (const nv of nvertices) {
        const c = curveCounts(nv, kind === 'cubic', wrap === 'periodic', vBasis.step);
        if (typeof c === 'string') return c;
        varying += c.varying;
      }
      return counts(nvertices.length, varying, sum(nvertices), varying);
    }
    case 'Blobby': {
      const nleaf = args.nleaf as number;
      return counts(1, nleaf, nleaf, nleaf);
    }
    case 'Geometry':
      return counts(1, 1, 1, 1);
  }
}
