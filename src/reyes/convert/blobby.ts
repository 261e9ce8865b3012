// Blobby as Blobby patches: the CPU finds a coarse polygonisation of the implicit surface whose cells
// the field alone sizes (blobby-mesh.ts), and each of its quads becomes a KIND_BLOBBY record: a
// biquadratic patch through 9 points of the surface, the amount the surface can stray from it, and a
// field block (blobby-program.ts) holding the leaves that can reach it and the program that combines
// them. Bound/split bounds and splits the patch (padded by that amount); the dicer puts every vertex
// onto the surface by Newton steps along the field's gradient (reyes-blobby.wgsl), so the surface is
// diced to the shading rate wherever it is seen, and the CPU's work does not grow with its size on
// screen. Quads that share an edge are joined (PrimitiveRecords.join): they hold its points with the
// same bits and evaluate it alike, so the seam table stitches their grids as it does a patch mesh's.
// Shading normals are the field's gradient; vertex and varying primitive variables (one value per
// leaf) are blended on the GPU by the leaves' fields at each diced vertex.
import { mat4, vec3 } from 'gl-matrix';
import type { Geometry, Parameter } from '../../rib/scene.ts';
import { PrimitiveFlag } from '../../layout/primitive-record.ts';
import { BLOBBY_BLEND_USER, BLOBBY_SHAPE } from '../../layout/blobby-field.ts';
import { Primvars } from '../primvars.ts';
import { boxesMeet, contains, largestScale, readBlobbyField, type BlobbyField, type Box } from './blobby-field.ts';
import { coarseCell, coarseMesh, projectOntoSurface, type Brick } from './blobby-mesh.ts';
import { compileProgram, packFieldBlock, type BlobbyBlend, type BlobbyProgram } from './blobby-program.ts';
import { cameraCorners, surfaceCorners, toCamera, type ConvertContext } from './emit.ts';

/** The leaves a record holds are those whose box meets its patch's box grown by the reach and this
 * share of it more (the GPU's rounding of the points it evaluates). */
const REACH_MARGIN = 1e-3;
/** Leaves that may reach one record at most: each diced vertex evaluates them all a few times. */
const MAX_RECORD_LEAVES = 4096;

