// A scene's CoordinateSystem reaches a shader that names it in a string parameter (issue 10, spaces by
// name at run time): rendered on Dawn through the RSL shading provider, the colour encodes where the
// world origin lies in the named space, so a wrong or missing matrix shows in the pixel.
import { describe, expect, it } from 'vitest';
import type { FloatImage } from '../../src/image/image.ts';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render, pixel as floatPixel } from '../reyes/render-helpers.ts';

const gpu = useGpuRuntime();

const SPACER = `surface spacer(string sp = "world") {
  point o = transform(sp, point "world" (0, 0, 0));
  Ci = color(-xcomp(o) / 4, 0.25 + ycomp(o) / 4, zcomp(o) / 4);
  Oi = 1;
}`;

/** A pixel's float RGBA to three decimals. */
function pixel(image: FloatImage, x: number, y: number): number[] {
  return floatPixel(image, x, y).map((c) => +c.toFixed(3));
}

describe('named coordinate systems at run time', () => {
  it('transform(sp, ...) with sp a parameter naming a CoordinateSystem of the scene, the world, or an unknown space', async () => {
    // Three spheres in a row; mycs sits 2 units along world x, so the world origin is at x = -2 in it.
    const frame = await frameFromText(`Format 60 20 1
PixelSamples 2 2
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -3 3 -1 1
Translate 0 0 5
WorldBegin
TransformBegin Translate 2 0 0 CoordinateSystem "mycs" TransformEnd
AttributeBegin Translate -2 0 0 Surface "spacer" "string sp" ["mycs"] Sphere 0.9 -1 1 360 AttributeEnd
AttributeBegin Surface "spacer" Sphere 0.9 -1 1 360 AttributeEnd
AttributeBegin Translate 2 0 0 Surface "spacer" "string sp" ["elsewhere"] Sphere 0.9 -1 1 360 AttributeEnd
WorldEnd`);
    const provider = new RslShadingProvider({ lookup: (name) => (name === 'spacer' ? { file: 'spacer.sl', text: SPACER } : undefined) });
    const { rendered } = await render(gpu(), frame, { shading: provider.provide });
    // The unknown name is known when the parameter block is packed: one warning says so, at the Surface request.
    expect(rendered.warnings).toEqual(['<input>:11:32: parameter "sp" of shader "spacer" names the space "elsewhere", which is neither a standard space nor a CoordinateSystem of the scene; the identity is used']);
    // mycs: the world origin at (-2, 0, 0) → red 0.5.
    expect(pixel(rendered.image, 10, 10)).toEqual([0.5, 0.25, 0, 1]);
    // "world" and a name the scene does not define (the identity from camera space: the origin is
    // 5 units in front of the camera, z = 5) differ as they should.
    expect(pixel(rendered.image, 30, 10)).toEqual([0, 0.25, 0, 1]);
    expect(pixel(rendered.image, 50, 10)).toEqual([0, 0.25, 1.25, 1]);
  });
});
