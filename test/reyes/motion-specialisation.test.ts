// The sampling and bound/split kernels are specialised per frame (reyes-motion.wgsl's MOTION_DEFORMS
// and MOTION_MANY_KEYS): the code for deforming shapes and for more than two motion keys is left out
// of frames without them, because it makes the kernels take minutes to compile on lavapipe. A frame
// that has them must say so, or its blur would silently lose the shapes or the middle keys.
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame, motionConstants } from '../../src/reyes/convert/convert-frame.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { frameFromText } from './render-helpers.ts';

async function motionOf(body: string, shutter = '0 1'): Promise<Record<string, number>> {
  const frame = await frameFromText(`Format 64 64 1\nShutter ${shutter}\nProjection "perspective" "fov" 40\nTranslate 0 0 8\nWorldBegin\n${body}\nWorldEnd`);
  const camera = frameCamera(frame);
  return motionConstants(convertFrame(frame, camera, kernelSpaces(camera), gridLayout(256), builtinShadingProvider, () => {}).motion);
}

describe('motion specialisation of the kernels', () => {
  it('leaves both out of a still frame and of a two-key transform', async () => {
    expect(await motionOf('Sphere 1 -1 1 360')).toEqual({ MOTION_DEFORMS: 0, MOTION_MANY_KEYS: 0 });
    expect(await motionOf('MotionBegin [0 1] Translate -1 0 0 Translate 1 0 0 MotionEnd Sphere 1 -1 1 360')).toEqual({ MOTION_DEFORMS: 0, MOTION_MANY_KEYS: 0 });
  });

  it('keeps the many-key code for a three-key transform, and the shape code for a deforming primitive', async () => {
    expect(await motionOf('MotionBegin [0 0.5 1] Rotate 0 0 0 1 Rotate 30 0 0 1 Rotate 60 0 0 1 MotionEnd Sphere 1 -1 1 360'))
      .toEqual({ MOTION_DEFORMS: 0, MOTION_MANY_KEYS: 1 });
    expect(await motionOf('MotionBegin [0 1] Sphere 1 -1 1 360 Sphere 2 -2 2 360 MotionEnd')).toEqual({ MOTION_DEFORMS: 1, MOTION_MANY_KEYS: 0 });
    expect(await motionOf('MotionBegin [0 0.5 1] Polygon "P" [0 0 0 1 0 0 1 1 0] Polygon "P" [0 0 0 2 0 0 2 1 0] Polygon "P" [0 0 0 3 0 0 3 1 0] MotionEnd'))
      .toEqual({ MOTION_DEFORMS: 1, MOTION_MANY_KEYS: 1 });
  });
});
