// `reyes render`: output files, statistics and exit statuses.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../../src/image/png.ts';
import { readTiff } from '../image/independent-readers.ts';
import { reyes } from '../cli/run-reyes.ts';
import { ROOT } from './render-helpers.ts';


describe('reyes render', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reyes-render-'));
  const scene = path.join(ROOT, 'scenes/features/sphere-default.rib');

  it('writes the PNG at --res and the statistics', async () => {
    const out = path.join(dir, 'out.png');
    const stats = path.join(dir, 'stats.json');
    const result = await reyes(['render', scene, '-o', out, '--res', '40x30', '--samples', '1', '--stats', stats]);
    expect(result.code, result.stderr).toBe(0);
    const image = decodePng(readFileSync(out));
    expect([image.width, image.height]).toEqual([40, 30]);
    const s = JSON.parse(readFileSync(stats, 'utf8'));
    expect(s.resolution).toEqual([40, 30]);
    expect(s.grids).toBeGreaterThan(0);
    expect(s.micropolygons).toBeGreaterThan(0);
    expect(s.peakBytes).toBeGreaterThan(0);
    expect(Object.keys(s.stageMs)).toEqual(['convert', 'boundSplit', 'dice', 'shade', 'sample', 'composite', 'filter', 'imager']);
    // GPU time per stage (timestamp queries) next to the wall times.
    expect(Object.keys(s.stageGpuMs)).toEqual(Object.keys(s.stageMs));
    for (const stage of ['boundSplit', 'dice', 'shade', 'sample', 'filter']) expect(s.stageGpuMs[stage], stage).toBeGreaterThan(0);
  });

  it('exits 4 on bad arguments, 1 on a missing scene, 3 on a budget too small', async () => {
    expect((await reyes(['render', scene, '--res', 'big'])).code).toBe(4);
    const missing = await reyes(['render', path.join(dir, 'nope.rib'), '-o', path.join(dir, 'x.png')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read');
    const tiny = await reyes(['render', scene, '-o', path.join(dir, 't.png'), '--budget', '0.05']);
    expect(tiny.code, tiny.stderr).toBe(3);
    expect(tiny.stderr).toMatch(/budget/);
  });

  it('writes the scene\'s Display without -o, and says so', async () => {
    const rib = path.join(dir, 'display.rib');
    writeFileSync(rib, `Display "shown.png" "png" "rgba"\n${readFileSync(scene, 'utf8')}`);
    const result = await reyes(['render', rib, '--res', '16x12', '--samples', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(decodePng(readFileSync(path.join(dir, 'shown.png'))).width).toBe(16);
    expect(result.stdout).toContain(`wrote ${path.join(dir, 'shown.png')} (8-bit RGBA PNG)`);
  });

  it('writes camera-space depth as a float TIFF for Display modes with z and for --depth', async () => {
    const rib = path.join(dir, 'depth.rib');
    const body = readFileSync(scene, 'utf8');
    writeFileSync(rib, `Display "colour.png" "png" "rgbaz"\nDisplay "+zonly.tif" "file" "z"\n${body}`);
    const result = await reyes(['render', rib, '--samples', '1', '--depth', path.join(dir, 'flag.tif')]);
    expect(result.code, result.stderr).toBe(0);
    expect(decodePng(readFileSync(path.join(dir, 'colour.png'))).width).toBe(80);
    expect(existsSync(path.join(dir, 'zonly.tif')), result.stdout + result.stderr).toBe(true);
    const fromMode = readFileSync(path.join(dir, 'colour.z.tif'));
    expect(readFileSync(path.join(dir, 'zonly.tif')).equals(fromMode)).toBe(true);
    expect(readFileSync(path.join(dir, 'flag.tif')).equals(fromMode)).toBe(true);
    const depth = await readTiff(fromMode);
    expect([depth.width, depth.height, depth.samples, depth.sampleFormat]).toEqual([80, 60, 1, 3]);
    // A unit sphere 5 units in front of the camera: its nearest point is at depth 4; the corners see nothing.
    expect(depth.values[30 * 80 + 40]!).toBeGreaterThanOrEqual(3.999);
    expect(depth.values[30 * 80 + 40]!).toBeLessThan(4.02);
    expect(depth.values[0]).toBe(Infinity);
    expect(depth.values[80 * 60 - 1]).toBe(Infinity);
    for (const d of depth.values) expect(d === Infinity || (d >= 3.999 && d <= 5)).toBe(true);
  });

  it('finds shaders in --shader-path, and warns naming a shader it cannot find', async () => {
    // A scene outside scenes/features/ naming its ripple displacement: found only through --shader-path.
    const rib = path.join(dir, 'ripple.rib');
    writeFileSync(rib, readFileSync(path.join(ROOT, 'scenes/features/shade-displacement.rib'), 'utf8').replace(/^Option "searchpath".*$/m, ''));
    const shaders = path.join(ROOT, 'scenes/features/shaders');
    const found = await reyes(['render', rib, '-o', path.join(dir, 'r.png'), '--res', '20x15', '--samples', '1', '--shader-path', shaders]);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stderr).not.toMatch(/ripple/);
    const lost = await reyes(['render', rib, '-o', path.join(dir, 'r2.png'), '--res', '20x15', '--samples', '1']);
    expect(lost.code, lost.stderr).toBe(0);
    expect(lost.stderr).toContain('warning: displacement shader "ripple" not found');
  });
});
