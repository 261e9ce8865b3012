// Blobby implicit surfaces: silhouettes against the analytic level set of the field (1 - r²)³ at the
// threshold 0.5, the combining operators, and variables blended by field strength.
import { describe, expect, it } from 'vitest';
import type { FloatImage } from '../../src/image/image.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { alphaSum, frameFromText, orthographicScene, pixel, render } from './render-helpers.ts';

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

describe('Blobby', () => {
  const gpu = useGpuRuntime();

  it('one ellipsoid: its silhouette is the analytic ellipse at the threshold within 1%', async () => {
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Rotate 30 0 1 0
Blobby 1 [1001 0] [${ellipsoid(3, 2, 2.5).join(' ')}] [""]`)));
    expect(rendered.warnings).toEqual([]);
    // The level set is the ellipsoid of semi-axes (3, 2, 2.5)·R, turned 30° about y: its outline on
    // the view plane is an ellipse with semi-axes 2R (y) and R·√(3² cos²30° + 2.5² sin²30°) (x).
    const ax = R * Math.sqrt(9 * Math.cos(Math.PI / 6) ** 2 + 6.25 * Math.sin(Math.PI / 6) ** 2);
    const exact = Math.PI * ax * 2 * R * PPU * PPU;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);
  });

  it('combines leaves: add of two far apart, max (union) and min (lens) of two overlapping', async () => {
    // Unit leaves 2.4 apart: their fields (zero from distance 1) do not meet.
    const far = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 0 2 0 1] [${[...ellipsoid(1, 1, 1, -1.2), ...ellipsoid(1, 1, 1, 1.2)].join(' ')}] [""]`)));
    const single = Math.PI * R * R * PPU * PPU;
    expect(Math.abs(alphaSum(far.rendered.image) - 2 * single) / (2 * single)).toBeLessThan(0.01);

    const r = 2 * R;
    const d = 0.9;
    const circles = twoCircles(r, d);
    const leaves = [...ellipsoid(2, 2, 2, -d / 2), ...ellipsoid(2, 2, 2, d / 2)].join(' ');
    const union = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 2 2 0 1] [${leaves}] [""]`)));
    expect(Math.abs(alphaSum(union.rendered.image) - circles.union * PPU * PPU) / (circles.union * PPU * PPU)).toBeLessThan(0.01);
    const lens = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 3 2 0 1] [${leaves}] [""]`)));
    expect(Math.abs(alphaSum(lens.rendered.image) - circles.lens * PPU * PPU) / (circles.lens * PPU * PPU)).toBeLessThan(0.02);
  });

  it('subtract, divide, negate and identity read their operands in order', async () => {
    // f = identity(-(-(e - 0.1))) / 0.8 = 0.5 exactly where e = 0.5: the single sphere's silhouette.
    const floats = [...ellipsoid(2, 2, 2), 0.1, 0.8].join(' ');
    const code = '1001 0 1000 16 1000 17 4 0 1 6 3 6 4 7 5 5 6 2';
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Blobby 3 [${code}] [${floats}] [""]`)));
    expect(rendered.warnings).toEqual([]);
    const exact = Math.PI * (2 * R * PPU) ** 2;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);
  });

  it('vertex colours blend by field strength: pure at each leaf, mixed where two meet', async () => {
    const leaves = [...ellipsoid(2, 2, 2, -0.45), ...ellipsoid(2, 2, 2, 0.45)].join(' ');
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1001 16 0 2 0 1] [${leaves}] [""] "vertex color Cs" [1 0 0  0 0 1]`)));
    const at = (x: number): number[] => pixel(rendered.image, Math.floor((x + 2) * PPU), 64);
    // At the middle both fields are equal: half red, half blue.
    const middle = at(0);
    expect(middle[0]).toBeCloseTo(0.5, 1);
    expect(middle[2]).toBeCloseTo(0.5, 1);
    // Towards the left leaf's far side red dominates, as its field does.
    const left = at(-1.1);
    expect(left[0]!).toBeGreaterThan(0.9 * left[3]!);
  });

  it('a repelling plane is a warning and a bad code a positioned skip, not a crash', async () => {
    const plane = await render(gpu(), await frameFromText(orthographicScene(`Blobby 2 [1001 0 1003 0 16 0 2 0 1] [${[...ellipsoid(2, 2, 2), 0, 0, 0, 0].join(' ')}] ["flat.zfile"]`)));
    expect(plane.rendered.warnings.some((w) => w.includes('repelling plane'))).toBe(true);
    expect(alphaSum(plane.rendered.image)).toBeGreaterThan(0);
    const bad = await render(gpu(), await frameFromText(orthographicScene('Blobby 1 [1001 40] [1 0 0] [""]')));
    expect(bad.rendered.warnings.some((w) => w.includes('ellipsoid') && w.includes('skipped'))).toBe(true);
  });
});
