// Rendering with RSL message passing and information functions: a surface that reads
// attribute("user:...") (per primitive, from the parameter block) and option("Format") (compiled
// in), and specular() honouring a light's __nonspecular as PRMan does (contribution × (1 − value)).
import { describe, expect, it } from 'vitest';
import type { FloatImage } from '../../src/image/image.ts';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, pixel, render } from './render-helpers.ts';

const SHADERS: Record<string, string> = {
  usertint: `surface usertint() {
  color c = color(0.1, 0.1, 0.1);
  float w = 0;
  float fmt[3];
  if (attribute("user:tint", c) == 0) c = color(1, 0, 1);
  if (option("Format", fmt) != 0) w = fmt[0] / 100;
  Oi = Os;
  Ci = c * w;
}`,
  shiny: `surface shiny() { Oi = Os; Ci = specular(normalize(N), -normalize(I), 0.2); }`,
  speclight: `light speclight(float intensity = 1; float __nonspecular = 0) {
  solar(vector(0, 0, 1), 0) Cl = intensity;
}`,
};

const provider = (): RslShadingProvider =>
  new RslShadingProvider({ lookup: (name) => (SHADERS[name] !== undefined ? { file: `${name}.sl`, text: SHADERS[name]! } : undefined) });

const scene = (width: number, body: string): string => `Format ${width} 32 1
PixelSamples 2 2
Projection "orthographic"
ScreenWindow -3 3 -1 1
Translate 0 0 5
WorldBegin
${body}
WorldEnd`;

describe('RSL information functions and message passing in the renderer', () => {
  const gpu = useGpuRuntime();

  it('attribute("user:tint") differs per primitive; option("Format") is the frame resolution', async () => {
    const objects = [
      'AttributeBegin Translate -2 0 0 Attribute "user" "color tint" [1 0.5 0.25] Surface "usertint" Sphere 0.8 -0.8 0.8 360 AttributeEnd',
      'AttributeBegin Translate 0 0 0 Attribute "user" "color tint" [0.2 0.4 0.8] Surface "usertint" Sphere 0.8 -0.8 0.8 360 AttributeEnd',
      // No user:tint here: attribute() returns 0 and the shader picks magenta.
      'AttributeBegin Translate 2 0 0 Surface "usertint" Sphere 0.8 -0.8 0.8 360 AttributeEnd',
    ].join('\n');
    const { rendered } = await render(gpu(), await frameFromText(scene(96, objects)), { shading: provider().provide });
    expect(rendered.warnings).toEqual([]);
    const w = 96 / 100;
    const expected = [[1, 0.5, 0.25], [0.2, 0.4, 0.8], [1, 0, 1]];
    [16, 48, 80].forEach((x, k) => {
      const got = pixel(rendered.image, x, 16);
      for (let c = 0; c < 3; c++) expect(got[c], `object ${k} channel ${c}`).toBeCloseTo(expected[k]![c]! * w, 4);
    });
    // Another resolution compiles another kernel with the other value.
    const wider = await render(gpu(), await frameFromText(scene(192, objects)), { shading: provider().provide });
    expect(pixel(wider.rendered.image, 32, 16)[0]).toBeCloseTo(1 * 1.92, 4);
  });

  it('specular() leaves out a light with __nonspecular 1 and halves one with 0.5', async () => {
    const frame = async (nonspecular: number): Promise<FloatImage> => {
      const body = `LightSource "speclight" 1 "intensity" [1] "__nonspecular" [${nonspecular}]
Surface "shiny"
Sphere 0.8 -0.8 0.8 360`;
      const { rendered } = await render(gpu(), await frameFromText(scene(96, body)), { shading: provider().provide });
      expect(rendered.warnings).toEqual([]);
      return rendered.image;
    };
    const full = pixel(await frame(0), 48, 16);
    const half = pixel(await frame(0.5), 48, 16);
    const none = pixel(await frame(1), 48, 16);
    // The highlight of a light behind the camera at the sphere's centre is bright.
    expect(full[0]).toBeGreaterThan(0.2);
    for (let c = 0; c < 3; c++) {
      expect(half[c]).toBeCloseTo(full[c]! / 2, 4);
      expect(none[c]).toBeCloseTo(0, 6);
    }
  });
});
