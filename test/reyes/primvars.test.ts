// User primitive variables reach shaders: a primitive variable named like a shader parameter overrides
// it per vertex (interpolated by storage class, like Cs), while primitives of the same frame without it
// keep their RIB parameter value.
import { describe, expect, it } from 'vitest';
import type { FloatImage } from '../../src/image/image.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

// Orthographic, 16 pixels per unit: x = (px + 0.5) / 16 - 3. Matte with Ka 0 under a distant light
// along the view direction: Ci = Kd · Cs (N·L = 1), so the red channel reads Kd.
const patch = (x: number, primvar: string): string => `AttributeBegin
Translate ${x} 0 0
Patch "bilinear" "P" [-0.9 -0.9 0  0.9 -0.9 0  -0.9 0.9 0  0.9 0.9 0] ${primvar}
AttributeEnd`;

const SCENE = `Format 96 32 1
PixelSamples 2 2
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -3 3 -1 1
ShadingRate 0.25
Translate 0 0 5
WorldBegin
LightSource "distantlight" 1 "intensity" [1]
ShadingInterpolation "smooth"
Color [1 1 1]
Surface "matte" "Ka" [0] "Kd" [0.5]
${patch(-2, '"varying float Kd" [0 1 0 1]')}
${patch(0, '"constant float Kd" [0.25]')}
${patch(2, '')}
${patch(4, '"vertex color Cs" [1 0 0  1 0 0  1 0 0  1 0 0] "uniform float foo" [3]')}
WorldEnd`;

function red(image: FloatImage, x: number, y: number): number {
  return image.rgba[(y * image.width + x) * 4]!;
}

describe('user primitive variables', () => {
  const gpu = useGpuRuntime();

  it('varying Kd from 0 to 1 brightens a matte patch left to right; constant Kd and the RIB value elsewhere', async () => {
    const frame = await frameFromText(SCENE);
    const { rendered } = await render(gpu(), frame);
    expect(rendered.warnings).toEqual([]);
    const image = rendered.image;
    let previous = -1;
    for (let px = 6; px < 26; px++) {
      const x = (px + 0.5) / 16 - 3;
      const kd = (x + 2 + 0.9) / 1.8;
      const got = red(image, px, 16);
      expect(Math.abs(got - kd), `pixel ${px}`).toBeLessThan(0.01);
      expect(got).toBeGreaterThan(previous);
      previous = got;
    }
    for (const py of [4, 16, 27]) {
      expect(Math.abs(red(image, 48, py) - 0.25)).toBeLessThan(0.005); // constant Kd
      expect(Math.abs(red(image, 80, py) - 0.5)).toBeLessThan(0.005); // the Surface's Kd
    }
  });
});
