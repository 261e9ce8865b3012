// Issue 17, the scene picker's thumbnails, in headless Chromium: the "Scenes…" button opens a
// gallery of the bundled scenes grouped by folder (viewer first, feature scenes last), the
// thumbnails load, a scene without one shows the placeholder, and a card chosen with the keyboard
// opens its scene as the select does (the select follows); Esc closes the gallery without
// stopping the render.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_THUMBNAIL } from '../../src/viewer/scene-thumbnails.ts';
import { openViewer, renders, waitForRender, type OpenViewer } from './viewer-page.ts';

describe('the scene gallery, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;

  beforeAll(async () => {
    viewer = await openViewer(`?scene=${encodeURIComponent('/scenes/features/sphere-default.rib')}`);
    page = viewer.page;
    await waitForRender(page, 0, 180_000);
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it('shows the scenes grouped by folder with their thumbnails, and opens one chosen with the keyboard', async () => {
    const gallery = page.locator('#scene-gallery');
    expect(await gallery.isVisible()).toBe(false);
    await page.locator('#open-scene-gallery').click();
    await expect.poll(() => gallery.isVisible()).toBe(true);

    const folders = await gallery.locator('.scene-group').evaluateAll((groups) => groups.map((g) => (g as HTMLElement).dataset.folder));
    expect(folders[0]).toBe('viewer');
    expect(folders.slice(-2)).toEqual(['features', 'features/maps']);
    // As many cards as the select has scenes, in the same order.
    const cardUrls = await gallery.locator('.scene-card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.url));
    const optionUrls = await page.locator('#scene-picker option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(cardUrls).toEqual(optionUrls);

    // The first viewer scene's thumbnail loads (lazily, now that the gallery shows it).
    const firstImage = gallery.locator('.scene-group[data-folder="viewer"] .scene-card img').first();
    expect(await firstImage.getAttribute('loading')).toBe('lazy');
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('#scene-gallery .scene-group[data-folder="viewer"] .scene-card img');
      return !!img && img.complete && img.naturalWidth > 0;
    }, undefined, { timeout: 30_000 });
    expect(await firstImage.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
    // A scene that cannot be thumbnailed shows the placeholder.
    const skipped = Object.keys(NO_THUMBNAIL)[0];
    if (skipped) expect(await gallery.locator(`.scene-card[data-scene="${skipped}"] .placeholder`).count()).toBe(1);

    // The scene shown is marked and has the focus; the arrow key moves to the next card, Enter opens it.
    const focused = (): Promise<string | undefined> => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.scene);
    expect(await focused()).toBe('features/sphere-default.rib');
    expect(await gallery.locator('.scene-card[aria-current]').getAttribute('data-scene')).toBe('features/sphere-default.rib');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('features/sphere-partial.rib');
    const before = await renders(page);
    await page.keyboard.press('Enter');
    await expect.poll(() => gallery.isVisible()).toBe(false);
    await page.waitForFunction(() => document.getElementById('scene-name')?.textContent === 'sphere-partial.rib', undefined, { timeout: 60_000 });
    await waitForRender(page, before, 180_000);
    expect(await page.locator('#scene-picker').inputValue()).toMatch(/\/scenes\/features\/sphere-partial\.rib$/);
    expect(new URL(page.url()).searchParams.get('scene')).toMatch(/sphere-partial\.rib$/);

    // Opened again, the new scene is the current card; Esc closes the gallery and gives the focus back.
    await page.locator('#open-scene-gallery').click();
    await expect.poll(() => gallery.isVisible()).toBe(true);
    expect(await focused()).toBe('features/sphere-partial.rib');
    await page.keyboard.press('Escape');
    await expect.poll(() => gallery.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('open-scene-gallery');
    expect(await page.locator('#viewport').getAttribute('data-render-state')).toBe('complete');
    expect(viewer.pageErrors).toEqual([]);
  });
});
