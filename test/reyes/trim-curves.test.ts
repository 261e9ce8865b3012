// TrimCurve on NuPatch (RI 3.2 RiTrimCurve): the loops are applied per sample point, by the odd
// winding rule. Checked against exact areas (a circle of radius r keeps or removes exactly πr²) and
// against a Disk quadric's silhouette pixel by pixel (a trimmed edge is as smooth as a silhouette).
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame } from '../../src/reyes/convert/convert-frame.ts';
import { RECORD } from '../../src/layout/primitive-record.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { userPrimitiveVariables } from '../../src/reyes/primvars.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { alphaSum, frameFromText, render } from './render-helpers.ts';

const R = Math.SQRT1_2;

/** A circle of radius r about (cx, cy) as one rational quadratic trim curve (nine homogeneous
 * points, counter-clockwise; `clockwise` reverses it). */
function circleCurve(cx: number, cy: number, r: number, clockwise = false): { order: number; knots: number[]; u: number[]; v: number[]; w: number[] } {
  let points: [number, number, number][] = [[1, 0, 1], [1, 1, R], [0, 1, 1], [-1, 1, R], [-1, 0, 1], [-1, -1, R], [0, -1, 1], [1, -1, R], [1, 0, 1]];
  if (clockwise) points = points.map(([x, y, w]) => [x, -y, w]);
  return {
    order: 3, knots: [0, 0, 0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1, 1],
    u: points.map(([x, , w]) => (cx + r * x) * w), v: points.map(([, y, w]) => (cy + r * y) * w), w: points.map(([, , w]) => w),
  };
}

/** A closed polygon as one linear (order 2) trim curve. */
function polygonCurve(corners: [number, number][]): { order: number; knots: number[]; u: number[]; v: number[]; w: number[] } {
  const closed = [...corners, corners[0]!];
  const n = closed.length;
  return { order: 2, knots: [0, ...closed.map((_, k) => k), n - 1], u: closed.map(([x]) => x), v: closed.map(([, y]) => y), w: closed.map(() => 1) };
}

/** The RIB TrimCurve of loops, each loop a list of curves. */
function trimCurve(loops: ReturnType<typeof circleCurve>[][]): string {
  const curves = loops.flat();
  const list = (values: number[]) => `[${values.join(' ')}]`;
  return `TrimCurve ${list(loops.map((l) => l.length))} ${list(curves.map((c) => c.order))} ${list(curves.flatMap((c) => c.knots))} ` +
    `${list(curves.map((c) => c.knots[c.order - 1]!))} ${list(curves.map((c) => c.knots[c.u.length]!))} ${list(curves.map((c) => c.u.length))} ` +
    `${list(curves.flatMap((c) => c.u))} ${list(curves.flatMap((c) => c.v))} ${list(curves.flatMap((c) => c.w))}`;
}

/** The unit square z = 0, P(u, v) = (u, v, 0), moved so that its parameter point (0.5, 0.5) is at the origin. */
const SQUARE = 'Translate -0.5 -0.5 0\nNuPatch 2 2 [0 0 1 1] 0 1 2 2 [0 0 1 1] 0 1 "P" [0 0 0 1 0 0 0 1 0 1 1 0]';
/** Three knot spans along u (u in [0, 3], P = (u, v, 0)), moved so that (1.5, 0.5) is at the origin. */
const STRIP = 'Translate -1.5 -0.5 0\nNuPatch 4 2 [0 0 1 2 3 3] 0 3 2 2 [0 0 1 1] 0 1 "P" [0 0 0 1 0 0 2 0 0 3 0 0 0 1 0 1 1 0 2 1 0 3 1 0]';

const W = 200;

/** A W × W orthographic frame of [-half, half]², constant white, box filter (alpha sums to area). */
function scene(body: string, half: number): string {
  return `Format ${W} ${W} 1\nPixelSamples 4 4\nPixelFilter "box" 1 1\nProjection "orthographic"
ScreenWindow ${-half} ${half} ${-half} ${half}\nTranslate 0 0 5\nWorldBegin\nSurface "constant"\n${body}\nWorldEnd`;
}

