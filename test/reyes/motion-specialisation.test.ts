// The sampling and bound/split kernels are specialised per frame (reyes-motion.wgsl's MOTION_MOVES,
// MOTION_DEFORMS and MOTION_MANY_KEYS): the code for moving records, for deforming shapes and for
// more than two motion keys is left out of frames without them, because it makes the kernels slow
// (minutes, for the shapes) to compile on lavapipe. A frame
// that has them must say so, or its blur would silently lose the shapes or the middle keys. Likewise
// the kernels that evaluate surfaces keep only the primitive kinds a frame holds (reyes-surface.wgsl's
// SHAPE_KINDS): a kind left out would evaluate to the origin.
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame, motionConstants, shapeConstants } from '../../src/reyes/convert/convert-frame.ts';
import { PrimitiveKind } from '../../src/layout/primitive-record.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { frameFromText } from './render-helpers.ts';

async function convertedOf(body: string, shutter = '0 1') {
  const frame = await frameFromText(`Format 64 64 1\nShutter ${shutter}\nProjection "perspective" "fov" 40\nTranslate 0 0 8\nWorldBegin\n${body}\nWorldEnd`);
  const camera = frameCamera(frame);
  return convertFrame(frame, camera, kernelSpaces(camera), gridLayout(256), builtinShadingProvider, () => {});
}

async function motionOf(body: string, shutter = '0 1'): Promise<Record<string, number>> {
  return motionConstants((await convertedOf(body, shutter)).motion);
}

describe('motion specialisation of the kernels', () => {
  it('leaves both out of a still frame and of a two-key transform', async () => {
    expect(await motionOf('Sphere 1 -1 1 360')).toEqual({ MOTION_MOVES: 0, MOTION_DEFORMS: 0, MOTION_MANY_KEYS: 0 });
    expect(await motionOf('MotionBegin [0 1] Translate -1 0 0 Translate 1 0 0 MotionEnd Sphere 1 -1 1 360')).toEqual({ MOTION_MOVES: 1, MOTION_DEFORMS: 0, MOTION_MANY_KEYS: 0 });
  });

  it('keeps the many-key code for a three-key transform, and the shape code for a deforming primitive', async () => {
    expect(await motionOf('MotionBegin [0 0.5 1] Rotate 0 0 0 1 Rotate 30 0 0 1 Rotate 60 0 0 1 MotionEnd Sphere 1 -1 1 360'))
      .toEqual({ MOTION_MOVES: 1, MOTION_DEFORMS: 0, MOTION_MANY_KEYS: 1 });
    expect(await motionOf('MotionBegin [0 1] Sphere 1 -1 1 360 Sphere 2 -2 2 360 MotionEnd')).toEqual({ MOTION_MOVES: 1, MOTION_DEFORMS: 1, MOTION_MANY_KEYS: 0 });
    expect(await motionOf('MotionBegin [0 0.5 1] Polygon "P" [0 0 0 1 0 0 1 1 0] Polygon "P" [0 0 0 2 0 0 2 1 0] Polygon "P" [0 0 0 3 0 0 3 1 0] MotionEnd'))
      .toEqual({ MOTION_MOVES: 1, MOTION_DEFORMS: 1, MOTION_MANY_KEYS: 1 });
  });
});

describe('primitive kind specialisation of the kernels', () => {
  const bit = (kind: keyof typeof PrimitiveKind) => 1 << PrimitiveKind[kind];

  it('keeps exactly the kinds of the records a frame converts to', async () => {
    expect(shapeConstants((await convertedOf('Sphere 1 -1 1 360')).records.kinds)).toEqual({ SHAPE_KINDS: bit('sphere') });
    const mixed = await convertedOf('Torus 1 0.25 0 360 360 Polygon "P" [0 0 0 1 0 0 1 1 0] Patch "bicubic" "P" [' + Array.from({ length: 16 }, (_, k) => `${k % 4} ${Math.floor(k / 4)} 0`).join(' ') + ']');
    expect(mixed.records.kinds).toBe(bit('torus') | bit('bilinear') | bit('bezier'));
  });
});
