// The texture tile pool on Dawn: a textured plane seen at a slant (several mip levels, tiles of
// each) renders the same picture whether the pool holds every tile or a handful (misses, uploads
// and grids shaded again in the statistics), and a texture larger than the whole memory budget
// renders within the budget, the same picture as with room for everything.
import { describe, expect, it } from 'vitest';
import { renderFrame, type RenderedFrame } from '../../src/reyes/render-frame.ts';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { TILE } from '../../src/layout/texture-pages.ts';
import { buildPyramid } from '../../src/texture/mipmap.ts';
import { encodeTextureFile } from '../../src/texture/texture-file.ts';
import { TextureRegistry } from '../../src/texture/texture-registry.ts';
import { memoryTextureStorage } from '../../src/texture/texture-storage.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';

const gpu = useGpuRuntime();

/** A size × size RGB map whose texels differ at every scale (so every level reads differently). */
function textureFile(size: number): Uint8Array {
  const data = new Float32Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const k = (y * size + x) * 3;
      data[k] = ((x >> 3) + (y >> 3)) % 2;
      data[k + 1] = 0.5 + 0.5 * Math.sin(x * 0.37) * Math.cos(y * 0.21);
      data[k + 2] = (x ^ y) / size;
    }
  }
  const options = { filter: 'box', swidth: 1, twidth: 1, swrap: 'periodic', twrap: 'periodic' } as const;
  return encodeTextureFile({ kind: 'texture', channels: 3, levels: buildPyramid({ width: size, height: size, data }, 3, options), ...options });
}

const scene = (options: string): string => `${options}
Format 64 48 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 4
WorldBegin
LightSource "ambientlight" 1 "intensity" [1]
Surface "paintedplastic" "texturename" "map.tex" "Ka" 1 "Kd" 0 "Ks" 0
Rotate -55 1 0 0
Patch "bilinear" "P" [-3 3 0  3 3 0  -3 -3 0  3 -3 0]
WorldEnd
`;

async function renderWith(file: Uint8Array, options: string): Promise<RenderedFrame> {
  const textures = new TextureRegistry(memoryTextureStorage(new Map([['map.tex', file]])));
  return renderFrame(gpu(), parseRibSync(scene(options)).frames[0]!, { shading: new RslShadingProvider({ textures }).provide });
}

function largestDifference(a: Float32Array, b: Float32Array): number {
  let most = 0;
  for (let k = 0; k < a.length; k++) most = Math.max(most, Math.abs(a[k]! - b[k]!));
  return most;
}

describe('texture tile pool', () => {
  it('gives the same picture with a pool of eight tiles as with every tile resident', async () => {
    const file = textureFile(256);
    const whole = await renderWith(file, '');
    const tiny = await renderWith(file, `Option "limits" "texturememory" [${(8 * TILE.words * 4) / 1024}]`);
    // 256² RGB in 32-texel tiles: 64 + 16 + 4 + 1 + 1 + 1 + 1 + 1 + 1.
    expect(whole.stats.textures).toMatchObject({ mapTiles: 90, poolTiles: 90, tileMisses: 0, reshadedGrids: 0, tilesUploaded: 90 });
    expect(tiny.stats.textures).toMatchObject({ mapTiles: 90, poolTiles: 8 });
    expect(tiny.stats.textures.tileMisses).toBeGreaterThan(8);
    expect(tiny.stats.textures.reshadedGrids).toBeGreaterThan(0);
    // The eight coarsest tiles first, then what the misses asked for (a probe pass asks without uploading).
    expect(tiny.stats.textures.tilesUploaded).toBeGreaterThan(8);
    expect(tiny.stats.textures.tilesUploaded).toBeLessThanOrEqual(8 + tiny.stats.textures.tileMisses);
    // Every vertex of the plane looks the map up once, whatever the pool.
    expect(tiny.stats.textures.lookups).toBe(whole.stats.textures.lookups);
    expect(whole.stats.textures.lookups).toBe(whole.stats.verticesShaded);
    expect(tiny.stats.warnings).toEqual([]);
    expect(largestDifference(tiny.image.rgba, whole.image.rgba)).toBeLessThanOrEqual(1 / 255);
    // The picture is textured: the checker's red channel takes both values.
    const reds = new Set(Array.from({ length: 64 * 48 }, (_, k) => Math.round(whole.image.rgba[k * 4]! * 4)));
    expect(reds.size).toBeGreaterThan(3);
  }, 300_000);

  it('renders a map larger than the memory budget within the budget, as with room for it', async () => {
    // 1024² RGB: 16.8 MB of texels in all levels, under a 12 MiB budget.
    const file = textureFile(1024);
    const roomy = await renderWith(file, '');
    const tight = await renderWith(file, 'Option "limits" "gpumemory" [12]');
    expect(roomy.stats.textures.poolTiles).toBe(roomy.stats.textures.mapTiles);
    expect(tight.stats.textures.poolTiles).toBeLessThan(tight.stats.textures.mapTiles / 4);
    expect(tight.stats.budgetBytes).toBe(12 * 1024 * 1024);
    expect(tight.stats.peakBytes).toBeLessThanOrEqual(tight.stats.budgetBytes);
    expect(largestDifference(tight.image.rgba, roomy.image.rgba)).toBeLessThanOrEqual(1 / 255);
  }, 300_000);
});
