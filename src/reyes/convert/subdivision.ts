// SubdivisionMesh "catmull-clark" as bicubic Bézier records. The control mesh (any polygons, with
// boundaries and the tags crease, corner, hole, interpolateboundary, facevaryinginterpolateboundary)
// is refined on the CPU adaptively (subdivision-adaptive.ts, each step subdivision-refine.ts): a face
// that is a B-spline patch becomes one on the level it is found on, and only the others (non-quads,
// finite sharpness to spend, extraordinary vertices, creases and boundaries) are refined, a few
// levels at most; then every face kept becomes one Bézier patch (subdivision-patches.ts): exact where
// the surface is a B-spline patch, Loop and Schaefer's approximation with corners on the limit
// surface elsewhere. Patches of one level share their edge curves exactly and are joined; a patch
// next to one of the level above is joined to half its edge (PrimitiveRecords.joinHalf), so that the
// dicer's seams close the T-junction too. Vertex-class variables are refined and patched with P;
// varying and facevarying ones linearly.
import type { Geometry, Parameter } from '../../rib/scene.ts';
import type { CornerRef } from '../primvars.ts';
import { Primvars } from '../primvars.ts';
import { RecordEdge } from '../../layout/primitive-record.ts';
import { emitPiece, type ConvertContext } from './emit.ts';
import type { BoundaryMode, SubdivisionMesh } from './subdivision-mesh.ts';
import { edgeKey } from './subdivision-mesh.ts';
import { LimitMesh } from './subdivision-patches.ts';
import { refineAdaptive, type PatchLevel } from './subdivision-adaptive.ts';

/** Levels of refinement around extraordinary vertices and tags, and the most faces refinement may
 * make for one mesh before it stops a level short. A small cage with sharp creases (OpenSubdiv's
 * rook: 777 faces, sharpness 7.9) would otherwise become tens of thousands of sub-pixel patches of
 * one or two micropolygons each along its creases; with 2^15 the rook takes 3 levels (12,412
 * patches; refined uniformly, 3 levels made 49,024). Only the faces refinement makes count, so a
 * large cage with few irregular faces keeps its levels around them. */
const IRREGULAR_LEVELS = 2;
const MAX_FACES = 1 << 15;
const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

interface Tags {
  edgeSharpness: Map<number, number>;
  vertexSharpness: Map<number, number>;
  holes: Set<number>;
  boundaryMode: BoundaryMode;
}

function readTags(geometry: Geometry, vertexCount: number, faces: number, warn: (m: string) => void): Tags {
  const a = geometry.args;
  const names = (a.tags as string[] | undefined) ?? [];
  const nargs = (a.nargs as number[] | undefined) ?? [];
  const ints = (a.intargs as number[] | undefined) ?? [];
  const floats = (a.floatargs as number[] | undefined) ?? [];
  const tags: Tags = { edgeSharpness: new Map(), vertexSharpness: new Map(), holes: new Set(), boundaryMode: 0 };
  let [ii, fi] = [0, 0];
  names.forEach((name, t) => {
    const [ni, nf] = [nargs[t * 2] ?? 0, nargs[t * 2 + 1] ?? 0];
    const is = ints.slice(ii, ii + ni);
    const fs = floats.slice(fi, fi + nf);
    ii += ni;
    fi += nf;
    const badVertex = is.find((v) => v < 0 || v >= vertexCount);
    switch (name) {
      case 'crease':
        if (badVertex !== undefined) return warn(`SubdivisionMesh tag "crease": vertex ${badVertex} does not exist; the crease is ignored`);
        if (fs.length < 1) return warn('SubdivisionMesh tag "crease" has no sharpness; ignored');
        for (let k = 0; k + 1 < is.length; k++) tags.edgeSharpness.set(edgeKey(is[k]!, is[k + 1]!), fs[Math.min(k, fs.length - 1)]!);
        return;
      case 'corner':
        if (badVertex !== undefined) return warn(`SubdivisionMesh tag "corner": vertex ${badVertex} does not exist; the corners are ignored`);
        if (fs.length < 1) return warn('SubdivisionMesh tag "corner" has no sharpness; ignored');
        is.forEach((v, k) => tags.vertexSharpness.set(v, fs[Math.min(k, fs.length - 1)]!));
        return;
      case 'hole':
        for (const f of is) {
          if (f < 0 || f >= faces) warn(`SubdivisionMesh tag "hole": face ${f} does not exist`);
          else tags.holes.add(f);
        }
        return;
      case 'interpolateboundary': {
        const mode = is[0] ?? 1;
        if (mode !== 0 && mode !== 1 && mode !== 2) return warn(`SubdivisionMesh tag "interpolateboundary" ${mode} is not 0, 1 or 2; taken as 1`);
        tags.boundaryMode = mode;
        return;
      }
      case 'facevaryinginterpolateboundary':
        // Facevarying values interpolate linearly on each face here (RI 3.2), which every mode of this
        // tag leaves as they are.
        return;
      default:
        warn(`SubdivisionMesh tag "${name}" is not known; ignored`);
    }
  });
  return tags;
}

