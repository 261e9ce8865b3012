// A sample point as the sampler writes it and compositing reads it: a key of SAMPLE_KEY.words u32
// words (what compositing orders by) and a payload of SAMPLE_PAYLOAD.vec4s vec4f.
import type { ConstantGroup } from './wgsl-constants.ts';

/** u32 words of a sample point's key. An uncovered sample point's key is all ones in both words. */
export const SAMPLE_KEY = {
  /** The depth's f32 bits (positive floats order as their bits). */
  depth: 0,
  /** The subpixel's index within the sampling region. */
  subpixel: 1,
  words: 2,
} as const;

/** vec4f entries of a sample point's payload. */
export const SAMPLE_PAYLOAD = {
  /** (Ci, tag): tag is the primitive record + 1, negated for a matte. */
  color: 0,
  /** (Oi, solid): solid is 0 for a record outside CSG solids, else ±(its leaf + 1), negative where the
   * sample sees the back of the surface (reyes-composite.wgsl; the depth is the key's). */
  opacity: 1,
  vec4s: 2,
} as const;

/** Bytes of a sample point's key and payload. */
export const SAMPLE_POINT_RECORD_BYTES = SAMPLE_KEY.words * 4 + SAMPLE_PAYLOAD.vec4s * 16;

/** WGSL: SAMPLE_KEY_DEPTH, SAMPLE_KEY_SUBPIXEL, SAMPLE_KEY_WORDS, SAMPLE_PAYLOAD_COLOR, ... */
export const SAMPLE_POINT_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: 'SAMPLE_KEY_', values: SAMPLE_KEY },
  { prefix: 'SAMPLE_PAYLOAD_', values: SAMPLE_PAYLOAD },
];
