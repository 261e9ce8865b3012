// Points render as camera-facing disks of their width: analytic coverage and per-point variables.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { alphaSum, frameFromText, orthographicScene, pixel, render } from './render-helpers.ts';

/** Orthographic, ScreenWindow ±2 over 128 pixels: 32 pixels per unit. */
const PIXELS_PER_UNIT = 32;

/** A 4 × 4 lattice of points 0.9 apart (centres in camera space, z = 5 after the Translate). */
function lattice(): number[][] {
  const out: number[][] = [];
  for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) out.push([-1.35 + 0.9 * i, -1.35 + 0.9 * j, 0]);
  return out;
}



describe('Points', () => {
  const gpu = useGpuRuntime();

  it('N non-overlapping points of constantwidth w cover N·π(w/2)² of raster area within 1%', async () => {
    const points = lattice();
    const w = 0.5;
    const frame = await frameFromText(orthographicScene(`Points "P" [${points.flat().join(' ')}] "constantwidth" [${w}]`));
    const { rendered } = await render(gpu(), frame);
    const r = (w / 2) * PIXELS_PER_UNIT;
    const exact = points.length * Math.PI * r * r;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);
    expect(rendered.warnings.filter((m) => m.includes('Points'))).toEqual([]);
  });

  it('per-point "width" sizes each disk, and the default width is 1', async () => {
    const points = lattice();
    const widths = points.map((_, k) => 0.2 + 0.04 * k);
    const frame = await frameFromText(orthographicScene(`Points "P" [${points.flat().join(' ')}] "width" [${widths.join(' ')}]`));
    const { rendered } = await render(gpu(), frame);
    const exact = widths.reduce((sum, w) => sum + Math.PI * ((w / 2) * PIXELS_PER_UNIT) ** 2, 0);
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);

    // Two points far apart with no width: disks of diameter 1 (object space units).
    const one = await frameFromText(orthographicScene('Points "P" [-1 0 0  1 0 0]'));
    const single = await render(gpu(), one);
    const r = 0.5 * PIXELS_PER_UNIT;
    expect(Math.abs(alphaSum(single.rendered.image) - 2 * Math.PI * r * r) / (2 * Math.PI * r * r)).toBeLessThan(0.01);
  });

  it('widths are object-space lengths: a Scale 2 doubles the disks', async () => {
    const frame = await frameFromText(orthographicScene('Scale 2 2 2\nPoints "P" [-0.5 0 0  0.5 0 0] "constantwidth" [0.25]'));
    const { rendered } = await render(gpu(), frame);
    const r = 0.25 * PIXELS_PER_UNIT;
    const exact = 2 * Math.PI * r * r;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);
  });

  it('each point gets its own Cs and Os', async () => {
    const points = lattice();
    const colours = points.map((_, k) => [((k * 37) % 16) / 16, ((k * 11) % 16) / 16, ((k * 5) % 16) / 16]);
    const frame = await frameFromText(orthographicScene(`Points "P" [${points.flat().join(' ')}] "constantwidth" [0.5] "Cs" [${colours.flat().join(' ')}]`));
    const { rendered } = await render(gpu(), frame);
    points.forEach(([x, y], k) => {
      // Camera x right, y up; raster y down; the centre pixel of the disk.
      const px = Math.floor((x! + 2) * PIXELS_PER_UNIT);
      const py = Math.floor((2 - y!) * PIXELS_PER_UNIT);
      const [r, g, b, a] = pixel(rendered.image, px, py);
      expect(a).toBeCloseTo(1, 5);
      expect([r, g, b].map((v) => Number(v!.toFixed(4)))).toEqual(colours[k]!.map((v) => Number(v.toFixed(4))));
    });

    // Os per point (constant surface: Ci = Os·Cs, alpha = Os) and a user float read by a shader parameter.
    const see = await frameFromText(`Format 64 64 1
PixelSamples 2 2
Projection "orthographic"
ScreenWindow -2 2 -2 2
Translate 0 0 5
WorldBegin
Surface "constant"
Points "P" [-1 0 0  1 0 0] "constantwidth" [1] "Os" [0.25 0.25 0.25  0.75 0.75 0.75]
WorldEnd`);
    const seen = await render(gpu(), see);
    expect(pixel(seen.rendered.image, 16, 32)[3]).toBeCloseTo(0.25, 4);
    expect(pixel(seen.rendered.image, 48, 32)[3]).toBeCloseTo(0.75, 4);
  });

  it('a user variable reaches the shader per point', async () => {
    // Matte with Ka 0 under a distant light along the view: Ci = Kd · Cs (the disk faces the light).
    const user = await frameFromText(`Format 64 64 1
PixelSamples 2 2
Projection "orthographic"
ScreenWindow -2 2 -2 2
Translate 0 0 5
WorldBegin
LightSource "distantlight" 1 "intensity" [1]
Surface "matte" "Ka" [0] "Kd" [0.5]
Points "P" [-1 0 0  1 0 0] "constantwidth" [1] "varying float Kd" [0.2 0.9]
WorldEnd`);
    const lit = await render(gpu(), user);
    expect(lit.rendered.warnings).toEqual([]);
    // Off the disks' centres: at the disk quadric's pole the shaded normal is off (a Disk shows it too).
    expect(pixel(lit.rendered.image, 20, 32)[0]).toBeCloseTo(0.2, 3);
    expect(pixel(lit.rendered.image, 52, 32)[0]).toBeCloseTo(0.9, 3);
  });

  it('points face the camera in perspective whatever the object orientation', async () => {
    // Rotated 90° about y: the object's xy plane is edge-on, yet the disks still face the eye.
    const frame = await frameFromText(`Format 64 64 1
PixelSamples 4 4
Projection "perspective" "fov" 40
Translate 0 0 5
Rotate 90 0 1 0
WorldBegin
Surface "constant"
Sides 1
Points "P" [0 0 0] "constantwidth" [1]
WorldEnd`);
    const { rendered } = await render(gpu(), frame);
    // A disk of radius 0.5 perpendicular to the view ray at distance 5 projects to a disk of radius
    // 0.5 / 5 in units of tan(angle) (exact on the axis).
    const pixelsPerTan = 32 / Math.tan((20 * Math.PI) / 180);
    const r = (0.5 / 5) * pixelsPerTan;
    const exact = Math.PI * r * r;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);
  });
});
