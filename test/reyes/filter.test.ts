// The pixel filter across an edge, against a CPU oracle: a white half-plane ending at raster
// x = 20.37 makes each subpixel 1 where its jittered sample lies left of the edge, 0 elsewhere, so
// each pixel must be the normalised sum of the filter's weights (src/image/pixel-filters.ts, the RI
// 3.2 formulas) over the covered sample locations. The sample locations are recomputed here from
// the jitter hash's definition (reyes-jitter.wgsl, jitter-reference.ts). Every RI filter, at width 2 and at width 6.
import { describe, expect, it } from 'vitest';
import { PIXEL_FILTERS, pixelFilterWeight, type PixelFilterName } from '../../src/image/pixel-filters.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { sampleLocation } from './jitter-reference.ts';
import { frameFromText, pixel, render } from './render-helpers.ts';

const WIDTH = 48;
const HEIGHT = 16;
const SAMPLES = 4;
const EDGE = 20.37;

function expected(filter: PixelFilterName, width: number, px: number, py: number): number {
  let sum = 0;
  let total = 0;
  const reach = Math.ceil(width / 2) + 1;
  for (let sy = (py - reach) * SAMPLES; sy < (py + reach + 1) * SAMPLES; sy++) {
    for (let sx = (px - reach) * SAMPLES; sx < (px + reach + 1) * SAMPLES; sx++) {
      const [x, y] = sampleLocation(sx, sy, SAMPLES);
      const w = pixelFilterWeight(filter, x - (px + 0.5), y - (py + 0.5), width, width);
      sum += x < EDGE ? w : 0;
      total += w;
    }
  }
  return sum / total;
}

const scene = (filter: string, width: number) => `Format ${WIDTH} ${HEIGHT} 1
PixelSamples ${SAMPLES} ${SAMPLES}
PixelFilter "${filter}" ${width} ${width}
Projection "orthographic"
ScreenWindow -2.4 2.4 -0.8 0.8
WorldBegin
Surface "constant"
Polygon "P" [-3 -1 5  ${-2.4 + EDGE / 10} -1 5  ${-2.4 + EDGE / 10} 1 5  -3 1 5]
WorldEnd`;

describe('pixel filter across an edge', () => {
  const gpu = useGpuRuntime();

  for (const width of [2, 6]) {
    for (const filter of PIXEL_FILTERS) {
      it(`${filter} ${width}×${width}: each pixel is the weighted share of the samples left of the edge`, async () => {
        const { rendered } = await render(gpu(), await frameFromText(scene(filter, width)));
        // Pixels whose support stays inside the picture.
        const margin = width / 2 + 1;
        let edgePixels = 0;
        for (let py = margin; py < HEIGHT - margin; py++) {
          for (let px = margin; px < WIDTH - margin; px++) {
            const want = expected(filter, width, px, py);
            if (want > 0.01 && want < 0.99) edgePixels++;
            expect(pixel(rendered.image, px, py)[3], `alpha at ${px},${py}`).toBeCloseTo(want, 4);
          }
        }
        expect(edgePixels).toBeGreaterThanOrEqual(HEIGHT - 2 * margin);
      });
    }
  }
});
