// Geometry "teapot" and "sphere": the built-in objects. The teapot's rendered silhouette is checked
// against its Bézier patches evaluated directly here (Bernstein sums over the public-domain Newell
// data), and the sphere against the unit sphere; an unknown name is one warning.
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame } from '../../src/reyes/convert/convert-frame.ts';
import { TEAPOT_PATCHES, TEAPOT_POINTS } from '../../src/reyes/convert/geometry-teapot.ts';
import { RECORD, PrimitiveKind } from '../../src/layout/primitive-record.ts';
import { userPrimitiveVariables } from '../../src/reyes/primvars.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import path from 'node:path';
import { compareImages } from '../../src/image/compare.ts';
import { nodeRslShading } from '../../src/reyes/shading/node-shaders.ts';
import { frameFromText, loadFrame, render, ROOT } from './render-helpers.ts';

async function convert(body: string) {
  const frame = await frameFromText(`Format 64 64 1\nProjection "perspective" "fov" 40\nTranslate 0 0 8\nWorldBegin\n${body}\nWorldEnd`);
  const warnings: string[] = [];
  const warn = (m: string): void => { warnings.push(m); };
  const layout = gridLayout(256, userPrimitiveVariables(frame.primitives, warn));
  const camera = frameCamera(frame);
  const { records } = convertFrame(frame, camera, kernelSpaces(camera), layout, builtinShadingProvider, warn);
  const words = new Uint32Array(records.floats().buffer, records.floats().byteOffset, records.floats().length);
  const kinds = Array.from({ length: records.count }, (_, r) => words[r * RECORD.floats + RECORD.kind]);
  return { records, kinds, warnings };
}

