// Issue 17, bugs 5 to 9 and the keyboard, in headless Chromium: the status says "with N errors" in
// the error colour when the scene has errors; the scene picker is reset after opening files so a
// bundled scene can be chosen again; shaders are found by the names they declare, not their file
// names; the picture saves as PNG, 16-bit TIFF and float EXR (read back with independent readers);
// a slider writes a short number into its field; Ctrl+Z and Ctrl+Shift+Z undo and redo an edit; ?
// shows the shortcuts.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExr, readPng, readTiff } from '../image/independent-readers.ts';
import { openFiles, openViewer, picture, renders, waitForRender, type OpenViewer } from './viewer-page.ts';

/** A red constant-shaded square filling the middle of a 32 × 24 frame over nothing, and one error. */
const STRIPES_RIB = [
  'Format 32 24 1', 'PixelSamples 2 2', 'Projection "orthographic"', 'ScreenWindow -2 2 -1.5 1.5', 'WorldBegin',
  'LightSource "pointlight" 1 "from" [0 0 -4] "intensity" [8]',
  'Surface "stripes"',
  'Polygon "P" [-1 -1 1  1 -1 1  1 1 1  -1 1 1]',
  'Sphere 1',
  'WorldEnd', '',
].join('\n');

/** Declares "stripes" in a file with another name. */
const GOOD_SL = ['surface stripes(color tint = color(1, 0, 0)) {', '  Oi = Os;', '  Ci = Oi * tint;', '}', ''].join('\n');

