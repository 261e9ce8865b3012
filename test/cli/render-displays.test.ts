// `reyes render` writes every Display of every frame with the driver, mode and quantization the
// RIB asks for; each file is read back with a library other than the one that wrote it.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readExr, readPng, readTiff } from '../image/independent-readers.ts';
import { decodeTextureFile } from '../../src/texture/texture-file.ts';
import { reyes } from './run-reyes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A copy of a scene in a fresh folder, so its Displays land there. */
function sceneCopy(name: string): { dir: string; rib: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'reyes-displays-'));
  const rib = path.join(dir, name);
  copyFileSync(path.join(ROOT, 'scenes/features', name), rib);
  return { dir, rib };
}

/** The `wrote` lines of stdout, as [frame, file name]. */
function written(stdout: string): [string, string][] {
  return [...stdout.matchAll(/^(?:frame (\d+): )?(?:.*?)wrote (\S+) \(/gm)].map((m) => [m[1] ?? '', path.basename(m[2]!)]);
}

// Pixel 0 opaque, pixel 1 half covered (alpha exactly 1/2), pixels 2 and 3 empty; colour (1, 0.5, 0.25).
const ASSOCIATED = [1, 0.5, 0.25, 1, 0.5, 0.25, 0.125, 0.5, 0, 0, 0, 0, 0, 0, 0, 0];

describe('reyes render: Displays and frames', () => {
  it('renders the three frames of display-drivers.rib in order, each writing its own Displays in its own format', async () => {
    const { dir, rib } = sceneCopy('display-drivers.rib');
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    expect(written(result.stdout)).toEqual([
      ['1', 'edge.png'], ['1', 'edge.tif'], ['1', 'edge-half.exr'], ['1', 'edge-depth.z'],
      ['2', 'edge16.tif'], ['2', 'edge-float.exr'],
      ['3', 'edge-float.tif'], ['3', 'png-named.tif'], ['3', 'alpha.tif'],
    ]);
    const file = (name: string): Uint8Array => readFileSync(path.join(dir, name));

    // Frame 3, Quantize 0: float samples show the half-covered pixel's alpha exactly.
    const float = await readTiff(file('edge-float.tif'));
    expect(float).toMatchObject({ width: 4, height: 1, bitsPerSample: 32, sampleFormat: 3, samples: 4, extraSamples: 1 });
    expect(float.values).toEqual(ASSOCIATED);
    expect((await readTiff(file('alpha.tif'))).values).toEqual([1, 0.5, 0, 0]);

    // PNG: straight alpha, so the edge pixel holds the surface's colour, and over white it blends
    // between the colour and white (no dark fringe).
    const png = readPng(file('edge.png'));
    expect(png.values.slice(0, 8)).toEqual([255, 128, 64, 255, 255, 128, 64, 128]);
    expect(readPng(file('png-named.tif')).values).toEqual(png.values); // the "png" driver, whatever the name

    // TIFF: associated alpha (ExtraSamples 1), 8-bit in frame 1, 16-bit RGB in frame 2.
    const tiff8 = await readTiff(file('edge.tif'));
    expect(tiff8).toMatchObject({ bitsPerSample: 8, samples: 4, extraSamples: 1 });
    expect(tiff8.values).toEqual(ASSOCIATED.map((v) => Math.round(v * 255)));
    const tiff16 = await readTiff(file('edge16.tif'));
    expect(tiff16).toMatchObject({ bitsPerSample: 16, samples: 3 });
    expect(tiff16.values).toEqual(ASSOCIATED.filter((_, i) => i % 4 !== 3).map((v) => Math.round(v * 65535)));

    // EXR: half in frame 1, float (exrpixeltype) in frame 2; colour associated.
    const half = readExr(file('edge-half.exr'));
    expect(half.pixelTypes.R).toBe(1);
    expect(half.values).toEqual(ASSOCIATED);
    const exrFloat = readExr(file('edge-float.exr'));
    expect(exrFloat.pixelTypes.R).toBe(2);
    expect(exrFloat.values).toEqual(ASSOCIATED);

    // The zfile: an orthographic view of a square at z = 5.
    const depth = await readTiff(file('edge-depth.z'));
    expect(depth).toMatchObject({ bitsPerSample: 32, samples: 1, sampleFormat: 3 });
    expect(depth.values[0]).toBeCloseTo(5, 5);
    expect(depth.values[1]).toBeCloseTo(5, 5);
    expect(depth.values.slice(2)).toEqual([Infinity, Infinity]);
  });

  it('numbers -o per frame when there are several, and --frame k renders only frame k', async () => {
    const { dir, rib } = sceneCopy('display-drivers.rib');
    const all = await reyes(['render', rib, '-o', path.join(dir, 'out.tif')]);
    expect(all.code, all.stderr).toBe(0);
    expect(written(all.stdout)).toEqual([['1', 'out.0001.tif'], ['2', 'out.0002.tif'], ['3', 'out.0003.tif']]);
    expect(existsSync(path.join(dir, 'edge.png'))).toBe(false); // -o replaces the Displays
    // Each frame's own Quantize: 8-bit, 16-bit, float.
    const bits = await Promise.all([1, 2, 3].map(async (k) => (await readTiff(readFileSync(path.join(dir, `out.000${k}.tif`)))).bitsPerSample));
    expect(bits).toEqual([8, 16, 32]);

    const one = await reyes(['render', rib, '--frame', '1', '-o', path.join(dir, 'second.exr')]);
    expect(one.code, one.stderr).toBe(0);
    expect(written(one.stdout)).toEqual([['', 'second.exr']]);
    expect(readExr(readFileSync(path.join(dir, 'second.exr'))).values).toEqual(ASSOCIATED);
    const missing = await reyes(['render', rib, '--frame', '3']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('has 3 frame(s); there is no frame 3');
  });

  it('warns when a frame writes over a file an earlier frame wrote', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-displays-'));
    const rib = path.join(dir, 'same-name.rib');
    const frame = (n: number): string => `FrameBegin ${n}\nFormat 8 6 1\nPixelSamples 1 1\nDisplay "same.png" "png" "rgba"\nWorldBegin\nWorldEnd\nFrameEnd\n`;
    writeFileSync(rib, frame(1) + frame(2));
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`frame 2: warning: ${path.join(dir, 'same.png')} replaces the file frame 1 wrote there`);
  });

  it('writes frame 1\'s depth map before frame 2 starts', async () => {
    const { dir, rib } = sceneCopy('frames-depth-map.rib');
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    // MakeShadow runs before frame 2, on the depth map (with its camera) frame 1 wrote.
    expect(written(result.stdout)).toEqual([['1', 'frames-depth-map.z'], ['2', 'frames-depth-map.shd'], ['2', 'frames-depth-map.png']]);
    const shadow = decodeTextureFile(readFileSync(path.join(dir, 'frames-depth-map.shd')));
    expect([shadow.kind, shadow.levels[0]!.width, shadow.worldToCamera?.length, shadow.worldToScreen?.length]).toEqual(['shadow', 64, 16, 16]);
    const depth = await readTiff(readFileSync(path.join(dir, 'frames-depth-map.z')));
    expect([depth.width, depth.height, depth.samples, depth.sampleFormat]).toEqual([64, 64, 1, 3]);
    // From the light: the unit sphere at z = 4 in the middle (nearest point at depth 3), the wall
    // at z = 8 in the corners.
    expect(depth.values[32 * 64 + 32]).toBeGreaterThan(2.999);
    expect(depth.values[32 * 64 + 32]).toBeLessThan(3.01);
    expect(depth.values[0]).toBeCloseTo(8, 4);
    expect(depth.values[64 * 64 - 1]).toBeCloseTo(8, 4);
    for (const d of depth.values) expect(d >= 2.999 && d <= 8.0001).toBe(true);
  });

  it('writes a "framebuffer" display as a PNG beside the scene and says so', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-displays-'));
    const rib = path.join(dir, 'fb.rib');
    writeFileSync(rib, `Display "window.tif" "framebuffer" "rgb"\n${readFileSync(path.join(ROOT, 'scenes/features/sphere-default.rib'), 'utf8')}`);
    const result = await reyes(['render', rib, '--res', '16x12', '--samples', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`framebuffer display "window.tif": no window here; wrote ${path.join(dir, 'window.png')} (8-bit RGB PNG)`);
    const png = readPng(readFileSync(path.join(dir, 'window.png')));
    expect([png.width, png.height, png.channels]).toEqual([16, 12, 3]);
  });
});
