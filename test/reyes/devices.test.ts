// Several devices in one render (src/reyes/devices): each in a worker thread of its own with its own
// Dawn device (here several on lavapipe's one adapter); regions dealt out and stolen. The picture is
// the one-device render's within 1/255 for 1, 2 and 3 devices and a small budget, and the
// statistics account for every region and pixel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevicePool } from '../../src/reyes/devices/device-pool.ts';
import { renderFrame } from '../../src/reyes/render-frame.ts';
import type { Frame } from '../../src/rib/scene.ts';
import type { FloatImage } from '../../src/image/image.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText } from './render-helpers.ts';

const RESOLUTION: [number, number] = [48, 36];
const MiB = 1024 * 1024;

/** Semi-transparent shaded spheres (the compositing path), a filter wide enough that pixels at a
 * region's edge take samples from the next region, and a CropWindow of the scene's own. */
function scene(): string {
  let spheres = '';
  for (let k = 0; k < 6; k++) {
    spheres += `AttributeBegin\nTranslate ${(k % 3) - 1} ${Math.floor(k / 3) - 0.5} ${k * 0.3}\nColor [${0.3 + k * 0.1} 0.5 ${0.9 - k * 0.1}]\nSphere 0.8 -0.8 0.8 360\nAttributeEnd\n`;
  }
  return `Format 96 72 1
PixelSamples 2 2
PixelFilter "catmull-rom" 3 3
CropWindow 0.05 0.95 0.1 1
Projection "perspective" "fov" 45
Translate 0 0 4
WorldBegin
LightSource "distantlight" 1 "from" [1 1 -1] "to" [0 0 0]
LightSource "ambientlight" 2 "intensity" 0.2
Surface "plastic"
Opacity [0.6 0.6 0.6]
${spheres}WorldEnd`;
}

/** The largest difference of any channel (colour, alpha); Infinity where depth differs. */
function largestDifference(a: FloatImage, b: FloatImage): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let largest = 0;
  for (let k = 0; k < a.rgba.length; k++) largest = Math.max(largest, Math.abs(a.rgba[k]! - b.rgba[k]!));
  for (let k = 0; k < a.depth.length; k++) if (a.depth[k] !== b.depth[k]) largest = Math.max(largest, Infinity);
  return largest;
}

describe('several devices in one render', () => {
  const gpu = useGpuRuntime();
  let frame: Frame;
  let reference: FloatImage;
  const pools: DevicePool[] = [];

  beforeAll(async () => {
    frame = await frameFromText(scene());
    reference = (await renderFrame(gpu(), frame, { resolution: RESOLUTION })).image;
  });

  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  for (const devices of [1, 2, 3]) {
    it(`${devices} device(s) give the one-device picture`, async () => {
      const pool = await DevicePool.start({ devices });
      pools.push(pool);
      let progress = 0;
      const rendered = await pool.render(frame, { resolution: RESOLUTION, regionsPerDevice: 2, onProgress: (done) => (progress = done) });
      expect(largestDifference(rendered.image, reference)).toBeLessThanOrEqual(1 / 255);
      const { devices: report } = rendered.stats;
      expect(report).toHaveLength(devices);
      const pixels = reference.width * reference.height;
      expect(report.reduce((sum, d) => sum + d.pixels, 0)).toBe(pixels);
      expect(progress).toBe(pixels);
      for (const d of report) {
        expect(d.regions).toBeGreaterThanOrEqual(1);
        expect(d.adapter).not.toBe('');
        expect(d.busyMs + d.idleMs).toBeCloseTo(rendered.stats.totalMs, 0);
      }
      // Every region the devices rendered is a sampling region of the stats.
      expect(rendered.stats.samplingRegions).toBeGreaterThanOrEqual(report.reduce((sum, d) => sum + d.regions, 0));
    });
  }

  it('gives the same picture with a budget so small that the devices split their regions', async () => {
    const pool = pools.find((p) => p.size === 2)!;
    const rendered = await pool.render(frame, { resolution: RESOLUTION, budgetBytes: 1.5 * MiB, regionsPerDevice: 1 });
    expect(rendered.stats.dicingSplits + rendered.stats.samplingSplits).toBeGreaterThan(0);
    expect(rendered.stats.peakBytes).toBeLessThanOrEqual(1.5 * MiB);
    expect(largestDifference(rendered.image, reference)).toBeLessThanOrEqual(1 / 255);
  });
});