/** Interleaves the per-element values of `params` (each `stride` numbers an element) for `count` elements. */
function interleave(params: readonly Parameter[], count: number, first: number[] = []): { values: Float64Array; dimension: number; offsets: number[] } {
  const strides = params.map((p) => p.values.length / count);
  const dimension = first.length / Math.max(count, 1) + strides.reduce((s, n) => s + n, 0);
  const values = new Float64Array(count * dimension);
  const offsets: number[] = [];
  let at = first.length / Math.max(count, 1);
  for (let e = 0; e < count; e++) for (let d = 0; d < at; d++) values[e * dimension + d] = first[e * at + d]!;
  params.forEach((p, k) => {
    offsets.push(at);
    const stride = strides[k]!;
    for (let e = 0; e < count; e++) for (let d = 0; d < stride; d++) values[e * dimension + at + d] = (p.values as number[])[e * stride + d]!;
    at += stride;
  });
  return { values, dimension, offsets };
}

export function convertSubdivisionMesh(ctx: ConvertContext, geometry: Geometry): void {
  const scheme = geometry.args.scheme as string;
  if (scheme !== 'catmull-clark') {
    ctx.warn(`SubdivisionMesh scheme "${scheme}" is not supported (only "catmull-clark"); skipped`);
    return;
  }
  const positions = ctx.primvars.positions();
  if (!positions) return ctx.warn('SubdivisionMesh without P is skipped');
  const nvertices = geometry.args.nvertices as number[];
  const vertices = geometry.args.vertices as number[];
  const vertexCount = geometry.counts.vertex;
  const faces = nvertices.length;
  const tags = readTags(geometry, vertexCount, faces, ctx.warn);

  const numeric = geometry.params.filter((p) => p.name !== 'P' && p.name !== 'Pw' && typeof p.values[0] !== 'string');
  const vertexParams = numeric.filter((p) => p.storage === 'vertex');
  const varyingParams = numeric.filter((p) => p.storage === 'varying');
  const faceVaryingParams = numeric.filter((p) => p.storage === 'facevarying' || p.storage === 'facevertex');
  const vertexData = interleave(vertexParams, vertexCount, positions.slice(0, vertexCount * 3));
  const varyingData = interleave(varyingParams, geometry.counts.varying);
  const faceVaryingData = interleave(faceVaryingParams, vertices.length);

  const faceStart = new Int32Array(faces + 1);
  nvertices.forEach((n, f) => (faceStart[f + 1] = faceStart[f]! + n));
  const vertexSharpness = new Float64Array(vertexCount);
  for (const [v, s] of tags.vertexSharpness) vertexSharpness[v] = s;
  const mesh: SubdivisionMesh = {
    faceStart, faceVerts: Int32Array.from(vertices), vertexCount, data: vertexData.values, dimension: vertexData.dimension,
    varying: varyingData.values, varyingDimension: varyingData.dimension, faceVarying: faceVaryingData.values,
    faceVaryingDimension: faceVaryingData.dimension, uniformOf: Int32Array.from({ length: faces }, (_, f) => f),
    hole: Uint8Array.from({ length: faces }, (_, f) => (tags.holes.has(f) ? 1 : 0)), edgeSharpness: tags.edgeSharpness,
    vertexSharpness, boundaryMode: tags.boundaryMode,
  };
  if (tags.boundaryMode === 1) {
    // "Edge and corner": a vertex of one face only (on the boundary) is a sharp corner.
    const uses = new Int32Array(vertexCount);
    for (const v of vertices) uses[v]!++;
    for (let v = 0; v < vertexCount; v++) if (uses[v] === 1) mesh.vertexSharpness[v] = Infinity;
  }

  // Levels: quads everywhere, finite sharpness spent, extraordinary regions shrunk.
  const finite = [...tags.edgeSharpness.values(), ...tags.vertexSharpness.values()].filter((s) => s > 0 && s < 10);
  const fewest = nvertices.some((n) => n !== 4) ? 1 : 0;
  const wanted = Math.max(fewest, finite.length ? Math.ceil(Math.max(...finite)) : 0, IRREGULAR_LEVELS);
  const { levels, cut } = refineAdaptive(mesh, { levels: wanted, fewest, budget: MAX_FACES });
  if (cut) ctx.warn(`SubdivisionMesh of ${faces} faces refined ${levels.length - 1} of the ${wanted} levels it asks for around its irregular faces (refinement makes at most ${MAX_FACES} faces); sharpness left over is taken as infinite`);

  const { drawn, joins, halves } = patchesOf(levels);
  const params: Parameter[] = geometry.params.filter((p) => p.storage === 'constant' || p.storage === 'uniform');
  vertexParams.forEach((p, k) => {
    const stride = p.values.length / vertexCount;
    const values: number[] = [];
    for (const { controls } of drawn) {
      for (let i = 0; i < 16; i++) for (let d = 0; d < stride; d++) values.push(controls[i * mesh.dimension + vertexData.offsets[k]! + d]!);
    }
    params.push({ ...p, values });
  });
  // Varying and facevarying values per patch corner (index patch * 4 + corner).
  varyingParams.forEach((p, k) => {
    const stride = p.values.length / geometry.counts.varying;
    const values: number[] = [];
    for (const { mesh: m, face } of drawn) {
      for (let c = m.faceStart[face]!; c < m.faceStart[face + 1]!; c++) {
        for (let d = 0; d < stride; d++) values.push(m.varying[m.faceVerts[c]! * m.varyingDimension + varyingData.offsets[k]! + d]!);
      }
    }
    params.push({ ...p, values });
  });
  faceVaryingParams.forEach((p, k) => {
    const stride = p.values.length / vertices.length;
    const values: number[] = [];
    for (const { mesh: m, face } of drawn) {
      for (let c = m.faceStart[face]!; c < m.faceStart[face + 1]!; c++) {
        for (let d = 0; d < stride; d++) values.push(m.faceVarying[c * m.faceVaryingDimension + faceVaryingData.offsets[k]! + d]!);
      }
    }
    params.push({ ...p, values });
  });
  const patchCtx: ConvertContext = { ...ctx, primvars: new Primvars(params) };
  const first = ctx.records.count;
  drawn.forEach(({ mesh: m, face, controls }, patch) => {
    // Record corners (u, v) = (0,0), (1,0), (0,1), (1,1) are the quad's corners 0, 1, 3, 2.
    const refs: CornerRef[] = [[0, 0, 0], [1, 1, 3], [3, 0, 12], [2, 1, 15]].map(([corner, u, point], k) => ({
      uniform: m.uniformOf[face]!, varying: patch * 4 + corner!, vertex: patch * 16 + point!, facevarying: patch * 4 + corner!, u: u!, v: k >> 1,
    }));
    const geometry48 = new Float64Array(48);
    for (let i = 0; i < 16; i++) for (let d = 0; d < 3; d++) geometry48[i * 3 + d] = controls[i * m.dimension + d]!;
    emitPiece(patchCtx, 'bezier', geometry48, refs, { index: (l, k) => patch * 16 + l * 4 + k, cu: IDENTITY, cv: IDENTITY });
  });
  for (const [a, edgeA, b, edgeB, reversed] of joins) ctx.records.join(first + a, edgeA, first + b, edgeB, reversed);
  for (const [coarse, edgeC, fine, edgeF, reversed] of halves) ctx.records.joinHalf(first + coarse, edgeC, first + fine, edgeF, reversed);
}