export function convertBlobby(blobby: ConvertContext, geometry: Geometry): void {
  const at = blobby.position;
  const ctx = at ? { ...blobby, warn: (message: string) => blobby.warn(`${at.file}:${at.line}:${at.column}: ${message}`) } : blobby;
  const args = geometry.args;
  const field = readBlobbyField(args.nleaf as number, args.code as number[], args.floats as number[], ctx.warn);
  if (!field) return;
  if (!field.bound) return ctx.warn('Blobby without ellipsoids or segments has no bounded surface; skipped');
  // The whole field's program must compile (nesting, length): the records' programs are parts of it.
  const whole = compileProgram(field, () => true);
  if (typeof whole === 'string') return ctx.warn(`Blobby: ${whole}; the Blobby is skipped`);
  const mesh = coarseMesh(field, field.bound, coarseCell(field, field.bound));
  if (mesh.quads.length === 0) return ctx.warn('Blobby: the field reaches the threshold nowhere its coarse cells see (or nowhere at all); nothing drawn');

  const common = ctx.common;
  const objectToCamera = common.objectToCamera as mat4;
  // Ng faces out where the record's flip flag undoes a mirroring transformation (orientation
  // "outside"); the field's normal follows it where the orientation turns it in.
  const flipped = (common.flags & PrimitiveFlag.flipNormal) !== 0;
  const orientation = flipped === mat4.determinant(objectToCamera) < 0 ? 1 : -1;
  const normalMatrix = Array.from(ctx.normalMatrix, (v) => v * orientation);
  const cameraScale = largestScale(objectToCamera);
  const variables = blobbyVariables(ctx, geometry.params, field);
  const corners = cameraCorners({ ...ctx, primvars: variables.constants }, surfaceCorners());

  // Records with the same leaves share a field block.
  const blocks = new Map<string, { block: Float32Array; program: BlobbyProgram }>();
  const bounded = field.leaves.flatMap((leaf, i) => (leaf.kind === 'ellipsoid' || leaf.kind === 'segment' ? [i] : []));
  const blockFor = (patch: Float32Array, brick: Brick): { block: Float32Array; program: BlobbyProgram } | undefined => {
    const box = patchBox(patch);
    const pad = mesh.cell * (1 + REACH_MARGIN);
    // The brick's leaves are those near the patch, unless it strays past the brick's near box.
    const candidates = contains(brick.near, box, pad) ? brick.leaves : bounded;
    const reaches = new Set(candidates.filter((leaf) => boxesMeet((field.leaves[leaf] as { box: Box }).box, box, pad)));
    if (reaches.size > MAX_RECORD_LEAVES) return undefined;
    const key = [...reaches].join(' ');
    let block = blocks.get(key);
    if (!block) {
      // A part of the whole program, which compiled.
      const program = compileProgram(field, (leaf) => reaches.has(leaf)) as BlobbyProgram;
      block = { program, block: packFieldBlock({ program, field, reach: mesh.cell, normalMatrix, blends: variables.blends }) };
      blocks.set(key, block);
    }
    return block;
  };

  const patches = mesh.quads.map((quad) => {
    const geometryWords = new Float32Array(BLOBBY_SHAPE.words);
    quad.points.forEach((point, k) => geometryWords.set(mesh.positions.subarray(point * 3, point * 3 + 3), BLOBBY_SHAPE.points + k * 3));
    return { quad, geometryWords, field: blockFor(geometryWords, quad.brick) };
  });
  if (patches.some((patch) => !patch.field)) return ctx.warn(`Blobby: more than ${MAX_RECORD_LEAVES} leaves reach one part of its surface; the Blobby is skipped`);
  const first = ctx.records.count;
  for (const { quad, geometryWords, field: made } of patches) {
    const { block, program } = made!;
    geometryWords[BLOBBY_SHAPE.pad] = cameraScale * projectionBound(field, program, geometryWords, mesh.cell);
    ctx.records.add({
      kind: 'blobby', flags: common.flags ^ (quad.inward ? PrimitiveFlag.flipNormal : 0), paramBase: common.paramBase, pipeline: common.pipeline,
      shadingRate: common.shadingRate, displacementBound: common.displacementBound, objectToCamera, geometry: geometryWords,
      // A blended N stands in the corners as zeros: the record carries normals, which the dicer blends.
      s: corners.s, t: corners.t, Cs: corners.Cs, Os: corners.Os, N: variables.blendsNormal ? new Array<number>(12).fill(0) : corners.N, lod: common.lod,
      user: ctx.user?.length ? corners.user : undefined, field: block,
      // (A Blobby in a motion block renders at its first time sample: no deformation.)
      motion: common.motion, trim: common.trim, solid: common.solid,
    }, ctx.source);
  }
  for (const [a, edgeA, b, edgeB] of mesh.joins) ctx.records.join(first + a, edgeA, first + b, edgeB, false);
}

/** Samples along u and v of a patch where projectionBound measures it. */
const BOUND_SAMPLES = 5;
/** How much farther than the farthest sample the surface may lie from the patch, and more of the cell. */
const BOUND_SAFETY = 2;
const BOUND_SLACK = 1e-5;

/** The quadratic through a, m, b at t = 0, ½, 1, at t (blobbyQuadratic in reyes-blobby.wgsl). */
function quadratic(a: number, m: number, b: number, t: number): number {
  return a * (1 - t) * (1 - 2 * t) + m * 4 * t * (1 - t) + b * t * (2 * t - 1);
}

/** The middle Bézier control value of the quadratic through a, m, b at t = 0, ½, 1 (k = 1), or its
 * ends. */
function bezier(a: number, m: number, b: number, k: number): number {
  return k === 1 ? 2 * m - (a + b) / 2 : k === 0 ? a : b;
}

/** The box of a record's patch: of its Bézier control points, whose hull holds it. */
function patchBox(patch: Float32Array): Box {
  const box: Box = { lo: [Infinity, Infinity, Infinity], hi: [-Infinity, -Infinity, -Infinity] };
  const at = (i: number, j: number, c: number): number => patch[BLOBBY_SHAPE.points + (j * 3 + i) * 3 + c]!;
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < 3; i++) {
      const column = [0, 1, 2].map((j) => bezier(at(0, j, c), at(1, j, c), at(2, j, c), i));
      for (let j = 0; j < 3; j++) {
        const v = bezier(column[0]!, column[1]!, column[2]!, j);
        box.lo[c] = Math.min(box.lo[c]!, v);
        box.hi[c] = Math.max(box.hi[c]!, v);
      }
    }
  }
  return box;
}

