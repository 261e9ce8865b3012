// `npm run thumbnails [-- [--timeout S] [--samples N] [NAME...]]`: renders every bundled scene
// (scenes/**/*.rib, as the page lists them) with the `reyes` command at THUMBNAIL_WIDTH pixels wide,
// keeping the aspect ratio of what the page shows (Format, CropWindow), and writes each picture as
// an indexed-colour PNG (median cut to at most 256 RGBA colours) into public/thumbnails/<folder>/<name>.png,
// where the page's scene gallery finds them. NAMEs (substrings of scene names) render only those.
// A scene that fails or passes the time limit gets no thumbnail and is listed with the reason;
// scenes in NO_THUMBNAIL (src/viewer/scene-thumbnails.ts) are skipped. Each scene renders in a
// `reyes render` process of its own, so a hung render is killed at the limit without the others.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decode, encode } from 'fast-png';
import { PNG } from 'pngjs';
import { parseRibFile } from '../src/node.ts';
import { NO_THUMBNAIL, THUMBNAIL_WIDTH, thumbnailPath } from '../src/viewer/scene-thumbnails.ts';

const root = path.resolve(import.meta.dirname, '..');
const scenesDir = path.join(root, 'scenes');
const publicDir = path.join(root, 'public');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { timeout: { type: 'string', default: '120' }, samples: { type: 'string', default: '3' } },
});
const timeoutMs = Number(values.timeout) * 1000;
if (!(timeoutMs > 0)) throw new Error(`--timeout must be a positive number of seconds, not "${values.timeout}"`);
const samples = Number(values.samples);
if (!Number.isInteger(samples) || samples < 1) throw new Error(`--samples must be a positive integer, not "${values.samples}"`);

function ribFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? ribFiles(path.join(dir, e.name)) : /\.rib$/i.test(e.name) ? [path.join(dir, e.name)] : []);
}

const all = ribFiles(scenesDir).map((file) => path.relative(scenesDir, file).split(path.sep).join('/')).sort((a, b) => a.localeCompare(b));
const chosen = positionals.length ? all.filter((name) => positionals.some((p) => name.includes(p))) : all;

/** The thumbnail's size: THUMBNAIL_WIDTH wide, and the --res that makes the page's picture (the crop
 * window's pixels of the Format) that wide. */
async function thumbnailSize(file: string): Promise<{ res: [number, number]; size: [number, number] }> {
  const scene = await parseRibFile(file);
  const frame = scene.frames[0];
  if (!frame) throw new Error('no frame (a RIB without a world block)');
  const { xResolution, yResolution, cropWindow: [x0, x1, y0, y1] } = frame.options;
  const shownWidth = xResolution * (x1 - x0);
  const shownHeight = yResolution * (y1 - y0);
  const scale = THUMBNAIL_WIDTH / shownWidth;
  return {
    res: [Math.max(1, Math.round(xResolution * scale)), Math.max(1, Math.round(yResolution * scale))],
    size: [THUMBNAIL_WIDTH, Math.max(1, Math.round(shownHeight * scale))],
  };
}

/** Runs `reyes render` on the scene's first frame, as the page shows it; resolves to its stderr, rejects with why it failed. */
function render(file: string, res: [number, number], out: string, outputDir: string): Promise<string> {
  const args = [path.join(root, 'bin/reyes.js'), 'render', file, '-o', out, '--res', `${res[0]}x${res[1]}`,
    '--samples', String(samples), '--frame', '0', '--output-dir', outputDir, '--quiet'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`took longer than ${timeoutMs / 1000} s (killed)`));
    }, timeoutMs);
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // 5: the frame rendered but the scene had errors; the picture is what the page shows too.
      if (code === 0 || code === 5) resolve(stderr);
      else if (signal !== 'SIGKILL') {
        const said = stderr.split('\n').filter((l) => l.trim() && !/^Warning: maxDynamic/.test(l));
        const why = said.find((l) => /error/i.test(l))?.trim() ?? said.slice(-2).join(' / ');
        reject(new Error(`reyes render exited with ${code ?? signal}: ${why || '(nothing on stderr)'}`));
      }
    });
  });
}

/** An indexed-colour PNG of RGBA 8-bit pixels: median cut to at most 256 colours (fully transparent
 * pixels share one entry), each pixel the mean colour of its box. */
