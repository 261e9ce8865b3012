// Screenshots of the page at 1400 × 900 in the light and the dark theme, for a person to look at (the
// issue's check of the page's looks): the showcase rendered with an object selected and the Material
// and Insight panels open (the others closed), and the scene gallery.
// Run: node --import ./src/node/register.js test/browser/screenshots.ts [out-dir]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, servePage } from './chromium.ts';
import { waitForRender } from './viewer-page.ts';

const out = process.argv[2] ?? 'screenshots';
mkdirSync(out, { recursive: true });
const { server, url } = await servePage();
const browser = await launchChromium();
try {
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme });
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(`${url}?scene=/scenes/viewer/showcase.rib`);
    await waitForRender(page, 0, 600_000);
    const box = (await page.locator('#picture').boundingBox())!;
    const hit = await page.evaluate(async () => {
      const canvas = document.getElementById('picture') as HTMLCanvasElement;
      const y = Math.floor(canvas.height / 2);
      for (let x = Math.floor(canvas.width / 4); x < canvas.width; x++) if ((await window.reyesViewer!.pick(x, y)) >= 0) return { x: x + 2, y, w: canvas.width, h: canvas.height };
      return undefined;
    });
    if (hit) await page.mouse.click(box.x + ((hit.x + 0.5) / hit.w) * box.width, box.y + ((hit.y + 0.5) / hit.h) * box.height);
    await page.evaluate(() => {
      for (const details of document.querySelectorAll<HTMLDetailsElement>('#panels > details')) {
        details.open = ['Material', 'Insight'].includes(details.querySelector('summary')!.textContent!);
      }
    });
    await page.screenshot({ path: join(out, `page-${colorScheme}.png`) });
    await page.locator('#open-scene-gallery').click();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(out, `gallery-${colorScheme}.png`) });
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
