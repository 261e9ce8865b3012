// Shadow maps end to end on Dawn: a depth map rendered from a spotlight at the origin (the frame's
// camera recorded in the TIFF), MakeShadow, and a second frame whose shadowspot light reads it. A
// unit sphere at z = 4 shadows the wall z = 8 inside the circle the light's tangent cone cuts:
// radius 8 / √15. The camera looks down +z from (0, 5, 0); each row's shadow edges must fall
// within a pixel of that circle's.
import { describe, expect, it } from 'vitest';
import { encodeDepthTiff } from '../../src/image/tiff.ts';
import { renderFrame } from '../../src/reyes/render-frame.ts';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { runTextureRequests, texturesBetween } from '../../src/texture/make-textures.ts';
import { decodeTextureFile } from '../../src/texture/texture-file.ts';
import { TextureRegistry } from '../../src/texture/texture-registry.ts';
import { depthCamera } from '../../src/texture/shadow-map.ts';
import { memoryTextureStorage } from '../../src/texture/texture-storage.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';

const gpu = useGpuRuntime();
const SIZE = 128;
const SCENE = 'AttributeBegin\nTranslate 0 0 4\nSphere 1 -1 1 360\nAttributeEnd\nPolygon "P" [-8 -8 8  8 -8 8  8 8 8  -8 8 8]\n';
const LIGHT_VIEW = `Format 256 256 1\nPixelSamples 1 1\nPixelFilter "box" 1 1\nProjection "perspective" "fov" 60\nWorldBegin\nSurface "constant"\n${SCENE}WorldEnd\n`;
const beauty = (light: string): string => `Format ${SIZE} ${SIZE} 1\nPixelSamples 2 2\nProjection "perspective" "fov" 90\nTranslate 0 -5 0\nWorldBegin
LightSource "shadowspot" 1 "from" [0 0 0] "to" [0 0 1] "intensity" 64 "coneangle" 0.8 "conedeltaangle" 0 ${light}
Surface "matte"\n${SCENE}WorldEnd\n`;

/** Red of each pixel of row `y`. */
const row = (image: { width: number; rgba: Float32Array }, y: number): number[] => Array.from({ length: image.width }, (_, x) => image.rgba[(y * image.width + x) * 4]!);

/** Where the hidden share first and last crosses one half along a row, in pixels (linear between centres). */
function edges(hidden: number[]): [number, number] {
  const crossings: number[] = [];
  for (let x = 0; x + 1 < hidden.length; x++) {
    const [a, b] = [hidden[x]! - 0.5, hidden[x + 1]! - 0.5];
    if (a * b < 0) crossings.push(x + 0.5 + a / (a - b));
  }
  return [crossings[0]!, crossings[crossings.length - 1]!];
}

describe('shadow maps', () => {
  it('a depth map becomes a shadow map whose shadow lands where the light\'s projection puts it, within a pixel', async () => {
    const files = new Map<string, Uint8Array>();
    const lightFrame = parseRibSync(LIGHT_VIEW).frames[0]!;
    const depth = await renderFrame(gpu(), lightFrame);
    files.set('light.z', encodeDepthTiff(256, 256, depth.image.depth, depthCamera(depth.camera.worldToCamera, depth.camera.cameraToNdc)));
    const made = runTextureRequests(texturesBetween(parseRibSync('MakeShadow "light.z" "light.shd"\n'), 0, 0), memoryTextureStorage(files));
    expect(made.warnings).toEqual([]);
    const map = decodeTextureFile(files.get('light.shd')!);
    expect([map.kind, map.levels.length, map.worldToCamera?.length, map.worldToScreen?.length]).toEqual(['shadow', 1, 16, 16]);

    const shading = (): RslShadingProvider => new RslShadingProvider({ textures: new TextureRegistry(memoryTextureStorage(files)) });
    const lit = await renderFrame(gpu(), parseRibSync(beauty('')).frames[0]!, { shading: shading().provide });
    const shadowed = await renderFrame(gpu(), parseRibSync(beauty('"shadowname" "light.shd"')).frames[0]!, { shading: shading().provide });
    const wide = await renderFrame(gpu(), parseRibSync(beauty('"shadowname" "light.shd" "width" 8')).frames[0]!, { shading: shading().provide });
    const radius2 = 64 / 15;
    let band = 0;
    let wideBand = 0;
    for (let y = 98; y <= 110; y++) {
      // The wall point seen through the row's centre: screen y = 1 - 2 (y + ½) / SIZE at depth 8, camera at y = 5.
      const worldY = 5 + (1 - (2 * (y + 0.5)) / SIZE) * 8;
      const half = (Math.sqrt(radius2 - worldY * worldY) / 8) * (SIZE / 2);
      const hidden = (image: typeof lit.image): number[] => row(image, y).map((v, x) => 1 - v / row(lit.image, y)[x]!);
      const [left, right] = edges(hidden(shadowed.image));
      expect(Math.abs(left - (SIZE / 2 - half)), `row ${y} left edge ${left}`).toBeLessThanOrEqual(1);
      expect(Math.abs(right - (SIZE / 2 + half)), `row ${y} right edge ${right}`).toBeLessThanOrEqual(1);
      expect(hidden(shadowed.image)[SIZE / 2]).toBeGreaterThan(0.99);
      band += hidden(shadowed.image).filter((h) => h > 0.1 && h < 0.9).length;
      wideBand += hidden(wide.image).filter((h) => h > 0.1 && h < 0.9).length;
    }
    // "width" 8 spreads the filter over eight micropolygons: the penumbra widens.
    expect(wideBand).toBeGreaterThan(2 * band);
  }, 600_000);
});
