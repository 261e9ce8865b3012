// Watertight seams between the grids of one primitive. Bound/split cuts a primitive's parameter square
// into dyadic rectangles and dices each with a power-of-two number of micropolygons per direction,
// so along a shared edge the vertices of the coarser grid are a subset of the finer grid's. The finer
// grid's extra edge vertices lie on the true surface, off the coarser grid's straight micropolygon
// edge: a sliver crack that sample points can fall through. This module finds, for every edge cell
// (micropolygon edge) on a ready piece's boundary, how much coarser the neighbouring piece across it
// is; the dicer (reyes-dice.wgsl) then places such vertices on the neighbour's straight edge.
// Neighbouring records whose edges are one curve (the patches of a mesh, PrimitiveRecords.join) are
// matched the same way across that edge, their parameters along it mapped onto one line; so are the
// two halves of a T-junction (PrimitiveRecords.joinHalf) with the coarse edge they make up.
import { RecordEdge } from '../../layout/primitive-record.ts';
import { JOIN_HALF, JOIN_HALVES } from '../primitive-record.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { SEAM_TABLE } from '../../layout/seam-table.ts';

/** Edge cells per edge in the table: the most micropolygons a grid of `maxVertices` can have along
 * one direction (a power of two, the other direction having one micropolygon). */
export function seamCells(maxVertices: number): number {
  let cells = 1;
  while ((cells * 2 + 1) * 2 <= maxVertices) cells *= 2;
  return cells;
}

/** u32 words per piece in the table: one byte per edge cell. */
export function seamWords(maxVertices: number): number {
  return (SEAM_TABLE.edges * seamCells(maxVertices)) / 4;
}

interface EdgeRun {
  piece: number;
  edge: number;
  /** Extent along the line, in the line's parameter. */
  lo: number;
  hi: number;
  /** The piece's own parameter runs 1 - the line's (an edge joined reversed). */
  reversed: boolean;
  /** Micropolygon width along the edge, in the parameter. */
  step: number;
  /** The line is a joined edge of two records (or a T-junction): its bytes carry SEAM_TABLE.acrossRecords. */
  across: boolean;
}

/** A line's direction in its record's parameters: v = const (along u) or u = const (along v). */
const ALONG_U = 0;
const ALONG_V = 1;

/** The edges on each side of one parameter line. */
interface Line {
  before: EdgeRun[];
  after: EdgeRun[];
}

/** The line of `key` in `lines`, made when new. Lines are looked up by number, one per piece edge
 * (tens of thousands a region): keys spelt as strings from the parameter (with arrays made per
 * piece and per mark) took the table twice the time. */
function lineOf(lines: Map<number, Line>, key: number): Line {
  let line = lines.get(key);
  if (!line) lines.set(key, (line = { before: [], after: [] }));
  return line;
}

/**
 * For ready pieces (src/layout/ready-piece.ts), one byte per edge
 * cell: log2(neighbour's micropolygon width / this piece's) where the piece across that cell is
 * coarser, else 0. The lines u = 0 and u = 1 (and v = 0 and v = 1) count as one, for surfaces that
 * close on themselves; the dicer uses those entries only for periodic quadrics. A record edge joined
 * to another in `neighbours` (PrimitiveRecords.edgeNeighbours) is one line with that edge instead,
 * and its bytes carry SEAM_TABLE.acrossRecords. At least `minWords` words (a storage binding cannot be
 * empty).
 */
