// Render progress in scheduler mode on lavapipe: reported as regions finish their stages, rising
// strictly, at least once per sampling region, bounded by the pixels already filtered, and reaching
// every pixel at the end; a frame done in one region moves before its end too; each finished
// region's pixels are handed over as it finishes (RenderOptions.onPixels).
import { describe, expect, it } from 'vitest';
import type { PixelRect } from '../../src/reyes/camera.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const MiB = 1024 * 1024;
const WIDTH = 64;
const HEIGHT = 48;

const SCENE = `Format ${WIDTH} ${HEIGHT} 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 6
WorldBegin
LightSource "ambientlight" 1 "intensity" [0.2]
LightSource "distantlight" 2 "from" [-1 1 -1] "to" [0 0 0]
Translate -1.1 0 0
Sphere 1 -1 1 360
Translate 2.2 0 0
Sphere 1 -1 1 360
WorldEnd`;

type Event = { progress: number; total: number } | { sampled: PixelRect };

async function renderLogged(gpu: Parameters<typeof render>[0], budgetBytes: number): Promise<Event[]> {
  const events: Event[] = [];
  await render(gpu, await frameFromText(SCENE), {
    budgetBytes,
    onRegion: (kind, rect, split) => {
      if (kind === 'sampling' && !split) events.push({ sampled: rect });
    },
    onProgress: (progress, total) => events.push({ progress, total }),
  });
  return events;
}

describe('render progress in scheduler mode', () => {
  const gpu = useGpuRuntime();
  const pixels = WIDTH * HEIGHT;

  it('rises strictly per region and stage, never past the filtered pixels plus the rest unfinished, ending at 1', async () => {
    const events = await renderLogged(gpu(), 1 * MiB);
    const sampled = events.flatMap((e) => ('sampled' in e ? [e.sampled] : []));
    expect(sampled.length).toBeGreaterThan(3);
    const values = events.flatMap((e) => ('progress' in e ? [e.progress] : []));
    for (const e of events) if ('total' in e) expect(e.total).toBe(pixels);
    for (let k = 1; k < values.length; k++) expect(values[k]!).toBeGreaterThan(values[k - 1]!);
    expect(values.at(-1)).toBe(pixels);
    // Each finished sampling region is followed by a report before the next one finishes, and every
    // report counts the regions filtered so far in full but the rest at most up to their sampling.
    let filtered = 0;
    let reportedSince = true;
    for (const e of events) {
      if ('sampled' in e) {
        expect(reportedSince).toBe(true);
        reportedSince = false;
        filtered += (e.sampled.x1 - e.sampled.x0) * (e.sampled.y1 - e.sampled.y0);
      } else {
        reportedSince = true;
        expect(e.progress).toBeGreaterThanOrEqual(filtered);
        expect(e.progress).toBeLessThan(filtered + 0.97 * (pixels - filtered) + 1e-6);
      }
    }
    expect(reportedSince).toBe(true);
    expect(filtered).toBe(pixels);
  });

  it('hands over each sampling region\'s pixels as it finishes: they tile the image and are the final pixels', async () => {
    const frame = await frameFromText(SCENE.replace('WorldBegin', 'CropWindow 0.25 1 0 0.75\nWorldBegin'));
    const handed: { rect: PixelRect; rgba: Float32Array }[] = [];
    let imageWidth = 0;
    const { rendered } = await render(gpu(), frame, {
      budgetBytes: 1 * MiB,
      onPixels: (image, rect) => {
        imageWidth = image.width;
        const rgba = new Float32Array((rect.x1 - rect.x0) * (rect.y1 - rect.y0) * 4);
        for (let y = rect.y0; y < rect.y1; y++) {
          rgba.set(image.rgba.subarray((y * image.width + rect.x0) * 4, (y * image.width + rect.x1) * 4), (y - rect.y0) * (rect.x1 - rect.x0) * 4);
        }
        handed.push({ rect, rgba });
      },
    });
    const { image } = rendered;
    expect([image.width, image.height]).toEqual([48, 36]);
    expect(imageWidth).toBe(48);
    expect(handed.length).toBe(rendered.stats.samplingRegions);
    expect(handed.length).toBeGreaterThan(3);
    const covered = new Uint8Array(image.width * image.height);
    for (const { rect, rgba } of handed) {
      expect(rect.x0).toBeGreaterThanOrEqual(0);
      expect(rect.y0).toBeGreaterThanOrEqual(0);
      expect(rect.x1).toBeLessThanOrEqual(image.width);
      expect(rect.y1).toBeLessThanOrEqual(image.height);
      for (let y = rect.y0; y < rect.y1; y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
          covered[y * image.width + x]!++;
          const k = ((y - rect.y0) * (rect.x1 - rect.x0) + x - rect.x0) * 4;
          for (let c = 0; c < 4; c++) expect(rgba[k + c]).toBe(image.rgba[(y * image.width + x) * 4 + c]);
        }
      }
    }
    expect(covered.every((n) => n === 1)).toBe(true);
    // Something was drawn: the spheres cover part of the cropped image.
    expect(image.rgba.some((v, k) => k % 4 === 3 && v > 0.5)).toBe(true);
  });

  it('moves through the stages of a frame done in one region', async () => {
    const events = await renderLogged(gpu(), 256 * MiB);
    expect(events.filter((e) => 'sampled' in e)).toHaveLength(1);
    const values = events.flatMap((e) => ('progress' in e ? [e.progress] : []));
    // bound/split, dice, shade, sample, filter
    expect(values).toHaveLength(5);
    expect(values[0]!).toBeGreaterThan(0);
    expect(values.at(-1)).toBe(pixels);
  });
});
