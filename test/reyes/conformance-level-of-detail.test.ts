// Level of detail against RI 3.2 (Detail, DetailRange, RelativeDetail): the detail is the raster area
// of the Detail bound (times RelativeDetail); a representation is drawn where its DetailRange holds
// the detail, and two representations cross-fade over their transitions. The expected areas are
// worked out by hand from the projection.
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { detailImportance, rasterArea } from '../../src/reyes/convert/level-of-detail.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

// fov 90 over 200 × 200 pixels: 100 pixels per unit at distance 1. The Detail box [−1, 1]³ centred at
// distance 10 has its nearest face at 9, which projects to a square of 200/9 pixels: 493.83 pixels².
const AREA_AT_10 = (200 / 9) ** 2;
const RED = [1, 0, 0];
const BLUE = [0, 0, 1];
const GREEN = [0, 1, 0];

interface Representation {
  range: string;
  color: number[];
}

function lodScene(representations: Representation[], options: { distance?: number; relativeDetail?: number; moveAfterDetail?: number } = {}): string {
  const blocks = representations.map((r) => `AttributeBegin
DetailRange ${r.range}
Color [${r.color.join(' ')}]
Polygon "P" [-1 -1 0  1 -1 0  1 1 0  -1 1 0]
AttributeEnd`);
  return `Format 200 200 1
PixelSamples 4 4
PixelFilter "box" 1 1
${options.relativeDetail !== undefined ? `RelativeDetail ${options.relativeDetail}` : ''}
Projection "perspective" "fov" 90
WorldBegin
Surface "constant"
Translate 0 0 ${options.distance ?? 10}
Detail [-1 1 -1 1 -1 1]
${options.moveAfterDetail !== undefined ? `Translate 0 0 ${options.moveAfterDetail}` : ''}
${blocks.join('\n')}
WorldEnd`;
}

const THREE_RANGES: Representation[] = [
  { range: '0 0 300 300', color: RED },
  { range: '300 300 600 600', color: BLUE },
  { range: '600 600 1e38 1e38', color: GREEN },
];

describe('level of detail', () => {
  const gpu = useGpuRuntime();

  it('measures the raster area of the Detail box', () => {
    const cameraToRaster = mat4.fromValues(100, 0, 0, 0, 0, -100, 0, 0, 100, 100, 1, 1, 0, 0, 0, 0);
    const at10 = mat4.fromTranslation(mat4.create(), [0, 0, 10]);
    expect(rasterArea([-1, 1, -1, 1, -1, 1], at10, cameraToRaster, true)).toBeCloseTo(AREA_AT_10, 3);
    // Off-axis: the rectangle around the eight corners, [(2−1)/9, (4+1)/9] × [−1/9, 1/9] wide.
    const offAxis = mat4.fromTranslation(mat4.create(), [3, 0, 10]);
    const expected = (100 * (4 / 9 - 2 / 11)) * (200 / 9);
    expect(rasterArea([-1, 1, -1, 1, -1, 1], offAxis, cameraToRaster, true)).toBeCloseTo(expected, 3);
    // A box around the eye has infinite detail.
    expect(rasterArea([-1, 1, -1, 1, -1, 1], mat4.create(), cameraToRaster, true)).toBe(Infinity);
  });

  it('gives the share drawn as the spec’s ranges say', () => {
    expect(detailImportance(50, [0, 0, 100, 100])).toEqual([0, 1]);
    expect(detailImportance(150, [0, 0, 100, 100])).toBeUndefined();
    expect(detailImportance(5, [10, 10, 100, 100])).toBeUndefined();
    // Fading in over [100, 200] and out over [300, 500].
    expect(detailImportance(125, [100, 200, 300, 500])).toEqual([0.75, 1]);
    expect(detailImportance(450, [100, 200, 300, 500])).toEqual([0, 0.25]);
  });

  it('draws the representation whose DetailRange holds the detail', async () => {
    const centre = async (scene: string): Promise<number[]> => {
      const { rendered } = await render(gpu(), await frameFromText(scene));
      const { rgba, width } = rendered.image;
      return Array.from(rgba.subarray((100 * width + 100) * 4, (100 * width + 100) * 4 + 4)).map((v) => Number(v.toFixed(4)));
    };
    // 493.8 pixels² lies in the second range.
    expect(await centre(lodScene(THREE_RANGES))).toEqual([...BLUE, 1]);
    // RelativeDetail 0.5 halves it to 246.9: the first.
    expect(await centre(lodScene(THREE_RANGES, { relativeDetail: 0.5 }))).toEqual([...RED, 1]);
    // At distance 6 the near face at 5 is 40 × 40 pixels, 1600: the third.
    expect(await centre(lodScene(THREE_RANGES, { distance: 6 }))).toEqual([...GREEN, 1]);
    // The bound is in the space current at Detail: moving the geometry afterwards keeps 493.8.
    expect(await centre(lodScene(THREE_RANGES, { moveAfterDetail: -4 }))).toEqual([...BLUE, 1]);
  });

  it('cross-fades two representations with shares that add to one', async () => {
    // Red fades out and blue fades in over [400, 600]: at 493.8, red draws (600 − 493.8) / 200.
    const scene = lodScene([{ range: '0 0 400 600', color: RED }, { range: '400 600 1e38 1e38', color: BLUE }]);
    const { rendered } = await render(gpu(), await frameFromText(scene));
    const { rgba, width } = rendered.image;
    let red = 0;
    let pixels = 0;
    // The square spans pixels 90..109 in each direction; its inner 18 × 18 pixels are fully covered.
    for (let y = 91; y < 109; y++) {
      for (let x = 91; x < 109; x++) {
        const at = (y * width + x) * 4;
        expect(rgba[at + 3]).toBeCloseTo(1, 5);
        expect(rgba[at]! + rgba[at + 2]!).toBeCloseTo(1, 5);
        red += rgba[at]!;
        pixels++;
      }
    }
    const share = (600 - AREA_AT_10) / 200;
    // 5184 sample points: the binomial standard deviation of the share is 0.007.
    expect(Math.abs(red / pixels - share)).toBeLessThan(0.025);
  });
});
