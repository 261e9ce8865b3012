// Issue 17, copy and export, in headless Chromium: Ctrl+C and the Copy button put the picture on
// the clipboard as the same PNG the Save button writes (read back from the clipboard and decoded
// with an independent reader).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPng } from '../image/independent-readers.ts';
import { openFiles, openViewer, type OpenViewer } from './viewer-page.ts';

/** Two constant-coloured squares side by side before an orthographic camera, over nothing. */
const SQUARES_RIB = [
  'Format 32 24 1', 'PixelSamples 2 2', 'Projection "orthographic"', 'ScreenWindow -2 2 -1.5 1.5', 'Translate 0 0 5', 'WorldBegin',
  'Surface "constant"',
  'AttributeBegin', 'Color [0.8 0.4 0.2]', 'Polygon "P" [-1.5 -1 0  -0.5 -1 0  -0.5 1 0  -1.5 1 0]', 'AttributeEnd',
  'AttributeBegin', 'Color [0.2 0.4 0.6]', 'Polygon "P" [0.5 -1 0  1.5 -1 0  1.5 1 0  0.5 1 0]', 'AttributeEnd',
  'WorldEnd', '',
].join('\n');

/** RGBA with the colour times alpha, rounded to 8 bits: Chromium decodes a PNG written to the
 * clipboard and encodes it again through premultiplied pixels, so straight colour at small alpha
 * comes back changed while this stays the same. */
function premultiplied(values: ArrayLike<number>): number[] {
  return Array.from(values, (v, i) => (i % 4 === 3 ? v : Math.round((v * values[i - (i % 4) + 3]!) / 255)));
}

describe('copy and export from the page, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    viewer = await openViewer();
    ({ page, pageErrors } = viewer);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await openFiles(page, [{ name: 'squares.rib', text: SQUARES_RIB }]);
  });

  afterAll(async () => {
    await viewer?.close();
  });

  const clipboardPng = async (): Promise<Uint8Array> => new Uint8Array(await page.evaluate(async () => {
    const [item] = await navigator.clipboard.read();
    return Array.from(new Uint8Array(await (await item!.getType('image/png')).arrayBuffer()));
  }));
  const clearClipboard = (): Promise<void> => page.evaluate(() => navigator.clipboard.writeText('nothing copied yet'));

  it('copies the picture to the clipboard as the PNG that Save writes (Ctrl+C and the Copy button)', async () => {
    await page.locator('#save-format').selectOption('png');
    const downloaded = page.waitForEvent('download');
    await page.locator('#save-picture').click();
    const saved = readPng(new Uint8Array(readFileSync((await (await downloaded).path())!)));
    expect([saved.width, saved.height, saved.channels]).toEqual([32, 24, 4]);
    const at = (x: number, y: number): number => (y * 32 + x) * 4;
    expect(saved.values.slice(at(8, 12), at(8, 12) + 4)).toEqual([204, 102, 51, 255]);
    expect(saved.values.slice(at(24, 12), at(24, 12) + 4)).toEqual([51, 102, 153, 255]);

    for (const how of ['keyboard', 'button']) {
      await clearClipboard();
      if (how === 'keyboard') {
        await page.locator('#picture').click({ position: { x: 1, y: 1 } });
        await page.keyboard.press('Control+c');
      } else await page.locator('#copy-picture').click();
      await expect.poll(() => page.evaluate(async () => (await navigator.clipboard.read())[0]!.types.join()), { message: how }).toBe('image/png');
      const copied = readPng(await clipboardPng());
      expect([copied.width, copied.height, copied.channels], how).toEqual([32, 24, 4]);
      expect(premultiplied(copied.values), how).toEqual(premultiplied(saved.values));
    }
    expect(pageErrors).toEqual([]);
  });
});
