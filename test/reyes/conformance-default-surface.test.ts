// The default surface (no Surface request) against its definition, PRMan's defaultsurface, which
// Aqsis also shades with: d = N̂ · Î, Ci = Os · Cs · (Ka + Kd · d²), Ka 0.2, Kd 0.8, Oi = Os, lights
// ignored. The expected pixels are the exact definition integrated over the pixel on the true sphere
// (ray-traced here in plain TypeScript), independent of the renderer.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const WIDTH = 80;
const HEIGHT = 60;
const TAN_HALF_FOV = Math.tan((20 * Math.PI) / 180);
const DISTANCE = 5;
const COLOR = [1, 0.5, 0.2];

/** d² of the unit sphere at DISTANCE, seen through raster position (x, y); undefined off the sphere. */
function facingSquared(x: number, y: number): number | undefined {
  // fov 40 spans the shorter (vertical) side; the screen window is ±4/3 × ±1.
  const dx = ((x / WIDTH) * 2 - 1) * (WIDTH / HEIGHT) * TAN_HALF_FOV;
  const dy = (1 - (y / HEIGHT) * 2) * TAN_HALF_FOV;
  const length = Math.hypot(dx, dy, 1);
  const dir = [dx / length, dy / length, 1 / length];
  // |s·dir − c|² = 1 with c = (0, 0, DISTANCE).
  const b = dir[2]! * DISTANCE;
  const disc = b * b - (DISTANCE * DISTANCE - 1);
  if (disc < 0) return undefined;
  const s = b - Math.sqrt(disc);
  const normal = [dir[0]! * s, dir[1]! * s, dir[2]! * s - DISTANCE];
  const d = normal[0]! * dir[0]! + normal[1]! * dir[1]! + normal[2]! * dir[2]!;
  return d * d;
}

/** The default surface's grey level (Ka + Kd·d²) averaged over pixel (px, py) with a 1×1 box filter. */
function expectedShade(px: number, py: number): number {
  const n = 32;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const d2 = facingSquared(px + (i + 0.5) / n, py + (j + 0.5) / n);
      if (d2 === undefined) throw new Error('the pixel is not inside the sphere');
      sum += 0.2 + 0.8 * d2;
    }
  }
  return sum / (n * n);
}

function sphereScene(extra = ''): string {
  return `Format ${WIDTH} ${HEIGHT} 1
PixelSamples 4 4
PixelFilter "box" 1 1
ShadingRate 0.25
Projection "perspective" "fov" 40
Translate 0 0 ${DISTANCE}
WorldBegin
${extra}
Color [${COLOR.join(' ')}]
Sphere 1 -1 1 360
WorldEnd`;
}

describe('default surface', () => {
  const gpu = useGpuRuntime();
  const pixel = (rgba: Float32Array, x: number, y: number): number[] => Array.from(rgba.subarray((y * WIDTH + x) * 4, (y * WIDTH + x) * 4 + 4));

  it('is Os·Cs·(0.2 + 0.8·d²) at the centre of a sphere facing the camera and off the centre', async () => {
    const { rendered } = await render(gpu(), await frameFromText(sphereScene()));
    const { rgba } = rendered.image;
    // (40, 20): d² ≈ 0.67, where a linear facing ratio (0.2 + 0.8·|d|) would give 0.855 instead of 0.737.
    for (const [x, y] of [[40, 30], [39, 29], [40, 20], [50, 30], [55, 30]] as const) {
      const shade = expectedShade(x, y);
      const got = pixel(rgba, x, y);
      expect(got[3]).toBeCloseTo(1, 5);
      for (let c = 0; c < 3; c++) expect(Math.abs(got[c]! - COLOR[c]! * shade)).toBeLessThan(0.006 * COLOR[c]! + 1e-4);
    }
    expect(expectedShade(40, 20)).toBeLessThan(0.74);
  });

  it('ignores lights and is scaled by the opacity', async () => {
    const lit = sphereScene('LightSource "distantlight" 1 "intensity" 3 "from" [0 1 0] "to" [0 0 1]\nLightSource "ambientlight" 2 "intensity" 1');
    const { rendered } = await render(gpu(), await frameFromText(lit));
    const shade = expectedShade(50, 30);
    const got = pixel(rendered.image.rgba, 50, 30);
    for (let c = 0; c < 3; c++) expect(Math.abs(got[c]! - COLOR[c]! * shade)).toBeLessThan(0.006 * COLOR[c]! + 1e-4);

    // Opacity 0.5 shows the back of the sphere through the front: at the centre, where d² is 1 on
    // both, Ci = 0.5·Cs + 0.5·(0.5·Cs) and alpha 0.75 (what Aqsis gives, 0.748 and 0.75).
    const { rendered: half } = await render(gpu(), await frameFromText(sphereScene('Opacity [0.5 0.5 0.5]')));
    const centre = pixel(half.image.rgba, 40, 30);
    expect(centre[3]).toBeCloseTo(0.75, 4);
    for (let c = 0; c < 3; c++) expect(Math.abs(centre[c]! - 0.75 * COLOR[c]!)).toBeLessThan(0.006 * COLOR[c]! + 1e-4);
  });
});
