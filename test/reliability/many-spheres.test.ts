// Many primitives (issue 16): 100,000 spheres, each a tenth of a pixel across, on a 400 × 250
// lattice over a 64 × 48 picture. The frame is cut into dozens of dicing regions (the grids of
// 100k pieces pass one storage binding), and its picture must still be right: nearly every pixel
// shows spheres, and the covered area is the spheres' — a sphere that small dices into one micropolygon per
// eighth of a turn (an octagon outline, 2√2 r² of its π r²), never into a single degenerate one
// (the poles and one meridian: nothing covered).
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { alphaSum, coverage, frameFromText, render } from '../reyes/render-helpers.ts';

const gpu = useGpuRuntime();

const COLUMNS = 400;
const ROWS = 250;
const WIDTH = 64;
const HEIGHT = 48;
const SPACING_X = WIDTH / COLUMNS;
const SPACING_Y = HEIGHT / ROWS;
/** Radius in pixels (one screen unit is one pixel). */
const RADIUS = 0.3 * Math.min(SPACING_X, SPACING_Y);

function scene(): string {
  const lines = [
    `Format ${WIDTH} ${HEIGHT} 1`, 'PixelSamples 4 4', 'PixelFilter "box" 1 1', 'Projection "orthographic"',
    `ScreenWindow ${-WIDTH / 2} ${WIDTH / 2} ${-HEIGHT / 2} ${HEIGHT / 2}`, 'Translate 0 0 10', 'WorldBegin', 'Surface "constant"',
  ];
  for (let j = 0; j < ROWS; j++) {
    for (let i = 0; i < COLUMNS; i++) {
      const x = -WIDTH / 2 + (i + 0.5) * SPACING_X;
      const y = -HEIGHT / 2 + (j + 0.5) * SPACING_Y;
      lines.push(`TransformBegin Translate ${x.toFixed(5)} ${y.toFixed(5)} 0 Sphere ${RADIUS} ${-RADIUS} ${RADIUS} 360 TransformEnd`);
    }
  }
  lines.push('WorldEnd');
  return lines.join('\n');
}

describe('100,000 small spheres', () => {
  it('render in bounded time with the area they cover', async () => {
    const frame = await frameFromText(scene());
    expect(frame.primitives.length).toBe(COLUMNS * ROWS);
    const start = performance.now();
    const { rendered, image } = await render(gpu(), frame);
    const seconds = (performance.now() - start) / 1000;
    const { stats } = rendered;
    console.log(`100k spheres: ${seconds.toFixed(1)} s, ${stats.dicingRegions} dicing regions, ${stats.micropolygons} micropolygons, ` +
      `peak ${(stats.peakBytes / 2 ** 20).toFixed(0)} MiB of a ${(stats.budgetBytes / 2 ** 20).toFixed(0)} MiB budget`);
    // Generous for a shared 2-core machine; about 25 s of CPU time when measured.
    expect(seconds).toBeLessThan(240);
    // Each pixel holds about 5 × 6 spheres over 27% of its area; a few of its 16 samples miss them
    // all (0.73^16 ≈ 0.6% of pixels).
    expect(coverage(image)).toBeGreaterThan(0.95);
    const disks = COLUMNS * ROWS * Math.PI * RADIUS * RADIUS;
    const area = alphaSum(rendered.image);
    // The octagons' 2√2/π = 0.900 of the disks, within the sampling's noise.
    expect(area / disks).toBeGreaterThan(0.87);
    expect(area / disks).toBeLessThan(0.93);
  }, 300_000);
});
