// Watertightness under displacement: a sphere of radius 1 displaced outward by 0.2 along its normal is
// the sphere of radius 1.2, and must leave no pinholes either. Seams between grids of different
// dicing rates are closed before displacement (reyes-dice.wgsl); displacement then moves a finer
// grid's in-between edge vertices along their own normals, off the coarser grid's straight edge,
// unless they are put back on it after shading (stages/reseam.ts).
import { describe, expect, it } from 'vitest';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { hitsSphere, pinholes, views, VIEWS } from './watertight-views.ts';

const INFLATE = [
  'displacement inflate(float amount = 0.2) {',
  '  P += amount * normalize(N);',
  '  N = calculatenormal(P);',
  '}',
].join('\n');

describe('displaced opaque surfaces are watertight', () => {
  const gpu = useGpuRuntime();

  it('a sphere displaced by a constant 0.2 has alpha exactly 1 wherever the sphere of radius 1.2 covers a pixel\'s whole filter support', async () => {
    const provider = new RslShadingProvider({ lookup: (name) => (name === 'inflate' ? { file: 'inflate.sl', text: INFLATE } : undefined) });
    const result = await pinholes(gpu(), views(0xd15b1a, [3.5, 9]), 1, 'Sphere 1 -1 1 360', (view, d) => hitsSphere(view.centre, 1.2, d), {
      surface: 'Surface "constant"\nDisplacement "inflate"\nAttribute "displacementbound" "sphere" [0.2]',
      options: { shading: provider.provide },
    });
    expect(result.inside).toBeGreaterThan(VIEWS * 500);
    expect(result.holes.slice(0, 10), `${result.holes.length} pinholes`).toEqual([]);
  }, 300_000);
});
