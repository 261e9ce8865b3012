// The package as a user gets it: `npm pack` (which builds lib/ through prepack), the tarball unpacked
// into a fresh project's node_modules as `npm install` would, and plain Node, without this
// repository's TypeScript loader hooks, importing it by name. The registry may be unreachable here,
// so the dependencies are this repository's node_modules (linked), not downloaded.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, createLogger, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, launchChromium } from '../browser/chromium.ts';
import { chooseVulkanDriver, NO_DRIVER_HINT } from '../../src/gpu/node-gpu.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const driver = chooseVulkanDriver();
if (driver.choice === 'none') console.warn(`packed-package: the render test is skipped: ${NO_DRIVER_HINT}`);

// Left half of a 16×16 orthographic view covered by a constant red square, the right half empty.
const SCENE = `Format 16 16 1
PixelSamples 2 2
Projection "orthographic"
WorldBegin
  Surface "constant"
  Color [1 0 0]
  Polygon "P" [-2 -2 1  0 -2 1  0 2 1  -2 2 1]
WorldEnd
`;

const CONSUMER = `
import { GpuRuntime, decodePng, encodePng, parseRib, quantizeImage, renderFrame } from 'webgpu-reyes';
import { acquireNodeGpu } from 'webgpu-reyes/node';
import { parseTileGrid } from 'webgpu-reyes/farm';
import { radixSortCpu } from 'webgpu-reyes/gpu-tools';
const scene = await parseRib(${JSON.stringify(SCENE)}, { fileName: 'square.rib' });
const frame = scene.frames[0];
const keys = new Uint32Array([3, 0, 1, 0, 2, 0]);
const values = new Uint32Array([0, 1, 2]);
radixSortCpu(keys, values);
const result = { errors: scene.errors.length, frames: scene.frames.length, tiles: parseTileGrid('2x3'), sorted: Array.from(values) };
if (process.argv[2] === 'render') {
  const context = await acquireNodeGpu();
  const { image } = await renderFrame(new GpuRuntime(context), frame);
  const at = (x, y) => Array.from(image.rgba.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4));
  const png = decodePng(encodePng(quantizeImage(image, frame.options.exposure, frame.options.quantize.rgba)));
  Object.assign(result, { size: [image.width, image.height], left: at(4, 8), right: at(12, 8), pngLeft: Array.from(png.rgba.subarray((8 * 16 + 4) * 4, (8 * 16 + 4) * 4 + 4)) });
  context.destroy();
}
console.log(JSON.stringify(result));
`;

// What a TypeScript user writes: the declarations must resolve through `exports` and type the API
// (a misspelt option is an error, so the options are not \`any\`), WebGPU types included.
const TYPED_CONSUMER = `
import { GpuRuntime, parseRib, renderFrame, type RenderOptions } from 'webgpu-reyes';
import { acquireNodeGpu } from 'webgpu-reyes/node';
const scene = await parseRib('WorldBegin WorldEnd');
const options: RenderOptions = { samples: 2, signal: AbortSignal.timeout(1000) };
const { image } = await renderFrame(new GpuRuntime(await acquireNodeGpu()), scene.frames[0]!, options);
const device: GPUDevice = (await acquireNodeGpu()).device;
// @ts-expect-error: not a RenderOptions field
const misspelt: RenderOptions = { sample: 3 };
export const used = [image.width, device, misspelt];
`;

const TSCONFIG = {
  compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] },
  files: ['consumer.ts'],
};

// The page a bundler user writes: the package's browser entry bundled by Vite, rendering on WebGPU.
const PAGE_HTML = '<!doctype html><script type="module" src="./page.js"></script>';
const PAGE_SCRIPT = `
import { GpuRuntime, acquireGpu, parseRib, renderFrame } from 'webgpu-reyes';
try {
  const scene = await parseRib(${JSON.stringify(SCENE)});
  const context = await acquireGpu();
  const { image } = await renderFrame(new GpuRuntime(context), scene.frames[0]);
  const at = (x, y) => Array.from(image.rgba.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4));
  window.result = { left: at(4, 8), right: at(12, 8) };
  context.destroy();
} catch (error) {
  window.result = { error: String(error && error.stack || error) };
}
`;

let project = '';

