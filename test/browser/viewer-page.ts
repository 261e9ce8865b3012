// Helpers for driving the viewer page in the browser tests and the measurement script.
import type { Page } from 'playwright-core';
import { launchChromium, servePage } from './chromium.ts';

export interface Picture {
  width: number;
  height: number;
  /** RGBA, premultiplied like the renderer's PNGs. */
  rgba: number[];
}

export async function renders(page: Page): Promise<number> {
  return page.evaluate(() => window.reyesViewer?.counters.renders ?? 0);
}

/** Waits until a render after `before` renders has completed (data-render-state="complete"). */
export async function waitForRender(page: Page, before: number, timeout = 120_000): Promise<void> {
  await page.waitForFunction(
    (n) => (window.reyesViewer?.counters.renders ?? 0) > n && ['complete', 'error'].includes(document.querySelector('#viewport')?.getAttribute('data-render-state') ?? ''),
    before, { timeout, polling: 100 },
  );
  const state = await page.locator('#viewport').getAttribute('data-render-state');
  if (state !== 'complete') throw new Error(`render ended in state ${state}: ${await page.locator('#render-status').textContent()}`);
}

export async function picture(page: Page): Promise<Picture> {
  return page.evaluate(() => {
    const canvas = document.getElementById('picture') as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const rgba = Array.from(data);
    for (let i = 0; i < rgba.length; i += 4) for (let c = 0; c < 3; c++) rgba[i + c] = Math.round((rgba[i + c]! * rgba[i + 3]!) / 255);
    return { width: canvas.width, height: canvas.height, rgba };
  });
}

/** Mean of r + g + b over the pixels where `pick(x, y)` holds. */
export function meanBrightness(p: Picture, pick: (x: number, y: number) => boolean): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < p.height; y++) for (let x = 0; x < p.width; x++) {
    if (!pick(x, y)) continue;
    const i = (y * p.width + x) * 4;
    sum += p.rgba[i]! + p.rgba[i + 1]! + p.rgba[i + 2]!;
    n++;
  }
  return n ? sum / n : 0;
}

/** Indexes of pixels whose largest channel difference exceeds `threshold`. */
export function changedPixels(a: Picture, b: Picture, threshold = 3): number[] {
  const out: number[] = [];
  for (let k = 0; k < a.width * a.height; k++) {
    let d = 0;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a.rgba[k * 4 + c]! - b.rgba[k * 4 + c]!));
    if (d > threshold) out.push(k);
  }
  return out;
}

/** Sets a number field and commits it (the change event the page listens to). */
export async function setNumber(page: Page, selector: string, value: number): Promise<void> {
  await page.locator(selector).fill(String(value));
  await page.locator(selector).dispatchEvent('change');
}

/** The page served by Vite and open in headless Chromium at 1400 × 900 (`search`: its query, e.g.
 * "?scene=..."), with the page errors it reports; `close` ends both. */
export interface OpenViewer {
  page: Page;
  pageErrors: string[];
  close(): Promise<void>;
}

/** `beforeLoad` runs on the new page before it is loaded (to route its requests, say); with it, the
 * page is returned once its navigation is committed (its first scene's fetch may be held back). */
export async function openViewer(search = '', beforeLoad?: (page: Page) => Promise<unknown>): Promise<OpenViewer> {
  const { server, url } = await servePage();
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await beforeLoad?.(page);
  await page.goto(`${url}${search}`, beforeLoad ? { waitUntil: 'commit' } : undefined);
  return {
    page, pageErrors,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

/** Opens text files as a user would (the scene is the first) and waits for the scene's render. */
export async function openFiles(page: Page, files: { name: string; text: string }[], timeout = 180_000): Promise<void> {
  const before = await renders(page);
  await page.locator('#open-files').setInputFiles(files.map((f) => ({ name: f.name, mimeType: 'text/plain', buffer: Buffer.from(f.text) })));
  await page.waitForFunction((name) => document.getElementById('scene-name')?.textContent === name, files[0]!.name, { timeout });
  await waitForRender(page, before, timeout);
}

/** Clicks the first object along the picture's middle row (from a quarter of its width on), as the
 * ID pass says; false when that row shows nothing. */
export async function clickObjectOnMiddleRow(page: Page): Promise<boolean> {
  const box = (await page.locator('#picture').boundingBox())!;
  const hit = await page.evaluate(async () => {
    const canvas = document.getElementById('picture') as HTMLCanvasElement;
    const y = Math.floor(canvas.height / 2);
    for (let x = Math.floor(canvas.width / 4); x < canvas.width; x++) if ((await window.reyesViewer!.pick(x, y)) >= 0) return { x: x + 2, y, w: canvas.width, h: canvas.height };
    return undefined;
  });
  if (!hit) return false;
  await page.mouse.click(box.x + ((hit.x + 0.5) / hit.w) * box.width, box.y + ((hit.y + 0.5) / hit.h) * box.height);
  return true;
}
