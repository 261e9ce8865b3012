// Cube-face environment maps: MakeCubeFaceEnvironment turns six face pictures into a tiled TIFF
// (a 3 × 2 grid of the faces per mip level: px py pz / nx ny nz, read back with geotiff), and
// environment() on the GPU picks the face of the direction's largest component and looks it up at
// (s, t) as RI 3.2 orients the face pictures (forward, up, right):
//   px +x +y -z   nx -x +y +z   py +y -z +x   ny -y +z +x   pz +z +y +x   nz -z +y -x
// s = ½ + ½ cot(fov/2) (d·right)/(d·forward), t = ½ - ½ cot(fov/2) (d·up)/(d·forward).
// Aqsis 1.8.4 agrees: the same six 16×16 gradient faces made into a cube map by its
// MakeCubeFaceEnvironment and looked up in twelve directions (two per face, fov 90 and 120) gave
// (s, t) within its 8-bit quantisation (1/255) of this formula, e.g. (1, 0.3, -0.2) → px at
// (0.598, 0.348), expected (0.6, 0.35); (0.3, -0.2, -1) → nz at (0.348, 0.598), expected
// (0.35, 0.6). Its file lays the faces out in the same grid.
import { encode as encodePng } from 'fast-png';
import { fromArrayBuffer } from 'geotiff';
import { describe, expect, it } from 'vitest';
import { encodeTiff } from '../../src/image/tiff.ts';
import { TILE } from '../../src/layout/texture-pages.ts';
import { renderFrame } from '../../src/reyes/render-frame.ts';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { runTextureRequests, texturesBetween } from '../../src/texture/make-textures.ts';
import { packAtlas } from '../../src/texture/texture-atlas.ts';
import { decodeTextureFile } from '../../src/texture/texture-file.ts';
import { TextureRegistry } from '../../src/texture/texture-registry.ts';
import { CUBE_FACES, type TextureMap } from '../../src/texture/texture-map.ts';
import { memoryTextureStorage } from '../../src/texture/texture-storage.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { shadeGrid } from '../rsl/grid-runner.ts';

const runtime = useGpuRuntime();

type Vec3 = [number, number, number];
/** Forward, up and right of each face picture (RI 3.2, MakeCubeFaceEnvironment). */
const FRAMES: Record<(typeof CUBE_FACES)[number], [Vec3, Vec3, Vec3]> = {
  px: [[1, 0, 0], [0, 1, 0], [0, 0, -1]], nx: [[-1, 0, 0], [0, 1, 0], [0, 0, 1]],
  py: [[0, 1, 0], [0, 0, -1], [1, 0, 0]], ny: [[0, -1, 0], [0, 0, 1], [1, 0, 0]],
  pz: [[0, 0, 1], [0, 1, 0], [1, 0, 0]], nz: [[0, 0, -1], [0, 1, 0], [-1, 0, 0]],
};
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** The face and (s, t) of direction d by the spec's table. */
function faceSt(d: Vec3, fov: number): { face: number; s: number; t: number } {
  const face = CUBE_FACES.findIndex((name) => dot(d, FRAMES[name][0]) >= Math.max(...d.map(Math.abs)));
  const [forward, up, right] = FRAMES[CUBE_FACES[face]!];
  const k = 1 / Math.tan((fov * Math.PI) / 360);
  return { face, s: 0.5 + (0.5 * k * dot(d, right)) / dot(d, forward), t: 0.5 - (0.5 * k * dot(d, up)) / dot(d, forward) };
}

/** Six n × n float TIFF faces, texel (x, y) of face f the colour texel(f, x, y). */
function faceFiles(n: number, texel: (f: number, x: number, y: number) => Vec3): Map<string, Uint8Array> {
  return new Map(CUBE_FACES.map((name, f) => {
    const data = new Float32Array(n * n * 3);
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) data.set(texel(f, x, y), (y * n + x) * 3);
    return [`${name}.tif`, encodeTiff({ width: n, height: n, samples: 3, data })];
  }));
}

