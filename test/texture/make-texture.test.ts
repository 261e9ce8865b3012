// MakeTexture and MakeLatLongEnvironment run: a picture (PNG or TIFF) becomes a tiled TIFF with one
// directory per mip level, read back here with geotiff (the writer is UTIF), and the wrap modes,
// filter and kind come back through the renderer's own reader.
import { fromArrayBuffer } from 'geotiff';
import { encode as encodePng } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { encodeTiff } from '../../src/image/tiff.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { runTextureRequests, texturesBetween } from '../../src/texture/make-textures.ts';
import { decodeTextureFile } from '../../src/texture/texture-file.ts';
import { memoryTextureStorage } from '../../src/texture/texture-storage.ts';

/** A width × height RGB picture whose texel (x, y) is (x, y, x + y) × 10 (8-bit). */
function rampPixels(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x * 10, y * 10, (x + y) * 10], (y * width + x) * 3);
  return data;
}

function run(rib: string, files: Map<string, Uint8Array>) {
  const scene = parseRibSync(rib, { fileName: 'scene.rib' });
  expect(scene.errors).toEqual([]);
  return { scene, made: runTextureRequests(texturesBetween(scene, 0, scene.frames.length), memoryTextureStorage(files)) };
}

async function geotiffLevels(bytes: Uint8Array) {
  const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const levels = [];
  for (let k = 0; k < (await tiff.getImageCount()); k++) {
    const image = await tiff.getImage(k);
    levels.push({
      width: image.getWidth(), height: image.getHeight(), tileWidth: image.getTileWidth(), tiled: image.isTiled,
      values: Array.from((await image.readRasters({ interleave: true })) as unknown as ArrayLike<number>),
    });
  }
  return levels;
}

