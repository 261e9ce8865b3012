// The coordinate spaces a shading kernel sees: FrameUniforms holds one space → camera matrix per
// named space (src/rsl/grid-layout.ts SPACES) for the whole dispatch. "object" and "shader" differ
// per primitive and per shader instance, so compiled RSL kernels read those two from the parameter
// block instead (ParamLayout.spaceMatrices, filled by shader-params.ts: each instance's
// shader → camera, the primitive's object → camera); the FrameUniforms slots of those two hold
// world → camera, which only kernels that ignore the parameter block (the built-in surfaces) see.
import { mat4 } from 'gl-matrix';
import { frameUniformWords, SPACES, type SpaceName } from '../../rsl/grid-layout.ts';
import type { FrameCamera } from '../camera.ts';

export type KernelSpaces = Record<SpaceName, mat4>;

export function kernelSpaces(camera: Pick<FrameCamera, 'worldToCamera' | 'cameraToScreen' | 'cameraToRaster' | 'cameraToNdc'>): KernelSpaces {
  const invert = (m: mat4): mat4 => mat4.invert(mat4.create(), m) ?? mat4.create();
  const world = mat4.clone(camera.worldToCamera);
  return {
    camera: mat4.create(),
    world,
    object: world,
    shader: world,
    screen: invert(camera.cameraToScreen),
    raster: invert(camera.cameraToRaster),
    NDC: invert(camera.cameraToNdc),
  };
}

/** FrameUniforms words for a dispatch of `gridCount` grids. */
export function kernelFrameUniforms(spaces: KernelSpaces, gridCount: number): Uint32Array {
  return frameUniformWords(gridCount, Object.fromEntries(SPACES.map((s) => [s, spaces[s] as Float32Array])));
}