const bernstein = (t: number): number[] => [(1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3];

/** Extents of the teapot's surface in x and z, from its patches sampled on a fine parameter grid. */
function teapotExtents(): { x: [number, number]; z: [number, number] } {
  const x: [number, number] = [Infinity, -Infinity];
  const z: [number, number] = [Infinity, -Infinity];
  const n = 200;
  for (const patch of TEAPOT_PATCHES) {
    for (let j = 0; j <= n; j++) {
      const bv = bernstein(j / n);
      for (let i = 0; i <= n; i++) {
        const bu = bernstein(i / n);
        let px = 0;
        let pz = 0;
        for (let l = 0; l < 4; l++) for (let k = 0; k < 4; k++) {
          const p = patch[l * 4 + k]!;
          px += bv[l]! * bu[k]! * TEAPOT_POINTS[p * 3]!;
          pz += bv[l]! * bu[k]! * TEAPOT_POINTS[p * 3 + 2]!;
        }
        x[0] = Math.min(x[0], px); x[1] = Math.max(x[1], px);
        z[0] = Math.min(z[0], pz); z[1] = Math.max(z[1], pz);
      }
    }
  }
  return { x, z };
}

describe('Geometry', () => {
  const gpu = useGpuRuntime();

  it('"teapot" is the 32 Bézier patches of the Utah teapot, whatever the current Basis', async () => {
    const { records, kinds, warnings } = await convert('Basis "b-spline" 1 "catmull-rom" 1\nGeometry "teapot"');
    expect(warnings).toEqual([]);
    expect(kinds).toEqual(new Array(32).fill(PrimitiveKind.bezier));
    // A Bézier patch passes through its corner control points: the body's first patch starts on the rim.
    const at = RECORD.geometry;
    expect(Array.from(records.floats().subarray(at, at + 3)).map((v) => Number(v.toFixed(5)))).toEqual([1.4, 0, 2.4]);
  });

  it('"sphere" is a sphere of radius 1; an unknown name is one warning and draws nothing', async () => {
    const sphere = await convert('Geometry "sphere"');
    expect(sphere.warnings).toEqual([]);
    expect(sphere.kinds).toEqual([PrimitiveKind.sphere]);
    const g = Array.from(sphere.records.floats().subarray(RECORD.geometry, RECORD.geometry + 4));
    expect(g.map((v) => Number(v.toFixed(5)))).toEqual([1, Number((-Math.PI / 2).toFixed(5)), Number((Math.PI / 2).toFixed(5)), Number((2 * Math.PI).toFixed(5))]);
    const unknown = await convert('Geometry "cow"');
    expect(unknown.kinds).toEqual([]);
    expect(unknown.warnings).toHaveLength(1);
    expect(unknown.warnings[0]).toMatch(/"cow"/);
  });

  it('the rendered teapot seen from the front covers exactly its patches\' extents (to the pixel)', async () => {
    // 0.04 units a pixel; the window's edges sit between pixel centres and the extents.
    const [W, H, left, top, unit] = [200, 200, -4, 5.49, 0.04];
    const frame = await frameFromText(`Format ${W} ${H} 1
PixelSamples 4 4
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow ${left} ${left + W * unit} ${top - H * unit} ${top}
Translate 0 0 5
WorldBegin
Rotate -90 1 0 0
Geometry "teapot"
WorldEnd`);
    const { rendered } = await render(gpu(), frame);
    const { rgba } = rendered.image;
    let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      if (rgba[(y * W + x) * 4 + 3]! < 0.5) continue;
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const e = teapotExtents();
    // Object x is screen x; object z is screen y, up. A pixel is more than half covered when its centre is inside.
    const column = (v: number) => (v - left) / unit - 0.5;
    const row = (v: number) => (top - v) / unit - 0.5;
    const expected = [Math.ceil(column(e.x[0])), Math.floor(column(e.x[1])), Math.ceil(row(e.z[1])), Math.floor(row(e.z[0]))];
    [minX, maxX, minY, maxY].forEach((got, k) => expect(Math.abs(got - expected[k]!), `${[minX, maxX, minY, maxY]} vs ${expected}`).toBeLessThanOrEqual(1));
    // Newell's numbers: the handle reaches x = -3, the lid's knob z = 3.15, the bottom z = 0.
    expect(e.x[0]).toBeCloseTo(-3, 6);
    expect(e.z[0]).toBeCloseTo(0, 9);
    expect(e.z[1]).toBeCloseTo(3.15, 9);
  }, 300_000);

  // The teapot, subdivision and NURBS scenes, each under the smallest budget that holds it:
  // OpenSubdiv's rook is 12256 patch records after the two levels of refinement it gets (its creases
  // ask for eight); its sub-pixel grids are dense, and took 64 MiB until small grids shared grid
  // records (packGridRecords).
  const MiB = 1024 * 1024;
  for (const [name, budget] of [['geometry-teapot', 8], ['subdivision-cube', 8], ['nupatch-rational', 8], ['subdivision-rook', 8]] as const) {
    it(`${name} gives the same picture with budgets of 256 and ${budget} MiB and in bucket mode`, async () => {
      const shading = nodeRslShading({ sceneDir: path.join(ROOT, 'scenes/features') }).provide;
      const frame = await loadFrame(path.join(ROOT, 'scenes/features', `${name}.rib`));
      const reference = await render(gpu(), frame, { shading, budgetBytes: 256 * MiB });
      const small = await render(gpu(), frame, { shading, budgetBytes: budget * MiB });
      expect(small.rendered.stats.peakBytes).toBeLessThanOrEqual(budget * MiB);
      expect(small.rendered.stats.dicingSplits + small.rendered.stats.samplingSplits).toBeGreaterThan(0);
      expect(compareImages(small.image, reference.image).max).toBeLessThanOrEqual(1);
      const bucket = await render(gpu(), frame, { shading, budgetBytes: 256 * MiB, bucketSize: 16 });
      expect(compareImages(bucket.image, reference.image).max).toBeLessThanOrEqual(1);
    }, 600_000);
  }
});
