// The coarse polygonisation that gives a Blobby's GPU records their parameter domain: naive surface
// nets over cells whose size the field alone sets (never the screen). Each cell the surface crosses
// holds one vertex (the mean of its edges' crossings, moved onto the surface as the GPU moves a
// point: blobbyProject in reyes-blobby.wgsl), and each grid edge the surface crosses gives the quad
// of the four cells around it. A quad's parameters run along the grid axes: u along the axis after
// the edge's, v along the one after that, both increasing with their axis, so the two quads that
// share an edge (two cells) run along it the same way and hold its corners in the same order. Each
// quad is then a biquadratic patch through 9 points of the surface: its corners, its edges' middles
// (one per mesh edge, shared by the quads on it) and its centre, all moved onto the surface.
import { BLOBBY_NEWTON_STEPS } from '../../layout/blobby-field.ts';
import { RecordEdge } from '../../layout/primitive-record.ts';
import { BLOBBY_THRESHOLD, boxesMeet, type BlobbyField, type Box } from './blobby-field.ts';
import { compileProgram, runProgram, type BlobbyProgram } from './blobby-program.ts';

/** Cells along the longest side of the leaves' box: at least, and at most however small its leaves. */
const MIN_CELLS = 16;
const MAX_CELLS = 64;
/** Cells along the threshold radius of the smallest leaf alone, at least (where MAX_CELLS allows). */
const CELLS_PER_RADIUS = 2;
/** Cells per side of the bricks the grid is cut into, each with the leaves that reach within
 * NEAR_CELLS cells of it: every point the mesh and its records move onto the surface starts within
 * three cells of its brick and moves one at most. */
const BRICK = 8;
const NEAR_CELLS = 4;

export interface CoarseQuad {
  /** Indices in `positions` of its 3 × 3 points at u, v = 0, ½, 1 (row v, column u). */
  points: number[];
  /** dP/du × dP/dv points into the surface (the record flips its normal to face out). */
  inward: boolean;
  /** The brick of its first corner's cell: the leaves that can reach near it. */
  brick: Brick;
}

/** A brick of the grid: the box within NEAR_CELLS cells of it, the leaves whose boxes meet that, and
 * their program (the field there: folding the others away changes no value); and the program of the
 * fewer leaves that meet its own grid points, for their values. */
export interface Brick {
  near: Box;
  leaves: number[];
  program: BlobbyProgram;
  points: BlobbyProgram;
}

/** Two quads' edges that are one edge of the mesh (quad, RecordEdge, quad, RecordEdge). */
export type QuadJoin = [number, number, number, number];

export interface CoarseMesh {
  /** The cells' side: how far the GPU may move a point of a quad onto the surface. */
  cell: number;
  /** The quads' points, xyz each, on the surface. */
  positions: Float64Array;
  quads: CoarseQuad[];
  joins: QuadJoin[];
}

/** Where the threshold is met by one leaf alone, in its unit space: (1 - r²)³ = threshold. */
const THRESHOLD_RADIUS = Math.sqrt(1 - Math.cbrt(BLOBBY_THRESHOLD));

/** The side of the cells: fine enough for the smallest leaf's surface, within MIN_CELLS and MAX_CELLS
 * along the longest side of the field's box. */
export function coarseCell(field: BlobbyField, bound: Box): number {
  const extent = Math.max(...[0, 1, 2].map((c) => bound.hi[c]! - bound.lo[c]!));
  let smallest = Infinity;
  for (const leaf of field.leaves) if (leaf.kind === 'ellipsoid' || leaf.kind === 'segment') smallest = Math.min(smallest, leaf.size);
  const cell = Math.min(extent / MIN_CELLS, (THRESHOLD_RADIUS * smallest) / CELLS_PER_RADIUS);
  return Math.max(cell, extent / MAX_CELLS);
}

/** Moves p (in place) onto the surface as blobbyProject does: Newton steps along the gradient, never
 * farther than `reach` from where it started. */
