// MakeShadow: a depth map (a "zfile" or "shadow" Display's float TIFF, which records the camera it
// was rendered from in PixarMatrixWorldToScreen and PixarMatrixWorldToCamera) becomes a shadow map:
// one level of depths (shadow lookups filter by percentage closer, never by averaging depths).
import { mat4 } from 'gl-matrix';
import type { DepthCamera } from '../image/tiff.ts';
import { decodeTextureFile } from './texture-file.ts';
import type { FloatRaster } from './tiff-samples.ts';
import type { TextureMap } from './texture-map.ts';

/** NDC (x right, y down, [0, 1]) → the screen a depth map records ([-1, 1], y up); column-major. */
const NDC_TO_SCREEN = mat4.fromValues(2, 0, 0, 0, 0, -2, 0, 0, 0, 0, 1, 0, -1, 1, 0, 1);

/** The camera a frame's depth map records. RenderMan's row-major matrices for row vectors hold the
 * same 16 numbers as gl-matrix's column-major ones for column vectors. */
export function depthCamera(worldToCamera: mat4, cameraToNdc: mat4): DepthCamera {
  const worldToScreen = mat4.multiply(mat4.create(), mat4.multiply(mat4.create(), NDC_TO_SCREEN, cameraToNdc), worldToCamera);
  return { worldToCamera: Array.from(worldToCamera), worldToScreen: Array.from(worldToScreen) };
}

export function shadowMapFromDepth(raster: FloatRaster, bytes: Uint8Array, warn: (message: string) => void): TextureMap | undefined {
  const { worldToScreen, worldToCamera } = decodeTextureFile(bytes);
  if (!worldToScreen || !worldToCamera) {
    warn('the depth map records no camera (PixarMatrixWorldToScreen and PixarMatrixWorldToCamera tags); no shadow map is made');
    return undefined;
  }
  if (raster.channels !== 1) warn(`the depth map has ${raster.channels} channels; the first is the depth`);
  const { width, height } = raster;
  const data = new Float32Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = raster.data[i * raster.channels]!;
  return depthShadowMap(width, height, data, { worldToScreen, worldToCamera });
}

/** The shadow map of a rendered frame's depths (nearest per pixel, Infinity where nothing) seen from `camera`. */
export function depthShadowMap(width: number, height: number, data: Float32Array, camera: DepthCamera): TextureMap {
  return {
    kind: 'shadow', channels: 1, levels: [{ width, height, data }], swrap: 'clamp', twrap: 'clamp',
    filter: 'box', swidth: 1, twidth: 1, worldToScreen: camera.worldToScreen, worldToCamera: camera.worldToCamera,
  };
}