function makeCube(files: Map<string, Uint8Array>, fov = 90, faces: readonly string[] = CUBE_FACES.map((f) => `${f}.tif`)) {
  const rib = `\nMakeCubeFaceEnvironment ${faces.map((f) => `"${f}"`).join(' ')} "cube.env" ${fov} "box" 1 1\n`;
  const scene = parseRibSync(rib, { fileName: 'scene.rib' });
  expect(scene.errors).toEqual([]);
  return runTextureRequests(texturesBetween(scene, 0, scene.frames.length), memoryTextureStorage(files));
}

/** Shades a grid whose vertices' N are `directions` (the surface's own code reads them). */
async function lookUp(source: string, map: TextureMap, directions: Vec3[], grid?: { nu: number; nv: number; s: number[][]; t: number[][] }) {
  const nu = grid?.nu ?? directions.length;
  const nv = grid?.nv ?? 1;
  const compiled = compilePipeline({ surface: { source, file: 'cube.sl' }, maxVertices: nu * nv });
  const all = [...Array(nu * nv).keys()];
  const values = {
    u: all.map((k) => [k % nu]), v: all.map((k) => [Math.floor(k / nu)]), du: all.map(() => [1]), dv: all.map(() => [1]),
    s: grid?.s ?? all.map(() => [0]), t: grid?.t ?? all.map(() => [0]),
    N: all.map((k) => directions[k] ?? [0, 0, 1]), I: all.map(() => [0, 0, 1]), Cs: all.map(() => [1, 1, 1]), Os: all.map(() => [1, 1, 1]),
  };
  return shadeGrid(runtime(), compiled, nu, nv, values, {}, { textureSlot: (name) => (name === 'cube.env' ? 0 : -1), textures: packAtlas([map]) });
}

const COLOURS: Vec3[] = [[1, 0, 0], [0, 1, 1], [0, 1, 0], [1, 0, 1], [0, 0, 1], [1, 1, 0]];
const AXES: Vec3[] = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];

describe('MakeCubeFaceEnvironment', () => {
  it('writes a tiled TIFF, a directory per level, each a 3 × 2 grid of the faces (px py pz / nx ny nz)', async () => {
    const files = new Map(CUBE_FACES.map((name, f) => {
      const data = new Uint8Array(8 * 8 * 3);
      for (let k = 0; k < 64; k++) data.set(COLOURS[f]!.map((c) => c * 255), k * 3);
      return [`${name}.png`, encodePng({ width: 8, height: 8, data, channels: 3, depth: 8 })];
    }));
    const made = makeCube(files, 95, CUBE_FACES.map((f) => `${f}.png`));
    expect(made.warnings).toEqual([]);
    expect(made.written).toEqual(['cube.env']);
    const bytes = files.get('cube.env')!;
    const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    // Faces 8, 4, 2, 1 texels square.
    expect(await tiff.getImageCount()).toBe(4);
    for (let k = 0; k < 4; k++) {
      const image = await tiff.getImage(k);
      const n = 8 >> k;
      expect([image.getWidth(), image.getHeight(), image.isTiled, image.getTileWidth()]).toEqual([3 * n, 2 * n, true, 32]);
      const values = Array.from((await image.readRasters({ interleave: true })) as unknown as ArrayLike<number>);
      // Each grid cell is its face's colour, at every level (faces never bleed into each other).
      for (let f = 0; f < 6; f++) {
        for (const [x, y] of [[0, 0], [n - 1, n - 1]] as const) {
          const at = ((((f & 1) * n + y) * 3 * n) + (f >> 1) * n + x) * 3;
          expect(values.slice(at, at + 3)).toEqual(COLOURS[f]);
        }
      }
      // The kind and face layout in the tags: PixarTextureFormat, ImageDescription, PixarFovCot.
      expect(String(await image.fileDirectory.loadValue(33302))).toMatch(/^CubeFace Environment/);
      expect(String(await image.fileDirectory.loadValue('ImageDescription'))).toMatch(/ faces=px,py,pz\/nx,ny,nz fov=95\0?$/);
      expect(Number(await image.fileDirectory.loadValue(33304))).toBeCloseTo(1 / Math.tan((95 * Math.PI) / 360), 12);
    }
    const map = decodeTextureFile(bytes);
    expect([map.kind, map.fov, map.channels, map.levels.length]).toEqual(['cube', 95, 3, 4]);
  });

  it('a missing or unreadable face, faces of different sizes and a bad fov are one positioned warning each', () => {
    const files = faceFiles(4, () => [0, 0, 0]);
    files.delete('ny.tif');
    const missing = makeCube(files);
    expect(missing.written).toEqual([]);
    expect(missing.warnings.map((w) => [w.file, w.line, w.column, w.request, w.message])).toEqual([
      ['scene.rib', 2, 1, 'MakeCubeFaceEnvironment', 'ny face "ny.tif" not found (looked in "ny.tif"); "cube.env" is not made'],
    ]);
    files.set('ny.tif', Uint8Array.of(1, 2, 3));
    expect(makeCube(files).warnings.map((w) => w.message)).toEqual(['cannot read "ny.tif" (ny face): not a TIFF or PNG picture; "cube.env" is not made']);
    files.set('ny.tif', faceFiles(2, () => [0, 0, 0]).get('px.tif')!);
    expect(makeCube(files).warnings.map((w) => w.message)).toEqual(['the ny face is 2×2; every face must be square and the size of the px face (4×4); "cube.env" is not made']);
    files.set('ny.tif', files.get('px.tif')!);
    const badFov = makeCube(files, 190);
    expect(badFov.warnings.map((w) => w.message)).toEqual(['fov 190 is not between 0 and 180 degrees; using 90']);
    expect(decodeTextureFile(files.get('cube.env')!).fov).toBe(90);
  });
});

