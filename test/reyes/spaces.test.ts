// "object" and "shader" space in compiled shaders on the GPU: each primitive's object space and each
// shader instance's shader space come from its parameter block, so two copies of one object under
// different transforms get the same pattern, and the values are the analytic ones.
import { describe, expect, it } from 'vitest';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, pixel, render } from './render-helpers.ts';

const SPACES_SL = `surface spaces() {
  point Po = transform("object", P);
  point Ps = transform("shader", P);
  Oi = 1;
  Ci = color(xcomp(Po) * 0.25 + 0.5, ycomp(Ps) * 0.25 + 0.5, zcomp(Po) + 0.5);
}`;

// Orthographic, 16 pixels per unit: x = (px + 0.5) / 16 - 3, y = 1.5 - (py + 0.5) / 16.
// Each copy: its object space is translated by (±1.5, 0, z); its shader space (Surface declared
// under one more Translate) by a further (0, 0.5, 0) on the left and (0, -0.25, 0) on the right.
const copy = (x: number, z: number, shaderY: number): string => `AttributeBegin
Translate ${x} 0 ${z}
TransformBegin Translate 0 ${shaderY} 0 Surface "spaces" TransformEnd
Patch "bilinear" "P" [-1 -1 0  1 -1 0  -1 1 0  1 1 0]
AttributeEnd`;

const SCENE = `Format 96 48 1
PixelSamples 2 2
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -3 3 -1.5 1.5
ShadingRate 0.25
Translate 0 0 5
WorldBegin
ShadingInterpolation "smooth"
${copy(-1.5, 0, 0.5)}
${copy(1.5, 1, -0.25)}
WorldEnd`;

describe('per-primitive "object" and per-instance "shader" space', () => {
  const gpu = useGpuRuntime();

  it('two copies of a patch at different transforms: object-space colour is the same, shader space is each Surface\'s own', async () => {
    const provider = new RslShadingProvider({ lookup: (name) => (name === 'spaces' ? { file: 'spaces.sl', text: SPACES_SL } : undefined) });
    const frame = await frameFromText(SCENE);
    const { rendered } = await render(gpu(), frame, { shading: provider.provide });
    expect(rendered.warnings).toEqual([]);
    const image = rendered.image;
    let checked = 0;
    // Inside both patches (1.5 pixels from their edges).
    for (let py = 10; py < 38; py += 3) {
      for (let px = 10; px < 38; px += 3) {
        const x = (px + 0.5) / 16 - 3;
        const y = 1.5 - (py + 0.5) / 16;
        const left = pixel(image, px, py);
        const right = pixel(image, px + 48, py);
        const r = (x + 1.5) * 0.25 + 0.5;
        expect(left[3]).toBeCloseTo(1, 4);
        expect(right[3]).toBeCloseTo(1, 4);
        // Object space: the same on both copies, and (x + 1.5, y, 0) analytically.
        expect(Math.abs(left[0]! - r), `red at ${px},${py}`).toBeLessThan(0.01);
        expect(Math.abs(right[0]! - left[0]!), `red at ${px},${py} vs ${px + 48}`).toBeLessThan(0.005);
        expect(Math.abs(left[2]! - 0.5)).toBeLessThan(0.005);
        expect(Math.abs(right[2]! - 0.5)).toBeLessThan(0.005);
        // Shader space: y - 0.5 on the left, y + 0.25 on the right.
        expect(Math.abs(left[1]! - ((y - 0.5) * 0.25 + 0.5)), `green at ${px},${py}`).toBeLessThan(0.01);
        expect(Math.abs(right[1]! - ((y + 0.25) * 0.25 + 0.5)), `green at ${px + 48},${py}`).toBeLessThan(0.01);
        checked++;
      }
    }
    expect(checked).toBe(100);
  });
});
