// Blobby as polygons: the implicit surface (blobby-field.ts) is polygonised on the CPU with naive
// surface nets (the surface-nets package) over a grid of cells about CELL_PIXELS on screen (times the
// square root of the shading rate) over the surface's box (found by a coarse pass); each vertex is
// then moved onto the surface by Newton steps along the gradient, and the faces (surface nets' quads,
// one bilinear record each) go through the polygon path (polygons.ts) like a PointsPolygons: diced,
// shaded and sampled on the GPU like any other surface. Shading normals are the field's gradient;
// vertex and varying primitive variables (one value per leaf) are blended by the leaves' field
// strengths at each vertex.
import { mat4, vec3 } from 'gl-matrix';
import ndarray from 'ndarray';
import surfaceNets from 'surface-nets';
import type { Geometry, Parameter } from '../../rib/scene.ts';
import { Primvars } from '../primvars.ts';
import { BLOBBY_THRESHOLD, readBlobbyField, type BlobbyField } from './blobby-field.ts';
import type { ConvertContext } from './emit.ts';
import { convertPolygons } from './polygons.ts';

/** Target size of a polygonisation cell on screen, in pixels at shading rate 1. */
const CELL_PIXELS = 2;
/** Cells along the longest side of the bound, at least and at most. */
const MIN_CELLS = 8;
const MAX_CELLS = 160;
/** Cells along the longest side of the leaves' bound in the pass that finds the surface. */
const COARSE_CELLS = 24;

/** Cells along the bound's longest side: its raster extent over the target cell size. */
function cellsAcross(ctx: ConvertContext, bound: [vec3, vec3], cameraToRaster: ArrayLike<number>): number {
  const objectToRaster = mat4.multiply(mat4.create(), cameraToRaster as mat4, ctx.common.objectToCamera as mat4);
  const lo = [Infinity, Infinity];
  const hi = [-Infinity, -Infinity];
  for (let k = 0; k < 8; k++) {
    const p = vec3.fromValues(bound[k & 1 ? 1 : 0][0], bound[k & 2 ? 1 : 0][1], bound[k & 4 ? 1 : 0][2]);
    const x = objectToRaster;
    const w = x[3]! * p[0] + x[7]! * p[1] + x[11]! * p[2] + x[15]!;
    if (!(w > 0)) return MAX_CELLS; // reaches behind the eye: as fine as allowed
    for (let c = 0; c < 2; c++) {
      const v = (x[c]! * p[0] + x[4 + c]! * p[1] + x[8 + c]! * p[2] + x[12 + c]!) / w;
      lo[c] = Math.min(lo[c]!, v);
      hi[c] = Math.max(hi[c]!, v);
    }
  }
  const pixels = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!);
  const cell = CELL_PIXELS * Math.sqrt(ctx.common.shadingRate);
  return Math.min(MAX_CELLS, Math.max(MIN_CELLS, Math.ceil(pixels / cell)));
}

/** The field's gradient at p by central differences of step h. */
function gradient(field: BlobbyField, p: vec3, h: number, out: vec3): vec3 {
  const q = vec3.create();
  for (let c = 0; c < 3; c++) {
    vec3.copy(q, p);
    q[c] = p[c]! + h;
    const up = field.value(q);
    q[c] = p[c]! - h;
    out[c] = (up - field.value(q)) / (2 * h);
  }
  return out;
}

/** Moves p onto the surface along the gradient (Newton steps, each at most one cell). */
function project(field: BlobbyField, p: vec3, cell: number): void {
  const g = vec3.create();
  for (let i = 0; i < 8; i++) {
    const f = field.value(p) - BLOBBY_THRESHOLD;
    if (Math.abs(f) < 1e-7) return;
    gradient(field, p, cell * 1e-3, g);
    const g2 = vec3.squaredLength(g);
    if (!(g2 > 0)) return;
    let step = f / g2;
    const length = Math.abs(step) * Math.sqrt(g2);
    if (length > cell) step *= cell / length;
    vec3.scaleAndAdd(p, p, g, -step);
  }
}

