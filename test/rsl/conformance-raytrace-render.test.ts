// A glass shader that traces rays renders its direct lighting, not the default surface (issue 10):
// rendered on Dawn through the RSL shading provider, with the one positioned warning for the shader.
import { describe, expect, it } from 'vitest';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, pixel, render } from '../reyes/render-helpers.ts';

const gpu = useGpuRuntime();

// Direct light through diffuse() scaled by transmission(), mirror and refraction terms from trace()
// weighted by fresnel(), as glass shaders are written: without rays only the direct light is left.
const GLASS = `surface glass(float Kd = 1, Kr = 1, Kt = 1, eta = 1.5) {
  normal Nf = faceforward(normalize(N), I);
  vector V = normalize(I);
  float kr, kt;
  fresnel(V, Nf, 1 / eta, kr, kt);
  color mirror = Kr * kr * trace(P, reflect(V, Nf));
  color through = Kt * kt * trace(P, refract(V, Nf, 1 / eta));
  float unblocked = transmission(P, P + Nf);
  Oi = Os;
  Ci = Os * Cs * Kd * diffuse(Nf) * unblocked + mirror + through;
}`;

describe('ray-tracing shaders without ray tracing', () => {
  it('a glass sphere shows its direct lighting, with one warning naming the file and position', async () => {
    // Orthographic, a distant light from the camera: at the centre of the unit sphere N·L = 1.
    const cs = [0.8, 0.6, 0.4];
    const frame = await frameFromText(`Format 40 40 1
PixelSamples 2 2
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -1.25 1.25 -1.25 1.25
Translate 0 0 5
WorldBegin
LightSource "distantlight" 1 "intensity" [1] "from" [0 0 -1] "to" [0 0 0]
Color [${cs.join(' ')}]
Surface "glass"
Sphere 1 -1 1 360
WorldEnd`);
    const provider = new RslShadingProvider({ lookup: (name) => (name === 'glass' ? { file: 'glass.sl', text: GLASS } : undefined) });
    const { rendered } = await render(gpu(), frame, { shading: provider.provide });
    expect(rendered.warnings).toHaveLength(1);
    expect(rendered.warnings[0]).toMatch(/^glass\.sl:6:28: .*this renderer does not trace rays/);
    const centre = pixel(rendered.image, 20, 20);
    // The pixel's centre is 1/32 of a unit off the sphere's: cos ≈ 0.9995.
    for (let c = 0; c < 3; c++) expect(centre[c]!).toBeCloseTo(cs[c]!, 2);
    expect(centre[3]).toBeCloseTo(1, 5);
  });
});
