// The viewer in headless Chromium (WebGPU on SwiftShader): a bundled scene against the command
// line's render, live light and material edits without re-parsing, orbiting with preview then
// refinement, and error messages with positions; overlays, progress, render settings, device-loss
// recovery and light labels. Scenes are tiny (64 × 48, 2 × 2 samples).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reyes } from '../cli/run-reyes.ts';
import { launchChromium, servePage } from './chromium.ts';
import { changedPixels, meanBrightness, picture, renders, setNumber, waitForRender } from './viewer-page.ts';

describe('the viewer in headless Chromium', () => {
  let url: string;
  let server: ViteDevServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  async function open(scene: string): Promise<void> {
    await page.goto(`${url}?scene=/scenes/viewer/${scene}`);
    await waitForRender(page, 0);
  }

  beforeAll(async () => {
    ({ server, url } = await servePage());
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders a bundled scene like the command line does at the same settings', async () => {
    await open('default-surfaces.rib');
    expect(await page.locator('#render-status').textContent()).toMatch(/Rendered default-surfaces\.rib in \d+ ms \(64 × 48, 2 × 2 samples\)/);
    const shown = await picture(page);
    const dir = await mkdtemp(path.join(tmpdir(), 'viewer-cli-'));
    try {
      const out = path.join(dir, 'cli.png');
      const rendered = await reyes(['render', 'scenes/viewer/default-surfaces.rib', '-o', out, '--res', '64x48', '--samples', '2']);
      expect(rendered.code, rendered.stderr).toBe(0);
      const cli = PNG.sync.read(await readFile(out));
      expect([cli.width, cli.height]).toEqual([shown.width, shown.height]);
      // SwiftShader (page) and lavapipe (CLI) round differently: channels may differ by a few
      // levels, and a pixel on an edge may flip a sample. Tolerance: mean |difference| < 1 level,
      // at most 2% of channels more than 4 levels apart.
      // The PNG holds straight alpha; picture() gives the canvas premultiplied, so premultiply it too.
      const cliPremultiplied = (i: number): number => (i % 4 === 3 ? cli.data[i]! : Math.round((cli.data[i]! * cli.data[i - (i % 4) + 3]!) / 255));
      let sum = 0;
      let far = 0;
      for (let i = 0; i < cli.data.length; i++) {
        const d = Math.abs(cliPremultiplied(i) - shown.rgba[i]!);
        sum += d;
        if (d > 4) far++;
      }
      expect(sum / cli.data.length).toBeLessThan(1);
      expect(far / cli.data.length).toBeLessThan(0.02);
      expect(meanBrightness(shown, () => true)).toBeGreaterThan(20); // not a blank picture
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('brightens the picture where a light falls when its intensity rises, without re-parsing; darkens when switched off', async () => {
    await open('lit-spheres.rib');
    const counters = await page.evaluate(() => ({ ...window.reyesViewer!.counters }));
    const before = await picture(page);
    const leftSphere = (x: number, y: number): boolean => Math.hypot(x - 20, y - 24) < 8;
    let n = await renders(page);
    await setNumber(page, '[data-light="1"] [data-param="intensity"] input[type="number"]', 24);
    await waitForRender(page, n);
    const brighter = await picture(page);
    expect(meanBrightness(brighter, leftSphere)).toBeGreaterThan(meanBrightness(before, leftSphere) * 1.5);
    // The page described the edit: the prepared frame wrote the light's blocks in place and shaded
    // the kept grids it lights again; nothing was converted or diced.
    const last = await page.evaluate(() => window.reyesViewer!.renders.at(-1)!);
    expect(last.kind).toBe('light change');
    expect(last.reuse).toBe('targeted');
    expect(last.gridsDiced).toBe(0);
    expect(last.gridsShaded).toBeGreaterThan(0);
    expect(await page.locator('[data-stat="Re-render"] td').textContent()).toMatch(/only the grids the edit reaches shaded again/);
    const after = await page.evaluate(() => ({ ...window.reyesViewer!.counters }));
    expect(after.parses).toBe(counters.parses);
    expect(after.compiles).toBe(counters.compiles); // a parameter edit never recompiles

    n = await renders(page);
    await page.locator('[data-light="1"] [data-light-toggle]').uncheck();
    await waitForRender(page, n);
    const off = await picture(page);
    expect(meanBrightness(off, leftSphere)).toBeLessThan(meanBrightness(before, leftSphere) * 0.7);
    expect(await page.evaluate(() => window.reyesViewer!.counters.parses)).toBe(counters.parses);
  });

  it("changes only the selected object's pixels when its colour changes", async () => {
    await open('lit-spheres.rib');
    const box = (await page.locator('#picture').boundingBox())!;
    // Canvas pixel (48, 24) is on the right sphere.
    await page.mouse.click(box.x + (48.5 / 64) * box.width, box.y + (24.5 / 48) * box.height);
    await expect.poll(() => page.locator('#material').getAttribute('data-selected'), { timeout: 60_000 }).toBe('1');
    // A plain material's kernel, as the last render ran it: one pass (the compiler splits only a
    // kernel too big for the resource model, src/rsl/partition).
    expect(await page.locator('#material [data-kernel]').textContent()).toBe('kernel: 1 pass');
    const mask = new Set(await page.evaluate(() => window.reyesViewer!.idMask(1)));
    expect(mask.size).toBeGreaterThan(100);
    const before = await picture(page);
    const n = await renders(page);
    await page.locator('#material input[data-material="color"]').fill('#00ff00');
    await waitForRender(page, n);
    const after = await picture(page);
    expect(await page.evaluate(() => window.reyesViewer!.renders.at(-1)!.reuse)).toBe('targeted, rediced');
    const changed = changedPixels(before, after);
    expect(changed.length).toBeGreaterThan(mask.size * 0.5);
    // The pixel filter spreads an object's colour about a pixel past its edge.
    const near = (k: number): boolean => {
      const x = k % 64;
      const y = Math.floor(k / 64);
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) if (mask.has((y + dy) * 64 + x + dx)) return true;
      return false;
    };
    expect(changed.filter((k) => !near(k))).toEqual([]);
  });

  it('orbits with the mouse: a preview while moving, then the full-quality picture', async () => {
    await open('lit-spheres.rib');
    const before = await picture(page);
    const start = await page.evaluate(() => window.reyesViewer!.renders.length);
    const n = await renders(page);
    const box = (await page.locator('#picture').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 30, { steps: 6 });
    // Held still at the end of the drag, the preview of that view finishes (each move cancels the
    // preview in flight, and on a busy machine releasing at once could cancel them all).
    await page.waitForFunction((s) => window.reyesViewer!.renders.slice(s).some((r) => r.quality === 'preview'), start, { timeout: 120_000 });
    await page.mouse.up();
    await waitForRender(page, n);
    await page.waitForFunction((s) => {
      const list = window.reyesViewer!.renders.slice(s);
      return list.length > 0 && list[list.length - 1]!.quality === 'full' && document.querySelector('#viewport')!.getAttribute('data-render-state') === 'complete';
    }, start, { timeout: 120_000 });
    const qualities = await page.evaluate((s) => window.reyesViewer!.renders.slice(s).map((r) => r.quality), start);
    expect(qualities[0]).toBe('preview');
    expect(qualities.at(-1)).toBe('full');
    expect(await page.locator('#picture').getAttribute('data-quality')).toBe('full');
    expect(changedPixels(before, await picture(page)).length).toBeGreaterThan(200);
  });

  it('lists a RIB syntax error and a shader type error with file, line and column', async () => {
    await open('default-surfaces.rib');
    const rib = ['Format 64 48 1', 'Projection "perspective" "fov" 40', 'Translate 0 0 5', 'WorldBegin', 'Surface "badshader"', 'Sphere 1 -1 1 "wide"', 'Sphere 1 -1 1 360', 'WorldEnd', ''].join('\n');
    const shader = ['surface badshader()', '{', '    float x = "text";', '    Ci = Cs;', '}', ''].join('\n');
    await page.locator('#open-files').setInputFiles([
      { name: 'bad.rib', mimeType: 'text/plain', buffer: Buffer.from(rib) },
      { name: 'badshader.sl', mimeType: 'text/plain', buffer: Buffer.from(shader) },
    ]);
    await expect.poll(() => page.locator('#scene-name').textContent(), { timeout: 60_000 }).toBe('bad.rib');
    const messages = page.locator('#messages li');
    await expect.poll(async () => (await messages.allTextContents()).join('\n'), { timeout: 60_000 }).toMatch(/bad\.rib:6:\d+ error: .*Sphere/);
    const text = (await messages.allTextContents()).join('\n');
    expect(text).toMatch(/badshader\.sl:3:\d+ error: /);
    // The rest of the scene still renders.
    await page.waitForFunction(() => document.querySelector('#viewport')?.getAttribute('data-render-state') !== 'rendering', undefined, { timeout: 120_000 });
    expect(await page.locator('#viewport').getAttribute('data-render-state')).toBe('complete');
    expect(pageErrors).toEqual([]);
  });

  it('overlays the dicing and sampling regions and the grids when switched on', async () => {
    await open('lit-spheres.rib');
    const ink = (): Promise<number> => page.evaluate(() => {
      const canvas = document.getElementById('overlay') as HTMLCanvasElement;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
      return n;
    });
    await page.locator('#panels details:has(#overlay-controls) > summary').click();
    expect(await ink()).toBe(0);
    await page.locator('[data-overlay="dicing"]').check();
    const regions = await ink();
    expect(regions).toBeGreaterThan(100);
    // The grids need their outlines: one more render from the kept grids, no dicing.
    const n = await renders(page);
    await page.locator('[data-overlay="grids"]').check();
    await waitForRender(page, n);
    const last = await page.evaluate(() => window.reyesViewer!.renders.at(-1)!);
    expect(last.gridsDiced).toBe(0);
    expect(await ink()).toBeGreaterThan(regions * 2);
    await page.locator('[data-overlay="dicing"]').uncheck();
    await page.locator('[data-overlay="grids"]').uncheck();
    expect(await ink()).toBe(0);
  });

  it('render settings: pixel samples change the statistics; bucket mode shows buckets and a progress bar that fills', async () => {
    await open('lit-spheres.rib');
    await page.locator('#panels details:has(#settings) > summary').click();
    let n = await renders(page);
    await page.locator('select[data-setting="samples"]').selectOption('1');
    await waitForRender(page, n);
    expect(await page.evaluate(() => window.reyesViewer!.stats!.pixelSamples)).toEqual([1, 1]);
    expect(await page.locator('[data-stat="Resolution"] td').textContent()).toBe('64 × 48, 1 × 1 samples');
    n = await renders(page);
    await page.locator('select[data-setting="mode"]').selectOption('16');
    await waitForRender(page, n);
    const stats = await page.evaluate(() => window.reyesViewer!.stats!);
    expect(stats.mode).toBe('bucket');
    // The Insight panel draws the stage graph this render ran: 16×16 dicing bins one after another,
    // and the opaque spheres sampled and composited in one fused box.
    const graph = page.locator('#stage-graph');
    expect(await graph.locator('[data-level="dicing"] h4').textContent()).toBe('Dicing bins: 16×16 bins');
    expect(await graph.locator('[data-level="dicing"] .stage-schedule').textContent()).toMatch(/^Serialize/);
    expect(await graph.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-runs'))))
      .toEqual(['boundSplit', 'dice', 'shade', 'sample composite', 'filter', 'imager']);
    expect(await graph.locator('li[data-fused] strong').allTextContents()).toEqual(['Sample + Composite']);
    expect(await graph.locator('li[data-stage="dice"] .stage-apart').textContent()).toMatch(/^apart: fusion of dice\+shade is off/);
    for (const time of await graph.locator('.stage-time').allTextContents()) expect(time).toMatch(/^\d+\.\d ms/);
    const progress = await page.evaluate(() => window.reyesViewer!.progress);
    // 4 × 3 buckets: the bar moved through intermediate values to full.
    expect(progress.filter((p) => p > 0 && p < 1).length).toBeGreaterThanOrEqual(10);
    expect(progress.at(-1)).toBe(1);
    await page.locator('#panels details:has(#overlay-controls) > summary').click();
    await page.locator('[data-overlay="bucket"]').check();
    const yellow = await page.evaluate(() => {
      const canvas = document.getElementById('overlay') as HTMLCanvasElement;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 200 && data[i]! > 200 && data[i + 1]! > 150 && data[i + 2]! < 80) n++;
      return n;
    });
    expect(yellow).toBeGreaterThan(500);
    await page.locator('[data-overlay="bucket"]').uncheck();
    // Back to the scene's settings for the tests after this one.
    n = await renders(page);
    await page.locator('select[data-setting="mode"]').selectOption('');
    await waitForRender(page, n);
    n = await renders(page);
    await page.locator('select[data-setting="samples"]').selectOption('');
    await waitForRender(page, n);
  });

  it('recovers from a lost device: re-creates it, renders again and says so', async () => {
    await open('lit-spheres.rib');
    const before = await picture(page);
    const n = await renders(page);
    await page.evaluate(() => window.reyesViewer!.loseDevice());
    await waitForRender(page, n);
    expect(await page.evaluate(() => window.reyesViewer!.counters.recoveries)).toBeGreaterThanOrEqual(1);
    expect((await page.locator('#messages li').allTextContents()).join('\n')).toMatch(/the device was lost .*re-created it/);
    expect(changedPixels(before, await picture(page))).toEqual([]);
    expect(await page.evaluate(() => window.reyesViewer!.renders.at(-1)!.kind)).toBe('after device loss');
  });

  it("labels each light with its own number even when the RIB reuses a handle", async () => {
    const rib = ['Format 32 24 1', 'Projection "perspective" "fov" 40', 'Translate 0 0 5', 'WorldBegin',
      'LightSource "distantlight" 2 "intensity" 1', 'LightSource "distantlight" 2 "intensity" 0.5', 'LightSource "distantlight" 2 "intensity" 0.2',
      'Surface "plastic"', 'Sphere 1 -1 1 360', 'WorldEnd', ''].join('\n');
    const n = await renders(page);
    await page.locator('#open-files').setInputFiles([{ name: 'handles.rib', mimeType: 'text/plain', buffer: Buffer.from(rib) }]);
    await waitForRender(page, n);
    const labels = await page.locator('#lights fieldset.light legend small').allTextContents();
    expect(labels).toEqual(['light 1 (handle 2)', 'light 2 (handle 2)', 'light 3 (handle 2)']);
    expect(await page.locator('#lights fieldset.light').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('data-light')))).toEqual(['0', '1', '2']);
  });
});
