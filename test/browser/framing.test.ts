// Issue 17, frame selected (F) and frame all (A), in headless Chromium: after F on a small sphere
// off to the side of a perspective view, the sphere's pixels (the render's primitive ids) are in
// the middle of the picture and span about 70% of its height; orbiting then turns about it; A then
// frames both spheres, though the big one is out of view.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFiles, openViewer, renders, type OpenViewer } from './viewer-page.ts';

const WIDTH = 64;
const HEIGHT = 48;

/** A big sphere left of the middle and a small one up and to the right, seen from 10 units away. */
const SPHERES_RIB = [
  `Format ${WIDTH} ${HEIGHT} 1`, 'PixelSamples 2 2', 'Projection "perspective" "fov" [40]', 'Translate 0 0 10', 'WorldBegin',
  'LightSource "ambientlight" 1 "intensity" [1]', 'Surface "matte"',
  'AttributeBegin', 'Translate -1.5 0 0', 'Sphere 1 -1 1 360', 'AttributeEnd',
  'AttributeBegin', 'Translate 2.8 1.6 0', 'Sphere 0.3 -0.3 0.3 360', 'AttributeEnd',
  'WorldEnd', '',
].join('\n');

interface Extent {
  count: number;
  centre: [number, number];
  /** Bounding box size as shares of the picture's width and height. */
  share: [number, number];
}

function extent(pixels: number[]): Extent {
  const xs = pixels.map((k) => k % WIDTH);
  const ys = pixels.map((k) => Math.floor(k / WIDTH));
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs) + 1;
  const y0 = Math.min(...ys);
  const y1 = Math.max(...ys) + 1;
  return { count: pixels.length, centre: [(x0 + x1) / 2, (y0 + y1) / 2], share: [(x1 - x0) / WIDTH, (y1 - y0) / HEIGHT] };
}

describe('frame selected and frame all, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    viewer = await openViewer();
    ({ page, pageErrors } = viewer);
    await openFiles(page, [{ name: 'spheres.rib', text: SPHERES_RIB }]);
  });

  afterAll(async () => {
    await viewer?.close();
  });

  /** The pixels of primitive `index` (-1: nothing) in the picture's full render after the camera settles. */
  const idMask = (index: number): Promise<number[]> => page.evaluate((i) => window.reyesViewer!.idMask(i), index);
  const covered = async (): Promise<number[]> => {
    const nothing = new Set(await idMask(-1));
    return Array.from({ length: WIDTH * HEIGHT }, (_, k) => k).filter((k) => !nothing.has(k));
  };
  /** Presses `key` and waits for the full render of the moved camera. */
  const press = async (key: string): Promise<void> => {
    const before = await renders(page);
    await page.keyboard.press(key);
    await page.waitForFunction((n) => {
      const probe = window.reyesViewer;
      return probe && probe.counters.renders > n && probe.renders.at(-1)?.quality === 'full'
        && document.querySelector('#viewport')?.getAttribute('data-render-state') === 'complete';
    }, before, { timeout: 180_000, polling: 100 }).catch((e: Error) => { throw new Error(`${e.message}; page errors: ${pageErrors.join(' | ')}`); });
  };

  it('F frames the selected object: centred, about 70% of the view', async () => {
    const before = extent(await idMask(1));
    expect(before.count).toBe(19);
    expect(before.centre[0]).toBeGreaterThan(WIDTH * 0.75);
    expect(before.share[1]).toBeLessThan(0.2);
    // Select the small sphere by clicking it, as a user would.
    const box = (await page.locator('#picture').boundingBox())!;
    await page.mouse.click(box.x + (before.centre[0] / WIDTH) * box.width, box.y + (before.centre[1] / HEIGHT) * box.height);
    await expect.poll(() => page.locator('#material').getAttribute('data-selected')).toBe('1');
    await press('f');
    // The sphere covered 19 pixels, so its centre was known to about half a pixel, which framing
    // magnifies about seven times; F again, from the framed picture, centres it to a pixel.
    const first = extent(await idMask(1));
    expect(Math.abs(first.centre[0] - WIDTH / 2), 'x centre').toBeLessThanOrEqual(3.5);
    expect(Math.abs(first.centre[1] - HEIGHT / 2), 'y centre').toBeLessThanOrEqual(3.5);
    await press('f');
    const after = extent(await idMask(1));
    expect(Math.abs(after.centre[0] - WIDTH / 2), 'x centre').toBeLessThanOrEqual(1);
    expect(Math.abs(after.centre[1] - HEIGHT / 2), 'y centre').toBeLessThanOrEqual(1);
    // A sphere fills a square: the picture's height (the shorter side) is the tighter one.
    expect(after.share[1]).toBeGreaterThan(0.6);
    expect(after.share[1]).toBeLessThan(0.8);
    expect(after.count).toBeGreaterThan(before.count * 10);
    expect(pageErrors).toEqual([]);
  });

  it('orbiting after F turns about the framed object, which stays in the middle', async () => {
    // Issue 17: the orbit kept pivoting at the scene's depth from before F (10 units away, the
    // framed sphere about 1.2), which swung the sphere out of view.
    const framed = extent(await idMask(1));
    expect(Math.abs(framed.centre[0] - WIDTH / 2)).toBeLessThanOrEqual(1);
    const box = (await page.locator('#picture').boundingBox())!;
    const before = await renders(page);
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let step = 1; step <= 8; step++) await page.mouse.move(x + step * 8, y + step * 3);
    await page.mouse.up();
    await page.waitForFunction((n) => {
      const probe = window.reyesViewer;
      return probe && probe.counters.renders > n && probe.renders.at(-1)?.quality === 'full' && probe.renders.at(-1)?.kind === 'camera move (full)'
        && document.querySelector('#viewport')?.getAttribute('data-render-state') === 'complete';
    }, before, { timeout: 180_000, polling: 100 });
    const orbited = extent(await idMask(1));
    expect(orbited.count).toBeGreaterThan(framed.count * 0.8);
    expect(Math.abs(orbited.centre[0] - WIDTH / 2), 'x centre').toBeLessThanOrEqual(1.5);
    expect(Math.abs(orbited.centre[1] - HEIGHT / 2), 'y centre').toBeLessThanOrEqual(1.5);
    expect(pageErrors).toEqual([]);
  });

  it('A frames everything, what is out of view included', async () => {
    // Issue 17: A framed only the pixels shown; after F and the orbit that is the small sphere alone.
    expect(await idMask(0)).toEqual([]);
    await press('a');
    const all = extent(await covered());
    // Both spheres are in view again, the pair in the middle, about 70% of the view (their
    // bounding boxes are framed, so the round silhouettes fill a little less).
    expect((await idMask(0)).length).toBeGreaterThan(0);
    expect((await idMask(1)).length).toBeGreaterThan(0);
    expect(Math.abs(all.centre[0] - WIDTH / 2), 'x centre').toBeLessThanOrEqual(WIDTH * 0.1);
    expect(Math.abs(all.centre[1] - HEIGHT / 2), 'y centre').toBeLessThanOrEqual(HEIGHT * 0.1);
    expect(Math.max(...all.share)).toBeGreaterThan(0.5);
    expect(Math.max(...all.share)).toBeLessThan(0.8);
    expect(pageErrors).toEqual([]);
  });
});