export function projectOntoSurface(program: BlobbyProgram, field: BlobbyField, p: Float64Array, reach: number): void {
  const [sx, sy, sz] = [p[0]!, p[1]!, p[2]!];
  const f = (program.gradient ??= new Float64Array(4));
  for (let step = 0; step < BLOBBY_NEWTON_STEPS; step++) {
    runProgram(program, field.leaves, p, f);
    const g2 = f[0]! * f[0]! + f[1]! * f[1]! + f[2]! * f[2]!;
    if (!(g2 > 0)) return;
    const scale = (f[3]! - BLOBBY_THRESHOLD) / g2;
    let [x, y, z] = [p[0]! - f[0]! * scale, p[1]! - f[1]! * scale, p[2]! - f[2]! * scale];
    const far = Math.hypot(x - sx, y - sy, z - sz);
    if (far > reach) [x, y, z] = [sx + ((x - sx) * reach) / far, sy + ((y - sy) * reach) / far, sz + ((z - sz) * reach) / far];
    const moved = Math.hypot(x - p[0]!, y - p[1]!, z - p[2]!);
    [p[0], p[1], p[2]] = [x, y, z];
    if (moved <= 1e-9 * reach) return;
  }
}

/** The field's surface as coarse quads over cells of side `cell` covering `bound`. */
export function coarseMesh(field: BlobbyField, bound: Box, cell: number): CoarseMesh {
  // One empty cell of margin on every side, so the surface closes inside the grid.
  const origin = bound.lo.map((v) => v - cell);
  const n = [0, 1, 2].map((c) => Math.ceil((bound.hi[c]! - bound.lo[c]!) / cell) + 2);
  const points = n.map((cells) => cells + 1);
  const pointIndex = (i: number, j: number, k: number): number => (i * points[1]! + j) * points[2]! + k;
  const cellIndex = (i: number, j: number, k: number): number => (i * n[1]! + j) * n[2]! + k;
  const brickAt = bricks(field, origin, points, cell);
  const values = gridValues(field, origin, points, cell, brickAt);
  const inside = (at: number): boolean => values[at]! > 0;

  // A vertex per cell the surface crosses.
  const vertexOf = new Int32Array(n[0]! * n[1]! * n[2]!).fill(-1);
  const positions: number[] = [];
  const vertexBrick: Brick[] = [];
  const p = new Float64Array(3);
  const cornerOffset = Array.from({ length: 8 }, (_, corner) => pointIndex(corner & 1, (corner >> 1) & 1, corner >> 2));
  for (let i = 0; i < n[0]!; i++) {
    for (let j = 0; j < n[1]!; j++) {
      for (let k = 0; k < n[2]!; k++) {
        const base = pointIndex(i, j, k);
        let signs = 0;
        for (let corner = 0; corner < 8; corner++) if (values[base + cornerOffset[corner]!]! > 0) signs |= 1 << corner;
        if (signs === 0 || signs === 255) continue;
        let count = 0;
        p[0] = p[1] = p[2] = 0;
        for (const [a, b] of CELL_EDGES) {
          const va = values[base + cornerOffset[a]!]!;
          const vb = values[base + cornerOffset[b]!]!;
          if (va > 0 === vb > 0) continue;
          const t = va / (va - vb);
          for (let c = 0; c < 3; c++) p[c] = p[c]! + (((a >> c) & 1) + t * (((b >> c) & 1) - ((a >> c) & 1)));
          count++;
        }
        p[0] = origin[0]! + (i + p[0]! / count) * cell;
        p[1] = origin[1]! + (j + p[1]! / count) * cell;
        p[2] = origin[2]! + (k + p[2]! / count) * cell;
        const brick = brickAt(i, j, k);
        projectOntoSurface(brick.program, field, p, cell);
        vertexOf[cellIndex(i, j, k)] = positions.length / 3;
        vertexBrick.push(brick);
        positions.push(p[0]!, p[1]!, p[2]!);
      }
    }
  }

  // A quad per grid edge the surface crosses, and its four edges by the two cells each joins.
  const quads: CoarseQuad[] = [];
  const edges = new Map<number, { quad: number; edge: number; inside: number }[]>();
  /** Each quad's corner vertices (record order) and its edges' keys (QUAD_EDGES order). */
  const corners: number[][] = [];
  const edgeKeys: number[][] = [];
  const cellCount = n[0]! * n[1]! * n[2]!;
  const pointStride = [points[1]! * points[2]!, points[2]!, 1];
  const cellStride = [n[1]! * n[2]!, n[2]!, 1];
  const g = [0, 0, 0];
  for (g[0] = 0; g[0] < points[0]!; g[0]++) {
    for (g[1] = 0; g[1] < points[1]!; g[1]++) {
      for (g[2] = 0; g[2] < points[2]!; g[2]++) {
        const lower = pointIndex(g[0]!, g[1]!, g[2]!);
        for (let axis = 0; axis < 3; axis++) {
          const b = (axis + 1) % 3;
          const c = (axis + 2) % 3;
          if (g[axis]! >= n[axis]! || g[b]! < 1 || g[b]! >= n[b]! || g[c]! < 1 || g[c]! >= n[c]!) continue;
          const upper = lower + pointStride[axis]!;
          if (inside(lower) === inside(upper)) continue;
          // The cell below and before the edge along b and c, and the three others around it.
          const base = cellIndex(g[0]!, g[1]!, g[2]!) - cellStride[b]! - cellStride[c]!;
          const cells = [base, base + cellStride[b]!, base + cellStride[c]!, base + cellStride[b]! + cellStride[c]!];
          const quad = quads.length;
          // dP/du × dP/dv runs along +axis (u, v along the next two axes in turn): out of the
          // surface where the edge's lower end is inside.
          const quadCorners = cells.map((cell) => vertexOf[cell]!);
          quads.push({ points: [], inward: !inside(lower), brick: vertexBrick[quadCorners[0]!]! });
          corners.push(quadCorners);
          const insideEnd = inside(lower) ? lower : upper;
          const keys: number[] = [];
          for (const [edge, from, to] of QUAD_EDGES) {
            const key = cells[from]! * cellCount + cells[to]!;
            let list = edges.get(key);
            if (!list) edges.set(key, (list = []));
            list.push({ quad, edge, inside: insideEnd });
            keys.push(key);
          }
          edgeKeys.push(keys);
        }
      }
    }
  }

  // The middle of each mesh edge, then each quad's centre (from its edges' middles), on the surface.
  const middleOf = new Map<number, number>();
  const onSurface = (points: readonly number[], brick: Brick): number => {
    p.fill(0);
    for (const at of points) for (let c = 0; c < 3; c++) p[c] = p[c]! + positions[at * 3 + c]! / points.length;
    projectOntoSurface(brick.program, field, p, cell);
    positions.push(p[0]!, p[1]!, p[2]!);
    return positions.length / 3 - 1;
  };
  quads.forEach((quad, q) => {
    const [c00, c10, c01, c11] = corners[q]!;
    const middles = QUAD_EDGES.map(([, from, to], e) => {
      const key = edgeKeys[q]![e]!;
      let middle = middleOf.get(key);
      if (middle === undefined) middleOf.set(key, (middle = onSurface([corners[q]![from]!, corners[q]![to]!], quad.brick)));
      return middle;
    });
    const [v0, v1, u0, u1] = middles as [number, number, number, number];
    quad.points = [c00!, v0, c10!, u0, onSurface(middles, quad.brick), u1, c01!, v1, c11!];
  });
  return { cell, positions: Float64Array.from(positions), quads, joins: joinsOf(edges) };
}

