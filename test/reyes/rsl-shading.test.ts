// Rendering with compiled RSL on the GPU: an analytic matte check (Lambert's cosine), several
// kernels in one frame routed to the right grids and parameter blocks under small and large
// budgets, and the default-surface fallback when a shader is missing.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, pixel, render } from './render-helpers.ts';

const MiB = 1024 * 1024;

describe('RSL shading on the GPU', () => {
  const gpu = useGpuRuntime();

  it('matte (Kd 1, Ka 0) under a distant light from the camera: Cs at the centre, cos falloff to the limb', async () => {
    // Orthographic, 40 pixels per unit, a unit sphere: at distance ρ from the centre N·L = √(1 − ρ²).
    const cs = [0.8, 0.6, 0.4];
    const frame = await frameFromText(`Format 100 100 1
PixelSamples 2 2
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -1.25 1.25 -1.25 1.25
ShadingRate 0.25
Translate 0 0 5
WorldBegin
LightSource "distantlight" 1 "intensity" [1] "from" [0 0 -1] "to" [0 0 0]
ShadingInterpolation "smooth"
Color [${cs.join(' ')}]
Surface "matte" "Ka" [0] "Kd" [1]
Sphere 1 -1 1 360
WorldEnd`);
    const { rendered, image } = await render(gpu(), frame);
    expect(rendered.warnings).toEqual([]);
    const centre = (50 * 100 + 50) * 4;
    for (let c = 0; c < 3; c++) expect(Math.abs(image.rgba[centre + c]! - Math.round(cs[c]! * 255))).toBeLessThanOrEqual(1);
    for (const px of [50, 60, 70, 80, 85]) {
      const x = (px + 0.5 - 50) / 40;
      const y = 0.5 / 40;
      const cos = Math.sqrt(1 - x * x - y * y);
      const got = pixel(rendered.image, px, 50);
      expect(got[3]).toBeCloseTo(1, 3);
      for (let c = 0; c < 3; c++) expect(Math.abs(got[c]! - cs[c]! * cos), `pixel ${px} channel ${c}`).toBeLessThan(0.015);
    }
  });

  const SCENE = (objects: string): string => `Format 96 32 1
PixelSamples 2 2
Projection "orthographic"
ScreenWindow -3 3 -1 1
Translate 0 0 5
WorldBegin
LightSource "distantlight" 1 "from" [-1 1 -1] "to" [0 0 0]
LightSource "pointlight" 2 "from" [0 0 -3] "intensity" [6]
${objects}
WorldEnd`;
  const OBJECTS = [
    'AttributeBegin Translate -2 0 0 Color [1 0.3 0.2] Surface "plastic" Sphere 0.8 -0.8 0.8 360 AttributeEnd',
    'AttributeBegin Translate 0 0 0 Color [0.2 1 0.3] Illuminate 1 0 Surface "matte" Sphere 0.8 -0.8 0.8 360 AttributeEnd',
    'AttributeBegin Translate 2 0 0 Color [0.3 0.4 1] Surface "metal" Sphere 0.8 -0.8 0.8 360 AttributeEnd',
  ];

  it('shades several kernels in one frame like each alone, in batches that fit small budgets', async () => {
    const frame = await frameFromText(SCENE(OBJECTS.join('\n')));
    const large = await render(gpu(), frame, { budgetBytes: 256 * MiB, maxVertices: 64 });
    expect(large.rendered.warnings).toEqual([]);
    // Each object alone (its own single-kernel frame); they do not overlap, so the sum is the frame.
    const sum = new Float32Array(large.rendered.image.rgba.length);
    for (const object of OBJECTS) {
      const alone = await render(gpu(), await frameFromText(SCENE(object)), { maxVertices: 64 });
      alone.rendered.image.rgba.forEach((v, k) => (sum[k]! += v));
    }
    let worst = 0;
    large.rendered.image.rgba.forEach((v, k) => (worst = Math.max(worst, Math.abs(v - sum[k]!))));
    expect(worst).toBeLessThan(1 / 255);
    // A small budget cuts each kernel's grids into more batches and gives the same picture.
    const small = await render(gpu(), frame, { budgetBytes: 1 * MiB, maxVertices: 64 });
    expect(small.rendered.stats.peakBytes).toBeLessThanOrEqual(1 * MiB);
    expect(small.rendered.stats.shadingBatches).toBeGreaterThan(large.rendered.stats.shadingBatches);
    expect(large.rendered.stats.shadingBatches).toBeGreaterThanOrEqual(3);
    expect(compareImages(small.image, large.image).max).toBeLessThanOrEqual(1);
    // The three objects differ in colour, so each got its own shader and block.
    const centres = [16, 48, 80].map((x) => pixel(large.rendered.image, x, 16));
    expect(centres[0]![0]).toBeGreaterThan(centres[0]![1]!);
    expect(centres[1]![1]).toBeGreaterThan(centres[1]![0]!);
    expect(centres[2]![2]).toBeGreaterThan(centres[2]![0]!);
  });

  it('a missing surface renders with the default surface, as the built-in provider does', async () => {
    const frame = await frameFromText(SCENE('Color [0.5 0.7 0.9] Surface "nosuchsurface" Sphere 0.8 -0.8 0.8 360'));
    const rsl = await render(gpu(), frame);
    expect(rsl.rendered.warnings.join('\n')).toMatch(/^<input>:\d+:\d+: surface shader "nosuchsurface" not found; using the default surface$/m);
    const builtin = await render(gpu(), frame, { shading: builtinShadingProvider });
    expect(compareImages(rsl.image, builtin.image).max).toBe(0);
  });
});
