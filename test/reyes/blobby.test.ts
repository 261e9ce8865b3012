// Blobby implicit surfaces: silhouettes against the analytic level set of the field (1 - r²)³ at the
// threshold 0.5, far and close up, the combining operators, no pinholes between the records' grids,
// and variables blended by field strength. The field oracle here (bump, oracleField) is written
// from the spec, apart from src/reyes/convert.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { alphaSum, frameFromText, orthographicScene, pixel, render } from './render-helpers.ts';
import { hitsSphere, pinholes, views, VIEWS } from './watertight-views.ts';

/** Orthographic, ScreenWindow ±2 over 128 pixels: 32 pixels per unit. */
const PPU = 32;
/** Radius, in the leaf's unit space, where one leaf's field (1 - r²)³ is 0.5. */
const R = Math.sqrt(1 - Math.cbrt(0.5));

/** An ellipsoid leaf's 16 floats: axes scaled by (a, b, c), centred at (x, y, z). */
const ellipsoid = (a: number, b: number, c: number, x = 0, y = 0, z = 0): number[] => [a, 0, 0, 0, 0, b, 0, 0, 0, 0, c, 0, x, y, z, 1];

/** Area of the union of two circles of radius r whose centres are d apart, and of their lens. */
function twoCircles(r: number, d: number): { union: number; lens: number } {
  const lens = d >= 2 * r ? 0 : 2 * r * r * Math.acos(d / (2 * r)) - (d / 2) * Math.sqrt(4 * r * r - d * d);
  return { union: 2 * Math.PI * r * r - lens, lens };
}

/** The soft-object bump of a squared distance. */
const bump = (r2: number): number => (r2 >= 1 ? 0 : (1 - r2) ** 3);

/** A sphere leaf of scale s centred on the x axis at x0: its field at (x, y, z). */
const sphereLeaf = (s: number, x0: number) => (x: number, y: number, z: number): number => bump(((x - x0) ** 2 + y * y + z * z) / (s * s));

/** Where the ray (x, y, z) for z from -2 up first reaches f ≥ 0.5: its z, or undefined. */
function firstHit(f: (x: number, y: number, z: number) => number, x: number, y: number): number | undefined {
  const steps = 400;
  for (let k = 0; k < steps; k++) {
    const [z0, z1] = [-2 + (4 * k) / steps, -2 + (4 * (k + 1)) / steps];
    if (f(x, y, z1) < 0.5) continue;
    let [lo, hi] = [z0, z1];
    for (let i = 0; i < 50; i++) {
      const mid = (lo + hi) / 2;
      if (f(x, y, mid) >= 0.5) hi = mid;
      else lo = mid;
    }
    return hi;
  }
  return undefined;
}

