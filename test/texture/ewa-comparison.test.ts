// texture()'s anisotropic filter against EWA (test/texture/ewa-reference.ts) on a checkerboard plane
// at grazing angles (grazing-checker.ts): the pipeline renders the plane twice, with the default
// filter (up to 16 trilinear probes along the footprint's major axis) and with "samples" 1 (one
// probe: isotropic trilinear at the major axis's level), and each pixel is compared with EWA at the
// pixel's analytic s, t and Jacobian. Measured on lavapipe (mean |error| per band of angle from the
// normal; the bench prints them all, npm run bench:texture): 70–80° anisotropic 0.013, trilinear
// 0.020; 80–85° 0.057 and 0.072; 88–90° both within 0.02 of grey, as EWA is. Most of the
// anisotropic filter's error is shared with trilinear: Reyes shades micropolygon vertices, whose
// footprints are 0.3–1.2 pixels here, and the pixel filter blends the vertices' colours.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { bandErrors, ewaPicture, renderGrazing, type BandError } from './grazing-checker.ts';

const runtime = useGpuRuntime();

describe('texture() at grazing angles against EWA', () => {
  it('is close to EWA where the checks still show, closer than trilinear alone, and grey by the horizon', async () => {
    const reference = ewaPicture();
    const anisotropic = bandErrors(await renderGrazing(runtime()), reference);
    const trilinear = bandErrors(await renderGrazing(runtime(), ', "samples", 1'), reference);
    const at = (errors: BandError[], from: number): BandError => errors.find((e) => e.band[0] === from)!;
    for (const [from, most] of [[70, 0.025], [80, 0.08]] as const) {
      const a = at(anisotropic, from);
      const t = at(trilinear, from);
      // The checks keep contrast in EWA here; trilinear blurs them across by the major axis.
      expect(a.ewaContrast).toBeGreaterThan(0.25);
      expect(a.pixels).toBeGreaterThan(500);
      expect(a.mean).toBeLessThan(most);
      expect(a.mean).toBeLessThan(0.85 * t.mean);
      expect(a.contrast).toBeGreaterThan(t.contrast);
    }
    // Near the horizon a pixel spans many checks: EWA, and both filters, are grey.
    const horizon = at(anisotropic, 88);
    expect(horizon.pixels).toBeGreaterThan(50);
    expect(horizon.ewaContrast).toBeLessThan(0.01);
    expect(horizon.contrast).toBeLessThan(0.04);
    expect(at(trilinear, 88).contrast).toBeLessThan(0.04);
  }, 120_000);
});