/** Runs the consumer script with plain Node in the temporary project; its JSON line. */
function runConsumer(mode: 'parse' | 'render'): Record<string, unknown> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...(driver.icd ? { VK_ICD_FILENAMES: driver.icd } : {}) };
  delete env.NODE_OPTIONS;
  const out = execFileSync(process.execPath, ['consumer.mjs', mode], { cwd: project, env, encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
}

describe('the packed package', () => {
  beforeAll(() => {
    project = mkdtempSync(path.join(tmpdir(), 'reyes-package-'));
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8' });
    const tarball = path.join(project, packed.trim().split('\n').pop()!);
    const installed = path.join(project, 'node_modules', 'webgpu-reyes');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(installed, 'node_modules'), 'dir');
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    writeFileSync(path.join(project, 'consumer.mjs'), CONSUMER);
    writeFileSync(path.join(project, 'consumer.ts'), TYPED_CONSUMER);
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(path.join(project, 'index.html'), PAGE_HTML);
    writeFileSync(path.join(project, 'page.js'), PAGE_SCRIPT);
  }, 240_000);

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('holds the built entries and their declarations, and no test files', () => {
    const installed = path.join(project, 'node_modules', 'webgpu-reyes');
    const pkg = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string } | string> };
    const entries = Object.keys(pkg.exports).filter((e) => e !== './package.json');
    expect(entries).toEqual(['.', './node', './farm', './gpu-tools']);
    for (const name of entries) {
      const entry = pkg.exports[name] as { types: string; default: string };
      expect(readFileSync(path.join(installed, entry.default), 'utf8')).toMatch(/^import|^export/m);
      expect(readFileSync(path.join(installed, entry.types), 'utf8')).toContain('export');
    }
    expect(readdirSync(installed)).not.toContain('test');
  });

  it('keeps Node built-ins out of the browser entries (what a bundler would have to polyfill)', () => {
    const lib = path.join(project, 'node_modules', 'webgpu-reyes', 'lib');
    // The files index.js and gpu-tools.js reach through their static and dynamic imports of sibling
    // modules (node.js, farm.js and the device thread, lib/device-thread.js, are Node's and share
    // Node-only chunks).
    const browserFiles = ['index.js', 'gpu-tools.js'];
    for (let k = 0; k < browserFiles.length; k++) {
      for (const m of readFileSync(path.join(lib, browserFiles[k]!), 'utf8').matchAll(/(?:from|import)\s*\(?\s*["']\.\/([\w.-]+\.js)["']/g)) {
        if (!browserFiles.includes(m[1]!)) browserFiles.push(m[1]!);
      }
    }
    expect(browserFiles.length).toBeGreaterThan(1);
    expect(readdirSync(lib)).toContain('device-thread.js');
    for (const file of browserFiles) expect(readFileSync(path.join(lib, file), 'utf8')).not.toMatch(/from ["']node:|from ["'](fs|path|url|module)["']|import\(["']webgpu["']\)/);
  });

  it('imports every entry by name in plain Node and parses a RIB', () => {
    expect(runConsumer('parse')).toMatchObject({ errors: 0, frames: 1, tiles: [2, 3], sorted: [1, 2, 0] });
  }, 120_000);

  it('type-checks a TypeScript consumer against the packed declarations (library files checked too)', () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', '.'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it.skipIf(driver.choice === 'none')('renders on Dawn: the red left half and the empty right half', () => {
    const result = runConsumer('render');
    expect(result.size).toEqual([16, 16]);
    const [r, g, b, a] = result.left as number[];
    expect([r, g, b, a].map((v) => Math.round(v! * 1000) / 1000)).toEqual([1, 0, 0, 1]);
    expect(result.right).toEqual([0, 0, 0, 0]);
    expect(result.pngLeft).toEqual([255, 0, 0, 255]);
  }, 120_000);

  it.skipIf(!existsSync(CHROMIUM_PATH))('bundles with Vite for the browser and renders in headless Chromium (WebGPU on SwiftShader)', async () => {
    const warnings: string[] = [];
    await build({
      root: project, logLevel: 'silent', configFile: false,
      customLogger: { ...createLogger('silent'), warn: (message) => warnings.push(message) },
      build: { outDir: 'page', target: 'es2022' },
    });
    expect(warnings.filter((w) => /externalized for browser compatibility/.test(w))).toEqual([]);
    const server = await preview({ root: project, configFile: false, logLevel: 'silent', build: { outDir: 'page' }, preview: { host: '127.0.0.1', port: 0 } });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(server.resolvedUrls!.local[0]!);
      await page.waitForFunction(() => (window as unknown as { result?: unknown }).result, undefined, { timeout: 120_000 }).catch(() => undefined);
      // A module that fails to load never sets the result: its error is the message to show.
      expect(pageErrors).toEqual([]);
      const result = await page.evaluate(() => (window as unknown as { result: { left?: number[]; right?: number[]; error?: string } }).result);
      expect(result.error).toBeUndefined();
      expect(result.left!.map((v) => Math.round(v * 1000) / 1000)).toEqual([1, 0, 0, 1]);
      expect(result.right).toEqual([0, 0, 0, 0]);
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    }
  }, 180_000);
});