/** How far (object space) the surface lies from the record's patch at most: the farthest
 * projection of a 5 × 5 sampling of the patch (but its 9 points, which lie on the surface), with a
 * margin. */
function projectionBound(field: BlobbyField, program: BlobbyProgram, patch: Float32Array, cell: number): number {
  const p = new Float64Array(3);
  const rows = new Float64Array(3);
  let farthest = 0;
  for (let j = 0; j < BOUND_SAMPLES; j++) {
    for (let i = 0; i < BOUND_SAMPLES; i++) {
      if (i % 2 === 0 && j % 2 === 0) continue;
      const [u, v] = [i / (BOUND_SAMPLES - 1), j / (BOUND_SAMPLES - 1)];
      for (let c = 0; c < 3; c++) {
        for (let r = 0; r < 3; r++) {
          const at = BLOBBY_SHAPE.points + r * 9 + c;
          rows[r] = quadratic(patch[at]!, patch[at + 3]!, patch[at + 6]!, u);
        }
        p[c] = quadratic(rows[0]!, rows[1]!, rows[2]!, v);
      }
      const [x, y, z] = [p[0]!, p[1]!, p[2]!];
      projectOntoSurface(program, field, p, cell);
      farthest = Math.max(farthest, Math.hypot(p[0]! - x, p[1]! - y, p[2]! - z));
    }
  }
  return BOUND_SAFETY * farthest + BOUND_SLACK * cell;
}

/**
 * The Blobby's primitive variables: constant and uniform ones as constants (`constants`, for the
 * records' corner values), vertex and varying ones (one value per leaf, points, vectors and normals
 * taken to camera space) as blends of the dicer's components (s, t, Cs, Os, N, then the user rows).
 */
function blobbyVariables(ctx: ConvertContext, params: readonly Parameter[], field: BlobbyField): { constants: Primvars; blends: BlobbyBlend[]; blendsNormal: boolean } {
  const leaves = field.leaves.length;
  const constants: Parameter[] = [];
  const blends: BlobbyBlend[] = [];
  const named = new Set(params.map((p) => p.name));
  /** Blends of `param`'s components from `first`, setting `targets`. */
  const blend = (param: Parameter, first: number, targets: readonly number[]): void => {
    const values = param.values as number[];
    const stride = values.length / Math.max(1, leaves);
    const perLeaf = Array.from({ length: leaves }, (_, leaf) => {
      const v = vec3.fromValues(...([0, 1, 2].map((c) => (c < targets.length ? values[leaf * stride + first + c] ?? 0 : 0)) as [number, number, number]));
      if (param.type === 'point' || param.type === 'vector' || param.type === 'normal') toCamera(ctx, param.type, v);
      return v;
    });
    targets.forEach((target, c) => {
      const values = perLeaf.map((v) => v[c]!);
      blends.push({ target, values, fallback: leaves ? values.reduce((a, b) => a + b, 0) / leaves : 0 });
    });
  };
  let blendsNormal = false;
  for (const param of params) {
    if (param.name === 'P' || param.type === 'string') continue;
    if (param.storage === 'constant' || param.storage === 'uniform') {
      constants.push({ ...param, storage: 'constant' });
      continue;
    }
    if (param.storage !== 'vertex' && param.storage !== 'varying') {
      ctx.warn(`Blobby: ${param.storage} "${param.name}" has no meaning on an implicit surface; ignored`);
      continue;
    }
    if (param.name === 'Cs' && param.type === 'color') blend(param, 0, [2, 3, 4]);
    else if (param.name === 'Os' && param.type === 'color') blend(param, 0, [5, 6, 7]);
    else if (param.name === 'N' && param.type === 'normal') {
      blend(param, 0, [8, 9, 10]);
      blendsNormal = true;
    } else if (param.name === 's') blend(param, 0, [0]);
    else if (param.name === 't') blend(param, 0, [1]);
    else if (param.name === 'st') {
      if (!named.has('s')) blend(param, 0, [0]);
      if (!named.has('t')) blend(param, 1, [1]);
    }
  }
  let row = BLOBBY_BLEND_USER;
  for (const variable of ctx.user ?? []) {
    const components = variable.type === 'float' ? 1 : 3;
    const param = params.find((p) => p.name === variable.name && p.type === variable.type && (p.storage === 'vertex' || p.storage === 'varying'));
    if (param) blend(param, 0, Array.from({ length: components }, (_, c) => row + c));
    row += components;
  }
  return { constants: new Primvars(constants), blends, blendsNormal };
}