describe('environment() on a cube-face map, on the GPU', () => {
  it('returns each face\'s colour for ±x, ±y, ±z and near each face\'s centre; a missing map gives the fill', async () => {
    const files = faceFiles(8, (f) => COLOURS[f]!);
    expect(makeCube(files).warnings).toEqual([]);
    const map = decodeTextureFile(files.get('cube.env')!);
    const near: Vec3[] = AXES.map(([x, y, z]) => [x + 0.03 * (y + z) + 0.01, y - 0.02 * (x + z) + 0.01, z + 0.04 * (x - y) - 0.01]);
    const source = 'surface t() { Ci = color environment("cube.env", N, N, N, N); Oi = color environment("none.env", N, "fill", 0.25); }';
    const out = await lookUp(source, map, [...AXES, ...near]);
    expect(out['Ci']).toEqual([...COLOURS, ...COLOURS]);
    expect(out['Oi']).toEqual(new Array(12).fill([0.25, 0.25, 0.25]));
  }, 120_000);

  it('a gradient face gives the texel in the looked-up direction within 1e-3 (fov 90 and 120)', async () => {
    // Texel centres hold their own (s, t): bilinear lookups between them give (s, t) back.
    const files = faceFiles(16, (f, x, y) => [(x + 0.5) / 16, (y + 0.5) / 16, (f + 1) / 8]);
    const directions: Vec3[] = [
      [1, 0.3, -0.2], [-1, 0.3, -0.2], [0.3, 1, -0.2], [0.3, -1, -0.2], [0.3, -0.2, 1], [0.3, -0.2, -1],
      [1, -0.4, 0.1], [-1, -0.4, 0.1], [-0.4, 1, 0.1], [-0.4, -1, 0.1], [-0.4, 0.1, 1], [-0.4, 0.1, -1],
      [-0.7, 0.5, 0.9], [0.2, -0.85, 0.6],
    ];
    for (const fov of [90, 120]) {
      expect(makeCube(files, fov).warnings).toEqual([]);
      const out = await lookUp('surface t() { Ci = color environment("cube.env", N, N, N, N); }', decodeTextureFile(files.get('cube.env')!), directions);
      directions.forEach((d, k) => {
        const { face, s, t } = faceSt(d, fov);
        const got = out['Ci']![k]!;
        expect(got[2], `face of ${d.join(' ')}`).toBeCloseTo((face + 1) / 8, 6);
        expect(Math.abs(got[0]! - s), `s of ${d.join(' ')} (fov ${fov})`).toBeLessThan(1e-3);
        expect(Math.abs(got[1]! - t), `t of ${d.join(' ')} (fov ${fov})`).toBeLessThan(1e-3);
      });
    }
  }, 120_000);

  it('filters over the directions\' change across the grid: one texel per micropolygon reads level 0, two read level 1; blur widens', async () => {
    // pz: a one-texel checker in red, green and blue ramps (so level 1 differs from level 0).
    const files = faceFiles(8, (f, x, y) => (f === 4 ? [(x + y) % 2, x / 8, y / 8] : [0.5, 0.5, 0.5]));
    expect(makeCube(files).warnings).toEqual([]);
    const map = decodeTextureFile(files.get('cube.env')!);
    // Vertex (i, j) looks at pz's (s, t) = ((i + ½) step, (j + ½) step) / 8: d = (2s - 1, 1 - 2t, 1).
    const source = `surface t() {
      vector d = vector(2 * s - 1, 1 - 2 * t, 1);
      Ci = color environment("cube.env", d);
      Oi = color environment("cube.env", d, "blur", 0.5);
    }`;
    for (const step of [1, 2]) {
      const all = [...Array(16).keys()];
      const s = all.map((k) => [((k % 4) + 0.5) * step / 8]);
      const t = all.map((k) => [(Math.floor(k / 4) + 0.5) * step / 8]);
      const out = await lookUp(source, map, [], { nu: 4, nv: 4, s, t });
      const level = map.levels[step - 1]!;
      const n = 8 / step;
      // pz is column 2, row 0 of the grid.
      expect(out['Ci']).toEqual(all.map((k) => {
        const at = (Math.floor(k / 4) * level.width + 2 * n + (k % 4)) * 3;
        return Array.from(level.data.subarray(at, at + 3));
      }));
      // Half the face's width of blur reads a coarse level: near the face's mean red (½).
      for (const c of out['Oi']!) expect(Math.abs(c[0]! - 0.5)).toBeLessThan(0.1);
    }
  }, 120_000);
});

