// Issue 17, resolution and quality controls with a progressive mode, in headless Chromium: the
// resolution scales the scene's Format (same view, more pixels); progressive renders a fast pass
// (lower resolution, one sample), shows it, then the full render.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFiles, openViewer, picture, renders, waitForRender, type OpenViewer } from './viewer-page.ts';

const SQUARE_RIB = [
  'Format 64 48 1', 'PixelSamples 2 2', 'Projection "orthographic"', 'ScreenWindow -2 2 -1.5 1.5', 'Translate 0 0 5', 'WorldBegin',
  'Surface "constant"', 'Color [0.8 0.4 0.2]',
  'Polygon "P" [-1 -1 0  1 -1 0  1 1 0  -1 1 0]',
  'WorldEnd', '',
].join('\n');

describe('resolution and progressive rendering in the page, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];
  const setting = (name: string) => page.locator(`#settings [data-setting="${name}"]`);

  beforeAll(async () => {
    viewer = await openViewer();
    ({ page, pageErrors } = viewer);
    await openFiles(page, [{ name: 'square.rib', text: SQUARE_RIB }]);
    await page.locator('#panels details:has(#settings) > summary').click();
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it('renders at a multiple of the scene\'s Format with the same view', async () => {
    const n = await renders(page);
    await setting('resolution').selectOption('2');
    await waitForRender(page, n, 180_000);
    const shown = await picture(page);
    expect([shown.width, shown.height]).toEqual([128, 96]);
    // The square spans the middle half in x and two thirds in y at any resolution: x 32..96, y 16..80.
    const alpha = (x: number, y: number): number => shown.rgba[(y * 128 + x) * 4 + 3]!;
    expect([alpha(33, 48), alpha(94, 48), alpha(64, 17), alpha(64, 78)]).toEqual([255, 255, 255, 255]);
    expect([alpha(30, 48), alpha(97, 48), alpha(64, 14), alpha(64, 81)]).toEqual([0, 0, 0, 0]);
    expect(await page.evaluate(() => window.reyesViewer!.stats!.resolution)).toEqual([128, 96]);
    expect(pageErrors).toEqual([]);
  });

  it('progressive: a fast pass with one sample at a lower resolution, then the full render', async () => {
    const n = await renders(page);
    await page.locator('#settings [data-setting="progressive"]').check();
    await page.waitForFunction((k) => (window.reyesViewer?.counters.renders ?? 0) >= k + 2, n, { timeout: 180_000 });
    await waitForRender(page, n + 1, 180_000);
    const passes = await page.evaluate((k) => window.reyesViewer!.renders.slice(k).map((r) => [r.quality, r.kind, r.resolution, r.samples]), n);
    expect(passes).toEqual([['preview', 'settings (fast pass)', [64, 48], [1, 1]], ['full', 'settings', [128, 96], [2, 2]]]);
    expect(await page.evaluate(() => window.reyesViewer!.stats!.resolution)).toEqual([128, 96]);
    expect(pageErrors).toEqual([]);
  });
});
