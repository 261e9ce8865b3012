// Watertight seams between the grids of one primitive. Bound/split cuts a primitive's parameter square
// into dyadic rectangles and dices each with a power-of-two number of micropolygons per direction,
// so along a shared edge the vertices of the coarser grid are a subset of the finer grid's. The finer
// grid's extra edge vertices lie on the true surface, off the coarser grid's straight micropolygon
// edge: a sliver crack that sample points can fall through. This module finds, for every edge cell
// (micropolygon edge) on a ready piece's boundary, how much coarser the neighbouring piece across it
// is; the dicer (reyes-dice.wgsl) then places such vertices on the neighbour's straight edge.
import { PIECE_WORDS } from '../frame-gpu.ts';

/** Edges of a piece in the table, in this order: v = v0, v = v1, u = u0, u = u1. */
export const SEAM_EDGES = 4;

/** Edge cells per edge in the table: the most micropolygons a grid of `maxVertices` can have along
 * one direction (a power of two, the other direction having one micropolygon). */
export function seamCells(maxVertices: number): number {
  let cells = 1;
  while ((cells * 2 + 1) * 2 <= maxVertices) cells *= 2;
  return cells;
}

/** u32 words per piece in the table: one byte per edge cell. */
export function seamWords(maxVertices: number): number {
  return (SEAM_EDGES * seamCells(maxVertices)) / 4;
}

interface EdgeRun {
  piece: number;
  edge: number;
  lo: number;
  hi: number;
  /** Micropolygon width along the edge, in the parameter. */
  step: number;
}

/**
 * For ready pieces (PIECE_WORDS words each: prim, depth, u0, u1, v0, v1, nu, nv), one byte per edge
 * cell: log2(neighbour's micropolygon width / this piece's) where the piece across that cell is
 * coarser, else 0. The lines u = 0 and u = 1 (and v = 0 and v = 1) count as one, for surfaces that
 * close on themselves; the dicer uses those entries only for periodic quadrics. At least `minWords`
 * words (a storage binding cannot be empty).
 */
export function seamTable(pieces: Uint32Array, count: number, maxVertices: number, minWords = 0): Uint32Array {
  const cells = seamCells(maxVertices);
  const bytes = new Uint8Array(Math.max(count * SEAM_EDGES * cells, minWords * 4));
  const floats = new Float32Array(pieces.buffer, pieces.byteOffset, count * PIECE_WORDS);
  // Per primitive and parameter line: the edges on each side of it.
  const lines = new Map<string, { before: EdgeRun[]; after: EdgeRun[] }>();
  const side = (prim: number, axis: 'u' | 'v', at: number) => {
    const key = `${prim}${axis}${at === 1 ? 0 : at}`;
    let line = lines.get(key);
    if (!line) lines.set(key, (line = { before: [], after: [] }));
    return line;
  };
  for (let p = 0; p < count; p++) {
    const w = p * PIECE_WORDS;
    const prim = pieces[w]!;
    const [u0, u1, v0, v1] = [floats[w + 2]!, floats[w + 3]!, floats[w + 4]!, floats[w + 5]!];
    const stepU = (u1 - u0) / (pieces[w + 6]! - 1);
    const stepV = (v1 - v0) / (pieces[w + 7]! - 1);
    side(prim, 'v', v0).after.push({ piece: p, edge: 0, lo: u0, hi: u1, step: stepU });
    side(prim, 'v', v1).before.push({ piece: p, edge: 1, lo: u0, hi: u1, step: stepU });
    side(prim, 'u', u0).after.push({ piece: p, edge: 2, lo: v0, hi: v1, step: stepV });
    side(prim, 'u', u1).before.push({ piece: p, edge: 3, lo: v0, hi: v1, step: stepV });
  }
  const mark = (run: EdgeRun, other: EdgeRun) => {
    if (other.step <= run.step) return;
    const ratio = Math.round(Math.log2(other.step / run.step));
    const lo = Math.max(run.lo, other.lo);
    const hi = Math.min(run.hi, other.hi);
    const first = Math.round((lo - run.lo) / run.step);
    const last = Math.round((hi - run.lo) / run.step);
    const base = (run.piece * SEAM_EDGES + run.edge) * cells;
    for (let c = first; c < last && c < cells; c++) bytes[base + c] = Math.max(bytes[base + c]!, ratio);
  };
  for (const { before, after } of lines.values()) {
    if (!before.length || !after.length) continue;
    before.sort((a, b) => a.lo - b.lo);
    after.sort((a, b) => a.lo - b.lo);
    // The pieces on each side tile the line without overlap: sweep both in order.
    let i = 0;
    let j = 0;
    while (i < before.length && j < after.length) {
      const a = before[i]!;
      const b = after[j]!;
      if (Math.min(a.hi, b.hi) > Math.max(a.lo, b.lo)) {
        mark(a, b);
        mark(b, a);
      }
      if (a.hi <= b.hi) i++;
      else j++;
    }
  }
  return new Uint32Array(bytes.buffer);
}
