// Curves render as ribbons: covered area against width × length, sub-pixel hair keeping its coverage,
// and cubic curves of each basis passing where the RenderMan basis matrix puts them (the oracle below
// evaluates [t³ t² t 1] · M · G from the spec's matrices, not the renderer's code).
import { describe, expect, it } from 'vitest';
import type { FloatImage } from '../../src/image/image.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { alphaSum, frameFromText, orthographicScene, pixel, render } from './render-helpers.ts';

/** Orthographic, ScreenWindow ±2 over 128 pixels: 32 pixels per unit. */
const SIZE = 128;
const PPU = 32;



/** RI 3.2's basis matrices (RiBasis), row-major, with their steps. */
const BASES: Record<string, { m: number[]; step: number }> = {
  bezier: { m: [-1, 3, -3, 1, 3, -6, 3, 0, -3, 3, 0, 0, 1, 0, 0, 0], step: 3 },
  'b-spline': { m: [-1, 3, -3, 1, 3, -6, 3, 0, -3, 0, 3, 0, 1, 4, 1, 0].map((x) => x / 6), step: 1 },
  'catmull-rom': { m: [-1, 3, -3, 1, 2, -5, 4, -1, -1, 0, 1, 0, 0, 2, 0, 0].map((x) => x / 2), step: 1 },
};

/** Points along a cubic curve of 2-D control points, `perSegment` samples a segment. */
function curvePoints(controls: number[][], basis: string, periodic: boolean, perSegment = 400): number[][] {
  const { m, step } = BASES[basis]!;
  const n = controls.length;
  const segments = periodic ? n / step : (n - 4) / step + 1;
  const out: number[][] = [];
  for (let s = 0; s < segments; s++) {
    const g = [0, 1, 2, 3].map((k) => controls[(s * step + k) % n]!);
    for (let i = 0; i <= perSegment; i++) {
      const t = i / perSegment;
      const tv = [t * t * t, t * t, t, 1];
      const w = [0, 1, 2, 3].map((k) => tv.reduce((sum, x, r) => sum + x * m[r * 4 + k]!, 0));
      out.push([0, 1].map((c) => g.reduce((sum, p, k) => sum + w[k]! * p[c]!, 0)));
    }
  }
  return out;
}

function polylineLength(points: number[][]): number {
  let length = 0;
  for (let i = 1; i < points.length; i++) length += Math.hypot(points[i]![0]! - points[i - 1]![0]!, points[i]![1]! - points[i - 1]![1]!);
  return length;
}

const toRaster = (x: number, y: number): [number, number] => [(x + 2) * PPU, (2 - y) * PPU];

