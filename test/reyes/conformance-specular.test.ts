// specular()'s highlight as PRMan, BMRT and Aqsis draw it. The RenderMan Interface leaves
// specularbrdf to the renderer (its example is pow(max(0, N·H), 1 / roughness)); those renderers
// use the exponent 1 / (roughness / 8) (Aqsis 1.8.4's specular() and pow(max(0, N·H), 8 / roughness)
// written out in an illuminance loop render the same picture, to the bit), and scenes written for
// them expect that size of highlight: with 1 / roughness the plastic of ribtools' Airplane came out
// a fifth brighter than Aqsis's. A plane seen straight on through an orthographic camera under one
// distant light has the same N·H everywhere, so each pixel is the formula's value.
import { describe, expect, it } from 'vitest';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, pixel, render } from './render-helpers.ts';

const SHADERS: Record<string, string> = {
  highlight: `surface highlight(float roughness = 0.1) {
  Oi = 1;
  Ci = specular(faceforward(normalize(N), I), -normalize(I), roughness);
}`,
};

const provider = (): RslShadingProvider =>
  new RslShadingProvider({ lookup: (name) => (SHADERS[name] !== undefined ? { file: `${name}.sl`, text: SHADERS[name]! } : undefined) });

/** The plane z = 0 facing the camera, lit from `halfAngle` × 2 off the view axis, so that the
 * half vector H makes `halfAngle` with the normal. */
const scene = (halfAngle: number, roughness: number): string => `Format 16 16 1
PixelSamples 2 2
Projection "orthographic"
ScreenWindow -1 1 -1 1
Translate 0 0 5
WorldBegin
LightSource "distantlight" 1 "intensity" [0.9] "from" [${Math.sin(2 * halfAngle)} 0 ${-Math.cos(2 * halfAngle)}] "to" [0 0 0]
Surface "highlight" "roughness" [${roughness}]
Polygon "P" [-2 -2 0  2 -2 0  2 2 0  -2 2 0]
WorldEnd`;

describe('specular() conformance', () => {
  const gpu = useGpuRuntime();

  for (const [halfAngle, roughness] of [[0.2, 0.2], [0.1, 0.1], [0.12, 0.5], [0, 0.1]] as const) {
    it(`N·H = cos ${halfAngle}, roughness ${roughness}: intensity × (N·H)^(8 / roughness)`, async () => {
      const { rendered } = await render(gpu(), await frameFromText(scene(halfAngle, roughness)), { shading: provider().provide });
      expect(rendered.warnings).toEqual([]);
      const expected = 0.9 * Math.cos(halfAngle) ** (8 / roughness);
      // The spec's example exponent gives a different value wherever N·H < 1.
      if (halfAngle > 0) expect(Math.abs(0.9 * Math.cos(halfAngle) ** (1 / roughness) - expected)).toBeGreaterThan(0.05);
      for (const [x, y] of [[8, 8], [2, 13]] as const) {
        const [r, g, b] = pixel(rendered.image, x, y);
        for (const value of [r, g, b]) expect(value).toBeCloseTo(expected, 4);
      }
    });
  }
});