function indexedPng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const count = width * height;
  const opaque: number[] = []; // not fully transparent
  for (let i = 0; i < count; i++) if (rgba[i * 4 + 3]! > 0) opaque.push(i);
  const boxes: number[][] = opaque.length ? [opaque] : [];
  const maxColours = opaque.length < count ? 255 : 256;
  const range = (box: number[], c: number): number => {
    let lo = 255, hi = 0;
    for (const i of box) { const v = rgba[i * 4 + c]!; if (v < lo) lo = v; if (v > hi) hi = v; }
    return hi - lo;
  };
  while (boxes.length < maxColours) {
    // Split the box whose widest channel spread, weighted by its size, is largest.
    let best = -1, bestScore = 0, bestChannel = 0;
    boxes.forEach((box, k) => {
      for (let c = 0; c < 4; c++) {
        const score = range(box, c) * Math.sqrt(box.length);
        if (score > bestScore) { bestScore = score; best = k; bestChannel = c; }
      }
    });
    if (best < 0) break;
    const box = boxes[best]!.sort((a, b) => rgba[a * 4 + bestChannel]! - rgba[b * 4 + bestChannel]!);
    const half = box.length >> 1;
    boxes.splice(best, 1, box.slice(0, half), box.slice(half));
  }
  const colours: { rgba: number[]; pixels: number[] }[] = [];
  if (opaque.length < count) {
    const clear: number[] = [];
    for (let i = 0; i < count; i++) if (rgba[i * 4 + 3] === 0) clear.push(i);
    colours.push({ rgba: [0, 0, 0, 0], pixels: clear });
  }
  for (const box of boxes) {
    const sum = [0, 0, 0, 0];
    for (const i of box) for (let c = 0; c < 4; c++) sum[c]! += rgba[i * 4 + c]!;
    colours.push({ rgba: sum.map((s) => Math.round(s / box.length)), pixels: box });
  }
  // Translucent entries first, as the PNG spec advises: fast-png writes tRNS as the alphas of the
  // translucent entries only, which is right only when they lead the palette.
  colours.sort((a, b) => Number(a.rgba[3] === 255) - Number(b.rgba[3] === 255));
  const data = new Uint8Array(count);
  colours.forEach((colour, k) => { for (const i of colour.pixels) data[i] = k; });
  return encode({ width, height, data, depth: 8, channels: 1, palette: colours.map((c) => c.rgba) });
}

/** Mean absolute difference per channel between the rendered RGBA and the indexed PNG read back
 * (with pngjs, another library than the writer). */
function meanError(rgba: Uint8Array, png: Uint8Array): number {
  const back = PNG.sync.read(Buffer.from(png)).data;
  let sum = 0;
  for (let i = 0; i < rgba.length; i++) sum += Math.abs(rgba[i]! - back[i]!);
  return sum / rgba.length;
}

const work = mkdtempSync(path.join(tmpdir(), 'reyes-thumbnails-'));
const failed: [string, string][] = [];
const skipped: [string, string][] = [];
let written = 0;
let bytes = 0;
const started = performance.now();
try {
  for (const name of chosen) {
    const target = thumbnailPath(name);
    if (!target) {
      skipped.push([name, NO_THUMBNAIL[name]!]);
      continue;
    }
    const sceneStart = performance.now();
    try {
      const file = path.join(scenesDir, name);
      const { res, size } = await thumbnailSize(file);
      const out = path.join(work, 'picture.png');
      rmSync(out, { force: true });
      await render(file, res, out, path.join(work, 'displays'));
      const picture = decode(readFileSync(out));
      if (picture.depth !== 8 || picture.channels !== 4) throw new Error(`expected an 8-bit RGBA PNG, got ${picture.channels} channels of ${picture.depth} bits`);
      if (Math.abs(picture.width - size[0]) > 1 || Math.abs(picture.height - size[1]) > 1) {
        throw new Error(`the picture is ${picture.width}×${picture.height}, not about ${size[0]}×${size[1]}`);
      }
      const png = indexedPng(picture.width, picture.height, picture.data as Uint8Array);
      const error = meanError(picture.data as Uint8Array, png);
      if (error > 6) throw new Error(`the indexed PNG is off by ${error.toFixed(1)} levels on average`);
      const destination = path.join(publicDir, target);
      mkdirSync(path.dirname(destination), { recursive: true });
      writeFileSync(destination, png);
      written++;
      bytes += png.length;
      console.log(`${name}: ${picture.width}×${picture.height}, ${png.length} bytes, mean error ${error.toFixed(2)}, ${((performance.now() - sceneStart) / 1000).toFixed(1)} s`);
    } catch (error) {
      failed.push([name, (error as Error).message]);
      console.log(`${name}: NO THUMBNAIL: ${(error as Error).message}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// With every scene rendered, thumbnails of scenes that are gone are removed.
if (!positionals.length) {
  const wanted = new Set(all.map(thumbnailPath).filter((p) => p !== undefined).map((p) => path.join(publicDir, p)));
  const stale = (dir: string): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? stale(path.join(dir, e.name)) : e.name.endsWith('.png') && !wanted.has(path.join(dir, e.name)) ? [path.join(dir, e.name)] : []);
    } catch {
      return [];
    }
  };
  for (const file of stale(path.join(publicDir, 'thumbnails'))) {
    rmSync(file);
    console.log(`removed ${path.relative(root, file)} (no such scene)`);
  }
}

const total = (dir: string): number => {
  try {
    return readdirSync(dir, { withFileTypes: true }).reduce((sum, e) =>
      sum + (e.isDirectory() ? total(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size), 0);
  } catch {
    return 0;
  }
};
console.log(`\n${written} thumbnails written (${(bytes / 1024).toFixed(0)} KiB) in ${((performance.now() - started) / 1000).toFixed(0)} s; public/thumbnails holds ${(total(path.join(publicDir, 'thumbnails')) / 1024).toFixed(0)} KiB`);
for (const [name, why] of skipped) console.log(`skipped ${name}: ${why} (NO_THUMBNAIL)`);
if (failed.length) {
  console.log(`\n${failed.length} scenes got no thumbnail (the gallery shows a placeholder for them):`);
  for (const [name, why] of failed) console.log(`  ${name}: ${why}`);
  console.log('Fix them, or list them with the reason in NO_THUMBNAIL (src/viewer/scene-thumbnails.ts).');
  process.exitCode = 1;
}
