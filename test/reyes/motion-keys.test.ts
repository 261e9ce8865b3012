// The motion keys a moving record carries: times across the shutter and the camera-space matrices
// that take the diced (first time sample) position to each, checked on points moved by hand.
import { mat4, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { keyTimes, motionKeys, packMotionKeys, transformAt } from '../../src/reyes/motion/motion-keys.ts';
import { identity, rotation, translation } from '../../src/rib/transforms.ts';
import type { Frame, Matrix4, TransformSample } from '../../src/rib/scene.ts';

function frameWith(shutter: [number, number], cameraMotion: TransformSample[] | null = null, worldToCamera: Matrix4 = translation(0, 0, 5)): Pick<Frame, 'camera' | 'options'> {
  return { camera: { shutter, motion: cameraMotion, worldToCamera }, options: {} } as unknown as Pick<Frame, 'camera' | 'options'>;
}

function moved(m: mat4, p: [number, number, number]): number[] {
  return Array.from(vec3.transformMat4(vec3.create(), p, m));
}

describe('motion keys', () => {
  it('keys sit at open, close and the motion times between them; a closed shutter has one', () => {
    expect(keyTimes([0, 1], [0, 0.5, 1])).toEqual([0, 0.5, 1]);
    expect(keyTimes([0.25, 0.75], [0, 0.5, 1])).toEqual([0.25, 0.5, 0.75]);
    expect(keyTimes([0.5, 0.5], [0, 1])).toEqual([0.5]);
  });

  it('interpolates a transformation linearly between its samples and holds it outside them', () => {
    const samples = [{ time: 0, matrix: translation(-1, 0, 0) }, { time: 1, matrix: translation(1, 0, 0) }];
    expect(moved(transformAt(samples, 0.25), [0, 0, 0])).toEqual([-0.5, 0, 0]);
    expect(moved(transformAt(samples, -1), [0, 0, 0])).toEqual([-1, 0, 0]);
    expect(moved(transformAt(samples, 2), [0, 0, 0])).toEqual([1, 0, 0]);
  });

  it('takes the diced position to the position at each key, the shutter mapped to [0, 1]', () => {
    const objectMotion = [{ time: 0, matrix: translation(-1, 0, 0) }, { time: 1, matrix: translation(1, 0, 0) }];
    const frame = frameWith([0.25, 0.75]);
    const diced = mat4.multiply(mat4.create(), translation(0, 0, 5) as unknown as mat4, objectMotion[0]!.matrix as unknown as mat4);
    const keys = motionKeys(frame, objectMotion[0]!.matrix, objectMotion, diced)!;
    expect(keys.map((k) => k.u)).toEqual([0, 1]);
    // The diced point (object origin at time 0) is at camera (-1, 0, 5); at 0.25 it is at -0.5, at 0.75 at 0.5.
    expect(moved(keys[0]!.delta, [-1, 0, 5])).toEqual([-0.5, 0, 5]);
    expect(moved(keys[1]!.delta, [-1, 0, 5])).toEqual([0.5, 0, 5]);
  });

  it('combines camera motion with the object\'s own', () => {
    const cameraMotion = [{ time: 0, matrix: translation(0, 0, 5) }, { time: 1, matrix: translation(0, 2, 5) }];
    const objectMotion = [{ time: 0, matrix: identity() }, { time: 1, matrix: rotation(90, 0, 0, 1)! }];
    const diced = translation(0, 0, 5) as unknown as mat4;
    const keys = motionKeys(frameWith([0, 1], cameraMotion), identity(), objectMotion, diced)!;
    // Object point (1, 0, 0): camera (1, 0, 5) when diced; at close rotated to (0, 1, 0), seen 2 higher.
    const end = moved(keys[1]!.delta, [1, 0, 5]);
    expect(end[0]).toBeCloseTo(0, 6);
    expect(end[1]).toBeCloseTo(3, 6);
    expect(end[2]).toBeCloseTo(5, 6);
  });

  it('says nothing moves when the transformation is the same at every time or the shutter is closed on the first', () => {
    const still = [{ time: 0, matrix: translation(1, 0, 0) }, { time: 1, matrix: translation(1, 0, 0) }];
    expect(motionKeys(frameWith([0, 1]), still[0]!.matrix, still, translation(1, 0, 5) as unknown as mat4)).toBeUndefined();
    const moving = [{ time: 0, matrix: translation(0, 0, 0) }, { time: 1, matrix: translation(1, 0, 0) }];
    expect(motionKeys(frameWith([0, 0]), moving[0]!.matrix, moving, translation(0, 0, 5) as unknown as mat4)).toBeUndefined();
    expect(motionKeys(frameWith([0, 1]), identity(), null, translation(0, 0, 5) as unknown as mat4)).toBeUndefined();
  });

  it('packs the key count, where the key shapes start, then each key\'s time and matrix', () => {
    const block = packMotionKeys([{ time: 0, u: 0, delta: mat4.create() }, { time: 1, u: 1, delta: mat4.fromTranslation(mat4.create(), [2, 0, 0]) }]);
    // The count, 0 (no shapes), then 17 floats a key: its time, then the matrix column-major (translation at 12..14).
    expect(block.length).toBe(2 + 2 * 17);
    expect(block[0]).toBe(2);
    expect(new Uint32Array(block.buffer)[1]).toBe(0);
    expect(block[2 + 17]).toBe(1);
    expect(block[3 + 17 + 12]).toBe(2);
  });

  it('packs a deforming record\'s shape at each key after the keys', () => {
    const shape = (x: number) => ({ matrix: mat4.fromTranslation(mat4.create(), [0, 0, x]), geometry: Array.from({ length: 48 }, (_, i) => x + i) });
    const block = packMotionKeys([{ time: 0, u: 0, delta: mat4.create() }, { time: 1, u: 1, delta: mat4.create() }], [shape(1), shape(2)]);
    const shapesAt = 2 + 2 * 17;
    expect(new Uint32Array(block.buffer)[1]).toBe(shapesAt);
    expect(block.length).toBe(shapesAt + 2 * 64);
    // Per key: the object → camera matrix (16), then the 48 geometry words.
    expect(block[shapesAt + 14]).toBe(1);
    expect(block[shapesAt + 16 + 5]).toBe(6);
    expect(block[shapesAt + 64 + 14]).toBe(2);
    expect(block[shapesAt + 64 + 16 + 47]).toBe(49);
  });

  it('keys a deforming shape at its sample times even when no transformation moves', () => {
    const keys = motionKeys(frameWith([0, 1]), identity(), null, translation(0, 0, 5) as unknown as mat4, [0, 0.5, 2]);
    expect(keys!.map((k) => k.time)).toEqual([0, 0.5, 1]);
    expect(keys!.map((k) => k.u)).toEqual([0, 0.5, 1]);
  });
});
