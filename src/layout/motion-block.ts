// The motion block of a record that moves within the shutter (in the auxiliary buffer, at
// RECORD.aux + RECORD.motion - 1; packed by src/reyes/motion/motion-keys.ts): the key count, then
// per key its normalised shutter time and the camera-space matrix (column-major) that takes a diced
// position to that time.
import type { ConstantGroup } from './wgsl-constants.ts';

/** Float offsets in a motion block. */
export const MOTION_BLOCK = {
  count: 0,
  /** The first key. */
  keys: 1,
} as const;

/** Float offsets in one key. */
export const MOTION_KEY = {
  time: 0,
  matrix: 1,
  floats: 17,
} as const;

/** WGSL: MOTION_BLOCK_COUNT, MOTION_BLOCK_KEYS, MOTION_KEY_TIME, MOTION_KEY_MATRIX, MOTION_KEY_FLOATS. */
export const MOTION_BLOCK_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: 'MOTION_BLOCK_', values: MOTION_BLOCK },
  { prefix: 'MOTION_KEY_', values: MOTION_KEY },
];
