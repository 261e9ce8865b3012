// The seam table: for each edge cell of a ready piece, how much coarser the piece across it is
// (within a record, across joined records, and across the T-junctions of a subdivision mesh).
import { describe, expect, it } from 'vitest';
import { PIECE } from '../../src/layout/ready-piece.ts';
import { SEAM_TABLE } from '../../src/layout/seam-table.ts';
import { seamCells, seamTable } from '../../src/reyes/stages/grid-seams.ts';
import { JOIN_HALF, JOIN_HALVES } from '../../src/reyes/primitive-record.ts';

/** Ready pieces as bound/split writes them: prim, depth, u0, u1, v0, v1 (f32 bits), nu, nv. */
function pieces(list: [number, number, number, number, number, number, number][]): Uint32Array {
  const words = new Uint32Array(list.length * PIECE.words);
  const floats = new Float32Array(words.buffer);
  list.forEach(([prim, u0, u1, v0, v1, nu, nv], k) => {
    words[k * PIECE.words + PIECE.prim] = prim;
    [floats[k * PIECE.words + PIECE.u0], floats[k * PIECE.words + PIECE.u1]] = [u0, u1];
    [floats[k * PIECE.words + PIECE.v0], floats[k * PIECE.words + PIECE.v1]] = [v0, v1];
    words[k * PIECE.words + PIECE.nu] = nu;
    words[k * PIECE.words + PIECE.nv] = nv;
  });
  return words;
}

/** The coarsening bytes of one edge (0: v = v0, 1: v = v1, 2: u = u0, 3: u = u1) of one piece. */
function edge(table: Uint32Array, piece: number, which: number, cells: number): number[] {
  const bytes = new Uint8Array(table.buffer);
  const at = (piece * SEAM_TABLE.edges + which) * seamCells(256);
  return Array.from(bytes.subarray(at, at + cells));
}

