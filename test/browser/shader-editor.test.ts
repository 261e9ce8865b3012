// Issue 17, live RSL editing, in headless Chromium: a material's shader opens in the editor; a change
// that compiles re-renders the picture with it, recompiling one kernel; an error is underlined at its
// position and listed in Messages, where its position links back to the line; the picture keeps the
// last version that compiled.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFiles, openViewer, picture, renders, waitForRender, type OpenViewer } from './viewer-page.ts';

const SQUARE_RIB = [
  'Format 32 24 1', 'PixelSamples 2 2', 'Projection "orthographic"', 'ScreenWindow -2 2 -1.5 1.5', 'WorldBegin',
  'Surface "tint"',
  'Polygon "P" [-1 -1 1  1 -1 1  1 1 1  -1 1 1]',
  'WorldEnd', '',
].join('\n');

const tint = (colour: string): string => ['surface tint() {', '  Oi = Os;', `  Ci = Oi * ${colour};`, '}', ''].join('\n');

describe('live shader editing in the page, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];
  const centre = async (): Promise<number[]> => (await picture(page)).rgba.slice((12 * 32 + 16) * 4, (12 * 32 + 16) * 4 + 4);
  const compiles = (): Promise<number> => page.evaluate(() => window.reyesViewer!.counters.compiles);

  beforeAll(async () => {
    viewer = await openViewer();
    ({ page, pageErrors } = viewer);
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it('re-renders with each change that compiles and underlines an error at its position', async () => {
    await openFiles(page, [{ name: 'square.rib', text: SQUARE_RIB }, { name: 'tint.sl', text: tint('color(1, 0, 0)') }]);
    expect(await centre()).toEqual([255, 0, 0, 255]);

    // Select the square and open its shader.
    const box = (await page.locator('#picture').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('#material [data-action="edit-shader"]').click();
    const editor = page.locator('#shader-editor .cm-content');
    await expect.poll(() => editor.textContent()).toContain('Ci = Oi * color(1, 0, 0);');

    // A change that compiles: the picture follows, with one more kernel compiled.
    const before = await compiles();
    const n = await renders(page);
    await editor.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(tint('color(0, 0, 1)'));
    await waitForRender(page, n, 180_000);
    expect(await centre()).toEqual([0, 0, 255, 255]);
    expect(await compiles()).toBe(before + 1);
    expect(await page.evaluate(() => window.reyesViewer!.renders.at(-1)!.kind)).toBe('shader edit');

    // An error: underlined where the compiler says, listed in Messages, no render; the picture stays.
    const m = await renders(page);
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(tint('colr(0, 1, 0)'));
    await expect.poll(() => page.locator('#shader-editor .cm-lintRange-error').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.locator('#shader-editor .cm-lintRange-error').first().textContent()).toBe('colr');
    const error = page.locator('#messages li[data-severity="error"]', { hasText: 'tint.sl:3:' });
    await expect.poll(() => error.count()).toBe(1);
    expect(await error.textContent()).toMatch(/^tint\.sl:3:\d+ error: .*colr/);
    expect(await renders(page)).toBe(m);
    expect(await centre()).toEqual([0, 0, 255, 255]);

    // Its position links to the line in the editor.
    await page.keyboard.press('Control+Home');
    await error.locator('code.where').click();
    expect(await page.locator('#shader-editor .cm-activeLine').textContent()).toContain('colr');
    expect(pageErrors).toEqual([]);
  });
});
