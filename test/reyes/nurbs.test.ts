// NuPatch: polynomial patches of order up to 4 are exact (against Cox-de Boor evaluation written
// here), a rational quadratic unit circle renders with the exact circle's area, orders above 4 and
// height fields (Pz) follow the surface.
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame } from '../../src/reyes/convert/convert-frame.ts';
import { RECORD } from '../../src/layout/primitive-record.ts';
import { userPrimitiveVariables } from '../../src/reyes/primvars.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

type Vec3 = [number, number, number];

async function patches(body: string): Promise<{ controls: Vec3[][]; warnings: string[] }> {
  const frame = await frameFromText(`Format 64 64 1\nProjection "perspective" "fov" 40\nTranslate 0 0 8\nWorldBegin\n${body}\nWorldEnd`);
  const warnings: string[] = [];
  const warn = (m: string): void => { warnings.push(m); };
  const layout = gridLayout(256, userPrimitiveVariables(frame.primitives, warn));
  const camera = frameCamera(frame);
  const { records } = convertFrame(frame, camera, kernelSpaces(camera), layout, builtinShadingProvider, warn);
  const floats = records.floats();
  const controls: Vec3[][] = [];
  for (let r = 0; r < records.count; r++) {
    const at = r * RECORD.floats + RECORD.geometry;
    controls.push(Array.from({ length: 16 }, (_, i) => [floats[at + i * 3]!, floats[at + i * 3 + 1]!, floats[at + i * 3 + 2]!] as Vec3));
  }
  return { controls, warnings };
}

/** Cox-de Boor recursion: N(i, order)(t), with the last knot's span closed. */
function coxDeBoor(knots: number[], i: number, order: number, t: number): number {
  if (order === 1) {
    const last = knots[knots.length - 1]!;
    return (knots[i]! <= t && t < knots[i + 1]!) || (t === last && knots[i]! < t && knots[i + 1] === last) ? 1 : 0;
  }
  const a = knots[i + order - 1]! - knots[i]!;
  const b = knots[i + order]! - knots[i + 1]!;
  return (a > 0 ? ((t - knots[i]!) / a) * coxDeBoor(knots, i, order - 1, t) : 0) +
    (b > 0 ? ((knots[i + order]! - t) / b) * coxDeBoor(knots, i + 1, order - 1, t) : 0);
}

function bezierPoint(c: Vec3[], s: number, t: number): Vec3 {
  const b = (x: number) => [(1 - x) ** 3, 3 * x * (1 - x) ** 2, 3 * x * x * (1 - x), x ** 3];
  const [bu, bv] = [b(s), b(t)];
  const out: Vec3 = [0, 0, 0];
  for (let l = 0; l < 4; l++) for (let k = 0; k < 4; k++) for (let d = 0; d < 3; d++) out[d]! += bv[l]! * bu[k]! * c[l * 4 + k]![d]!;
  return out;
}

/** The four points of a bilinear record (00, 10, 01, 11). */
const bilinearCorners = (c: Vec3[]) => c.slice(0, 4);

/** Sample points of the records' surfaces (a 5 × 5 grid on each). */
const samples = (controls: Vec3[][]) => controls.flatMap((c) => [0, 0.25, 0.5, 0.75, 1].flatMap((t) => [0, 0.25, 0.5, 0.75, 1].map((s) => bezierPoint(c, s, t))));

/** The unit circle as a rational quadratic B-spline (nine points, weights 1 and √2/2), homogeneous. */
const R = Math.SQRT1_2;
const CIRCLE: [number, number, number][] = [[1, 0, 1], [1, 1, R], [0, 1, 1], [-1, 1, R], [-1, 0, 1], [-1, -1, R], [0, -1, 1], [1, -1, R], [1, 0, 1]];
const CIRCLE_KNOTS = [0, 0, 0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1, 1];