/** The brick of each grid point (i, j, k), its leaves found and their program compiled once. */
function bricks(field: BlobbyField, origin: readonly number[], points: readonly number[], cell: number): (i: number, j: number, k: number) => Brick {
  const counts = points.map((count) => Math.ceil(count / BRICK));
  const made: Brick[] = [];
  const programs = new Map<string, BlobbyProgram>();
  /** The leaves whose boxes meet `box`, and their program. */
  const reaching = (box: Box): { leaves: number[]; program: BlobbyProgram } => {
    const leaves = field.leaves.flatMap((leaf, i) => ((leaf.kind === 'ellipsoid' || leaf.kind === 'segment') && boxesMeet(leaf.box, box, 0) ? [i] : []));
    const key = leaves.join(' ');
    let program = programs.get(key);
    if (!program) {
      const reaches = new Set(leaves);
      const compiled = compileProgram(field, (leaf) => reaches.has(leaf));
      // The whole field's program compiled, so this (a part of it) does too.
      if (typeof compiled === 'string') throw new Error(compiled);
      programs.set(key, (program = compiled));
    }
    return { leaves, program };
  };
  const brickOf = (b: number[]): Brick => {
    const index = (b[0]! * counts[1]! + b[1]!) * counts[2]! + b[2]!;
    const known = made[index];
    if (known) return known;
    const box = (pad: number, last: number): Box => ({
      lo: b.map((v, c) => origin[c]! + (v * BRICK - pad) * cell) as Box['lo'],
      hi: b.map((v, c) => origin[c]! + (Math.min(v * BRICK + BRICK, points[c]!) - last + pad) * cell) as Box['hi'],
    });
    const near = box(NEAR_CELLS, 0);
    return (made[index] = { near, ...reaching(near), points: reaching(box(0, 1)).program });
  };
  return (i, j, k) => brickOf([Math.min(Math.floor(i / BRICK), counts[0]! - 1), Math.min(Math.floor(j / BRICK), counts[1]! - 1), Math.min(Math.floor(k / BRICK), counts[2]! - 1)]);
}