describe('MakeTexture', () => {
  it('writes a tiled TIFF with a directory per mip level; box 1 1 averages each 2×2 block', async () => {
    const files = new Map([['ramp.png', encodePng({ width: 40, height: 6, data: rampPixels(40, 6), channels: 3, depth: 8 })]]);
    const { scene, made } = run('MakeTexture "ramp.png" "ramp.tex" "periodic" "clamp" "box" 1 1\nWorldBegin\nWorldEnd\n', files);
    expect(scene.warnings).toEqual([]);
    expect(made.warnings).toEqual([]);
    expect(made.written).toEqual(['ramp.tex']);
    const levels = await geotiffLevels(files.get('ramp.tex')!);
    expect(levels.map((l) => [l.width, l.height])).toEqual([[40, 6], [20, 3], [10, 2], [5, 1], [3, 1], [2, 1], [1, 1]]);
    expect(levels.every((l) => l.tiled && l.tileWidth === 32)).toBe(true);
    // Level 0: the picture's texels, as floats.
    const texel = (level: (typeof levels)[number], x: number, y: number) => level.values.slice((y * level.width + x) * 3, (y * level.width + x) * 3 + 3);
    expect(levels[0]!.values.map((v) => Math.round(v * 255))).toEqual(Array.from(rampPixels(40, 6)));
    // Level 1 texel (x, y) averages level-0 texels 2x..2x+1, 2y..2y+1: ((2x + .5) × 10, (2y + .5) × 10, ...).
    const [r, g] = texel(levels[1]!, 3, 1);
    expect(r! * 255).toBeCloseTo(65, 4);
    expect(g! * 255).toBeCloseTo(25, 4);
    const map = decodeTextureFile(files.get('ramp.tex')!);
    expect([map.kind, map.swrap, map.twrap, map.filter, map.swidth, map.twidth, map.channels]).toEqual(['texture', 'periodic', 'clamp', 'box', 1, 1, 3]);
  });

  it('reads 16-bit and float TIFF pictures', () => {
    const files = new Map([
      ['w16.tif', encodeTiff({ width: 2, height: 2, samples: 1, data: Uint16Array.of(0, 65535, 32768, 16384) })],
      ['f32.tif', encodeTiff({ width: 2, height: 1, samples: 3, data: Float32Array.of(0.25, 2.5, -1, 7, 8, 9) })],
    ]);
    const { made } = run('MakeTexture "w16.tif" "w16.tex" "black" "black" "box" 1 1\nMakeTexture "f32.tif" "f32.tex" "clamp" "clamp" "gaussian" 2 2\n', files);
    expect(made.warnings).toEqual([]);
    const w16 = decodeTextureFile(files.get('w16.tex')!);
    expect(Array.from(w16.levels[0]!.data)).toEqual([0, 1, 32768 / 65535, 16384 / 65535].map(Math.fround));
    expect(w16.levels[1]!.data[0]).toBeCloseTo((1 + 32768 / 65535 + 16384 / 65535) / 4, 6);
    const f32 = decodeTextureFile(files.get('f32.tex')!);
    expect(Array.from(f32.levels[0]!.data)).toEqual([0.25, 2.5, -1, 7, 8, 9]);
    // Clamped edges and a symmetric filter: the 1×1 level is the mean of the two texels.
    expect(Array.from(f32.levels[1]!.data)).toEqual([3.625, 5.25, 4]);
    expect([f32.filter, f32.swidth, f32.twidth]).toEqual(['gaussian', 2, 2]);
  });

  it('MakeLatLongEnvironment records a lat-long map that wraps in longitude', () => {
    const files = new Map([['sky.png', encodePng({ width: 4, height: 2, data: rampPixels(4, 2), channels: 3, depth: 8 })]]);
    const { made } = run('MakeLatLongEnvironment "sky.png" "sky.env" "box" 1 1\n', files);
    expect(made.warnings).toEqual([]);
    const map = decodeTextureFile(files.get('sky.env')!);
    expect([map.kind, map.swrap, map.twrap]).toEqual(['latlong', 'periodic', 'clamp']);
  });

  it('finds pictures through Option "searchpath" "texture" and refuses names that leave the scene folder', () => {
    const files = new Map([['maps/a.png', encodePng({ width: 1, height: 1, data: Uint8Array.of(255, 0, 0), channels: 3, depth: 8 })]]);
    const { made } = run([
      'Option "searchpath" "texture" ["maps:@"]',
      'MakeTexture "a.png" "a.tex" "clamp" "clamp" "box" 1 1',
      'MakeTexture "../secret.png" "b.tex" "clamp" "clamp" "box" 1 1',
      'MakeTexture "missing.png" "c.tex" "clamp" "clamp" "box" 1 1',
    ].join('\n'), files);
    expect(made.written).toEqual(['a.tex']);
    expect(made.warnings.map((w) => [w.file, w.line, w.column, w.request, w.message])).toEqual([
      ['scene.rib', 3, 1, 'MakeTexture', expect.stringContaining('picture "../secret.png" not found')],
      ['scene.rib', 4, 1, 'MakeTexture', 'picture "missing.png" not found (looked in "maps/missing.png", "missing.png"); "c.tex" is not made'],
    ]);
    expect(made.warnings[0]!.message).toContain('"../secret.png" is outside the scene\'s folder and the texture search path');
  });

  it('warns at the request for a bad wrap mode or filter and for a picture it cannot read', () => {
    const files = new Map([['a.png', encodePng({ width: 1, height: 1, data: Uint8Array.of(9), channels: 1, depth: 8 })], ['bad.png', Uint8Array.of(1, 2, 3)]]);
    const { made } = run('MakeTexture "a.png" "a.tex" "mirror" "clamp" "lanczos" 1 1\nMakeTexture "bad.png" "b.tex" "clamp" "clamp" "box" 1 1\n', files);
    expect(made.warnings.map((w) => `${w.line}:${w.column} ${w.message}`)).toEqual([
      '1:1 wrap mode "mirror" is not one of periodic, clamp, black; using black',
      '1:1 filter "lanczos" is not one of box, triangle, catmull-rom, gaussian, sinc; using box',
      '2:1 cannot read "bad.png": not a TIFF or PNG picture; "b.tex" is not made',
    ]);
    expect(decodeTextureFile(files.get('a.tex')!).levels[0]!.data[0]).toBeCloseTo(9 / 255, 7);
  });
});
