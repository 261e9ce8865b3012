// Issue 17, the scene outline, in headless Chromium: objects (type and RIB line), lights and named
// coordinate systems are listed; choosing an object selects it (its material panel) and outlines it
// in the picture from the primitive ids, as clicking it in the picture does.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFiles, openViewer, type OpenViewer } from './viewer-page.ts';

/** Two squares side by side, x in raster: 8..24 and 40..56 of 64, y 16..32 of 48. */
const TWO_SQUARES_RIB = [
  'Format 64 48 1', 'PixelSamples 2 2', 'Projection "orthographic"', 'ScreenWindow -4 4 -3 3', 'Translate 0 0 5', 'WorldBegin',
  'LightSource "ambientlight" 1', 'CoordinateSystem "lamp"',
  'Surface "constant"',
  'Color [1 0 0] Polygon "P" [-3 -1 0  -1 -1 0  -1 1 0  -3 1 0]',
  'Color [0 0 1] Polygon "P" [1 -1 0  3 -1 0  3 1 0  1 1 0]',
  'WorldEnd', '',
].join('\n');

describe('the scene outline, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    viewer = await openViewer();
    ({ page, pageErrors } = viewer);
    await openFiles(page, [{ name: 'two.rib', text: TWO_SQUARES_RIB }]);
    await page.locator('#outline-panel > summary').click();
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it('lists objects, lights and coordinate systems, and outlines the object chosen', async () => {
    const outline = page.locator('#scene-outline');
    expect(await outline.locator('[data-primitive]').allTextContents()).toEqual(['Polygon #0 two.rib:10', 'Polygon #1 two.rib:11']);
    expect(await outline.locator('[data-light-outline]').allTextContents()).toEqual(['ambientlight two.rib:7']);
    expect(await outline.locator('ul[aria-label="Coordinate systems"] li').allTextContents()).toEqual(['world', 'camera', 'lamp']);

    await outline.locator('[data-primitive="1"]').click();
    expect(await page.locator('#material').getAttribute('data-selected')).toBe('1');
    const overlay = page.locator('#overlay');
    await expect.poll(() => overlay.getAttribute('data-outlined')).not.toBe('0');
    // The boundary of the right square (x 40..55, y 16..31): 2 × 16 + 2 × 14 pixels, give or take its antialiased edge.
    const outlined = Number(await overlay.getAttribute('data-outlined'));
    expect(outlined).toBeGreaterThanOrEqual(56);
    expect(outlined).toBeLessThanOrEqual(68);
    const at = (x: number, y: number) => overlay.evaluate((c: HTMLCanvasElement, [px, py]) => {
      const scale = c.width / 64;
      return Array.from(c.getContext('2d')!.getImageData(Math.floor((px! + 0.5) * scale), Math.floor((py! + 0.5) * scale), 1, 1).data);
    }, [x, y]);
    expect(await at(40, 24)).toEqual([255, 159, 10, 255]);
    expect(await at(48, 24)).toEqual([0, 0, 0, 0]);
    expect(await at(8, 24)).toEqual([0, 0, 0, 0]);
    expect(await outline.locator('[data-primitive="1"]').getAttribute('aria-pressed')).toBe('true');
    expect(pageErrors).toEqual([]);
  });
});
