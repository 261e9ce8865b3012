// `reyes render --browser scene.rib -o out.png`: the scene rendered by the web page in headless
// Chromium (WebGPU on SwiftShader, so the result does not depend on the machine's GPU), through the
// page's own path: the page served by Vite from this checkout opens the scene (?scene=, with its
// shaders and textures fetched beside it), renders its first frame, and its Save picture button
// writes the file, the same Display writers as `reyes render -o`. So a user's CI can check that a
// scene renders the same in a browser as on the command line (`reyes compare`).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT } from './render.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where a system Chromium usually is (Debian, Ubuntu, Google's packages); REYES_CHROMIUM names another. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-angle=vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  // No background connections, updates or sync (the tests run with the network closed).
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The Chromium to drive, or undefined with the places looked at. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): { path: string } | { lookedAt: string[] } {
  const candidates = env.REYES_CHROMIUM ? [env.REYES_CHROMIUM] : CHROMIUM_CANDIDATES;
  const found = candidates.find((c) => existsSync(c));
  return found ? { path: found } : { lookedAt: candidates };
}

/** The page's Save picture formats by the output's extension. */
function saveFormat(output: string): string | undefined {
  const extension = path.extname(output).toLowerCase();
  return extension === '.png' ? 'png' : extension === '.exr' ? 'exr' : extension === '.tif' || extension === '.tiff' ? 'tiff16' : undefined;
}

/** `reyes render` options the page has no counterpart for: refused with --browser rather than ignored. */
const NOT_IN_THE_PAGE = ['res', 'samples', 'budget', 'bucket', 'pipeline', 'stats', 'frame', 'shaderPath', 'depth', 'outputDir', 'crop', 'devices'];

export async function browserRenderCommand(scenes: string[], options: { output?: string }): Promise<number> {
  const fail = (code: number, message: string): number => {
    console.error(`reyes render --browser: ${message}`);
    return code;
  };
  const given = options as Record<string, unknown>;
  const refused = NOT_IN_THE_PAGE.filter((o) => given[o] !== undefined && !(o === 'devices' && given[o] === '1'));
  if (refused.length) return fail(EXIT.usage, `${refused.map((o) => `--${o.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} cannot be used with --browser (the page renders the scene's first frame with its own settings)`);
  if (scenes.length !== 1 || scenes[0] === '-') return fail(EXIT.usage, 'give exactly one RIB file (the page opens one scene; standard input is not read)');
  if (!options.output) return fail(EXIT.usage, 'give the picture to write with -o out.png (PNG, 16-bit TIFF or float EXR, as the page saves)');
  const format = saveFormat(options.output);
  if (!format) return fail(EXIT.usage, `-o ${options.output}: the page saves .png, .tif (16-bit) or .exr`);
  const scene = path.resolve(scenes[0]!);
  if (!existsSync(scene)) return fail(EXIT.fatal, `${scenes[0]}: no such file`);
  const chromium = findChromium();
  if (!('path' in chromium)) {
    return fail(EXIT.noGpu, `no Chromium found (looked at ${chromium.lookedAt.join(', ')}); install it (Debian: apt-get install chromium) or name it with REYES_CHROMIUM=/path/to/chrome`);
  }
  if (!existsSync(path.join(ROOT, 'index.html'))) return fail(EXIT.fatal, `the page's files (index.html) are not in ${ROOT}: --browser runs from a checkout of the project`);
  // Loaded here only: the command line's other paths need neither.
  const [{ createServer }, { chromium: playwright }] = await Promise.all([import('vite'), import('playwright-core')]);
  const server = await createServer({
    configFile: path.join(ROOT, 'vite.config.ts'),
    root: ROOT,
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, fs: { allow: [ROOT, path.dirname(scene)] } },
  });
  let browser: Awaited<ReturnType<typeof playwright.launch>> | undefined;
  try {
    await server.listen();
    const url = server.resolvedUrls?.local[0];
    if (!url) return fail(EXIT.fatal, 'Vite did not report a local URL');
    browser = await playwright.launch({ executablePath: chromium.path, args: CHROMIUM_FLAGS, headless: true });
    const page = await browser.newPage({ acceptDownloads: true });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${url}?scene=${encodeURIComponent(`/@fs${scene}`)}`);
    const name = path.basename(scene);
    await page.waitForFunction((n) => {
      const state = document.querySelector('#viewport')?.getAttribute('data-render-state');
      return (document.getElementById('scene-name')?.textContent === n && ['complete', 'error'].includes(state ?? '')) || (state === 'error' && !document.getElementById('scene-name')?.textContent);
    }, name, { timeout: 0, polling: 200 });
    const messages = await page.locator('#messages li').evaluateAll((items) => items.map((li) => ({ severity: li.getAttribute('data-severity'), text: li.textContent ?? '' })));
    for (const m of messages) console.error(m.text.trim());
    for (const e of pageErrors) console.error(`page error: ${e}`);
    const state = await page.locator('#viewport').getAttribute('data-render-state');
    if (state !== 'complete') {
      const status = await page.locator('#render-status').textContent();
      return fail(/WebGPU/i.test(status ?? '') ? EXIT.noGpu : EXIT.fatal, status ?? 'the render failed');
    }
    await page.selectOption('#save-format', format);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-picture')]);
    await download.saveAs(path.resolve(options.output));
    console.log(options.output);
    return messages.some((m) => m.severity === 'error') ? EXIT.sceneErrors : EXIT.ok;
  } finally {
    await browser?.close();
    await server.close();
  }
}
