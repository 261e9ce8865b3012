// MakeShadow: a depth map (a "zfile" or "shadow" Display's float TIFF, which records the camera it
// was rendered from in PixarMatrixWorldToScreen and PixarMatrixWorldToCamera) becomes a shadow map:
// one level of depths (shadow lookups filter by percentage closer, never by averaging depths).
import { decodeTextureFile } from './texture-file.ts';
import type { FloatRaster } from './tiff-samples.ts';
import type { TextureMap } from './texture-map.ts';

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
  return {
    kind: 'shadow', channels: 1, levels: [{ width, height, data }], swrap: 'clamp', twrap: 'clamp',
    filter: 'box', swidth: 1, twidth: 1, worldToScreen, worldToCamera,
  };
}