describe('NuPatch', () => {
  const gpu = useGpuRuntime();

  it('a non-uniform cubic × quadratic NuPatch is exact: its records lie on the Cox-de Boor surface', async () => {
    const [nu, nv] = [6, 4];
    const uknot = [0, 0, 0, 0, 0.3, 0.45, 1, 1, 1, 1];
    const vknot = [0, 0, 0, 0.6, 1, 1, 1];
    const P: number[] = [];
    for (let j = 0; j < nv; j++) for (let i = 0; i < nu; i++) P.push(i, j, Math.sin(i * 1.7 + j * 0.9));
    const { controls, warnings } = await patches(`NuPatch ${nu} 4 [${uknot.join(' ')}] 0 1 ${nv} 3 [${vknot.join(' ')}] 0 1 "P" [${P.join(' ')}]`);
    expect(warnings).toEqual([]);
    expect(controls).toHaveLength(3 * 2);
    const surface = (u: number, v: number): Vec3 => {
      const out: Vec3 = [0, 0, 0];
      for (let j = 0; j < nv; j++) for (let i = 0; i < nu; i++) {
        const w = coxDeBoor(uknot, i, 4, u) * coxDeBoor(vknot, j, 3, v);
        for (let d = 0; d < 3; d++) out[d]! += w * P[(j * nu + i) * 3 + d]!;
      }
      return out;
    };
    // x(u) is not linear in u here, so find each sample's (u, v) by Newton on the x and y of the exact surface.
    for (const p of samples(controls)) {
      let [u, v] = [0.5, 0.5];
      for (let k = 0; k < 50; k++) {
        const s = surface(u, v);
        const h = 1e-6;
        const [sxu, syu] = [(surface(Math.min(u + h, 1), v)[0] - s[0]) / h, (surface(Math.min(u + h, 1), v)[1] - s[1]) / h];
        const [sxv, syv] = [(surface(u, Math.min(v + h, 1))[0] - s[0]) / h, (surface(u, Math.min(v + h, 1))[1] - s[1]) / h];
        const det = sxu * syv - sxv * syu;
        const [ex, ey] = [p[0] - s[0], p[1] - s[1]];
        u = Math.min(1 - 1e-9, Math.max(0, u + (ex * syv - ey * sxv) / det));
        v = Math.min(1 - 1e-9, Math.max(0, v + (sxu * ey - syu * ex) / det));
      }
      const s = surface(u, v);
      expect(Math.hypot(s[0] - p[0], s[1] - p[1])).toBeLessThan(1e-4);
      expect(s[2]).toBeCloseTo(p[2], 4);
    }
  });

  it('a rational quadratic unit circle: every surface point is at radius 1 (within 1e-4), a disk of it renders with area π within 0.5%', async () => {
    // The disk: v runs linearly from the centre (every control point at the origin) to the circle.
    const Pw = [...CIRCLE.map(([, , w]) => [0, 0, 0, w]), ...CIRCLE.map(([x, y, w]) => [x * w, y * w, 0, w])].flat();
    const nupatch = `NuPatch 9 3 [${CIRCLE_KNOTS.join(' ')}] 0 1 2 2 [0 0 1 1] 0 1 "Pw" [${Pw.join(' ')}]`;
    const { controls, warnings } = await patches(nupatch);
    expect(warnings).toEqual([]);
    // The pieces along the rim (their v = 1 edge on it) follow the circle.
    const rim = controls.filter((c) => Math.hypot(...c[12]!) > 0.999);
    expect(rim.length).toBeGreaterThanOrEqual(4);
    for (const c of rim) for (const s of [0, 0.2, 0.5, 0.7, 1]) expect(Math.abs(Math.hypot(...bezierPoint(c, s, 1)) - 1)).toBeLessThan(1e-4);
    const [W, half] = [200, 1.25];
    const frame = await frameFromText(`Format ${W} ${W} 1\nPixelSamples 4 4\nPixelFilter "box" 1 1\nProjection "orthographic"
ScreenWindow ${-half} ${half} ${-half} ${half}\nTranslate 0 0 5\nWorldBegin\nSurface "constant"\n${nupatch}\nWorldEnd`);
    const { rendered } = await render(gpu(), frame);
    let area = 0;
    for (let k = 3; k < rendered.image.rgba.length; k += 4) area += rendered.image.rgba[k]!;
    const pixelsPerUnit = W / (2 * half);
    expect(area / (Math.PI * pixelsPerUnit ** 2)).toBeCloseTo(1, 2);
    expect(Math.abs(area / (Math.PI * pixelsPerUnit ** 2) - 1)).toBeLessThan(0.005);
  }, 300_000);

  it('an order-6 NuPatch (degree 5) is within 1e-4 of its size of the surface; a Pz height field puts x, y at u, v', async () => {
    // Bernstein degree 5 in u on [0, 1] (Bézier knots), linear in v: z = Σ B5_i(u) h_i.
    const h = [0, 2, -1, 3, 0.5, 1];
    const P: number[] = [];
    for (let j = 0; j < 2; j++) for (let i = 0; i < 6; i++) P.push(i / 5, j, h[i]!);
    const { controls, warnings } = await patches(`NuPatch 6 6 [0 0 0 0 0 0 1 1 1 1 1 1] 0 1 2 2 [0 0 1 1] 0 1 "P" [${P.join(' ')}]`);
    expect(warnings).toEqual([]);
    const binomial = [1, 5, 10, 10, 5, 1];
    // x(u) = u (the control points' x are the Greville abscissae i/5).
    const exact = (u: number) => h.reduce((s, hi, i) => s + binomial[i]! * u ** i * (1 - u) ** (5 - i) * hi, 0);
    for (const p of samples(controls)) expect(Math.abs(p[2] - exact(p[0]))).toBeLessThan(1e-4 * 3);
    // The same patch as a height field.
    const pz = await patches(`NuPatch 6 6 [0 0 0 0 0 0 1 1 1 1 1 1] 0 1 2 2 [0 0 1 1] 0 1 "Pz" [${[...h, ...h].join(' ')}]`);
    expect(pz.warnings).toEqual([]);
    for (const p of samples(pz.controls)) expect(Math.abs(p[2] - exact(p[0]))).toBeLessThan(1e-4 * 3);
  });

  it('Patch with "Pw" is truly rational: a rational cubic Bézier quarter circle extruded is a quarter cylinder of radius 1', async () => {
    // The quadratic quarter arc (1,0) (1,1) (0,1), weights 1, √2/2, 1, raised to degree 3.
    const [w1, w2] = [(1 + 2 * R) / 3, (2 * R + 1) / 3];
    const arc: [number, number, number][] = [[1, 0, 1], [(1 + 2 * R) / (3 * w1), (2 * R) / (3 * w1), w1], [(2 * R) / (3 * w2), (2 * R + 1) / (3 * w2), w2], [0, 1, 1]];
    const Pw = [0, 1, 2, 3].flatMap((row) => arc.flatMap(([x, y, w]) => [x * w, y * w, (row / 3) * w, w]));
    const { controls, warnings } = await patches(`Basis "bezier" 3 "bezier" 3\nPatch "bicubic" "Pw" [${Pw.join(' ')}]`);
    expect(warnings).toEqual([]);
    const points = samples(controls);
    for (const p of points) expect(Math.abs(Math.hypot(p[0], p[1]) - 1)).toBeLessThan(1e-4);
    // Dividing the control points by w instead would miss the circle by far more.
    const divided = arc.map(([x, y]) => [x, y]);
    const b = [0.125, 0.375, 0.375, 0.125];
    expect(Math.abs(Math.hypot(b.reduce((s, w, k) => s + w * divided[k]![0]!, 0), b.reduce((s, w, k) => s + w * divided[k]![1]!, 0)) - 1)).toBeGreaterThan(1e-3);
  });

  it('Patch and PatchMesh with "Pz" are height fields over the unit square', async () => {
    const patch = await patches('Patch "bilinear" "Pz" [0 1 2 3]');
    expect(patch.warnings).toEqual([]);
    expect(patch.controls.map(bilinearCorners)).toEqual([[[0, 0, 0], [1, 0, 1], [0, 1, 2], [1, 1, 3]]]);
    const mesh = await patches('PatchMesh "bilinear" 3 "nonperiodic" 2 "nonperiodic" "Pz" [0 1 2 3 4 5]');
    expect(mesh.warnings).toEqual([]);
    expect(mesh.controls.map(bilinearCorners)).toEqual([[[0, 0, 0], [0.5, 0, 1], [0, 1, 3], [0.5, 1, 4]], [[0.5, 0, 1], [1, 0, 2], [0.5, 1, 4], [1, 1, 5]]]);
  });
});
