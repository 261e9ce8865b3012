// Transformation and camera motion blur as the sampling stage sees it: a grid is diced and shaded
// once, where the primitive is at its first time sample, and each sample point moves it to the
// sample's time. For a record that moves, the motion block lists keys across the shutter, each a
// normalised shutter time u (0 at open, 1 at close) and the camera-space matrix that takes the
// diced position to the position at that time; between keys positions are interpolated linearly
// (as the matrices are: RI 3.2 interpolates transformations between the times of a motion block).
// A deforming record (deformation.ts) also carries its shape at each key, which the kernels
// evaluate at a vertex's (u, v) to move it by the difference from its diced shape.
import { mat4 } from 'gl-matrix';
import { KEY_SHAPE, MOTION_BLOCK, MOTION_KEY } from '../../layout/motion-block.ts';
import type { Frame, Matrix4, TransformSample } from '../../rib/scene.ts';

export interface MotionKey {
  /** The key's time (the scene's). */
  time: number;
  /** Shutter time, 0 at open, 1 at close. */
  u: number;
  /** Camera space at the diced time → camera space at this key's time. */
  delta: mat4;
}

/** The matrix of a moving transformation at `time`: linear between the samples, held before the
 * first and after the last. */
export function transformAt(samples: readonly TransformSample[], time: number): mat4 {
  const first = samples[0]!;
  if (samples.length === 1 || time <= first.time) return mat4.clone(first.matrix as unknown as mat4);
  for (let k = 1; k < samples.length; k++) {
    const a = samples[k - 1]!;
    const b = samples[k]!;
    if (time <= b.time) {
      const f = b.time > a.time ? (time - a.time) / (b.time - a.time) : 1;
      const out = mat4.create();
      for (let i = 0; i < 16; i++) out[i] = a.matrix[i]! + f * (b.matrix[i]! - a.matrix[i]!);
      return out;
    }
  }
  return mat4.clone(samples[samples.length - 1]!.matrix as unknown as mat4);
}

/** The times at which the keys sit: open, close and every motion time between them. */
export function keyTimes(shutter: readonly [number, number], motionTimes: readonly number[]): number[] {
  const [open, close] = shutter;
  if (!(close > open)) return [open];
  const inside = motionTimes.filter((t) => t > open && t < close);
  return [...new Set([open, ...inside, close])].sort((a, b) => a - b);
}

/**
 * The motion keys of a primitive whose object → world transformation is `objectMotion` (null when
 * it does not move) under the frame's camera motion, relative to `dicedObjectToCamera`, with a key
 * at each of `shapeTimes` too (the time samples of a deforming shape, or none); undefined when
 * nothing moves within the shutter (a deforming shape is the caller's to check).
 */
export function motionKeys(
  frame: Pick<Frame, 'camera' | 'options'>, objectToWorld: Matrix4, objectMotion: readonly TransformSample[] | null,
  dicedObjectToCamera: mat4, shapeTimes: readonly number[] = [],
): MotionKey[] | undefined {
  const cameraMotion = frame.camera.motion && frame.camera.motion.length > 1 ? frame.camera.motion : null;
  const objectMoves = objectMotion !== null && objectMotion.length > 1;
  const deforms = shapeTimes.length > 1;
  if (!cameraMotion && !objectMoves && !deforms) return undefined;
  const shutter = frame.camera.shutter;
  const times = keyTimes(shutter, [...(objectMoves ? objectMotion.map((s) => s.time) : []), ...(cameraMotion ?? []).map((s) => s.time), ...shapeTimes]);
  const fromDiced = mat4.invert(mat4.create(), dicedObjectToCamera);
  if (!fromDiced) return undefined;
  const worldToCamera = frame.camera.worldToCamera as unknown as mat4;
  const span = shutter[1] - shutter[0];
  let moves = false;
  const keys = times.map((time) => {
    const toCamera = cameraMotion ? transformAt(cameraMotion, time) : worldToCamera;
    const toWorld = objectMoves ? transformAt(objectMotion, time) : (objectToWorld as unknown as mat4);
    const delta = mat4.multiply(mat4.create(), mat4.multiply(mat4.create(), toCamera, toWorld), fromDiced);
    if (!mat4.equals(delta, mat4.create())) moves = true;
    return { time, u: span > 0 ? (time - shutter[0]) / span : 0, delta };
  });
  return moves || deforms ? keys : undefined;
}

/** A record's object → camera matrix and geometry words at one key's time (deformation blur). */
export interface KeyShape {
  matrix: ArrayLike<number>;
  geometry: ArrayLike<number>;
}

/** The block a record's auxiliary buffer carries (RECORD.motion): key count, where the key shapes
 * start, per key u and the matrix, then `shapes` (one per key) when the record deforms. */
export function packMotionKeys(keys: readonly MotionKey[], shapes?: readonly KeyShape[]): Float32Array {
  const shapesAt = MOTION_BLOCK.keys + keys.length * MOTION_KEY.floats;
  const block = new Float32Array(shapesAt + (shapes ? keys.length * KEY_SHAPE.floats : 0));
  const words = new Uint32Array(block.buffer);
  block[MOTION_BLOCK.count] = keys.length;
  words[MOTION_BLOCK.shapes] = shapes ? shapesAt : 0;
  keys.forEach((key, k) => {
    const at = MOTION_BLOCK.keys + k * MOTION_KEY.floats;
    block[at + MOTION_KEY.time] = key.u;
    block.set(key.delta, at + MOTION_KEY.matrix);
    const shape = shapes?.[k];
    if (shape) {
      block.set(shape.matrix, shapesAt + k * KEY_SHAPE.floats + KEY_SHAPE.matrix);
      block.set(shape.geometry, shapesAt + k * KEY_SHAPE.floats + KEY_SHAPE.geometry);
    }
  });
  return block;
}
