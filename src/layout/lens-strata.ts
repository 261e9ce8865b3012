// The lens strata table the sampling kernels read (reyes-sample.wgsl: filled by lensStrata, once per
// sampling dispatch of a frame with depth of field): per blur stratum j, LENS_STRATUM.vec4s vec4f.
import type { ConstantGroup } from './wgsl-constants.ts';

/** vec4f entries of one stratum. */
export const LENS_STRATUM = {
  /** The bounding box (x0, y0, x1, y1) on the unit disk of the lens positions of the stratum. */
  box: 0,
  /** (x, y, 0, 0): the stratum's lens cell (reyes-jitter.wgsl lensCell). */
  cell: 1,
  vec4s: 2,
} as const;

/** WGSL: LENS_STRATUM_BOX, LENS_STRATUM_CELL, LENS_STRATUM_VEC4S. */
export const LENS_STRATA_CONSTANTS: readonly ConstantGroup[] = [{ prefix: 'LENS_STRATUM_', values: LENS_STRATUM }];
