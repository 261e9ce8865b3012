// `reyes render scene.rib`: renders a frame of a RIB scene to PNG. Depth: a file Display whose mode
// has z ("rgbaz", "z") writes camera-space depth as a 32-bit float TIFF (src/image/tiff.ts; +Infinity
// where nothing is hit): mode "z" alone at the Display's name, a mode with colour as well next to
// its PNG at the name with its extension replaced by ".z.tif"; --depth FILE writes it too. Exit status 0 on success
// (warnings printed), 1 on a fatal error (unreadable scene, GPU failure), 2 when there is no GPU,
// 3 when the memory budget is too small to render any region, 4 for bad arguments.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { acquireGpu } from '../gpu/device.ts';
import { GpuBudgetError, GpuUnavailableError } from '../gpu/errors.ts';
import { GpuRuntime } from '../gpu/runtime.ts';
import { encodePng } from '../image/png.ts';
import { encodeFloatTiff } from '../image/tiff.ts';
import { quantizeImage } from '../image/quantize.ts';
import { BudgetTooSmallError } from '../reyes/errors.ts';
import { renderFrame, type RenderOptions } from '../reyes/render-frame.ts';
import { nodeRslShading } from '../reyes/shading/node-shaders.ts';
import { formatDiagnostic, parseRib } from '../rib/index.ts';
import { createNodeResolver } from '../rib/resolver-node.ts';

export interface RenderCommandOptions {
  output?: string;
  res?: string;
  samples?: string;
  budget?: string;
  bucket?: string;
  stats?: string;
  frame?: string;
  shaderPath?: string;
  /** --depth: a float TIFF of camera-space depth. */
  depth?: string;
}

/** Where a file Display with z in its mode puts depth: its name for "z" alone, else name.z.tif. */
export function depthTarget(name: string, mode: string): string {
  if (!/[rgba]/i.test(mode)) return name;
  const ext = path.extname(name);
  return `${ext ? name.slice(0, -ext.length) : name}.z.tif`;
}

export const EXIT = { ok: 0, fatal: 1, noGpu: 2, budget: 3, usage: 4 } as const;

function positiveInt(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer, not "${text}"`);
  return n;
}

class UsageError extends Error {}

export async function renderCommand(scenePath: string, options: RenderCommandOptions): Promise<number> {
  let renderOptions: RenderOptions;
  let frameIndex: number;
  try {
    renderOptions = {};
    if (options.res !== undefined) {
      const m = /^(\d+)x(\d+)$/i.exec(options.res);
      if (!m || Number(m[1]) === 0 || Number(m[2]) === 0) throw new UsageError(`--res must be WxH (e.g. 640x480), not "${options.res}"`);
      renderOptions.resolution = [Number(m[1]), Number(m[2])];
    }
    const samples = positiveInt(options.samples, '--samples');
    if (samples) renderOptions.samples = samples;
    const budget = options.budget === undefined ? undefined : Number(options.budget);
    if (budget !== undefined && !(budget > 0)) throw new UsageError(`--budget must be a positive number of MiB, not "${options.budget}"`);
    if (budget) renderOptions.budgetBytes = Math.floor(budget * 1024 * 1024);
    const bucket = positiveInt(options.bucket, '--bucket');
    if (bucket) renderOptions.bucketSize = bucket;
    frameIndex = options.frame === undefined ? 0 : (positiveInt(String(Number(options.frame) + 1), '--frame') ?? 1) - 1;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`reyes render: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }

  let text: Uint8Array;
  try {
    text = await readFile(scenePath);
  } catch (error) {
    console.error(`reyes render: cannot read ${scenePath}: ${(error as Error).message}`);
    return EXIT.fatal;
  }
  const sceneDir = path.dirname(path.resolve(scenePath));
  // Shaders are looked up in --shader-path (and the RIB's Option "searchpath" "shader"), then
  // among the standard shaders.
  const shaderPath = (options.shaderPath ?? '').split(path.delimiter).filter(Boolean);
  renderOptions.shading = nodeRslShading({ sceneDir, shaderPath }).provide;
  const scene = await parseRib(text, { fileName: scenePath, resolver: createNodeResolver() });
  for (const d of scene.errors) console.error(formatDiagnostic(d));
  for (const d of scene.warnings) console.error(formatDiagnostic(d));
  const frame = scene.frames[frameIndex];
  if (!frame) {
    console.error(`reyes render: ${scenePath} has ${scene.frames.length} frame(s); there is no frame ${frameIndex}`);
    return EXIT.fatal;
  }

  let gpu: GpuRuntime;
  try {
    gpu = new GpuRuntime(await acquireGpu());
  } catch (error) {
    if (error instanceof GpuUnavailableError) {
      console.error(`reyes render: no WebGPU adapter: ${error.message}`);
      return EXIT.noGpu;
    }
    throw error;
  }
  try {
    const rendered = await renderFrame(gpu, frame, renderOptions);
    for (const warning of rendered.warnings) console.error(`warning: ${warning}`);
    const quantized = quantizeImage(rendered.image, frame.options.exposure, frame.options.quantize.rgba);
    const png = encodePng(quantized);
    const displays = options.output ? [] : frame.options.displays.filter((d) => d.type !== 'framebuffer');
    const targets = options.output ? [options.output] : displays.filter((d) => /[rgba]/i.test(d.mode) || !/z/i.test(d.mode)).map((d) => path.resolve(sceneDir, d.name));
    const depthTargets = [
      ...(options.depth ? [options.depth] : []),
      ...displays.filter((d) => /z/i.test(d.mode)).map((d) => path.resolve(sceneDir, depthTarget(d.name, d.mode))),
    ];
    if (targets.length === 0 && depthTargets.length === 0) console.error('warning: no -o and no file Display in the scene; nothing written');
    for (const target of targets) await writeFile(target, png);
    if (depthTargets.length > 0) {
      const tiff = encodeFloatTiff({ width: rendered.image.width, height: rendered.image.height, data: rendered.image.depth });
      for (const target of depthTargets) await writeFile(target, tiff);
    }
    if (options.stats) await writeFile(options.stats, `${JSON.stringify(rendered.stats, null, 2)}\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof BudgetTooSmallError || error instanceof GpuBudgetError) {
      console.error(`reyes render: ${error.message}`);
      return EXIT.budget;
    }
    console.error(`reyes render: ${(error as Error).message}`);
    return EXIT.fatal;
  } finally {
    gpu.allocator.trim();
    gpu.context.destroy();
  }
}
