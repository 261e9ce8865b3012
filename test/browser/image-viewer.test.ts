// Issue 17, the image viewer, in headless Chromium: the value and depth of the pixel under the
// cursor; display exposure and gamma applied live to the float pixels (checked against the
// definition: (gain * c)^(1/gamma), quantized); a histogram of the displayed values; 1:1 to 4:1
// pixels; a snapshot compared with the new picture up to the wipe line.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFiles, openViewer, picture, renders, waitForRender, type OpenViewer } from './viewer-page.ts';

/** A constant-coloured square, 1 unit in front of an orthographic camera at distance 5, over nothing. */
const SQUARE_RIB = [
  'Format 32 24 1', 'PixelSamples 2 2', 'Projection "orthographic"', 'ScreenWindow -2 2 -1.5 1.5', 'Translate 0 0 5', 'WorldBegin',
  'Surface "constant"', 'Color [0.8 0.4 0.2]',
  'Polygon "P" [-1 -1 0  1 -1 0  1 1 0  -1 1 0]',
  'WorldEnd', '',
].join('\n');

describe('the image viewer, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];
  const centre = async (): Promise<number[]> => (await picture(page)).rgba.slice((12 * 32 + 16) * 4, (12 * 32 + 16) * 4 + 4);

  beforeAll(async () => {
    viewer = await openViewer();
    ({ page, pageErrors } = viewer);
    await openFiles(page, [{ name: 'square.rib', text: SQUARE_RIB }]);
    await page.locator('#picture-panel > summary').click();
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it('reads out the float value and depth under the cursor', async () => {
    const box = (await page.locator('#picture').boundingBox())!;
    await page.mouse.move(box.x + (16.5 / 32) * box.width, box.y + (12.5 / 24) * box.height);
    const readout = page.locator('#pixel-readout');
    await expect.poll(() => readout.textContent()).toBe('(16, 12)  r 0.8000  g 0.4000  b 0.2000  a 1.0000  z 5.0000');
    expect(pageErrors).toEqual([]);
  });

  it('applies display exposure and gamma live, without rendering, and histograms what it shows', async () => {
    expect(await centre()).toEqual([204, 102, 51, 255]);
    const n = await renders(page);
    await page.locator('#display-exposure').fill('-1');
    // (0.5 * 0.8, 0.5 * 0.4, 0.5 * 0.2) * 255 = 102, 51, 25.5 (the dither picks 25 or 26).
    const dimmed = await centre();
    expect(dimmed.slice(0, 2)).toEqual([102, 51]);
    expect(Math.abs(dimmed[2]! - 25.5)).toBeLessThanOrEqual(0.5);
    await page.locator('#display-gamma').fill('2');
    await page.locator('#display-gamma').dispatchEvent('change');
    // (0.4, 0.2, 0.1)^(1/2) * 255 = 161.3, 114.0, 80.6
    const lifted = await centre();
    [161.3, 114.0, 80.6].forEach((v, c) => expect(Math.abs(lifted[c]! - v), `channel ${c}`).toBeLessThanOrEqual(0.8));
    expect(await renders(page)).toBe(n);
    // Every covered pixel has straight colour (0.4, 0.2, 0.1) before gamma... after it 0.632, 0.447, 0.316: bins 40, 28, 20 of 64.
    const counts = JSON.parse((await page.locator('#histogram').getAttribute('data-counts'))!) as number[][];
    const covered = (await picture(page)).rgba.filter((_, i) => i % 4 === 3 && _ > 0).length;
    expect([counts[0]![40], counts[1]![28], counts[2]![20]]).toEqual([covered, covered, covered]);
    await page.locator('#display-exposure').fill('0');
    await page.locator('#display-gamma').fill('');
    await page.locator('#display-gamma').dispatchEvent('change');
    expect(await centre()).toEqual([204, 102, 51, 255]);
    expect(pageErrors).toEqual([]);
  });

  it('shows 4:1 pixels and compares a snapshot with the next picture up to the wipe line', async () => {
    await page.locator('#picture-zoom').selectOption('4');
    expect((await page.locator('#picture').boundingBox())!.width).toBeCloseTo(128, 0);
    await page.locator('#take-snapshot').click();
    expect(await page.locator('#compare-snapshot').inputValue()).toBe('0');
    // Select the square and make it blue: a new picture, with the red snapshot over its left half.
    const box = (await page.locator('#picture').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const n = await renders(page);
    await page.locator('#material [data-material="color"]').evaluate((input: HTMLInputElement) => {
      input.value = '#0000ff';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitForRender(page, n, 180_000);
    expect(await centre()).toEqual([0, 0, 255, 255]);
    const snapshot = page.locator('#snapshot');
    expect(await snapshot.isVisible()).toBe(true);
    expect(await snapshot.evaluate((c) => getComputedStyle(c).clipPath)).toBe('inset(0px 50% 0px 0px)');
    const kept = await snapshot.evaluate((c: HTMLCanvasElement) => Array.from(c.getContext('2d')!.getImageData(16, 12, 1, 1).data));
    expect(kept).toEqual([204, 102, 51, 255]);
    await page.locator('#snapshot-wipe').fill('25');
    expect(await snapshot.evaluate((c) => getComputedStyle(c).clipPath)).toBe('inset(0px 75% 0px 0px)');
    expect(pageErrors).toEqual([]);
  });
});