/** The grid's values, field − threshold at each point, each found with its brick's program. */
function gridValues(field: BlobbyField, origin: readonly number[], points: readonly number[], cell: number, brickAt: (i: number, j: number, k: number) => Brick): Float64Array {
  const values = new Float64Array(points[0]! * points[1]! * points[2]!);
  const f = new Float64Array(4);
  const p = new Float64Array(3);
  for (let i = 0; i < points[0]!; i++) {
    for (let j = 0; j < points[1]!; j++) {
      for (let k = 0; k < points[2]!; k++) {
        p[0] = origin[0]! + i * cell;
        p[1] = origin[1]! + j * cell;
        p[2] = origin[2]! + k * cell;
        values[(i * points[1]! + j) * points[2]! + k] = runProgram(brickAt(i, j, k).points, field.leaves, p, f)[3]! - BLOBBY_THRESHOLD;
      }
    }
  }
  return values;
}

/** The 12 edges of a cell, as pairs of its corners (bit c of a corner: its offset along axis c). */
const CELL_EDGES: [number, number][] = [];
for (let corner = 0; corner < 8; corner++) {
  for (let axis = 0; axis < 3; axis++) if (!(corner & (1 << axis))) CELL_EDGES.push([corner, corner | (1 << axis)]);
}

/** A quad's edges by the corners they join (the lower-indexed cell first, as along its axis). */
const QUAD_EDGES: [number, number, number][] = [[RecordEdge.v0, 0, 1], [RecordEdge.v1, 2, 3], [RecordEdge.u0, 0, 2], [RecordEdge.u1, 1, 3]];

/** The mesh edges two quads share, joined. Four quads meet where a cell face has its corners inside
 * and outside in turn: each pair around one inside corner is one sheet of the surface. */
function joinsOf(edges: Map<number, { quad: number; edge: number; inside: number }[]>): QuadJoin[] {
  const joins: QuadJoin[] = [];
  for (const list of edges.values()) {
    if (list.length === 2) joins.push([list[0]!.quad, list[0]!.edge, list[1]!.quad, list[1]!.edge]);
    else if (list.length === 4) {
      for (const a of list) {
        const b = list.find((other) => other !== a && other.inside === a.inside);
        if (b && a.quad < b.quad) joins.push([a.quad, a.edge, b.quad, b.edge]);
      }
    }
  }
  return joins;
}
