// Headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core) with WebGPU on
// SwiftShader, and the page served by Vite on 127.0.0.1, for the browser tests.
import { chromium, type Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { CHROMIUM_FLAGS } from '../../src/cli/browser-render.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';

// One list of flags for the tests and `reyes render --browser`.
export { CHROMIUM_FLAGS };

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}

/** Serves the project with Vite on a free loopback port; returns the server and its URL. */
export async function servePage(): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({
    configFile: 'vite.config.ts',
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('Vite did not report a local URL');
  return { server, url };
}