describe('TrimCurve', () => {
  const gpu = useGpuRuntime();

  async function area(body: string, half: number): Promise<{ area: number; alpha: Float32Array; warnings: string[] }> {
    const { rendered } = await render(gpu(), await frameFromText(scene(body, half)));
    const pixelsPerUnit = W / (2 * half);
    const alpha = new Float32Array(W * W);
    for (let k = 0; k < alpha.length; k++) alpha[k] = rendered.image.rgba[k * 4 + 3]!;
    return { area: alphaSum(rendered.image) / pixelsPerUnit ** 2, alpha, warnings: rendered.warnings };
  }

  it('one circle loop keeps exactly its disk (odd winding rule), within 0.5% of πr²', async () => {
    const r = 0.3;
    const { area: kept, warnings } = await area(`${trimCurve([[circleCurve(0.5, 0.5, r)]])}\n${SQUARE}`, 0.6);
    expect(warnings).toEqual([]);
    expect(Math.abs(kept / (Math.PI * r * r) - 1)).toBeLessThan(0.005);
  }, 300_000);

  it('a square loop around the patch and a circle inside it remove exactly the circle, within 0.5% of πr²; so does "sense" "outside"', async () => {
    const r = 0.3;
    const frameLoop = polygonCurve([[-0.1, -0.1], [1.1, -0.1], [1.1, 1.1], [-0.1, 1.1]]);
    const hole = await area(`${trimCurve([[frameLoop], [circleCurve(0.5, 0.5, r, true)]])}\n${SQUARE}`, 0.6);
    expect(hole.warnings).toEqual([]);
    expect(Math.abs((1 - hole.area) / (Math.PI * r * r) - 1)).toBeLessThan(0.005);
    const outside = await area(`Attribute "trimcurve" "sense" "outside"\n${trimCurve([[circleCurve(0.5, 0.5, r)]])}\n${SQUARE}`, 0.6);
    expect(Math.abs((1 - outside.area) / (Math.PI * r * r) - 1)).toBeLessThan(0.005);
  }, 300_000);

  it('a trimmed edge is as smooth as a silhouette: the kept disk matches a Disk of the same radius pixel by pixel', async () => {
    const r = 0.3;
    const trimmed = await area(`${trimCurve([[circleCurve(0.5, 0.5, r)]])}\n${SQUARE}`, 0.6);
    const disk = await area(`Disk 0 ${r} 360`, 0.6);
    let largest = 0;
    let edgePixels = 0;
    let difference = 0;
    for (let k = 0; k < trimmed.alpha.length; k++) {
      largest = Math.max(largest, Math.abs(trimmed.alpha[k]! - disk.alpha[k]!));
      difference += Math.abs(trimmed.alpha[k]! - disk.alpha[k]!);
      if (disk.alpha[k]! > 0 && disk.alpha[k]! < 1) edgePixels++;
    }
    // The same 16 jittered samples a pixel see both edges: they differ only by the few samples the
    // two polygonal approximations of the circle pass either side of (a trim decided per
    // micropolygon would miss about a quarter of each edge pixel).
    expect(edgePixels).toBeGreaterThan(200);
    expect(largest).toBeLessThanOrEqual(2 / 16 + 1e-6);
    expect(difference / edgePixels).toBeLessThan(1 / 32);
  }, 300_000);

  it('a loop across several knot spans and parameters other than [0, 1] trims each span; pieces wholly cut away are left out', async () => {
    const r = 0.45;
    const { area: kept } = await area(`${trimCurve([[circleCurve(1.5, 0.5, r)]])}\n${STRIP}`, 1.7);
    expect(Math.abs(kept / (Math.PI * r * r) - 1)).toBeLessThan(0.005);
    // A loop inside the middle span only: the outer spans become no records at all.
    const frame = await frameFromText(`Format 64 64 1\nProjection "orthographic"\nWorldBegin\n${trimCurve([[polygonCurve([[1.2, 0.2], [1.8, 0.2], [1.8, 0.8], [1.2, 0.8]])]])}\n${STRIP}\nWorldEnd`);
    const warnings: string[] = [];
    const layout = gridLayout(256, userPrimitiveVariables(frame.primitives, (m) => warnings.push(m)));
    const camera = frameCamera(frame);
    const { records } = convertFrame(frame, camera, kernelSpaces(camera), layout, builtinShadingProvider, (m) => warnings.push(m));
    expect(warnings).toEqual([]);
    // Every record left lies in the middle span (x = u in [1, 2]); some carry segments, some none.
    const floats = records.floats();
    const words = new Uint32Array(floats.buffer, floats.byteOffset, floats.length);
    expect(records.count).toBeGreaterThan(0);
    const trimmedRecords = [];
    for (let r = 0; r < records.count; r++) {
      for (let i = 0; i < 16; i++) {
        const x = floats[r * RECORD.floats + RECORD.geometry + i * 3]!;
        expect(x).toBeGreaterThanOrEqual(1 - 1e-6);
        expect(x).toBeLessThanOrEqual(2 + 1e-6);
      }
      if (words[r * RECORD.floats + RECORD.trim] !== 0) trimmedRecords.push(r);
    }
    expect(trimmedRecords.length).toBeGreaterThan(0);
    expect(trimmedRecords.length).toBeLessThan(records.count);
  }, 300_000);

  it('a TrimCurve whose arrays do not describe curves is one warning and the NuPatch renders untrimmed', async () => {
    const bad = 'TrimCurve [1] [2] [0 0 1 2 3 4] [0] [4] [5] [0.2 0.8 0.8 0.2 0.2] [0.2 0.2 0.8 0.8 0.2] [1 1 1 1 1]';
    const { area: untrimmed, warnings } = await area(`${bad}\n${SQUARE}`, 0.6);
    expect(warnings).toEqual(['TrimCurve gives 6 knots where its curves take 7; this NuPatch is drawn untrimmed']);
    expect(untrimmed).toBeCloseTo(1, 2);
  }, 300_000);
});
