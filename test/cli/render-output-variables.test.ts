// Display modes that name an output variable get that variable, filtered like colour: a sphere's
// N, P and s against their analytic values at pixel centres.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTiff, type ReadTiff } from '../image/independent-readers.ts';
import { reyes } from './run-reyes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SIZE = 30;

/** Camera-space x, y of pixel (i, j)'s centre: 0.1 units a pixel, y up. */
const centre = (i: number, j: number): [number, number] => [-1.5 + (i + 0.5) * 0.1, 1.5 - (j + 0.5) * 0.1];

function pixel(file: ReadTiff, i: number, j: number): number[] {
  const k = file.samples;
  return file.values.slice((j * SIZE + i) * k, (j * SIZE + i + 1) * k);
}

describe('reyes render: output variables', () => {
  it('writes N, P and s of a unit sphere, each at its analytic value inside the silhouette', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-aov-'));
    const rib = path.join(dir, 'display-output-variables.rib');
    copyFileSync(path.join(ROOT, 'scenes/features/display-output-variables.rib'), rib);
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/output variable/);
    const [colour, N, P, s] = await Promise.all(['colour', 'N', 'P', 's'].map(async (v) => readTiff(readFileSync(path.join(dir, `output-${v}.tif`)))));
    expect([N!.samples, P!.samples, s!.samples, N!.sampleFormat]).toEqual([3, 3, 1, 3]);
    let checked = 0;
    let errors = 0;
    for (let j = 0; j < SIZE; j++) {
      for (let i = 0; i < SIZE; i++) {
        const [x, y] = centre(i, j);
        const r2 = x * x + y * y;
        if (r2 > 0.7 * 0.7) continue; // away from the limb, where N turns fastest
        expect(pixel(colour!, i, j)[3]).toBe(1);
        const z = -Math.sqrt(1 - r2); // the visible half: object z < 0, normal toward the camera
        const n = pixel(N!, i, j);
        // The filter averages 16 jittered samples of values interpolated between micropolygon
        // vertices about a pixel apart, not the value at the pixel's centre: within 0.03 each,
        // 0.01 on average (measured: 0.021 and 0.007).
        const nError = Math.hypot(n[0]! - x, n[1]! - y, n[2]! - z);
        expect(nError, `N at ${i},${j}`).toBeLessThan(0.03);
        const p = pixel(P!, i, j);
        const pError = Math.hypot(p[0]! - x, p[1]! - y, p[2]! - (5 + z));
        expect(pError, `P at ${i},${j}`).toBeLessThan(0.03);
        errors += nError + pError;
        // s = u = φ / 2π, away from the seam at φ = 0 (y = 0, x > 0) where the filter mixes 0 and
        // 1, and from the pole in the middle, where φ turns fastest.
        if ((Math.abs(y) > 0.15 || x < 0) && r2 > 0.3 * 0.3) {
          const phi = (Math.atan2(y, x) + 2 * Math.PI) % (2 * Math.PI);
          expect(Math.abs(pixel(s!, i, j)[0]! - phi / (2 * Math.PI)), `s at ${i},${j}`).toBeLessThan(0.01);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(120);
    expect(errors / (2 * checked)).toBeLessThan(0.01);
    // Outside the sphere: nothing covers the pixel, every variable is 0.
    expect(pixel(N!, 0, 0)).toEqual([0, 0, 0]);
  });

  it('composites a variable front to back through Oi, as colour: a half-opaque sphere shows 1/2 its front N plus 1/4 its back N', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-aov-'));
    const rib = path.join(dir, 'half.rib');
    writeFileSync(rib, readFileSync(path.join(ROOT, 'scenes/features/display-output-variables.rib'), 'utf8').replace('Color [1 0.5 0.2]', 'Color [1 0.5 0.2]\nOpacity [0.5 0.5 0.5]'));
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    const [colour, N] = await Promise.all(['colour', 'N'].map(async (v) => readTiff(readFileSync(path.join(dir, `output-${v}.tif`)))));
    let checked = 0;
    for (let j = 0; j < SIZE; j++) {
      for (let i = 0; i < SIZE; i++) {
        const [x, y] = centre(i, j);
        const r2 = x * x + y * y;
        if (r2 > 0.7 * 0.7) continue;
        expect(pixel(colour!, i, j)[3]).toBeCloseTo(0.75, 5);
        // Front (z = -√(1 − r²)) with weight 1/2, then the back (z = +√(1 − r²)) behind it with 1/2 · 1/2.
        const z = Math.sqrt(1 - r2);
        const n = pixel(N!, i, j);
        expect(Math.hypot(n[0]! - 0.75 * x, n[1]! - 0.75 * y, n[2]! - (-0.5 * z + 0.25 * z)), `N at ${i},${j}`).toBeLessThan(0.03);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(120);
  });

  it('warns, at the Display, naming an output variable the frame does not have and no type, and writes nothing for it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-aov-'));
    const rib = path.join(dir, 'unknown.rib');
    const scene = readFileSync(path.join(ROOT, 'scenes/features/sphere-default.rib'), 'utf8');
    writeFileSync(rib, `Display "c.png" "png" "rgba"\nDisplay "+foo.tif" "file" "foo"\n${scene}`);
    const result = await reyes(['render', rib, '--res', '16x12', '--samples', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('output variable "foo" is not a grid variable of this frame and the Display gives it no type; not rendered');
    expect(result.stderr).toContain(`${rib}:2:1: Display "foo.tif" "file" "foo": output variable "foo" was not rendered; nothing written`);
    expect(result.stdout).not.toContain('foo.tif');
  });
});

describe('reyes render: shader output variables', () => {
  it('writes a surface shader\'s output parameters named by a typed mode, a DisplayChannel and a Declare, at their analytic s, t values', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-aov-'));
    const rib = path.join(dir, 'display-shader-outputs.rib');
    copyFileSync(path.join(ROOT, 'scenes/features/display-shader-outputs.rib'), rib);
    mkdirSync(path.join(dir, 'shaders'));
    copyFileSync(path.join(ROOT, 'scenes/features/shaders/stoutputs.sl'), path.join(dir, 'shaders/stoutputs.sl'));
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    const [colour, foo, bar, qux, missing] = await Promise.all(['colour', 'foo', 'bar', 'qux', 'missing'].map(async (v) => readTiff(readFileSync(path.join(dir, `shader-outputs-${v}.tif`)))));
    expect([foo!.samples, bar!.samples, qux!.samples, missing!.samples]).toEqual([3, 3, 1, 1]);
    let checked = 0;
    let total = 0;
    for (let j = 0; j < SIZE; j++) {
      for (let i = 0; i < SIZE; i++) {
        const [x, y] = centre(i, j);
        if (Math.abs(x) > 0.9 || Math.abs(y) > 0.9) continue; // pixels the square covers entirely, away from its edge
        expect(pixel(colour!, i, j)[3]).toBe(1);
        // The patch's u runs from x = -1 to 1, its v from y = 1 to -1: s = u, t = v.
        const s = (x + 1) / 2;
        const t = (1 - y) / 2;
        // Values that change 0.05 a pixel, averaged over 16 jittered samples of values interpolated
        // between micropolygon vertices: the pixel centre's value within 0.01, 0.002 on average
        // (measured: 0.0064 and 0.0011).
        const at = `at ${i},${j}`;
        const errors = [
          ...pixel(foo!, i, j).map((value, c) => value - [s, t, 0.5][c]!),
          ...pixel(bar!, i, j).map((value, c) => value - [t, s, 0.25][c]!),
          pixel(qux!, i, j)[0]! - s * t,
        ].map(Math.abs);
        errors.forEach((e, k) => expect(e, `${['foo', 'bar', 'qux'][Math.min(2, Math.floor(k / 3))]} ${at}`).toBeLessThan(0.01));
        total += errors.reduce((a, b) => a + b, 0) / errors.length;
        expect(pixel(missing!, i, j)).toEqual([0]);
        checked++;
      }
    }
    expect(checked).toBe(18 * 18);
    expect(total / checked).toBeLessThan(0.002);
    // Outside the square nothing covers the pixel: 0.
    expect(pixel(foo!, 0, 0)).toEqual([0, 0, 0]);
    // The picture is foo too (Ci = Os * foo).
    expect(pixel(colour!, 10, 20)).toEqual([...pixel(foo!, 10, 20), 1]);
    // The variable no shader writes is 0, with one warning at its Display.
    const missingWarnings = result.stderr.split('\n').filter((line) => line.includes('"missing"'));
    expect(missingWarnings).toEqual([`warning: ${rib}:18:1: Display "shader-outputs-missing.tif" "file" "float missing": no surface shader of this frame has an output parameter "missing"; written as 0`]);
  });

  it('keeps a DisplayChannel\'s parameters with a positioned warning that they are not honoured, and refuses one without a type', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-aov-'));
    const rib = path.join(dir, 'channel.rib');
    writeFileSync(rib, 'DisplayChannel "color bar" "string filter" "box"\nDisplayChannel "bar"\nWorldBegin\nWorldEnd\n');
    const result = await reyes(['parse', rib]);
    expect(result.stdout).toContain(`${rib}:1:1: warning: DisplayChannel: parameter "filter" of DisplayChannel "color bar" is not honoured`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${rib}:2:1: error: DisplayChannel: "bar" needs a type and a name ("color foo")`);
  });
});
