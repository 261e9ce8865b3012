// Issue 17, bugs 1, 3 and 4 in headless Chromium: a missing shader is listed at the RIB request that
// names it (never at a .sl file that does not exist) and the Lights panel says "not found"; a
// shader's compile errors are listed once each, with no stray header line; Stop cancels the render in
// flight, a new request cancels the one in flight, and the next render completes.
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, servePage } from './chromium.ts';
import { renders, waitForRender } from './viewer-page.ts';

const MESSAGES_RIB = [
  'Format 64 48 1', 'Projection "perspective" "fov" 40', 'Translate 0 0 5', 'WorldBegin',
  'LightSource "Global_Distant" 1',
  'LightSource "distantlight" 2',
  'AttributeBegin',
  'Surface "nosuchsurface"',
  'Translate -1 0 0', 'Sphere 0.5 -0.5 0.5 360', 'AttributeEnd',
  'Surface "badshader"',
  'Sphere 0.5 -0.5 0.5 360',
  'Surface "plastic"', 'Translate 1 0 0', 'Sphere 0.5 -0.5 0.5 360',
  'WorldEnd', '',
].join('\n');

const BAD_SHADER = ['surface badshader()', '{', '    float x = "text";', '    Ci = Cs;', '}', ''].join('\n');

/** Enough work that a render is still running when Stop is clicked: 160 × 120 pixels, 4 × 4 samples. */
const HEAVY_RIB = [
  'Format 160 120 1', 'PixelSamples 4 4', 'Projection "perspective" "fov" 40', 'Translate 0 0 6', 'WorldBegin',
  'LightSource "distantlight" 1', 'LightSource "pointlight" 2 "from" [2 2 -2] "intensity" [6]', 'Surface "plastic"',
  ...Array.from({ length: 25 }, (_, k) => `AttributeBegin Translate ${(k % 5) - 2} ${Math.floor(k / 5) - 2} 0 Color [${(k % 5) / 4} 0.5 ${Math.floor(k / 5) / 4}] Sphere 0.45 -0.45 0.45 360 AttributeEnd`),
  'WorldEnd', '',
].join('\n');

describe('the viewer\'s messages and Stop, in headless Chromium', () => {
  let server: ViteDevServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const counters = (): Promise<{ renders: number; cancelled: number }> => page.evaluate(() => ({ ...window.reyesViewer!.counters }));
  const state = (): Promise<string | null> => page.locator('#viewport').getAttribute('data-render-state');

  beforeAll(async () => {
    ({ server } = await servePage().then(async (served) => {
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(served.url);
      return served;
    }));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists a missing shader at its RIB request, says "not found" in the Lights panel, and each compile error once', async () => {
    await page.locator('#open-files').setInputFiles([
      { name: 'missing.rib', mimeType: 'text/plain', buffer: Buffer.from(MESSAGES_RIB) },
      { name: 'badshader.sl', mimeType: 'text/plain', buffer: Buffer.from(BAD_SHADER) },
    ]);
    await expect.poll(() => page.locator('#scene-name').textContent(), { timeout: 180_000 }).toBe('missing.rib');
    await waitForRender(page, 0, 180_000);
    const messages = await page.locator('#messages li').allTextContents();
    const count = (pattern: RegExp): number => messages.filter((m) => pattern.test(m)).length;
    expect(count(/^missing\.rib:5:1 warning: light shader "Global_Distant" not found; the light is skipped$/), messages.join('\n')).toBe(1);
    expect(count(/^missing\.rib:8:1 warning: surface shader "nosuchsurface" not found; using the default surface$/), messages.join('\n')).toBe(1);
    expect(count(/^missing\.rib:12:1 warning: surface shader "badshader" does not compile \(1 error in badshader\.sl\); using the default surface$/), messages.join('\n')).toBe(1);
    expect(count(/^badshader\.sl:3:\d+ error: /), messages.join('\n')).toBe(1);
    // No message names a shader file that does not exist, none is a header ending in a colon, none repeats.
    expect(messages.filter((m) => /Global_Distant\.sl|nosuchsurface\.sl/.test(m))).toEqual([]);
    expect(messages.filter((m) => /:\s*$/.test(m))).toEqual([]);
    expect(new Set(messages).size).toBe(messages.length);
    const note = page.locator('#lights [data-light="0"] .note');
    expect(await note.getAttribute('data-problem')).toBe('not found');
    expect(await note.textContent()).toMatch(/Global_Distant" not found/);
    expect(pageErrors).toEqual([]);
  });

  it('Stop cancels the render in flight; an edit cancels the one in flight and its own render completes', async () => {
    const before = await counters();
    await page.locator('#open-files').setInputFiles([{ name: 'heavy.rib', mimeType: 'text/plain', buffer: Buffer.from(HEAVY_RIB) }]);
    await expect.poll(() => page.locator('#scene-name').textContent(), { timeout: 180_000 }).toBe('heavy.rib');
    expect(await state()).toBe('rendering');
    expect(await page.locator('#stop-render').isEnabled()).toBe(true);
    const clicked = Date.now();
    await page.locator('#stop-render').click();
    await expect.poll(async () => (await counters()).cancelled, { timeout: 60_000, interval: 20 }).toBe(before.cancelled + 1);
    const cancelMs = Date.now() - clicked;
    console.log(`Stop to cancelled render: ${cancelMs} ms`);
    expect(await state()).toBe('stopped');
    expect(await page.locator('#render-status').textContent()).toBe('Stopped before the first picture.');
    expect(await page.locator('#stop-render').isDisabled()).toBe(true);
    // The stopped render drew nothing and no other render followed it.
    expect((await counters()).renders).toBe(before.renders);

    // Bucket mode, so progress shows the render under way; then an edit while it runs.
    await page.locator('#panels details:has(#settings) > summary').click();
    await page.locator('select[data-setting="mode"]').selectOption('16');
    await page.waitForFunction(() => window.reyesViewer!.progress.some((p) => p > 0 && p < 1), undefined, { timeout: 120_000, polling: 20 });
    const n = await renders(page);
    await page.locator('#lights [data-light="1"] [data-light-toggle]').uncheck();
    await waitForRender(page, n, 300_000);
    const after = await counters();
    expect(after.cancelled).toBe(before.cancelled + 2);
    expect(after.renders).toBe(n + 1);
    expect(await page.evaluate(() => window.reyesViewer!.renders.at(-1)!.kind)).toBe('light change');
    expect(pageErrors).toEqual([]);
  });
});