/** The surface over the box [lo, hi] at cells of side `cell`: surface-net vertices moved onto the
 * surface, and triangles. */
function polygonise(field: BlobbyField, lo: vec3, hi: vec3, cell: number): { positions: vec3[]; cells: number[][] } {
  // One empty cell of margin on every side, so the surface closes inside the grid.
  const origin = vec3.fromValues(lo[0] - cell, lo[1] - cell, lo[2] - cell);
  const shape = [0, 1, 2].map((c) => Math.ceil((hi[c]! - lo[c]!) / cell) + 3) as [number, number, number];
  const values = new Float32Array(shape[0] * shape[1] * shape[2]);
  const p = vec3.create();
  for (let i = 0; i < shape[0]; i++) {
    for (let j = 0; j < shape[1]; j++) {
      for (let k = 0; k < shape[2]; k++) {
        vec3.set(p, origin[0] + i * cell, origin[1] + j * cell, origin[2] + k * cell);
        // Negative inside, so the level set 0 is the surface.
        values[(i * shape[1] + j) * shape[2] + k] = BLOBBY_THRESHOLD - field.value(p);
      }
    }
  }
  const complex = surfaceNets(ndarray(values, shape), 0);
  const positions = complex.positions.map(([i, j, k]) => {
    const q = vec3.fromValues(origin[0] + i! * cell, origin[1] + j! * cell, origin[2] + k! * cell);
    project(field, q, cell);
    return q;
  });
  return { positions, cells: complex.cells };
}

export function convertBlobby(ctx: ConvertContext, geometry: Geometry, cameraToRaster: ArrayLike<number>): void {
  const args = geometry.args;
  const field = readBlobbyField(args.nleaf as number, args.code as number[], args.floats as number[], ctx.warn);
  if (!field) return;
  if (!field.bound) return ctx.warn('Blobby without ellipsoids or segments has no bounded surface; skipped');
  // A coarse pass finds the surface inside the leaves' bound (which reaches where the fields end,
  // well outside the surface); the cells of the real pass are sized by the surface's screen size.
  const [lo, hi] = field.bound;
  const coarseCell = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / COARSE_CELLS;
  const coarse = polygonise(field, lo, hi, coarseCell);
  if (coarse.cells.length === 0) return ctx.warn('Blobby: the field never reaches the threshold; nothing drawn');
  const surfaceLo = vec3.fromValues(Infinity, Infinity, Infinity);
  const surfaceHi = vec3.fromValues(-Infinity, -Infinity, -Infinity);
  for (const q of coarse.positions) {
    vec3.min(surfaceLo, surfaceLo, q);
    vec3.max(surfaceHi, surfaceHi, q);
  }
  vec3.max(surfaceLo, vec3.subtract(surfaceLo, surfaceLo, [coarseCell, coarseCell, coarseCell]), lo);
  vec3.min(surfaceHi, vec3.add(surfaceHi, surfaceHi, [coarseCell, coarseCell, coarseCell]), hi);
  const extent = Math.max(surfaceHi[0] - surfaceLo[0], surfaceHi[1] - surfaceLo[1], surfaceHi[2] - surfaceLo[2]);
  const cell = extent / cellsAcross(ctx, [surfaceLo, surfaceHi], cameraToRaster);
  const { positions, cells } = polygonise(field, surfaceLo, surfaceHi, cell);
  if (cells.length === 0) return ctx.warn('Blobby: the field never reaches the threshold; nothing drawn');

  // Outward normals: down the field's gradient.
  const normals = positions.map((q) => {
    const g = gradient(field, q, cell * 1e-3, vec3.create());
    return vec3.normalize(g, vec3.negate(g, g));
  });
  const vertices: number[] = [];
  const nvertices: number[] = [];
  for (const face of quads(cells)) {
    // Wind each face so that its geometric normal agrees with the outward normal.
    const at = (k: number): vec3 => positions[face[k % face.length]!]!;
    const n = vec3.cross(vec3.create(), vec3.subtract(vec3.create(), at(2), at(0)), vec3.subtract(vec3.create(), at(face.length - 1), at(1)));
    const outward = face.reduce((sum, v) => vec3.add(sum, sum, normals[v]!), vec3.create());
    vertices.push(...(vec3.dot(n, outward) < 0 ? [...face].reverse() : face));
    nvertices.push(face.length);
  }

  const mesh: Parameter[] = [
    { name: 'P', storage: 'vertex', type: 'point', arrayLength: null, inferred: false, values: positions.flatMap((q) => [q[0], q[1], q[2]]) },
  ];
  if (!ctx.primvars.get('N')) {
    mesh.push({ name: 'N', storage: 'vertex', type: 'normal', arrayLength: null, inferred: false, values: normals.flatMap((q) => [q[0], q[1], q[2]]) });
  }
  mesh.push(...blendedVariables(geometry.params, field, positions, ctx.warn));
  const polygons: Geometry = {
    type: 'PointsPolygons',
    args: { nvertices, vertices },
    params: mesh,
    counts: geometry.counts,
    motionSamples: [],
  };
  convertPolygons({ ...ctx, primvars: new Primvars(mesh) }, polygons);
}

