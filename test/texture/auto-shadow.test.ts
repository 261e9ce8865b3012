// "auto" shadow maps on Dawn: the scene of shadow-map.test.ts (a unit sphere at z = 4 over the wall
// z = 8, a shadowspot at the origin looking down +z) with shadowname "auto". The shadow's edges must
// fall within a pixel of the circle radius 8 / √15 the light's tangent cone cuts; the picture must
// match the two-frame path (a depth Display from the same camera, MakeShadow, shadow()); the
// attribute sizes the map; a point light's cube faces land its shadow; bad sizes, lights of no
// known kind and scenes with nothing to shadow are handled.
import { describe, expect, it } from 'vitest';
import { encodeDepthTiff } from '../../src/image/tiff.ts';
import { prepareFrame, renderFrame } from '../../src/reyes/render-frame.ts';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { runTextureRequests, texturesBetween } from '../../src/texture/make-textures.ts';
import { TextureRegistry } from '../../src/texture/texture-registry.ts';
import { depthCamera } from '../../src/texture/shadow-map.ts';
import { memoryTextureStorage } from '../../src/texture/texture-storage.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';

const gpu = useGpuRuntime();
const SIZE = 128;
const SCENE = 'AttributeBegin\nTranslate 0 0 4\nSphere 1 -1 1 360\nAttributeEnd\nPolygon "P" [-8 -8 8  8 -8 8  8 8 8  -8 8 8]\n';
const CONE = 0.8;
/** The auto camera's field of view: the full cone plus the 5° margin (shadow-light.ts). */
const AUTO_FOV = (CONE * 360) / Math.PI + 5;
const beauty = (light: string, attribute = 'Attribute "light" "shadowmapsize" [256]'): string => `Format ${SIZE} ${SIZE} 1\nPixelSamples 2 2\nProjection "perspective" "fov" 90\nTranslate 0 -5 0\nWorldBegin
${attribute}
LightSource "shadowspot" 1 "from" [0 0 0] "to" [0 0 1] "intensity" 64 "coneangle" ${CONE} "conedeltaangle" 0 ${light}
Surface "matte"\n${SCENE}WorldEnd\n`;

const row = (image: { width: number; rgba: Float32Array }, y: number): number[] => Array.from({ length: image.width }, (_, x) => image.rgba[(y * image.width + x) * 4]!);

function edges(hidden: number[]): [number, number] {
  const crossings: number[] = [];
  for (let x = 0; x + 1 < hidden.length; x++) {
    const [a, b] = [hidden[x]! - 0.5, hidden[x + 1]! - 0.5];
    if (a * b < 0) crossings.push(x + 0.5 + a / (a - b));
  }
  return [crossings[0]!, crossings[crossings.length - 1]!];
}

