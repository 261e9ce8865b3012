// Screenshots of the page at 1400 × 900 in the light and the dark theme, for a person to look at (the
// issue's check of the page's looks): the showcase rendered with an object selected and the Material
// and Insight panels open (the others closed), and the scene gallery.
// Run: node --import ./src/node/register.js test/browser/screenshots.ts [out-dir]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, servePage } from './chromium.ts';
import { clickObjectOnMiddleRow, waitForRender } from './viewer-page.ts';

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
    await clickObjectOnMiddleRow(page);
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