interface Patch {
  mesh: SubdivisionMesh;
  face: number;
  /** 16 Bézier control points of `mesh.dimension` numbers each. */
  controls: Float64Array;
}

/** Control points along a quad's edge e (from its corner e to corner e + 1), the record edge it is,
 * and whether the record's parameter runs along it from corner e. */
const EDGE_POINTS = [[0, 1, 2, 3], [3, 7, 11, 15], [15, 14, 13, 12], [12, 8, 4, 0]];
const RECORD_EDGE = [RecordEdge.v0, RecordEdge.u1, RecordEdge.v1, RecordEdge.u0];
const FORWARD = [true, true, false, false];

type Join = [number, number, number, number, boolean];

/**
 * The patches of every level, with one value for each control point patches share: corners take
 * the vertex's limit (from the coarsest level where the vertex is smooth, so that a corner at a
 * T-junction is the same bits on both levels), edges the first patch's points, which equal the
 * other's up to rounding. Returns the record edges to join (patch, edge, patch, edge, reversed), so
 * that the dicer closes every seam and joinBezierEdges need not search for these, and the
 * T-junctions (coarse patch, edge, fine patch, edge, reversed: PrimitiveRecords.joinHalf).
 */
function patchesOf(levels: readonly PatchLevel[]): { drawn: Patch[]; joins: Join[]; halves: Join[] } {
  const drawn: Patch[] = [];
  const joins: Join[] = [];
  const halves: Join[] = [];
  const limitOf = (level: number, v: number): Float64Array => {
    const { parent } = levels[level]!;
    const up = parent && v < parent.vertex.length ? parent.vertex[v]! : -1;
    return up >= 0 && levels[level - 1]!.limit.smooth(up) ? limitOf(level - 1, up) : levels[level]!.limit.limitOf(v);
  };
  // Per level and face, its patch (-1: none).
  const patchOf: Int32Array[] = [];
  levels.forEach(({ mesh, limit, faces, parent }, level) => {
    const first = drawn.length;
    const of = new Int32Array(mesh.faceStart.length - 1).fill(-1);
    patchOf.push(of);
    for (const face of faces) {
      of[face] = drawn.length;
      const controls = limit.bezier(face);
      for (let i = 0; i < 4; i++) controls.set(limitOf(level, mesh.faceVerts[mesh.faceStart[face]! + i]!), [0, 3, 15, 12][i]! * mesh.dimension);
      drawn.push({ mesh, face, controls });
    }
    for (const [a, edgeA, b, edgeB, reversed] of shareEdges(mesh, limit, drawn.slice(first))) joins.push([first + a, edgeA, first + b, edgeB, reversed]);
    if (!parent) return;
    // A patch's edges 0 and 3 run along its parent face's edges from the parent's vertex, to their
    // midpoints: where the face across is a patch of the level above, a T-junction.
    const { mesh: up, limit: { topo } } = levels[level - 1]!;
    for (const face of faces) {
      const corner = parent.corner[face]!;
      for (const [edge, parentEdge] of [[0, corner], [3, topo.prev[corner]!]] as const) {
        const twin = topo.twin[parentEdge]!;
        const coarse = twin < 0 ? -1 : patchOf[level - 1]![topo.faceOf[twin]!]!;
        if (coarse < 0) continue;
        const start = up.faceStart[topo.faceOf[twin]!]!;
        const eb = twin - start;
        // The coarse record's parameter along that edge starts at its corner eb (forward) or eb + 1.
        const origin = up.faceVerts[start + (FORWARD[eb] ? eb : (eb + 1) % 4)]!;
        halves.push([coarse, RECORD_EDGE[eb]!, of[face]!, RECORD_EDGE[edge]!, origin !== up.faceVerts[corner]]);
      }
    }
  });
  return { drawn, joins, halves };
}

