// The motion block of a record that moves within the shutter (in the auxiliary buffer, at
// RECORD.aux + RECORD.motion - 1; packed by src/reyes/motion/motion-keys.ts): the key count, where
// the key shapes start (0 when the shape does not deform), then per key its normalised shutter time
// and the camera-space matrix (column-major) that takes a diced position to that time. A deforming
// record (deformation blur: a primitive given in a motion block) then has one key shape per key:
// the record's object → camera matrix and geometry words (RECORD.matrix, RECORD.geometry) as they
// are at that key's time, so a kernel evaluates the surface there as it evaluates the record.
import type { ConstantGroup } from './wgsl-constants.ts';
import { RECORD } from './primitive-record.ts';

/** Float offsets in a motion block. */
export const MOTION_BLOCK = {
  count: 0,
  /** u32 bits: 0, or the float offset from the block's start of its first key shape. */
  shapes: 1,
  /** The first key. */
  keys: 2,
} as const;

/** Float offsets in one key. */
export const MOTION_KEY = {
  time: 0,
  matrix: 1,
  floats: 17,
} as const;

/** Float offsets in one key shape. */
export const KEY_SHAPE = {
  matrix: 0,
  geometry: 16,
  /** The geometry words: as many as a record holds. */
  geometryFloats: RECORD.s - RECORD.geometry,
  floats: 16 + RECORD.s - RECORD.geometry,
} as const;

/** WGSL: MOTION_BLOCK_COUNT, ..., MOTION_KEY_TIME, ..., KEY_SHAPE_MATRIX, KEY_SHAPE_GEOMETRY, KEY_SHAPE_FLOATS. */
export const MOTION_BLOCK_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: 'MOTION_BLOCK_', values: MOTION_BLOCK },
  { prefix: 'MOTION_KEY_', values: MOTION_KEY },
  { prefix: 'KEY_SHAPE_', values: KEY_SHAPE },
];