describe('a cube-face map through the texture tile pool', () => {
  it('renders the same reflective sphere with a pool of six tiles as with every tile resident', async () => {
    // 32×32 faces: level 0 is 96×64, six 32-texel tiles; 12 tiles in all levels.
    const files = faceFiles(32, (f, x, y) => [((x >> 2) + (y >> 2)) % 2, (f + 1) / 6, (x + y) / 64]);
    expect(makeCube(files).warnings).toEqual([]);
    const scene = (options: string): string => `${options}
Format 48 36 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 5
WorldBegin
Surface "shinymetal" "texturename" "cube.env" "Ka" 0 "Ks" 0 "Kr" 1
Sphere 1.6 -1.6 1.6 360
WorldEnd
`;
    const render = (options: string) => renderFrame(runtime(), parseRibSync(scene(options)).frames[0]!, {
      shading: new RslShadingProvider({ textures: new TextureRegistry(memoryTextureStorage(files)) }).provide,
    });
    const whole = await render('');
    const tiny = await render(`Option "limits" "texturememory" [${(6 * TILE.words * 4) / 1024}]`);
    expect(whole.stats.textures).toMatchObject({ mapTiles: 12, poolTiles: 12, tileMisses: 0 });
    expect(tiny.stats.textures).toMatchObject({ mapTiles: 12, poolTiles: 6 });
    expect(tiny.stats.textures.tileMisses).toBeGreaterThan(0);
    expect(tiny.stats.textures.reshadedGrids).toBeGreaterThan(0);
    expect(tiny.stats.warnings).toEqual([]);
    let most = 0;
    for (let k = 0; k < whole.image.rgba.length; k++) most = Math.max(most, Math.abs(tiny.image.rgba[k]! - whole.image.rgba[k]!));
    expect(most).toBeLessThanOrEqual(1 / 255);
    // Every face shows: green (the face code) takes six values over the sphere.
    const greens = new Set<number>();
    for (let k = 0; k < 48 * 36; k++) if (whole.image.rgba[k * 4 + 3]! === 1) greens.add(Math.round(whole.image.rgba[k * 4 + 1]! * 6));
    expect([...greens].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  }, 300_000);
});