/** Gives same-level patches the same bits for the edge control points they share and returns the
 * record edges to join (indices into `patches`). */
function shareEdges(mesh: SubdivisionMesh, limit: LimitMesh, patches: readonly Patch[]): Join[] {
  const { topo } = limit;
  const patchOf = new Int32Array(mesh.faceStart.length - 1).fill(-1);
  patches.forEach(({ face }, k) => (patchOf[face] = k));
  const joins: Join[] = [];
  patches.forEach(({ face, controls }, k) => {
    for (let e = 0; e < 4; e++) {
      const twin = topo.twin[mesh.faceStart[face]! + e]!;
      if (twin < 0) continue;
      const other = topo.faceOf[twin]!;
      const b = patchOf[other]!;
      if (b <= k) continue;
      const eb = twin - mesh.faceStart[other]!;
      // The other patch runs the edge the other way.
      const D = mesh.dimension;
      for (let m = 0; m < 4; m++) {
        const [to, from] = [EDGE_POINTS[eb]![3 - m]! * D, EDGE_POINTS[e]![m]! * D];
        for (let d = 0; d < D; d++) patches[b]!.controls[to + d] = controls[from + d]!;
      }
      joins.push([k, RECORD_EDGE[e]!, b, RECORD_EDGE[eb]!, FORWARD[e] === FORWARD[eb]]);
    }
  });
  return joins;
}
