// Issue 17, bug 2 in headless Chromium: in scheduler mode (the page's default) the progress bar
// rises above 0 while the render runs, with the time left beside it, rather than staying at 0 until
// the picture appears.
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, servePage } from './chromium.ts';
import { waitForRender } from './viewer-page.ts';

/** Enough work to take seconds on software WebGPU: 160 × 120 pixels, 4 × 4 samples, 25 spheres. */
const HEAVY_RIB = [
  'Format 160 120 1', 'PixelSamples 4 4', 'Projection "perspective" "fov" 40', 'Translate 0 0 6', 'WorldBegin',
  'LightSource "distantlight" 1', 'LightSource "pointlight" 2 "from" [2 2 -2] "intensity" [6]', 'Surface "plastic"',
  ...Array.from({ length: 25 }, (_, k) => `AttributeBegin Translate ${(k % 5) - 2} ${Math.floor(k / 5) - 2} 0 Sphere 0.45 -0.45 0.45 360 AttributeEnd`),
  'WorldEnd', '',
].join('\n');

/** The page mid-render, as the polling saw it (it resolves only once the check holds). */
interface MidRender {
  value: number;
  left: string;
  renders: number;
}

describe('the viewer\'s progress bar, in headless Chromium', () => {
  let server: ViteDevServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const served = await servePage();
    server = served.server;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(served.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('rises above 0 before a scheduler-mode render finishes, with the time left shown', async () => {
    await page.locator('#open-files').setInputFiles([{ name: 'heavy.rib', mimeType: 'text/plain', buffer: Buffer.from(HEAVY_RIB) }]);
    // What the user sees mid-render: the bar part-way, the time left beside it, no picture finished yet.
    const seen = await page.waitForFunction(() => {
      const bar = document.getElementById('render-progress') as HTMLProgressElement;
      const left = document.getElementById('render-time-left')?.textContent ?? '';
      const rendering = document.querySelector('#viewport')?.getAttribute('data-render-state') === 'rendering';
      return rendering && !bar.hidden && bar.value > 0 && bar.value < 1 && /^about \d+ (s|min \d+ s) left$/.test(left)
        ? { value: bar.value, left, renders: window.reyesViewer!.counters.renders }
        : false;
    }, undefined, { timeout: 180_000, polling: 20 }).then((handle) => handle.jsonValue() as Promise<MidRender>);
    expect(seen.renders).toBe(0);
    await waitForRender(page, 0, 300_000);
    const { mode, progress } = await page.evaluate(() => ({ mode: window.reyesViewer!.stats!.mode, progress: window.reyesViewer!.progress }));
    expect(mode).toBe('scheduler');
    // The finished render's own reports: rising through values between 0 and 1, ending at 1.
    expect(progress.filter((p) => p > 0 && p < 1).length).toBeGreaterThan(1);
    for (let k = 1; k < progress.length; k++) expect(progress[k]!).toBeGreaterThanOrEqual(progress[k - 1]!);
    expect(progress.at(-1)).toBe(1);
    expect(await page.locator('#render-progress').isHidden()).toBe(true);
    expect(await page.locator('#render-time-left').textContent()).toBe('');
    console.log(`progress bar mid-render: ${seen.value.toFixed(3)}, ${seen.left}`);
    expect(pageErrors).toEqual([]);
  });
});
