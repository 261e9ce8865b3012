// The texture tile pool at work: a plane carrying a 1024² RGB map, seen at a slant, rendered with a
// pool that holds every tile, with one that holds a quarter of them (the map 4× the pool), and
// untextured. Each is rendered once to compile its kernels, then timed. Prints frame time, shade
// time, filtered lookups per second of shade time, tile misses, grids shaded again and uploads.
// Then the filter's quality: a checkerboard plane at grazing angles (test/texture/grazing-checker.ts)
// against EWA per band of angle from the normal, for the anisotropic filter and for trilinear alone.
// Last, the depth pass of each "auto" shadow map at three map sizes.
// Usage: node --import ./src/node/register.js bench/texture.bench.ts [--res 160x120] [--size 1024]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { acquireGpu, adapterLabel } from '../src/gpu/device.ts';
import { GpuRuntime } from '../src/gpu/runtime.ts';
import { TILE } from '../src/layout/texture-pages.ts';
import { renderFrame } from '../src/reyes/render-frame.ts';
import { RslShadingProvider } from '../src/reyes/shading/rsl-provider.ts';
import type { FrameStats } from '../src/reyes/stats.ts';
import { parseRibSync } from '../src/rib/index.ts';
import type { Frame } from '../src/rib/scene.ts';
import { buildPyramid } from '../src/texture/mipmap.ts';
import { encodeTextureFile } from '../src/texture/texture-file.ts';
import { TextureRegistry } from '../src/texture/texture-registry.ts';
import { memoryTextureStorage } from '../src/texture/texture-storage.ts';
import { bandErrors, ewaPicture, HEIGHT, renderGrazing, WIDTH } from '../test/texture/grazing-checker.ts';

const { values: options } = parseArgs({ options: { res: { type: 'string', default: '160x120' }, size: { type: 'string', default: '1024' } } });
const [width, height] = options.res.split('x').map(Number) as [number, number];
const size = Number(options.size);

const data = new Float32Array(size * size * 3);
for (let y = 0; y < size; y++) {
  for (let x = 0; x < size; x++) {
    const k = (y * size + x) * 3;
    data[k] = ((x >> 4) + (y >> 4)) % 2;
    data[k + 1] = 0.5 + 0.5 * Math.sin(x * 0.11) * Math.cos(y * 0.07);
    data[k + 2] = (x ^ y) / size;
  }
}
const mip = { filter: 'box', swidth: 1, twidth: 1, swrap: 'periodic', twrap: 'periodic' } as const;
const file = encodeTextureFile({ kind: 'texture', channels: 3, levels: buildPyramid({ width: size, height: size, data }, 3, mip), ...mip });

const scene = (option: string, surface: string): string => `${option}
Format ${width} ${height} 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 2.5
WorldBegin
LightSource "distantlight" 1 "from" [0 0 -1] "to" [0 0 0]
LightSource "ambientlight" 2 "intensity" [0.3]
Surface ${surface}
Rotate -60 1 0 0
Patch "bilinear" "P" [-3 3 0  3 3 0  -3 -3 0  3 -3 0]
WorldEnd
`;

const gpu = new GpuRuntime(await acquireGpu());

async function timed(option: string, surface: string): Promise<FrameStats> {
  const render = async (): Promise<FrameStats> => {
    gpu.allocator.trim();
    const textures = new TextureRegistry(memoryTextureStorage(new Map([['map.tex', file]])));
    return (await renderFrame(gpu, parseRibSync(scene(option, surface)).frames[0]!, { shading: new RslShadingProvider({ textures }).provide })).stats;
  };
  await render();
  return render();
}

const textured = '"paintedplastic" "texturename" "map.tex"';
const whole = await timed('', textured);
const quarterKiB = Math.floor((whole.textures.mapTiles / 4) * TILE.words * 4 / 1024);
const runs: [string, FrameStats][] = [
  ['textured, every tile resident', whole],
  [`textured, pool of a quarter of the tiles (${quarterKiB} KiB)`, await timed(`Option "limits" "texturememory" [${quarterKiB}]`, textured)],
  ['untextured', await timed('', '"paintedplastic"')],
];
console.log(`texture ${size}² RGB (${whole.textures.mapTiles} tiles of ${TILE.words * 4 / 1024} KiB), ${width}×${height}, ${adapterLabel(gpu.context.adapter)}`);
for (const [name, stats] of runs) {
  const t = stats.textures;
  const perSecond = stats.stageMs.shade > 0 ? (t.lookups / stats.stageMs.shade) * 1000 : 0;
  console.log(`${name}: frame ${stats.totalMs.toFixed(0)} ms, shade ${stats.stageMs.shade.toFixed(0)} ms; ${t.lookups} lookups (${(perSecond / 1e6).toFixed(2)} M/s of shade time); pool ${t.poolTiles} tiles; ${t.tileMisses} tile misses, ${t.reshadedGrids} grids shaded again in ${t.extraPasses} extra passes, ${t.tilesUploaded} tiles uploaded (${(t.bytesUploaded / 2 ** 20).toFixed(1)} MiB); peak ${(stats.peakBytes / 2 ** 20).toFixed(1)} MiB`);
}

const reference = ewaPicture();
console.log(`checker at grazing angles vs EWA, ${WIDTH}×${HEIGHT}, 4×4 samples, box 1 1 (|error| mean / max; contrast |value − ½| kept, EWA's in brackets):`);
for (const [name, options] of [['anisotropic (16 probes)', ''], ['trilinear ("samples" 1)', ', "samples", 1']] as const) {
  const bands = bandErrors(await renderGrazing(gpu, options), reference);
  console.log(`  ${name}: ${bands.map((b) => `${b.band[0]}–${b.band[1]}° ${b.mean.toFixed(3)} / ${b.max.toFixed(2)}, contrast ${b.contrast.toFixed(2)} (${b.ewaContrast.toFixed(2)})`).join('; ')}`);
}

// "auto" shadow maps: scenes/features/shadow-auto.rib (a spotlight and a distant light) with both
// maps at each size; each frame parsed afresh (new geometry) so every map is made, timed after a
// first render that compiles the kernels.
const shadowScene = readFileSync(new URL('../scenes/features/shadow-auto.rib', import.meta.url), 'utf8');
console.log('"auto" shadow maps (scenes/features/shadow-auto.rib, 96×72): depth pass per light');
for (const mapSize of [256, 512, 1024]) {
  const frame = (): Frame => parseRibSync(shadowScene.replace(/"shadowmapsize" \[\d+\]/g, `"shadowmapsize" [${mapSize}]`)).frames[0]!;
  const shading = new RslShadingProvider().provide;
  await renderFrame(gpu, frame(), { shading });
  const stats = (await renderFrame(gpu, frame(), { shading })).stats;
  const passes = stats.shadowPasses!.map((p) => `light ${p.light} ${p.ms.toFixed(0)} ms`).join(', ');
  console.log(`  ${mapSize}²: ${passes}; the frame itself ${stats.totalMs.toFixed(0)} ms`);
}
gpu.context.destroy();
