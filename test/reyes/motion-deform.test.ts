// Deformation motion blur against its definition: a primitive given in a motion block takes each
// shape in turn, linearly between its time samples, so each pixel's alpha is the share of the
// shutter during which the shape at that time covers it, averaged over the pixel. The oracle
// computes that share from the scene's own numbers (vertex positions and radii over time).
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame } from '../../src/reyes/convert/convert-frame.ts';
import { KEY_SHAPE, MOTION_BLOCK, MOTION_KEY } from '../../src/layout/motion-block.ts';
import { RECORD } from '../../src/layout/primitive-record.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';
import { HEIGHT, PIXELS_PER_UNIT, WIDTH, alphaOf, meanError, sum, sweptAlpha } from './swept-coverage.ts';

function scene(body: string): string {
  return `Format ${WIDTH} ${HEIGHT} 1
PixelSamples 8 8
PixelFilter "box" 1 1
Shutter 0 1
Projection "orthographic"
ScreenWindow -2 2 -1 1
WorldBegin
Surface "constant"
Translate 0 0 5
${body}
WorldEnd`;
}

/** A square [x0, x1] × [-0.5, 0.5] as a Polygon. */
function square(x0: number, x1: number): string {
  return `Polygon "P" [${x0} -0.5 0  ${x1} -0.5 0  ${x1} 0.5 0  ${x0} 0.5 0]`;
}

/** The expected alpha of every pixel: the share of 8 × 8 points per pixel and 200 shutter times
 * at which `inside(x, y, t)` (units, t in [0, 1]) holds. */
function expectedAlpha(inside: (x: number, y: number, t: number) => boolean): Float64Array {
  return sweptAlpha(200, (t) => (x, y) => inside(x, y, t));
}

/** Each record's motion block: its key times and, per key, the shape's geometry words. */
async function deformationBlocks(body: string, shutter = '0 1'): Promise<{ times: number[]; geometry: number[][] }[]> {
  const frame = await frameFromText(`Format 64 64 1\nShutter ${shutter}\nProjection "perspective" "fov" 40\nTranslate 0 0 8\nWorldBegin\n${body}\nWorldEnd`);
  const camera = frameCamera(frame);
  const { records } = convertFrame(frame, camera, kernelSpaces(camera), gridLayout(256), builtinShadingProvider, () => {});
  const floats = records.floats();
  const words = new Uint32Array(floats.buffer, floats.byteOffset, floats.length);
  const aux = records.userFloatsData();
  const auxWords = new Uint32Array(aux.buffer, aux.byteOffset, aux.length);
  return Array.from({ length: records.count }, (_, r) => {
    const block = words[r * RECORD.floats + RECORD.aux]! + words[r * RECORD.floats + RECORD.motion]! - 1;
    const count = aux[block + MOTION_BLOCK.count]!;
    const shapes = block + auxWords[block + MOTION_BLOCK.shapes]!;
    return {
      times: Array.from({ length: count }, (_, k) => aux[block + MOTION_BLOCK.keys + k * MOTION_KEY.floats + MOTION_KEY.time]!),
      geometry: Array.from({ length: count }, (_, k) => Array.from(aux.subarray(shapes + k * KEY_SHAPE.floats + KEY_SHAPE.geometry, shapes + k * KEY_SHAPE.floats + KEY_SHAPE.geometry + 4))),
    };
  });
}

describe('deformation blur records', () => {
  it('a sphere in a motion block carries its radius at each key, interpolated at times between its samples', async () => {
    // Samples at 0 and 1, shutter 0.25 to 0.75: keys at both shutter ends, radius 1.5 and 2.5.
    const [sphere] = await deformationBlocks('MotionBegin [0 1] Sphere 1 -1 1 360 Sphere 3 -3 3 360 MotionEnd', '0.25 0.75');
    expect(sphere!.times).toEqual([0, 1]);
    expect(sphere!.geometry.map((g) => g[0])).toEqual([1.5, 2.5]);
  });

  it('a polygon mesh gives every piece its own shapes, one key per time sample within the shutter', async () => {
    const blocks = await deformationBlocks('MotionBegin [0 0.5 1] Polygon "P" [0 0 0 1 0 0 1 1 0 0 1 0] Polygon "P" [0 0 0 2 0 0 2 1 0 0 1 0] Polygon "P" [0 0 0 3 0 0 3 1 0 0 1 0] MotionEnd');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.times).toEqual([0, 0.5, 1]);
    // Bilinear corners (0,0), (1,0): the second corner's x is 1, 2, 3 at the three keys.
    expect(blocks[0]!.geometry.map((g) => g[3])).toEqual([1, 2, 3]);
  });
});

