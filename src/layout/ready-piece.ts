// A piece of a primitive on the bound/split queue and, once small enough, on the ready list the
// dice, shade and sample stages read: PIECE.words u32 words, parameter bounds as f32 bits.
import type { ConstantGroup } from './wgsl-constants.ts';

/** Word offsets of a piece's fields. */
export const PIECE = {
  /** Its primitive record. */
  prim: 0,
  /** Splits so far: the split depth in the low bits (SPLITS.depthMask), eye splits above (SPLITS.eyeSplit each). */
  splits: 1,
  /** The same word on the ready list once diced, where the splits are no longer needed: the float
   * offset of the piece's grid in the grids buffer (grid-layout.ts packGridRecords; stages/dice.ts). */
  gridBase: 1,
  /** The parameter rectangle [u0, u1] × [v0, v1] (f32 bits). */
  u0: 2,
  u1: 3,
  v0: 4,
  v1: 5,
  /** Vertices per direction of its grid (written when the piece is ready). On the queue, 0, or for a
   * half of a region split (reyes-bound-split.wgsl REGION_SPLIT) the grid it keeps. */
  nu: 6,
  nv: 7,
  words: 8,
} as const;

/** The fields of PIECE.splits. */
export const SPLITS = {
  depthMask: 0xffff,
  /** One eye split. */
  eyeSplit: 0x10000,
} as const;

/** WGSL: PIECE_PRIM, ..., PIECE_WORDS, DEPTH_MASK, EYE_SPLIT. */
export const READY_PIECE_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: 'PIECE_', values: PIECE },
  { prefix: '', values: SPLITS },
];