export function seamTable(pieces: Uint32Array, count: number, maxVertices: number, minWords = 0, neighbours?: Int32Array): Uint32Array {
  const cells = seamCells(maxVertices);
  const bytes = new Uint8Array(Math.max(count * SEAM_TABLE.edges * cells, minWords * 4));
  const floats = new Float32Array(pieces.buffer, pieces.byteOffset, count * PIECE.words);
  // Lines within a record, per record and direction, by the parameter where they lie (an f32, exact
  // as a Map key); lines joined across records, by the lower of the two record edges; the coarse
  // edges of T-junctions, by theirs.
  const within = new Map<number, Map<number, Line>>();
  const joinedLines = new Map<number, Line>();
  const halfLines = new Map<number, Line>();
  /** Run `run` on the line of record `prim` at parameter `at`: a line v = at (ALONG_U) or u = at (ALONG_V). */
  const add = (prim: number, along: typeof ALONG_U | typeof ALONG_V, at: number, run: EdgeRun) => {
    const border = run.edge & 1 ? at === 1 : at === 0;
    const across = border && neighbours ? neighbours[prim * 4 + run.edge]! : -1;
    if (across < 0) {
      const key = prim * 2 + along;
      let lines = within.get(key);
      if (!lines) within.set(key, (lines = new Map()));
      lineOf(lines, at === 1 ? 0 : at)[run.edge & 1 ? 'before' : 'after'].push(run);
      return;
    }
    const self = prim * 4 + run.edge;
    if (across & (JOIN_HALF | JOIN_HALVES)) {
      // A T-junction (PrimitiveRecords.joinHalf): the line is the coarse edge, in its parameter; a
      // half's parameter runs from 0 at one of its ends, twice as fast.
      const half = (across & JOIN_HALF) !== 0;
      const code = across & ~JOIN_HALF;
      // (Each run is made for its one line: mapped in place.)
      run.across = true;
      if (half) {
        const { lo, hi } = run;
        run.lo = code & 1 ? 1 - hi / 2 : lo / 2;
        run.hi = code & 1 ? 1 - lo / 2 : hi / 2;
        run.step /= 2;
        run.reversed = (code & 1) === 1;
      }
      lineOf(halfLines, half ? code >> 1 : self)[half ? 'after' : 'before'].push(run);
      return;
    }
    // The joined edges' line: named by the lower of the two, in its parameter.
    const other = across >> 1;
    const reversed = self > other && (across & 1) === 1;
    run.across = true;
    if (reversed) {
      const { lo, hi } = run;
      run.lo = 1 - hi;
      run.hi = 1 - lo;
      run.reversed = true;
    }
    lineOf(joinedLines, Math.min(self, other))[self < other ? 'before' : 'after'].push(run);
  };
  /** Whether record `prim` is joined to another across an edge. */
  const joined = (prim: number): boolean => neighbours !== undefined && [0, 1, 2, 3].some((edge) => neighbours[prim * 4 + edge]! >= 0);
  for (let p = 0; p < count; p++) {
    const w = p * PIECE.words;
    const prim = pieces[w + PIECE.prim]!;
    const u0 = floats[w + PIECE.u0]!;
    const u1 = floats[w + PIECE.u1]!;
    const v0 = floats[w + PIECE.v0]!;
    const v1 = floats[w + PIECE.v1]!;
    // A record diced whole and joined to none meets only itself (u = 0 with u = 1, at its own rate):
    // nothing across is coarser. Points and short curves are such records, by the hundred thousand.
    if (u0 === 0 && u1 === 1 && v0 === 0 && v1 === 1 && !joined(prim)) continue;
    const stepU = (u1 - u0) / (pieces[w + PIECE.nu]! - 1);
    const stepV = (v1 - v0) / (pieces[w + PIECE.nv]! - 1);
    add(prim, ALONG_U, v0, { piece: p, edge: RecordEdge.v0, lo: u0, hi: u1, reversed: false, step: stepU, across: false });
    add(prim, ALONG_U, v1, { piece: p, edge: RecordEdge.v1, lo: u0, hi: u1, reversed: false, step: stepU, across: false });
    add(prim, ALONG_V, u0, { piece: p, edge: RecordEdge.u0, lo: v0, hi: v1, reversed: false, step: stepV, across: false });
    add(prim, ALONG_V, u1, { piece: p, edge: RecordEdge.u1, lo: v0, hi: v1, reversed: false, step: stepV, across: false });
  }
  const mark = (run: EdgeRun, other: EdgeRun) => {
    if (other.step <= run.step) return;
    const ratio = Math.round(Math.log2(other.step / run.step));
    // The shared stretch, in the piece's own parameter along the edge.
    const lo = Math.max(run.lo, other.lo);
    const hi = Math.min(run.hi, other.hi);
    const ownLo = run.reversed ? 1 - run.hi : run.lo;
    const ownFrom = run.reversed ? 1 - hi : lo;
    const ownTo = run.reversed ? 1 - lo : hi;
    const first = Math.round((ownFrom - ownLo) / run.step);
    const last = Math.round((ownTo - ownLo) / run.step);
    const flag = run.across || other.across ? SEAM_TABLE.acrossRecords : 0;
    const base = (run.piece * SEAM_TABLE.edges + run.edge) * cells;
    for (let c = first; c < last && c < cells; c++) bytes[base + c] = Math.max(bytes[base + c]!, ratio | flag);
  };
  const lines = [joinedLines, halfLines, ...within.values()].flatMap((set) => [...set.values()]);
  for (const { before, after } of lines) {
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