// A first render on an empty Mesa shader cache compiles every kernel (minutes on a busy 2-core machine).
describe('deformation motion blur', { timeout: 600_000 }, () => {
  const gpu = useGpuRuntime();

  it('a square whose vertices move 64 pixels covers its area on average and its swept band with the expected ramp', async () => {
    const frame = await frameFromText(scene(`MotionBegin [0 1] ${square(-1.5, -0.5)} ${square(0.5, 1.5)} MotionEnd`));
    const { rendered } = await render(gpu(), frame);
    const alpha = alphaOf(rendered.image);
    const area = PIXELS_PER_UNIT * PIXELS_PER_UNIT;
    expect(Math.abs(sum(alpha) - area) / area).toBeLessThan(0.01);
    const expected = expectedAlpha((x, y, t) => Math.abs(y) < 0.5 && x > -1.5 + 2 * t && x < -0.5 + 2 * t);
    // Nothing outside the swept band, and the profile through the middle: up over 32 pixels, the
    // plateau of 32/64, down again; each pixel within the noise of 64 time strata.
    for (let py = 0; py < HEIGHT; py++) {
      for (let px = 0; px < WIDTH; px++) if (px < 16 || px >= 112 || py < 16 || py >= 48) expect(alpha[py * WIDTH + px]).toBe(0);
    }
    for (let px = 0; px < WIDTH; px++) expect(Math.abs(alpha[32 * WIDTH + px]! - expected[32 * WIDTH + px]!)).toBeLessThan(0.06);
    expect(meanError(alpha, expected)).toBeLessThan(0.02);
    // Diced and shaded once: as many vertices shaded as the square standing still.
    const still = await render(gpu(), await frameFromText(scene(square(-1.5, -0.5))));
    expect(rendered.stats.verticesShaded).toBe(still.rendered.stats.verticesShaded);
  });

  it('a square stretched by its right edge covers its mean area, a ramp where the edge travels', async () => {
    const frame = await frameFromText(scene(`MotionBegin [0 1] ${square(-1.5, -0.5)} ${square(-1.5, 1.5)} MotionEnd`));
    const alpha = alphaOf((await render(gpu(), frame)).rendered.image);
    // Width 1 to 3 units: on average 2 units by 1.
    const area = 2 * PIXELS_PER_UNIT * PIXELS_PER_UNIT;
    expect(Math.abs(sum(alpha) - area) / area).toBeLessThan(0.01);
    const expected = expectedAlpha((x, y, t) => Math.abs(y) < 0.5 && x > -1.5 && x < -0.5 + 2 * t);
    expect(alpha[32 * WIDTH + 24]).toBe(1);
    expect(meanError(alpha, expected)).toBeLessThan(0.02);
  });

  it('a sphere whose radius grows from 0.25 to 0.75 (a quadric with changing parameters) covers the mean of its disks', async () => {
    const frame = await frameFromText(scene('MotionBegin [0 1] Sphere 0.25 -0.25 0.25 360 Sphere 0.75 -0.75 0.75 360 MotionEnd'));
    const alpha = alphaOf((await render(gpu(), frame)).rendered.image);
    const [r0, r1] = [0.25, 0.75];
    // The disk's area π r(t)² averaged over r from r0 to r1 linearly: π (r0² + r0 r1 + r1²) / 3.
    const area = (Math.PI * (r0 * r0 + r0 * r1 + r1 * r1) / 3) * PIXELS_PER_UNIT * PIXELS_PER_UNIT;
    expect(Math.abs(sum(alpha) - area) / area).toBeLessThan(0.01);
    const expected = expectedAlpha((x, y, t) => Math.hypot(x, y) < r0 + (r1 - r0) * t);
    expect(meanError(alpha, expected)).toBeLessThan(0.02);
  });

  it('a Blobby in a motion block gets a positioned warning and its first time sample', () => {
    const scene = parseRibSync([
      'WorldBegin',
      'MotionBegin [0 1]',
      '  Blobby 1 [1001 0] [1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1] [""]',
      '  Blobby 1 [1001 0] [1 0 0 0 0 1 0 0 0 0 1 0 1 0 0 1] [""]',
      'MotionEnd',
      'WorldEnd',
    ].join('\n'), { fileName: 'blobby.rib' });
    expect(scene.errors).toEqual([]);
    expect(scene.warnings.map((w) => [w.line, w.column, w.request, w.message])).toEqual([
      [2, 1, 'Blobby', 'deformation motion blur of Blobby is not supported yet; it renders at its first time sample'],
    ]);
  });
});