describe('"auto" shadow maps', () => {
  it('land where the light\'s projection puts the shadow and match the depth Display + MakeShadow path', async () => {
    const lit = await renderFrame(gpu(), parseRibSync(beauty('')).frames[0]!, { shading: new RslShadingProvider().provide });
    const auto = await renderFrame(gpu(), parseRibSync(beauty('"shadowname" "auto"')).frames[0]!, { shading: new RslShadingProvider().provide });
    expect(auto.warnings).toEqual([]);
    expect(auto.stats.shadowPasses).toMatchObject([{ light: '1', size: 256, reused: false }]);
    for (let y = 98; y <= 110; y++) {
      const worldY = 5 + (1 - (2 * (y + 0.5)) / SIZE) * 8;
      const half = (Math.sqrt(64 / 15 - worldY * worldY) / 8) * (SIZE / 2);
      const hidden = row(auto.image, y).map((v, x) => 1 - v / row(lit.image, y)[x]!);
      const [left, right] = edges(hidden);
      expect(Math.abs(left - (SIZE / 2 - half)), `row ${y} left edge ${left}`).toBeLessThanOrEqual(1);
      expect(Math.abs(right - (SIZE / 2 + half)), `row ${y} right edge ${right}`).toBeLessThanOrEqual(1);
      expect(hidden[SIZE / 2]).toBeGreaterThan(0.99);
    }

    // The same map through files: a depth frame from the auto camera, MakeShadow, shadow("light.shd").
    const files = new Map<string, Uint8Array>();
    const view = `Format 256 256 1\nPixelSamples 1 1\nPixelFilter "box" 1 1\nProjection "perspective" "fov" ${AUTO_FOV}\nWorldBegin\nSurface "constant"\n${SCENE}WorldEnd\n`;
    const depth = await renderFrame(gpu(), parseRibSync(view).frames[0]!);
    files.set('light.z', encodeDepthTiff(256, 256, depth.image.depth, depthCamera(depth.camera.worldToCamera, depth.camera.cameraToNdc)));
    runTextureRequests(texturesBetween(parseRibSync('MakeShadow "light.z" "light.shd"\n'), 0, 0), memoryTextureStorage(files));
    const shading = new RslShadingProvider({ textures: new TextureRegistry(memoryTextureStorage(files)) });
    const twoFrame = await renderFrame(gpu(), parseRibSync(beauty('"shadowname" "light.shd"')).frames[0]!, { shading: shading.provide });
    let largest = 0;
    for (let k = 0; k < auto.image.rgba.length; k++) largest = Math.max(largest, Math.abs(auto.image.rgba[k]! - twoFrame.image.rgba[k]!));
    expect(largest).toBeLessThan(1e-3);
  }, 600_000);

  it('sizes the map by Attribute "light" "shadowmapsize", keeps it while the light and geometry stay, and warns of bad sizes at the request', async () => {
    const shading = new RslShadingProvider();
    const frame = parseRibSync(beauty('"shadowname" "auto"', 'Attribute "light" "shadowmapsize" [64]')).frames[0]!;
    const first = await renderFrame(gpu(), frame, { shading: shading.provide });
    expect(first.stats.shadowPasses).toMatchObject([{ size: 64, reused: false }]);
    expect(first.stats.shadowPasses![0]!.ms).toBeGreaterThan(0);
    // A camera move: the same primitives and light, so no depth pass.
    const moved = await renderFrame(gpu(), { ...frame, camera: { ...frame.camera, worldToCamera: frame.camera.worldToCamera.map((v, k) => (k === 13 ? v + 0.5 : v)) } }, { shading: shading.provide });
    expect(moved.stats.shadowPasses).toMatchObject([{ size: 64, reused: true, ms: 0 }]);
    // The light moved: its map is made again.
    const light = { ...frame.lights[0]!, params: frame.lights[0]!.params.map((p) => (p.name === 'from' ? { ...p, values: [0, 0.1, 0] } : p)) };
    const lightMoved = await renderFrame(gpu(), { ...frame, lights: [light] }, { shading: shading.provide });
    expect(lightMoved.stats.shadowPasses).toMatchObject([{ size: 64, reused: false }]);

    const bad = parseRibSync(beauty('"shadowname" "auto"', 'Attribute "light" "shadowmapsize" [3]'));
    expect(bad.warnings.map((w) => [w.line, w.message])).toEqual([[6, expect.stringContaining('"shadowmapsize" must be one integer from 16 to 8192, found [3]')]]);
    const fallback = await renderFrame(gpu(), bad.frames[0]!, { shading: new RslShadingProvider().provide });
    expect(fallback.stats.shadowPasses).toMatchObject([{ size: 512 }]);
  }, 600_000);

  it('renders a point light\'s cube faces, distant lights and lights that see nothing, and warns of lights of no known kind', async () => {
    // A point light at z = -3 before the unit sphere throws a shadow of radius 7 / √8 on the wall
    // z = 4 (through its +z face); the camera at z = -5 sees it past the sphere's silhouette.
    const point = (names: string): string => `Format 64 64 1\nProjection "perspective" "fov" 60\nTranslate 0 0 5\nWorldBegin
Attribute "light" "shadowmapsize" [256]
LightSource "shadowpoint" 1 "from" [0 0 -3] "intensity" 20 ${['px', 'nx', 'py', 'ny', 'pz', 'nz'].map((f) => `"sf${f}" "${names}"`).join(' ')}
Surface "matte"\nSphere 1 -1 1 360\nPolygon "P" [-20 -20 4  20 -20 4  20 20 4  -20 20 4]\nWorldEnd\n`;
    const cube = await renderFrame(gpu(), parseRibSync(point('auto')).frames[0]!, { shading: new RslShadingProvider().provide });
    expect(cube.warnings).toEqual([]);
    expect(cube.stats.shadowPasses?.map((p) => p.parameter)).toEqual(['sfpx', 'sfnx', 'sfpy', 'sfny', 'sfpz', 'sfnz']);
    const open = await renderFrame(gpu(), parseRibSync(point('')).frames[0]!, { shading: new RslShadingProvider().provide });
    const hidden = (x: number, y: number): number => 1 - cube.image.rgba[(y * 64 + x) * 4]! / open.image.rgba[(y * 64 + x) * 4]!;
    // Wall x = (pixel centre − 32) / 6.16 on the middle row: the shadow reaches 2.47, the sphere hides x < 1.84.
    for (const [x, y] of [[45, 32], [18, 32], [32, 45], [32, 18]] as const) expect(hidden(x, y), `${x}, ${y}`).toBeGreaterThan(0.8);
    for (const [x, y] of [[50, 32], [13, 32], [32, 50], [32, 13]] as const) expect(hidden(x, y), `${x}, ${y}`).toBeLessThan(0.2);

    const rib = `Format 32 32 1\nProjection "perspective" "fov" 60\nTranslate 0 0 5\nWorldBegin
LightSource "ambientlight" 1 "string shadowname" "auto"
LightSource "shadowdistant" 2 "from" [0 1 0] "to" [0 0 0] "shadowname" "auto"
LightSource "shadowspot" 3 "from" [0 0 -10] "to" [0 0 -20] "shadowname" "auto"
Surface "matte"\nSphere 1 -1 1 360\nWorldEnd\n`;
    const shading = new RslShadingProvider();
    const frame = parseRibSync(rib).frames[0]!;
    const rendered = await renderFrame(gpu(), frame, { shading: shading.provide });
    expect(rendered.warnings).toContain('<input>:5:1: light "ambientlight" sets "shadowname" to "auto" but its kind (spot, distant or point, from the shader name) is unknown; that map is left out');
    expect(rendered.stats.shadowPasses?.map((p) => p.light)).toEqual(['2', '3']);
    expect(rendered.image.rgba.some((v) => v > 0)).toBe(true);
    // Moving one light makes its map only.
    const lights = frame.lights.map((l) => (l.handle === '3' ? { ...l, params: l.params.map((p) => (p.name === 'to' ? { ...p, values: [0, 0, 0] } : p)) } : l));
    const edited = await renderFrame(gpu(), { ...frame, lights }, { shading: shading.provide });
    expect(edited.stats.shadowPasses?.map((p) => [p.light, p.reused])).toEqual([['2', true], ['3', false]]);
    // A prepared frame (the page's): light 3 back where it was, then light 2 moved: each time only
    // the moved light's map is made, and the kept grids are shaded again.
    const prepared = await prepareFrame(gpu(), frame, { shading: shading.provide });
    expect(prepared.first.stats.shadowPasses?.map((p) => p.reused)).toEqual([true, false]);
    const back = await prepared.render({ ...frame, lights: lights.map((l, k) => (l.handle === '2' ? { ...l, params: l.params.map((p) => (p.name === 'from' ? { ...p, values: [0.2, 1, 0] } : p)) } : frame.lights[k]!)) });
    expect([back.stats.reuse, back.stats.shadowPasses?.map((p) => [p.light, p.reused])]).toEqual(['reused', [['2', false], ['3', true]]]);
    expect(Math.max(...back.image.rgba)).toBeGreaterThan(0);
    prepared.dispose();
    // Nothing at all to cast or receive.
    const empty = await renderFrame(gpu(), parseRibSync(`Format 16 16 1\nWorldBegin\nLightSource "shadowdistant" 1 "shadowname" "auto"\nWorldEnd\n`).frames[0]!);
    expect(empty.stats.shadowPasses).toMatchObject([{ light: '1', reused: false }]);
  }, 600_000);
});
