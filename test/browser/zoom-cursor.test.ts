// Issue 17, zoom toward the cursor in the image viewer, in headless Chromium: Alt+wheel steps the
// picture's size (2:1 → 4:1 and back) and scrolls so that the pixel under the cursor (as the value
// readout names it) stays under the cursor.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFiles, openViewer, type OpenViewer } from './viewer-page.ts';

/** A 320 × 240 frame filled by one constant square: at 4:1 it is larger than the window. */
const BIG_RIB = [
  'Format 320 240 1', 'PixelSamples 1 1', 'Projection "orthographic"', 'ScreenWindow -2 2 -1.5 1.5', 'Translate 0 0 5', 'WorldBegin',
  'Surface "constant"', 'Color [0.5 0.5 0.5]', 'Polygon "P" [-3 -2 0  3 -2 0  3 2 0  -3 2 0]', 'WorldEnd', '',
].join('\n');

describe('zoom toward the cursor, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    viewer = await openViewer();
    ({ page, pageErrors } = viewer);
    await openFiles(page, [{ name: 'big.rib', text: BIG_RIB }]);
    await page.locator('#picture-panel > summary').click();
  });

  afterAll(async () => {
    await viewer?.close();
  });

  /** The pixel the readout names after the cursor moves to (x, y) (nudged, so a move event fires). */
  const pixelAt = async (x: number, y: number): Promise<[number, number]> => {
    await page.mouse.move(x + 0.3, y + 0.3);
    await page.mouse.move(x, y);
    const readout = page.locator('#pixel-readout');
    return [Number(await readout.getAttribute('data-x')), Number(await readout.getAttribute('data-y'))];
  };
  const altWheel = async (deltaY: number): Promise<void> => {
    await page.keyboard.down('Alt');
    await page.mouse.wheel(0, deltaY);
    await page.keyboard.up('Alt');
  };

  it('keeps the pixel under the cursor while Alt+wheel changes the size', async () => {
    await page.locator('#picture-zoom').selectOption('2');
    const viewport = (await page.locator('#viewport').boundingBox())!;
    const picture = (await page.locator('#picture').boundingBox())!;
    expect(picture.width).toBeCloseTo(640, 0);
    // A point on the picture, near enough to its top left that the window can scroll to keep it
    // (pixel 100 moves right by 200 CSS pixels from 2:1 to 4:1).
    expect(viewport.width).toBeGreaterThan(400);
    const x = picture.x + 201;
    const y = picture.y + 151;
    const start = await pixelAt(x, y);
    expect(start).toEqual([100, 75]);

    await altWheel(-100);
    await expect.poll(() => page.locator('#picture-zoom').inputValue()).toBe('4');
    expect((await page.locator('#picture').boundingBox())!.width).toBeCloseTo(1280, 0);
    const zoomed = await pixelAt(x, y);
    expect(Math.abs(zoomed[0] - start[0]), `x: ${zoomed} vs ${start}`).toBeLessThanOrEqual(1);
    expect(Math.abs(zoomed[1] - start[1]), `y: ${zoomed} vs ${start}`).toBeLessThanOrEqual(1);

    await altWheel(100);
    await expect.poll(() => page.locator('#picture-zoom').inputValue()).toBe('2');
    const back = await pixelAt(x, y);
    expect(Math.abs(back[0] - start[0])).toBeLessThanOrEqual(1);
    expect(Math.abs(back[1] - start[1])).toBeLessThanOrEqual(1);
    expect(pageErrors).toEqual([]);
  });
});