/** Surface nets give each quad of the dual grid as two consecutive triangles sharing an edge: joined
 * back into quads (one bilinear record each instead of two), any other triangle kept. */
function quads(triangles: readonly number[][]): number[][] {
  const out: number[][] = [];
  for (let t = 0; t < triangles.length; t++) {
    const first = triangles[t]!;
    const second = triangles[t + 1];
    const extra = second?.filter((v) => !first.includes(v)) ?? [];
    if (!second || extra.length !== 1) {
      out.push(first);
      continue;
    }
    // first = [u, p, q] rotated so that u is the vertex the second triangle lacks: the quad u p x q.
    const u = first.findIndex((v) => !second.includes(v));
    out.push([first[u]!, first[(u + 1) % 3]!, extra[0]!, first[(u + 2) % 3]!]);
    t++;
  }
  return out;
}

/** The Blobby's primitive variables on the mesh: constant and uniform ones as constants, vertex and
 * varying ones (one value per leaf) blended at each mesh vertex by the leaves' field values there. */
function blendedVariables(params: readonly Parameter[], field: BlobbyField, positions: readonly vec3[], warn: (message: string) => void): Parameter[] {
  const out: Parameter[] = [];
  const weights = new Float64Array(field.leaves.length);
  for (const param of params) {
    if (param.name === 'P' || param.type === 'string') continue;
    if (param.storage === 'constant' || param.storage === 'uniform') {
      out.push({ ...param, storage: 'constant' });
      continue;
    }
    if (param.storage !== 'vertex' && param.storage !== 'varying') {
      warn(`Blobby: ${param.storage} "${param.name}" has no meaning on an implicit surface; ignored`);
      continue;
    }
    const values = param.values as number[];
    const size = values.length / Math.max(1, field.leaves.length);
    const blended: number[] = [];
    for (const q of positions) {
      field.leafValues(q, weights);
      const total = weights.reduce((a, b) => a + b, 0);
      for (let c = 0; c < size; c++) {
        let sum = 0;
        weights.forEach((w, leaf) => (sum += w * (values[leaf * size + c] ?? 0)));
        // Where no leaf reaches (a constant field alone), the leaves' plain mean.
        blended.push(total > 0 ? sum / total : weights.length ? values.filter((_, i) => i % size === c).reduce((a, b) => a + b, 0) / weights.length : 0);
      }
    }
    out.push({ ...param, storage: 'vertex', values: blended });
  }
  return out;
}
