// The seam table the dicer reads (built by src/reyes/stages/grid-seams.ts): per ready piece and edge
// (RecordEdge order: v0, v1, u0, u1), one byte per edge cell: log2 of how much coarser the piece
// across it is, with SEAM_TABLE.acrossRecords set where that piece lies in another record.
import type { ConstantGroup } from './wgsl-constants.ts';

export const SEAM_TABLE = {
  /** Edges per piece. */
  edges: 4,
  /** Bit of a byte: the piece across lies in another record (the edge is its record's border). */
  acrossRecords: 0x80,
} as const;

/** WGSL: SEAM_EDGES, SEAM_ACROSS_RECORDS. */
export const SEAM_TABLE_CONSTANTS: readonly ConstantGroup[] = [{ prefix: 'SEAM_', values: SEAM_TABLE }];