describe('Curves', () => {
  const gpu = useGpuRuntime();

  it('a straight curve of constant width w and length L covers w·L pixels within 1%, linear and cubic', async () => {
    const w = 0.25;
    const linear = await render(gpu(), await frameFromText(orthographicScene(`Curves "linear" [2] "nonperiodic" "P" [-1.5 0.1 0  1.5 0.1 0] "constantwidth" [${w}]`)));
    const exact = w * 3 * PPU * PPU;
    expect(linear.rendered.warnings).toEqual([]);
    expect(Math.abs(alphaSum(linear.rendered.image) - exact) / exact).toBeLessThan(0.01);
    // A cubic Bézier with collinear control points, drawn diagonally.
    const c = 1.5 / Math.SQRT2;
    const cubic = await render(gpu(), await frameFromText(orthographicScene(`Basis "bezier" 3 "bezier" 3
Curves "cubic" [4] "nonperiodic" "P" [${-c} ${-c} 0  ${-c / 3} ${-c / 3} 0  ${c / 3} ${c / 3} 0  ${c} ${c} 0] "constantwidth" [${w}]`)));
    expect(Math.abs(alphaSum(cubic.rendered.image) - exact) / exact).toBeLessThan(0.01);
  });

  it('varying width is interpolated along the curve (a trapezoid) and scales with the object', async () => {
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene('Scale 0.5 0.5 0.5\nCurves "linear" [3] "nonperiodic" "P" [-3 0 0  0 0 0  3 0 0] "width" [0.2 0.4 0.6]')));
    // Object space: length 6, mean width 0.4; half size on screen.
    const exact = 3 * 0.2 * PPU * PPU;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);
    // Per column the covered height is the width there: 0.1 at raster x 16 rising to 0.3 at 112.
    for (const x of [20, 60, 100]) {
      let sum = 0;
      for (let y = 0; y < SIZE; y++) sum += pixel(rendered.image, x, y)[3]!;
      expect(Math.abs(sum - (0.1 + (0.2 * (x + 0.5 - 16)) / 96) * PPU)).toBeLessThan(0.1);
    }
  });

  it('a curve 0.2 pixels wide keeps about 0.2 coverage along its length, not 0 or 1', async () => {
    const w = 0.2 / PPU;
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Curves "linear" [2] "nonperiodic" "P" [-1.5 0.0137 0  1.5 0.0137 0] "constantwidth" [${w}]`)));
    const columns: number[] = [];
    for (let x = 20; x < 108; x++) {
      let sum = 0;
      for (let y = 0; y < SIZE; y++) sum += pixel(rendered.image, x, y)[3]!;
      columns.push(sum);
    }
    const mean = columns.reduce((a, b) => a + b, 0) / columns.length;
    expect(mean).toBeGreaterThan(0.19);
    expect(mean).toBeLessThan(0.21);
    // Every column sees the hair; none is drawn as a whole pixel.
    expect(columns.filter((c) => c === 0).length).toBeLessThan(columns.length * 0.1);
    expect(Math.max(...columns)).toBeLessThan(0.5);
  });

  for (const [basis, points] of [
    ['b-spline', [[-1.8, -0.3], [-1.1, 0.4], [-0.4, -0.3], [0.4, 0.4], [1.1, -0.3], [1.8, 0.3]]],
    ['catmull-rom', [[-1.8, -0.2], [-1.1, 0.25], [-0.4, -0.2], [0.4, 0.25], [1.1, -0.2], [1.8, 0.2]]],
    ['bezier', [[-1.8, -0.3], [-1.2, 0.4], [-0.6, -0.3], [0, 0.1], [0.6, 0.5], [1.2, -0.1], [1.8, 0.3]]],
  ] as const) {
    it(`a cubic ${basis} curve passes where the basis says`, async () => {
      const w = 0.15;
      const { step } = BASES[basis]!;
      const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Basis "bezier" 3 "${basis}" ${step}
Curves "cubic" [${points.length}] "nonperiodic" "P" [${points.map(([x, y]) => `${x} ${y} 0`).join('  ')}] "constantwidth" [${w}]`)));
      expect(rendered.warnings).toEqual([]);
      const curve = curvePoints(points.map((p) => [...p]), basis, false).map(([x, y]) => toRaster(x!, y!));
      // Per column: the alpha-weighted centre of the ribbon against the oracle's y at the column's centre.
      let checked = 0;
      for (let x = Math.ceil(curve[0]![0]) + 2; x < Math.floor(curve[curve.length - 1]![0]) - 2; x++) {
        const xc = x + 0.5;
        const k = curve.findIndex((p) => p[0] >= xc);
        const [a, b] = [curve[k - 1]!, curve[k]!];
        const yc = a[1] + ((b[1] - a[1]) * (xc - a[0])) / (b[0] - a[0]);
        let sum = 0;
        let weighted = 0;
        for (let y = 0; y < SIZE; y++) {
          const alpha = pixel(rendered.image, x, y)[3]!;
          sum += alpha;
          weighted += alpha * (y + 0.5);
        }
        // Half a pixel: where the ribbon bends, its vertical section is not centred on the curve exactly.
        expect(Math.abs(weighted / sum - yc)).toBeLessThan(0.5);
        checked++;
      }
      expect(checked).toBeGreaterThan(60);
      const exact = w * PPU * polylineLength(curve);
      expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.02);
    });
  }

  it('a periodic b-spline curve closes: its area is width × the closed length', async () => {
    const ring = Array.from({ length: 8 }, (_, k) => [1.4 * Math.cos((k * Math.PI) / 4), 1.1 * Math.sin((k * Math.PI) / 4)]);
    const w = 0.1;
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Basis "bezier" 3 "b-spline" 1
Curves "cubic" [8] "periodic" "P" [${ring.map(([x, y]) => `${x} ${y} 0`).join('  ')}] "constantwidth" [${w}]`)));
    const length = polylineLength(curvePoints(ring, 'b-spline', true)) * PPU;
    const exact = w * PPU * length;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.02);
    // The closing segment is there: the curve crosses the x axis on the left at the spline's x.
    const left = curvePoints(ring, 'b-spline', true).reduce((best, p) => (Math.abs(p[1]!) < Math.abs(best[1]!) && p[0]! < 0 ? p : best), [0, 9]);
    const [px, py] = toRaster(left[0]!, 0);
    expect(pixel(rendered.image, Math.floor(px), Math.floor(py))[3]).toBeGreaterThan(0.9);
  });

  it('in perspective a camera-facing ribbon keeps its width across the view', async () => {
    // Along x at depth 5: the side (view × tangent) is y everywhere, so the ribbon lies in the plane
    // z = 5 and projects to length 2·k/5 by width 0.1·k/5, k the pixels per unit of tan(angle).
    const { rendered } = await render(gpu(), await frameFromText(`Format 128 128 1
PixelSamples 4 4
Projection "perspective" "fov" 40
Translate 0 0 5
WorldBegin
Surface "constant"
Sides 1
Curves "linear" [2] "nonperiodic" "P" [-1 0 0  1 0 0] "constantwidth" [0.1]
WorldEnd`));
    const k = 64 / Math.tan((20 * Math.PI) / 180);
    const exact = ((2 * k) / 5) * ((0.1 * k) / 5);
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);
  });

  it('with N the ribbon is oriented: tilted 60° from the view it shows half its width', async () => {
    const w = 0.4;
    const tilt = (60 * Math.PI) / 180;
    const n = [0, -Math.sin(tilt), -Math.cos(tilt)];
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Curves "linear" [2] "nonperiodic" "P" [-1.5 0 0  1.5 0 0] "N" [${n.join(' ')}  ${n.join(' ')}] "constantwidth" [${w}]`)));
    const exact = w * Math.cos(tilt) * 3 * PPU * PPU;
    expect(Math.abs(alphaSum(rendered.image) - exact) / exact).toBeLessThan(0.01);
  });

  it('vertex Cs on a cubic curve follows the curve basis', async () => {
    // B-spline: the curve starts at (P0 + 4 P1 + P2) / 6, and so does a vertex colour (red at P1 only:
    // 4/6 at the start, 1/6 at the end); the constant surface shows Cs.
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Basis "bezier" 3 "b-spline" 1
Curves "cubic" [4] "nonperiodic" "P" [-3 0 0  -1 0 0  1 0 0  3 0 0] "constantwidth" [0.3] "vertex color Cs" [0 0 0  1 0 0  0 0 0  0 0 0]`)));
    // The curve runs from x = -1 to 1; red(t) is the uniform cubic B-spline's second basis function.
    const red = (t: number): number => ((3 * t * t * t - 6 * t * t + 4) / 6);
    for (const t of [0.05, 0.5, 0.95]) {
      // x(t) for these evenly spaced control points is linear: -1 + 2t.
      const [px, py] = toRaster(-1 + 2 * t, 0);
      const [r, , , a] = pixel(rendered.image, Math.floor(px), Math.floor(py));
      expect(r! / a!).toBeCloseTo(red(t), 1);
    }
  });

  it('varying Cs runs along the curve and uniform Cs colours each curve', async () => {
    const { rendered } = await render(gpu(), await frameFromText(orthographicScene(`Curves "linear" [2] "nonperiodic" "P" [-1.5 0.5 0  1.5 0.5 0] "constantwidth" [0.3] "varying color Cs" [1 0 0  0 0 1]
Curves "cubic" [4 4] "nonperiodic" "P" [-1.5 -0.5 0  -0.5 -0.5 0  0.5 -0.5 0  1.5 -0.5 0  -1.5 -1 0  -0.5 -1 0  0.5 -1 0  1.5 -1 0] "constantwidth" [0.3] "uniform color Cs" [0 1 0  1 1 0]`)));
    const at = (x: number, y: number): number[] => {
      const [px, py] = toRaster(x, y);
      return pixel(rendered.image, Math.floor(px), Math.floor(py)).map((v) => Number(v.toFixed(2)));
    };
    // Near the red end (colour over alpha: the pixel filter reaches past the end).
    const left = at(-1.5 + 2 / PPU, 0.5);
    expect(left[0]! / left[3]!).toBeGreaterThan(0.95);
    expect(left[2]! / left[3]!).toBeLessThan(0.05);
    // Raster x 64.5 is 0.505 of the way along.
    expect(at(0, 0.5)).toEqual([0.49, 0, 0.51, 1]);
    expect(at(0, -0.5)).toEqual([0, 1, 0, 1]);
    expect(at(0, -1)).toEqual([1, 1, 0, 1]);
  });
});
