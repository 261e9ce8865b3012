// The trim block of a NuPatch record that a TrimCurve crosses (in the auxiliary buffer, at
// RECORD.aux + RECORD.trim - 1; packed by src/reyes/convert/trim-curves.ts): the segments of the
// trim loops, flattened, that can decide a point of the record, in the record's own parameters
// (s, t in [0, 1]), and whether the region outside the loops is kept. The sampler counts the
// segments a ray from the sample's (s, t) towards +s crosses (reyes-trim.wgsl).
import type { ConstantGroup } from './wgsl-constants.ts';

/** Float offsets in a trim block. */
export const TRIM_BLOCK = {
  /** The number of segments. */
  count: 0,
  /** 1 where Attribute "trimcurve" "sense" is "outside" (the loops' insides are cut away), else 0. */
  sense: 1,
  /** The first segment. */
  segments: 2,
} as const;

/** Float offsets in one segment: its ends (s, t). */
export const TRIM_SEGMENT = {
  ax: 0,
  ay: 1,
  bx: 2,
  by: 3,
  floats: 4,
} as const;

/** WGSL: TRIM_BLOCK_COUNT, TRIM_BLOCK_SENSE, TRIM_BLOCK_SEGMENTS, TRIM_SEGMENT_AX, ..., TRIM_SEGMENT_FLOATS. */
export const TRIM_BLOCK_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: 'TRIM_BLOCK_', values: TRIM_BLOCK },
  { prefix: 'TRIM_SEGMENT_', values: TRIM_SEGMENT },
];