describe('the viewer\'s status, picker, shader names, saving and keyboard, in headless Chromium', () => {
  let viewer: OpenViewer;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    viewer = await openViewer(`?scene=${encodeURIComponent('/scenes/features/sphere-default.rib')}`);
    ({ page, pageErrors } = viewer);
    await waitForRender(page, 0, 180_000);
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it('finds a shader by its declared name, says "with 1 error" in the error colour, and resets the picker', async () => {
    await openFiles(page, [{ name: 'stripes.rib', text: STRIPES_RIB }, { name: 'good.sl', text: GOOD_SL }]);
    const messages = await page.locator('#messages li').allTextContents();
    expect(messages.filter((m) => /not found/.test(m))).toEqual([]);
    expect(messages.filter((m) => / error: /.test(m))).toEqual(['stripes.rib:9:1 error: Sphere: expected 4 arguments (radius zmin zmax thetamax), got 1']);
    // The square is the shader's red, straight from the file that declares it.
    const shown = await picture(page);
    const centre = (12 * 32 + 16) * 4;
    expect(shown.rgba.slice(centre, centre + 4)).toEqual([255, 0, 0, 255]);
    const status = page.locator('#render-status');
    expect(await status.textContent()).toMatch(/^Rendered stripes\.rib with 1 error \(see Messages\) in \d+ ms/);
    expect(await status.getAttribute('data-state')).toBe('complete-with-errors');
    expect(await status.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(192, 57, 43)');

    // The picker no longer claims the scene it showed before; choosing a bundled scene opens it.
    const picker = page.locator('#scene-picker');
    expect(await picker.inputValue()).toBe('');
    const groups = await picker.locator('optgroup').evaluateAll((g) => g.map((e) => (e as HTMLOptGroupElement).label));
    expect(groups[0]).toBe('viewer');
    expect(groups.slice(-2)).toEqual(['features', 'features/maps']);
    const m = await renders(page);
    await picker.selectOption({ label: 'sphere-default.rib' });
    await expect.poll(() => page.locator('#scene-name').textContent(), { timeout: 180_000 }).toBe('sphere-default.rib');
    await waitForRender(page, m, 180_000);
    expect(await status.getAttribute('data-state')).toBe('complete');
    expect(pageErrors).toEqual([]);
  });

  it('saves the picture as PNG (straight alpha), 16-bit TIFF and float EXR with the same pixels', async () => {
    await openFiles(page, [{ name: 'stripes.rib', text: STRIPES_RIB }, { name: 'good.sl', text: GOOD_SL }]);
    const save = async (format: string, viaKeyboard: boolean): Promise<{ name: string; bytes: Uint8Array }> => {
      await page.locator('#save-format').selectOption(format);
      const downloaded = page.waitForEvent('download');
      if (viaKeyboard) {
        await page.locator('#picture').focus();
        await page.keyboard.press('Control+s');
      } else await page.locator('#save-picture').click();
      const file = await downloaded;
      return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync((await file.path())!)) };
    };
    const png = await save('png', true);
    expect(png.name).toBe('stripes.png');
    const decoded = readPng(png.bytes);
    expect([decoded.width, decoded.height, decoded.channels, decoded.depth]).toEqual([32, 24, 4, 8]);
    const at = (x: number, y: number, channels = 4): number => (y * 32 + x) * channels;
    expect(decoded.values.slice(at(16, 12), at(16, 12) + 4)).toEqual([255, 0, 0, 255]);
    expect(decoded.values.slice(at(1, 1), at(1, 1) + 4)).toEqual([0, 0, 0, 0]);
    // An edge pixel: straight alpha keeps the colour full red however little the square covers.
    const edge = decoded.values.slice(at(8, 12), at(8, 12) + 4);
    expect(edge[3]).toBeGreaterThan(0);
    expect(edge[3]).toBeLessThan(255);
    expect(edge.slice(0, 3)).toEqual([255, 0, 0]);

    const tiff = await readTiff((await save('tiff16', false)).bytes);
    expect([tiff.width, tiff.height, tiff.bitsPerSample, tiff.samples, tiff.extraSamples]).toEqual([32, 24, 16, 4, 1]);
    const t = tiff.values.slice(at(8, 12), at(8, 12) + 4);
    // Associated alpha: red equals alpha on the edge, to the 16-bit step.
    expect(Math.abs(t[0]! - t[3]!)).toBeLessThanOrEqual(1);
    expect(Math.abs(t[3]! / 65535 - edge[3]! / 255)).toBeLessThan(1 / 255);

    const exr = readExr((await save('exr', false)).bytes);
    expect(exr.pixelTypes).toEqual({ R: 2, G: 2, B: 2, A: 2 });
    expect(exr.values.slice(at(16, 12), at(16, 12) + 4)).toEqual([1, 0, 0, 1]);
    expect(Math.abs(exr.values[at(8, 12) + 3]! - t[3]! / 65535)).toBeLessThan(1e-4);
    expect(pageErrors).toEqual([]);
  });

  it('writes a short number from a slider, undoes and redoes the edit with Ctrl+Z and Ctrl+Shift+Z, and lists the shortcuts on ?', async () => {
    // A lit square: a light with an intensity slider.
    await openFiles(page, [{ name: 'lit.rib', text: STRIPES_RIB.replace('Surface "stripes"', 'Surface "matte"').replace('Sphere 1\n', '') }]);
    const before = await picture(page);
    expect(await page.locator('#undo-edit').isDisabled()).toBe(true);

    const slider = page.locator('#lights [data-light="0"] [data-param="intensity"] input[type="range"]');
    const field = page.locator('#lights [data-light="0"] [data-param="intensity"] input[type="number"]');
    const m = await renders(page);
    await slider.evaluate((input: HTMLInputElement) => {
      input.value = String(Number(input.max) * 0.0367701);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitForRender(page, m, 180_000);
    const value = await field.inputValue();
    expect(value.replace(/^0\.0*|\./g, '').length, value).toBeLessThanOrEqual(4);
    const dimmed = await picture(page);
    expect(dimmed.rgba).not.toEqual(before.rgba);

    const u = await renders(page);
    await page.locator('#picture').focus();
    await page.keyboard.press('Control+z');
    await waitForRender(page, u, 180_000);
    expect((await picture(page)).rgba).toEqual(before.rgba);
    expect(await field.inputValue()).toBe('8');
    expect(await page.locator('#redo-edit').isEnabled()).toBe(true);

    const r = await renders(page);
    await page.keyboard.press('Control+Shift+Z');
    await waitForRender(page, r, 180_000);
    expect((await picture(page)).rgba).toEqual(dimmed.rgba);
    expect(await field.inputValue()).toBe(value);

    await page.keyboard.press('?');
    expect(await page.locator('#help').evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    expect(await page.locator('#help').textContent()).toMatch(/Ctrl\+Z.*Undo/);
    await page.keyboard.press('Escape');
    expect(await page.locator('#help').evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
