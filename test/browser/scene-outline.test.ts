// Issue 17, the scene outline, in headless Chromium: objects (type and RIB line), lights and named
// coordinate systems are listed; choosing an object selects it (its material panel) and outlines it
// in the picture from the primitive ids, as clicking it in the picture does. The scene opened stays
// shown when the page's first scene finishes loading after it (that load is held back here until
// the opened scene is shown: a slow fetch once put the first scene back over the user's).
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

/** The page's fetch of its first scene (not the module Vite serves for the scene's URL, "?import&url"). */
const isFirstSceneFetch = (url: URL | { url(): string }): boolean => {
  const u = url instanceof URL ? url : new URL(url.url());
  return u.pathname.endsWith('/showcase.rib') && u.search === '';
};

describe('the scene outline, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    let releaseFirstScene = (): void => {};
    const firstSceneHeld = new Promise<void>((resolve) => { releaseFirstScene = resolve; });
    let firstSceneAsked = (): void => {};
    const pageStarted = new Promise<void>((resolve) => { firstSceneAsked = resolve; });
    viewer = await openViewer('', (p) => p.route(isFirstSceneFetch, async (route) => {
      firstSceneAsked();
      await firstSceneHeld;
      await route.continue();
    }));
    ({ page, pageErrors } = viewer);
    await pageStarted; // the page's script is running: its file input listens
    await openFiles(page, [{ name: 'two.rib', text: TWO_SQUARES_RIB }]);
    releaseFirstScene();
    await page.waitForResponse(isFirstSceneFetch);
    // Give the first scene's parse time to finish, as it did when it replaced the opened one.
    await page.waitForTimeout(1000);
    expect(await page.locator('#scene-name').textContent()).toBe('two.rib');
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
