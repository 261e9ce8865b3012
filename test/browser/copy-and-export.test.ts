// Issue 17, copy and export, in headless Chromium: Ctrl+C and the Copy button put the picture on
// the clipboard as the same PNG the Save button writes (read back from the clipboard and decoded
// with an independent reader); Export RIB writes the frame as the page has it (orbit camera, light
// parameters and switches, a primitive's colour and surface parameters), which parses back with
// those values and renders the same picture when opened again.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPng } from '../image/independent-readers.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { openFiles, openViewer, picture, renders, setNumber, waitForRender, type OpenViewer } from './viewer-page.ts';

/** Two constant-coloured squares side by side before an orthographic camera, over nothing. */
const SQUARES_RIB = [
  'Format 32 24 1', 'PixelSamples 2 2', 'Projection "orthographic"', 'ScreenWindow -2 2 -1.5 1.5', 'Translate 0 0 5', 'WorldBegin',
  'Surface "constant"',
  'AttributeBegin', 'Color [0.8 0.4 0.2]', 'Polygon "P" [-1.5 -1 0  -0.5 -1 0  -0.5 1 0  -1.5 1 0]', 'AttributeEnd',
  'AttributeBegin', 'Color [0.2 0.4 0.6]', 'Polygon "P" [0.5 -1 0  1.5 -1 0  1.5 1 0  0.5 1 0]', 'AttributeEnd',
  'WorldEnd', '',
].join('\n');

/** Two plastic spheres lit by a point light and a distant light, before a perspective camera. */
const LIT_RIB = [
  'Format 48 36 1', 'PixelSamples 2 2', 'Projection "perspective" "fov" [40]', 'Translate 0 0 6', 'WorldBegin',
  'LightSource "pointlight" 1 "from" [-2 2 -3] "intensity" [10]',
  'LightSource "distantlight" 2 "to" [0 0 1] "intensity" [0.6]',
  'Surface "plastic"',
  'AttributeBegin', 'Translate -1.1 0 0', 'Color [0.9 0.5 0.2]', 'Sphere 1 -1 1 360', 'AttributeEnd',
  'AttributeBegin', 'Translate 1.1 0 0', 'Color [0.3 0.8 0.4]', 'Sphere 1 -1 1 360', 'AttributeEnd',
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

  /** Runs `act` and waits for the full-quality render that follows it (a camera move previews first). */
  const afterFullRender = async (act: () => Promise<void>): Promise<void> => {
    const before = await renders(page);
    await act();
    await page.waitForFunction((n) => {
      const probe = window.reyesViewer;
      return probe && probe.counters.renders > n && probe.renders.at(-1)?.quality === 'full'
        && document.querySelector('#viewport')?.getAttribute('data-render-state') === 'complete';
    }, before, { timeout: 180_000, polling: 100 });
  };

  it('exports the edited scene as RIB that reads back with the edits and renders the same picture', async () => {
    await openFiles(page, [{ name: 'lit.rib', text: LIT_RIB }]);
    await afterFullRender(() => setNumber(page, '#lights [data-light="0"] [data-param="intensity"] input[type="number"]', 20));
    await afterFullRender(() => page.locator('#lights [data-light="1"] [data-light-toggle]').uncheck());
    // Orbit a little and dolly in.
    const box = (await page.locator('#picture').boundingBox())!;
    await afterFullRender(async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 12, box.y + box.height / 2, { steps: 3 });
      await page.mouse.up();
      await page.mouse.wheel(0, -100);
    });
    // Select the right-hand sphere (its centre is still right of the middle), make it blue and dull.
    await page.mouse.click(box.x + box.width * 0.8, box.y + box.height / 2);
    await expect.poll(() => page.locator('#material [data-material="color"]').count()).toBe(1);
    const selected = await page.evaluate(async () => {
      const canvas = document.getElementById('picture') as HTMLCanvasElement;
      return window.reyesViewer!.pick(Math.floor(canvas.width * 0.8), Math.floor(canvas.height / 2));
    });
    await afterFullRender(() => page.locator('#material [data-material="color"]').evaluate((input: HTMLInputElement) => {
      input.value = '#0000ff';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }));
    await afterFullRender(() => setNumber(page, '#material [data-param="Kd"] input[type="number"]', 0.25));
    const shown = await picture(page);
    const at = (shown.height / 2 * shown.width + Math.floor(shown.width * 0.8)) * 4;
    const [r, g, b] = shown.rgba.slice(at, at + 3) as [number, number, number];
    expect(b, 'the selected sphere is blue').toBeGreaterThan(Math.max(r, g) + 10);

    const downloaded = page.waitForEvent('download');
    await page.locator('#export-rib').click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe('lit-edited.rib');
    const text = readFileSync((await file.path())!, 'utf8');
    const scene = parseRibSync(text, { fileName: 'lit-edited.rib' });
    expect(scene.errors).toEqual([]);
    expect(scene.warnings).toEqual([]);
    const frame = scene.frames[0]!;
    expect([frame.options.xResolution, frame.options.yResolution]).toEqual([48, 36]);
    expect([frame.camera.projection, frame.camera.fov]).toEqual(['perspective', 40]);
    // Orbited: the camera's x axis has turned away from the world's; dollied: nearer than 6 to the pivot.
    const view = frame.camera.worldToCamera;
    expect(Math.abs(view[2]!)).toBeGreaterThan(0.01);
    expect(Math.hypot(view[12]!, view[13]!, view[14]!)).toBeLessThan(6);
    expect(frame.lights.map((l) => [l.shader, l.params.find((p) => p.name === 'intensity')!.values[0]])).toEqual([['pointlight', 20], ['distantlight', 0.6]]);
    expect(frame.primitives.map((p) => p.attributes.lights)).toEqual([[0], [0]]);
    expect(selected).toBe(1);
    expect(frame.primitives.map((p) => p.attributes.color)).toEqual([[0.9, 0.5, 0.2], [0, 0, 1]]);
    expect(frame.primitives.map((p) => p.attributes.surface?.name)).toEqual(['plastic', 'plastic']);
    expect(frame.primitives[1]!.attributes.surface!.params.find((p) => p.name === 'Kd')?.values).toEqual([0.25]);
    expect(frame.primitives.map((p) => p.objectToWorld)).toEqual(parseRibSync(LIT_RIB).frames[0]!.primitives.map((p) => p.objectToWorld));

    await openFiles(page, [{ name: 'lit-edited.rib', text }]);
    const reopened = await picture(page);
    let worst = 0;
    shown.rgba.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - reopened.rgba[i]!))));
    expect(worst).toBeLessThanOrEqual(1);
    expect(pageErrors).toEqual([]);
  });
});