describe('Blobby', () => {
  const gpu = useGpuRuntime();

  it('one ellipsoid: its silhouette is the analytic ellipse at the threshold within 0.1%', async () => {
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Rotate 30 0 1 0
Blobby 1 [1001 0] [${ellipsoid(3, 2, 2.5).join(' ')}] [""]`)));
    expect(rendered.warnings).toEqual([]);
    // The level set is the ellipsoid of semi-axes (3, 2, 2.5)·R, turned 30° about y: its outline on
    // the view plane is an ellipse with semi-axes 2R (y) and R·√(3² cos²30° + 2.5² sin²30°) (x).
    const ax = R * Math.sqrt(9 * Math.cos(Math.PI / 6) ** 2 + 6.25 * Math.sin(Math.PI / 6) ** 2);
    const exact = Math.PI * ax * 2 * R * PPU * PPU;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.001);
  });

  it('close up, the outline is the analytic circle to a fraction of a pixel (no facets)', async () => {
    // A window 0.002 wide and 0.016 high on the outline of a sphere of radius 2R, at 64 × 512 pixels
    // of 3.1e-5: a polygonisation of the whole sphere would have to be some 30,000 cells across
    // for its chords to stay within a pixel of the circle here.
    const r = 2 * R;
    const [w, h, width, height] = [0.001, 0.008, 64, 512];
    const { rendered } = await render(gpu(), await frameFromText(`Format ${width} ${height} 1
PixelSamples 4 4
Projection "orthographic"
ScreenWindow ${r - w} ${r + w} ${-h} ${h}
Translate 0 0 5
WorldBegin
Surface "constant"
Blobby 1 [1001 0] [${ellipsoid(2, 2, 2).join(' ')}] [""]
WorldEnd`));
    expect(rendered.warnings).toEqual([]);
    const size = (2 * w) / width;
    // Per row, the covered width against the circle's: x from the window's left edge to √(r² − y²).
    const errors: number[] = [];
    for (let y = 2; y < height - 2; y++) {
      let covered = 0;
      for (let x = 0; x < width; x++) covered += rendered.image.rgba[(y * width + x) * 4 + 3]!;
      const sy = h - (y + 0.5) * size;
      errors.push(covered - (Math.sqrt(r * r - sy * sy) - (r - w)) / size);
    }
    expect(Math.max(...errors.map(Math.abs))).toBeLessThan(0.3);
    expect(Math.abs(errors.reduce((a, b) => a + b, 0) / errors.length)).toBeLessThan(0.05);
  });

  it('combines leaves: add of two far apart, max (union) and min (lens) of two overlapping', async () => {
    // Unit leaves 2.4 apart: their fields (zero from distance 1) do not meet.
    const far = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 0 2 0 1] [${[...ellipsoid(1, 1, 1, -1.2), ...ellipsoid(1, 1, 1, 1.2)].join(' ')}] [""]`)));
    const single = Math.PI * R * R * PPU * PPU;
    expect(Math.abs(alphaSum(far.rendered.image) - 2 * single) / (2 * single)).toBeLessThan(0.005);

    const r = 2 * R;
    const d = 0.9;
    const circles = twoCircles(r, d);
    const leaves = [...ellipsoid(2, 2, 2, -d / 2), ...ellipsoid(2, 2, 2, d / 2)].join(' ');
    const union = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 2 2 0 1] [${leaves}] [""]`)));
    expect(Math.abs(alphaSum(union.rendered.image) - circles.union * PPU * PPU) / (circles.union * PPU * PPU)).toBeLessThan(0.002);
    const lens = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 3 2 0 1] [${leaves}] [""]`)));
    expect(Math.abs(alphaSum(lens.rendered.image) - circles.lens * PPU * PPU) / (circles.lens * PPU * PPU)).toBeLessThan(0.005);
  });

  it('subtract: a sphere bitten by another covers what the field oracle says it covers', async () => {
    // f = e1 - e2: a sphere of scale 2 less one of scale 1.5 at x = 1.1, which bites into its outline.
    const e1 = sphereLeaf(2, 0);
    const e2 = sphereLeaf(1.5, 1.1);
    const f = (x: number, y: number, z: number): number => e1(x, y, z) - e2(x, y, z);
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 4 0 1] [${[...ellipsoid(2, 2, 2), ...ellipsoid(1.5, 1.5, 1.5, 1.1)].join(' ')}] [""]`)));
    expect(rendered.warnings).toEqual([]);
    // The covered area seen along z: 8 × 8 points a pixel over the outline's box.
    let area = 0;
    const n = 8;
    for (let py = 0; py < 128; py++) {
      for (let px = 0; px < 128; px++) {
        for (let k = 0; k < n * n; k++) {
          const x = (px + ((k % n) + 0.5) / n) / PPU - 2;
          const y = 2 - (py + (Math.floor(k / n) + 0.5) / n) / PPU;
          if (x * x + y * y < 0.85 && firstHit(f, x, y) !== undefined) area += 1 / (n * n);
        }
      }
    }
    // The bite is real: a fifth of the whole disk's area, or more, is gone.
    expect(area).toBeLessThan(0.8 * Math.PI * (2 * R * PPU) ** 2);
    expect(Math.abs(alphaSum(rendered.image) - area) / area).toBeLessThan(0.002);
  }, 60_000);

  it('subtract, divide, negate and identity read their operands in order', async () => {
    // f = identity(-(-(e - 0.1))) / 0.8 = 0.5 exactly where e = 0.5: the single sphere's silhouette.
    const floats = [...ellipsoid(2, 2, 2), 0.1, 0.8].join(' ');
    const code = '1001 0 1000 16 1000 17 4 0 1 6 3 6 4 7 5 5 6 2';
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Blobby 3 [${code}] [${floats}] [""]`)));
    expect(rendered.warnings).toEqual([]);
    const exact = Math.PI * (2 * R * PPU) ** 2;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.001);
  });

  it('vertex colours blend by field strength: each pixel is the blend at the surface point it sees', async () => {
    const d = 0.45;
    const leaves = [...ellipsoid(2, 2, 2, -d), ...ellipsoid(2, 2, 2, d)].join(' ');
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 0 2 0 1] [${leaves}] [""] "vertex color Cs" [1 0 0  0 0 1]`)));
    expect(rendered.warnings).toEqual([]);
    const [left, right] = [sphereLeaf(2, -d), sphereLeaf(2, d)];
    const f = (x: number, y: number, z: number): number => left(x, y, z) + right(x, y, z);
    // Along the middle row and a row above it, away from the outline: red = w_left / (w_left + w_right)
    // at the nearest surface point, blue the rest.
    for (const [py, first, last] of [[64, 28, 100], [40, 40, 88]] as const) {
      for (let px = first; px <= last; px += 6) {
        const [x, y] = [(px + 0.5) / PPU - 2, 2 - (py + 0.5) / PPU];
        const z = firstHit(f, x, y)!;
        const [wl, wr] = [left(x, y, z), right(x, y, z)];
        const rgba = pixel(rendered.image, px, py);
        expect(rgba[3]).toBeCloseTo(1, 5);
        expect(Math.abs(rgba[0]! - wl / (wl + wr)), `red at ${px},${py}`).toBeLessThan(0.004);
        expect(Math.abs(rgba[2]! - wr / (wl + wr)), `blue at ${px},${py}`).toBeLessThan(0.004);
      }
    }
  });

  it('N is the field gradient: matte under a light from the camera falls off as the sphere cosine', async () => {
    // One leaf of scale 2: a sphere of radius r = 2R, where N·L = √(1 − ρ²/r²) at distance ρ.
    const r = 2 * R;
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`LightSource "distantlight" 1 "intensity" [1] "from" [0 0 -1] "to" [0 0 0]
ShadingInterpolation "smooth"
Surface "matte" "Ka" [0] "Kd" [1]
Blobby 1 [1001 0] [${ellipsoid(2, 2, 2).join(' ')}] [""]`)));
    expect(rendered.warnings).toEqual([]);
    for (const px of [64, 70, 76, 82, 88]) {
      const [x, y] = [(px + 0.5) / PPU - 2, 0.5 / PPU];
      expect(Math.abs(pixel(rendered.image, px, 63)[0]! - Math.sqrt(1 - (x * x + y * y) / (r * r))), `pixel ${px}`).toBeLessThan(0.01);
    }
  });

  it('user primitive variables blend too: a vertex Ka read by matte under an ambient light', async () => {
    const d = 0.45;
    const leaves = [...ellipsoid(2, 2, 2, -d), ...ellipsoid(2, 2, 2, d)].join(' ');
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`LightSource "ambientlight" 1 "intensity" 1
Surface "matte" "Kd" 0
Blobby 2 [1001 0 1001 16 0 2 0 1] [${leaves}] [""] "vertex float Ka" [1 0]`)));
    expect(rendered.warnings).toEqual([]);
    const [left, right] = [sphereLeaf(2, -d), sphereLeaf(2, d)];
    const f = (x: number, y: number, z: number): number => left(x, y, z) + right(x, y, z);
    for (let px = 28; px <= 100; px += 8) {
      const [x, y] = [(px + 0.5) / PPU - 2, 2 - (64 + 0.5) / PPU];
      const z = firstHit(f, x, y)!;
      const [wl, wr] = [left(x, y, z), right(x, y, z)];
      expect(Math.abs(pixel(rendered.image, px, 64)[0]! - wl / (wl + wr)), `Ka at ${px}`).toBeLessThan(0.004);
    }
  });

  it('moves with its transformation: the blur sweeps the disk, its area kept', async () => {
    const body = (motion: string) => orthographicScene(`${motion}
Blobby 1 [1001 0] [${ellipsoid(2, 2, 2).join(' ')}] [""]`).replace('Projection', 'Shutter 0 1\nProjection');
    const still = await render(gpu(), await frameFromText(body('')));
    const moving = await render(gpu(), await frameFromText(body('MotionBegin [0 1] Translate 0 0 0 Translate 0.5 0 0 MotionEnd')));
    expect(moving.rendered.warnings).toEqual([]);
    const area = alphaSum(still.rendered.image);
    expect(Math.abs(alphaSum(moving.rendered.image) - area) / area).toBeLessThan(0.01);
    // Past the still disk's right edge (x = 2R), the moving one covers part of the row.
    const x = Math.floor((2 * R + 0.25 + 2) * PPU);
    expect(pixel(still.rendered.image, x, 64)[3]).toBe(0);
    expect(pixel(moving.rendered.image, x, 64)[3]!).toBeGreaterThan(0.2);
  });

  it('two blended leaves seen close and one-sided leave no pinholes between the records\' grids', async () => {
    // Leaves of scale 2 at ±0.45 along x: their sum contains each one's sphere of radius 2R, so the
    // ball of radius √((2R)² − 0.45²) about the origin lies inside it.
    const inner = Math.sqrt((2 * R) ** 2 - 0.45 ** 2);
    const geometry = `Blobby 2 [1001 0 1001 16 0 2 0 1] [${[...ellipsoid(2, 2, 2, -0.45), ...ellipsoid(2, 2, 2, 0.45)].join(' ')}] [""]`;
    const result = await pinholes(gpu(), views(0xb10bb1, [2.2, 4]), 1, geometry, (view, d) => hitsSphere(view.centre, inner, d));
    expect(result.inside).toBeGreaterThan(VIEWS * 500);
    expect(result.holes.slice(0, 10), `${result.holes.length} pinholes`).toEqual([]);
  }, 240_000);

  it('a repelling plane is a warning and a bad code a positioned skip, not a crash', async () => {
    const plane = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1003 0 16 0 2 0 1] [${[...ellipsoid(2, 2, 2), 0, 0, 0, 0].join(' ')}] ["flat.zfile"]`)));
    expect(plane.rendered.warnings.some((w) => w.includes('repelling plane'))).toBe(true);
    expect(alphaSum(plane.rendered.image)).toBeGreaterThan(0);
    const bad = await render(gpu(), await frameFromText(orthographicScene('Blobby 1 [1001 40] [1 0 0] [""]')));
    expect(bad.rendered.warnings.some((w) => /^\S+:\d+:\d+: /.test(w) && w.includes('ellipsoid') && w.includes('skipped'))).toBe(true);
  });

  it('operators nested deeper than the GPU evaluates are a positioned skip', async () => {
    // add(e, add(e, add(e, ...))): each level keeps one more result waiting.
    const levels = 20;
    const code = ['1001 0'];
    for (let k = 0; k < levels; k++) code.push(`0 2 0 ${k === 0 ? 0 : k}`);
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Blobby 1 [${code.join(' ')}] [${ellipsoid(2, 2, 2).join(' ')}] [""]`)));
    expect(rendered.warnings.some((w) => /^\S+:\d+:\d+: /.test(w) && w.includes('nest deeper'))).toBe(true);
    expect(alphaSum(rendered.image)).toBe(0);
  });
});
