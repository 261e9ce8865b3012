import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, servePage } from './chromium.ts';

describe('the page in headless Chromium', () => {
  let url: string;
  let server: ViteDevServer;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    ({ server, url } = await servePage());
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    // A tiny scene, so its render does not compete with the self-test for the software GPU.
    await page.goto(`${url}?scene=/scenes/viewer/default-surfaces.rib`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('reports the WebGPU adapter and its limits', async () => {
    const status = page.locator('#gpu-status');
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 60_000 }).not.toBe('pending');
    expect(await status.getAttribute('data-state')).toBe('ready');
    expect(await status.textContent()).toMatch(/WebGPU is available: .*SwiftShader/i);
    const limitsText = await page.locator('#gpu-limits').textContent();
    expect(limitsText).toMatch(/maxStorageBufferBindingSize\s*\d+/);
  });

  it("sorts 64-bit keys with the renderer's radix sort on the page's GPU device", async () => {
    // The self-test lives in the About GPU panel.
    await page.click('#about > summary');
    await page.click('#run-sort');
    const result = page.locator('#sort-result');
    await expect
      .poll(() => result.getAttribute('data-state'), { timeout: 100_000, interval: 250 })
      .toMatch(/passed|failed|error/);
    expect(await result.textContent()).toMatch(/^10000 keys sorted in \d+ ms, same as the CPU$/);
    expect(await result.getAttribute('data-state')).toBe('passed');
    expect(consoleErrors).toEqual([]);
  });

  it('says clearly why when the browser has no WebGPU', async () => {
    const bare = await browser.newPage();
    try {
      await bare.addInitScript(() => Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined }));
      await bare.goto(url);
      const status = bare.locator('#gpu-status');
      await expect.poll(() => status.getAttribute('data-state'), { timeout: 30_000 }).toBe('error');
      expect(await status.textContent()).toMatch(/WebGPU is not available: This browser has no WebGPU \(navigator\.gpu is missing\)/);
      expect(await bare.locator('#run-sort').isDisabled()).toBe(true);
    } finally {
      await bare.close();
    }
  });
});
