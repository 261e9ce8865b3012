// Interactive figures of the viewer in headless Chromium (WebGPU on SwiftShader): time to the first
// picture (first visit, then a second visit in the same browser, whose shader cache is warm),
// re-render times after a light change, a material change and a camera move (preview and full
// quality), Esc to the render stopped, and a shader source edit to its new picture.
// Run: node --import ./src/node/register.js test/browser/measure-interactive.ts [scene ...]
import type { Browser } from 'playwright-core';
import { launchChromium, servePage } from './chromium.ts';
import { clickObjectOnMiddleRow, openFiles, renders, setNumber, waitForRender } from './viewer-page.ts';

const scenes = process.argv.slice(2).length ? process.argv.slice(2) : ['viewer/showcase.rib', 'ribtools/SphereDistantLight.rib'];
const { server, url } = await servePage();
const browser = await launchChromium();
try {
  for (const scene of scenes) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const lastMs = (): Promise<{ quality: string; ms: number; gridsDiced: number; reuse: string }[]> => page.evaluate(() => window.reyesViewer!.renders.map((r) => ({ quality: r.quality, ms: Math.round(r.ms), gridsDiced: r.gridsDiced, reuse: r.reuse })));
    const started = Date.now();
    await page.goto(`${url}?scene=/scenes/${scene}`);
    await waitForRender(page, 0, 600_000);
    const first = Date.now() - started;
    const firstRender = (await lastMs()).at(-1)!.ms;

    let n = await renders(page);
    const intensity = page.locator('[data-light] [data-param="intensity"] input[type="number"]').last();
    const value = Number(await intensity.inputValue());
    await setNumber(page, `[data-light="${await page.locator('[data-light]').last().getAttribute('data-light')}"] [data-param="intensity"] input[type="number"]`, value * 2);
    await waitForRender(page, n, 600_000);
    const lightRender = (await lastMs()).at(-1)!;
    const light = lightRender.ms;

    // Click an object: the first pixel along the middle row that the ID pass says is covered.
    if (!(await clickObjectOnMiddleRow(page))) throw new Error(`${scene}: no object on the middle row`);
    await page.waitForFunction(() => document.querySelector('#material')?.getAttribute('data-selected'), undefined, { timeout: 600_000 });
    n = await renders(page);
    await page.locator('#material input[data-material="color"]').fill('#33cc55');
    await waitForRender(page, n, 600_000);
    const materialRender = (await lastMs()).at(-1)!;
    const material = materialRender.ms;

    const before = (await lastMs()).length;
    n = await renders(page);
    const box = (await page.locator('#picture').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 20, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction((s) => {
      const list = window.reyesViewer!.renders.slice(s);
      return list.at(-1)?.quality === 'full' && document.querySelector('#viewport')!.getAttribute('data-render-state') === 'complete';
    }, before, { timeout: 600_000 });
    const moves = (await lastMs()).slice(before);
    const preview = moves.find((r) => r.quality === 'preview')?.ms;
    const full = moves.at(-1)!.ms;
    const status = await page.locator('#render-status').textContent();

    // Esc while a full-quality render runs (another light change), to the render stopped.
    const cancelled = (): Promise<number> => page.evaluate(() => window.reyesViewer!.counters.cancelled);
    const cancelledBefore = await cancelled();
    await setNumber(page, `[data-light="${await page.locator('[data-light]').last().getAttribute('data-light')}"] [data-param="intensity"] input[type="number"]`, value);
    await page.waitForFunction(() => document.querySelector('#viewport')!.getAttribute('data-render-state') === 'rendering', undefined, { timeout: 600_000 });
    const escaped = Date.now();
    await page.keyboard.press('Escape');
    await page.waitForFunction((c) => window.reyesViewer!.counters.cancelled > c, cancelledBefore, { timeout: 600_000, polling: 10 });
    const cancelMs = Date.now() - escaped;
    await page.close();

    const second = await firstPicture(browser, `${url}?scene=/scenes/${scene}`);
    console.log(JSON.stringify({ scene, firstPictureMs: first, firstRenderMs: firstRender, secondVisitPictureMs: second, lightChangeMs: light, lightReuse: lightRender.reuse, materialChangeMs: material, materialReuse: materialRender.reuse, cameraPreviewMs: preview, cameraFullMs: full, escToStoppedMs: cancelMs, status }));
  }
  console.log(JSON.stringify({ shaderSourceEditMs: await shaderEdit(browser, url) }));
} finally {
  await browser.close();
  await server.close();
}

async function firstPicture(browser: Browser, address: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const started = Date.now();
  await page.goto(address);
  await waitForRender(page, 0, 600_000);
  const ms = Date.now() - started;
  await page.close();
  return ms;
}

/** A lit sphere with its own surface shader; the time from typing a change in the editor to its picture. */
async function shaderEdit(browser: Browser, address: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(address);
  const shader = (k: string): string => `surface tinted(float Kd = 0.8) {\n  normal Nf = faceforward(normalize(N), I);\n  Oi = Os;\n  Ci = Oi * Cs * color(1, ${k}, 0.5) * (0.1 + Kd * diffuse(Nf));\n}\n`;
  const rib = ['Format 320 240 1', 'PixelSamples 2 2', 'Projection "perspective" "fov" 40', 'Translate 0 0 4', 'WorldBegin',
    'LightSource "distantlight" 1 "from" [1 1 -1] "to" [0 0 0]', 'Surface "tinted"', 'Sphere 1 -1 1 360', 'WorldEnd', ''].join('\n');
  await openFiles(page, [{ name: 'edit.rib', text: rib }, { name: 'tinted.sl', text: shader('0.5') }], 600_000);
  const box = (await page.locator('#picture').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.locator('#material [data-action="edit-shader"]').click();
  const editor = page.locator('#shader-editor .cm-content');
  await page.waitForFunction(() => document.querySelector('#shader-editor .cm-content')?.textContent?.includes('tinted'), undefined, { timeout: 60_000 });
  const n = await renders(page);
  await editor.click();
  await page.keyboard.press('Control+a');
  const typed = Date.now();
  await page.keyboard.insertText(shader('0.2'));
  await waitForRender(page, n, 600_000);
  const ms = Date.now() - typed;
  await page.close();
  return ms;
}
