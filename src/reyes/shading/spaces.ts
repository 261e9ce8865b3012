// The coordinate spaces a shading kernel sees: FrameUniforms holds one space → camera matrix per
// named space (src/layout/grid-layout.ts SPACES) for the whole dispatch. "object" and "shader" differ
// per primitive and per shader instance, so compiled RSL kernels read those two from the parameter
// block instead (ParamLayout.spaceMatrices, filled by shader-params.ts: each instance's
// shader → camera, the primitive's object → camera); the FrameUniforms slots of those two hold
// world → camera, which only kernels that ignore the parameter block (the built-in surfaces) see.
// The scene's named coordinate systems (CoordinateSystem) ride along in `named`: compiled RSL that
// names them reads them from the parameter block too (shader-params.ts).
import { mat4 } from 'gl-matrix';
import { frameUniformWords, SPACES, type SpaceName } from '../../layout/grid-layout.ts';
import type { FrameCamera } from '../camera.ts';

export type KernelSpaces = Record<SpaceName, mat4> & {
  /** The scene's named coordinate systems → camera, by name. */
  named?: Readonly<Record<string, mat4>>;
};

/** `coordinateSystems`: the scene's named coordinate systems, space → world (Frame.coordinateSystems). */
export function kernelSpaces(
  camera: Pick<FrameCamera, 'worldToCamera' | 'cameraToScreen' | 'cameraToRaster' | 'cameraToNdc'>,
  coordinateSystems: Readonly<Record<string, ArrayLike<number>>> = {},
): KernelSpaces {
  const invert = (m: mat4): mat4 => mat4.invert(mat4.create(), m) ?? mat4.create();
  const world = mat4.clone(camera.worldToCamera);
  const named = Object.fromEntries(Object.entries(coordinateSystems).map(([name, toWorld]) => [name, mat4.multiply(mat4.create(), world, mat4.clone(toWorld as mat4))]));
  return {
    named,
    camera: mat4.create(),
    world,
    object: world,
    shader: world,
    screen: invert(camera.cameraToScreen),
    raster: invert(camera.cameraToRaster),
    NDC: invert(camera.cameraToNdc),
  };
}

/** FrameUniforms words for a dispatch of `gridCount` grids; `loopCap` 0: the kernel's compiled cap (loop-cap.ts). */
export function kernelFrameUniforms(spaces: KernelSpaces, gridCount: number, loopCap = 0): Uint32Array {
  return frameUniformWords(gridCount, Object.fromEntries(SPACES.map((s) => [s, spaces[s] as Float32Array])), 0, loopCap);
}