describe('grid seams', () => {
  it('has room for the most micropolygons a 256-vertex grid can have along one side', () => {
    // 65 × 2 vertices fit 256; 129 × 2 do not.
    expect(seamCells(256)).toBe(64);
  });

  it('marks the cells of a finer piece that border a coarser one, by the log2 of the width ratio', () => {
    // A spans u 0..1 below v = 0.5 with 2 micropolygons across (width 1/2). Above it, B1 (u 0..0.5)
    // has 8 (width 1/16) and B2 (u 0.5..1) has 1 (width 1/2).
    const table = seamTable(pieces([
      [0, 0, 1, 0, 0.5, 3, 2],
      [0, 0, 0.5, 0.5, 1, 9, 2],
      [0, 0.5, 1, 0.5, 1, 2, 2],
    ]), 3, 256);
    expect(edge(table, 0, 1, 2)).toEqual([0, 0]); // A's top: B1 finer, B2 as wide
    expect(edge(table, 1, 0, 8)).toEqual([3, 3, 3, 3, 3, 3, 3, 3]); // B1's bottom: A is 8 times wider
    expect(edge(table, 2, 0, 1)).toEqual([0]);
    // B1's right edge (1 micropolygon of height 1/2) against B2's left (1 of height 1/2): equal.
    expect(edge(table, 1, 3, 1)).toEqual([0]);
    // Nothing borders A's bottom or sides.
    expect([...edge(table, 0, 0, 2), ...edge(table, 0, 2, 1), ...edge(table, 0, 3, 1)]).toEqual([0, 0, 0, 0]);
  });

  it('marks only the cells a coarser neighbour covers', () => {
    // C spans v 0..1 at u = 0.5 with 4 micropolygons (height 1/4); on its left, D (v 0..0.5) has 1
    // (height 1/2) and E (v 0.5..1) has 8 (height 1/16).
    const table = seamTable(pieces([
      [3, 0.5, 1, 0, 1, 2, 5],
      [3, 0, 0.5, 0, 0.5, 2, 2],
      [3, 0, 0.5, 0.5, 1, 2, 9],
    ]), 3, 256);
    expect(edge(table, 0, 2, 4)).toEqual([1, 1, 0, 0]);
    expect(edge(table, 2, 3, 8)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
  });

  it('pairs u = 1 with u = 0 (closed surfaces) and never pieces of different primitives', () => {
    const table = seamTable(pieces([
      [1, 0, 0.25, 0, 1, 2, 9],
      [1, 0.75, 1, 0, 1, 2, 3],
      [2, 0.25, 0.5, 0, 1, 2, 2],
    ]), 3, 256);
    expect(edge(table, 0, 2, 8)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    // Piece 2 (another primitive) touches piece 0's right edge line u = 0.25 but is not its neighbour.
    expect(edge(table, 0, 3, 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('matches pieces across joined record edges, reversed ones in their own parameter, and flags them', () => {
    // Records 4 and 5: 4's edge u = 1 is 5's edge u = 0 (same direction); 4's edge v = 1 is 5's edge
    // v = 1 with the parameter running the other way. Per record and edge (v0, v1, u0, u1): -1, or
    // (record * 4 + edge) * 2 + reversed.
    const neighbours = new Int32Array(6 * 4).fill(-1);
    neighbours.set([-1, (5 * 4 + 1) * 2 + 1, -1, (5 * 4 + 2) * 2], 4 * 4);
    neighbours.set([-1, (4 * 4 + 1) * 2 + 1, (4 * 4 + 3) * 2, -1], 5 * 4);
    const table = seamTable(pieces([
      [4, 0, 1, 0, 1, 9, 9], // 8 × 8 micropolygons over the whole record
      [5, 0, 0.5, 0, 1, 2, 3], // 1 × 2: width 1/2 along u, height 1/2 along v
      [5, 0.5, 1, 0, 1, 3, 2], // 2 × 1: width 1/4, height 1
    ]), 3, 256, 0, neighbours);
    const across = (cells: number[]) => cells.map((c) => (c ? c | SEAM_TABLE.acrossRecords : 0));
    // 4's right edge against 5's left (piece 1, height 1/2): 4 times coarser, all 8 cells.
    expect(edge(table, 0, 3, 8)).toEqual(across([2, 2, 2, 2, 2, 2, 2, 2]));
    // 4's top edge u 0..1 meets 5's top reversed: 4's u 0..0.5 is 5's u 0.5..1 (piece 2, width 1/4,
    // twice coarser), 4's u 0.5..1 is 5's u 0..0.5 (piece 1, width 1/2, 4 times coarser).
    expect(edge(table, 0, 1, 8)).toEqual(across([1, 1, 1, 1, 2, 2, 2, 2]));
    // Pieces 1 and 2 are coarser than 4 everywhere; piece 1's right edge meets piece 2 (height 1 vs
    // 1/2): coarser by one, inside record 5 and not flagged.
    expect([...edge(table, 1, 2, 2), ...edge(table, 1, 1, 1), ...edge(table, 2, 1, 2)]).toEqual([0, 0, 0, 0, 0]);
    expect(edge(table, 1, 3, 2)).toEqual([1, 1]);
    // 4's left and bottom edges are joined to nothing, and record 4 is not periodic there.
    expect([...edge(table, 0, 0, 8), ...edge(table, 0, 2, 8)]).toEqual(new Array(16).fill(0));
  });

  it('matches the two halves of a T-junction with the coarse edge, each half\'s parameter running from its end of it', () => {
    // Record 0's edge v = 0 is made up of record 1's edge v = 0 (u 0..1 is 0's u 0..0.5) and record
    // 2's edge u = 0 (v 0..1 is 0's u 1..0.5, reversed): PrimitiveRecords.joinHalf.
    const neighbours = new Int32Array(3 * 4).fill(-1);
    neighbours[0 * 4 + 0] = ((2 * 4 + 2) * 2 + 1) | JOIN_HALVES;
    neighbours[1 * 4 + 0] = (0 * 4 + 0) * 2 | JOIN_HALF;
    neighbours[2 * 4 + 2] = ((0 * 4 + 0) * 2 + 1) | JOIN_HALF;
    const table = seamTable(pieces([
      [0, 0, 1, 0, 1, 5, 2], // 4 micropolygons along its u: width 1/4
      [1, 0, 1, 0, 1, 2, 2], // 1 along its u: width 1/2 of record 0's u
      [2, 0, 1, 0, 1, 2, 5], // 4 along its v: height 1/8 of record 0's u
    ]), 3, 256, 0, neighbours);
    const across = (cells: number[]) => cells.map((c) => (c ? c | SEAM_TABLE.acrossRecords : 0));
    // Record 0's u 0..0.5 meets record 1's single micropolygon (twice as wide); 0.5..1 finer ones.
    expect(edge(table, 0, 0, 4)).toEqual(across([1, 1, 0, 0]));
    expect(edge(table, 1, 0, 1)).toEqual([0]);
    // Record 2's four cells all lie on record 0's micropolygons twice their width.
    expect(edge(table, 2, 2, 4)).toEqual(across([1, 1, 1, 1]));
  });

  it('is never empty (a storage binding cannot be)', () => {
    expect(seamTable(new Uint32Array(0), 0, 256, 1).length).toBe(1);
  });
});
