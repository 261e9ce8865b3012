// `reyes render scene.rib`: renders every frame of a RIB scene (or the one --frame picks), in
// order, each writing its Displays as their drivers say (src/image/display-files.ts) before the
// next frame starts, so a depth map one frame writes is there for the next. -o replaces the
// Displays with one file whose format follows its extension (.tif/.tiff TIFF, .exr EXR, else
// PNG); with several frames each gets its own, the frame number inserted before the extension
// (out.png → out.0001.png). --depth FILE writes camera-space depth as a float TIFF too. Every
// file written is listed on stdout; a frame writing over an earlier frame's file is warned about.
// Exit status 0 on success (warnings printed), 1 on a fatal
// error (unreadable scene, GPU failure), 2 when there is no GPU, 3 when the memory budget is too
// small to render any region, 4 for bad arguments.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { acquireGpu } from '../gpu/device.ts';
import { GpuBudgetError, GpuUnavailableError } from '../gpu/errors.ts';
import { GpuRuntime } from '../gpu/runtime.ts';
import { displayFiles, outputVariables } from '../image/display-files.ts';
import { encodeDepthTiff } from '../image/tiff.ts';
import { BudgetTooSmallError } from '../reyes/errors.ts';
import { renderFrame, type RenderedFrame, type RenderOptions } from '../reyes/render-frame.ts';
import { nodeRslShading } from '../reyes/shading/node-shaders.ts';
import { formatDiagnostic, parseRib } from '../rib/index.ts';
import { createNodeResolver } from '../rib/resolver-node.ts';
import type { Display, Frame } from '../rib/scene.ts';

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

export const EXIT = { ok: 0, fatal: 1, noGpu: 2, budget: 3, usage: 4 } as const;

function positiveInt(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer, not "${text}"`);
  return n;
}

class UsageError extends Error {}

/** `name` with the frame number before its extension: out.png, 3 → out.0003.png. */
export function numberedName(name: string, frame: number): string {
  const ext = path.extname(name);
  return `${ext ? name.slice(0, -ext.length) : name}.${String(frame).padStart(4, '0')}${ext}`;
}

/** The Display -o stands for: its format from the extension, all of RGBA. */
function outputDisplay(name: string): Display {
  const ext = path.extname(name).toLowerCase();
  const type = ext === '.tif' || ext === '.tiff' ? 'tiff' : ext === '.exr' ? 'openexr' : 'png';
  return { name, type, mode: 'rgba', params: [] };
}

export async function renderCommand(scenePath: string, options: RenderCommandOptions): Promise<number> {
  let renderOptions: RenderOptions;
  let frameIndex: number | undefined;
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
    frameIndex = options.frame === undefined ? undefined : (positiveInt(String(Number(options.frame) + 1), '--frame') ?? 1) - 1;
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
  const frames = frameIndex === undefined ? scene.frames : scene.frames.slice(frameIndex, frameIndex + 1);
  if (frames.length === 0) {
    const which = frameIndex === undefined ? 'nothing to render' : `there is no frame ${frameIndex}`;
    console.error(`reyes render: ${scenePath} has ${scene.frames.length} frame(s); ${which}`);
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
    const numbered = frames.length > 1;
    const allStats = [];
    /** Files written so far, with the frame that wrote them, to warn when a later frame overwrites one. */
    const writtenBy = new Map<string, string>();
    for (const [k, frame] of frames.entries()) {
      const frameNumber = frame.frameNumber ?? (frameIndex ?? k) + 1;
      const prefix = numbered ? `frame ${frameNumber}: ` : '';
      const name = (file: string): string => (numbered ? numberedName(file, frameNumber) : file);
      const displays = options.output ? [outputDisplay(path.resolve(name(options.output)))] : frame.options.displays;
      const rendered = await renderFrame(gpu, frame, { ...renderOptions, outputVariables: outputVariables(displays, frame.options.displayChannels) });
      for (const warning of rendered.warnings) console.error(`${prefix}${renderWarningLine(warning)}`);
      const written = await writeDisplays(rendered, frame, displays, sceneDir, prefix, writtenBy, String(frameNumber));
      if (options.depth) {
        const target = path.resolve(name(options.depth));
        await writeFile(target, encodeDepthTiff(rendered.image.width, rendered.image.height, rendered.image.depth));
        console.log(`${prefix}wrote ${target} (float depth TIFF)`);
      } else if (written === 0) {
        console.error(`${prefix}warning: no -o and no Display in the scene; nothing written`);
      }
      allStats.push(rendered.stats);
    }
    if (options.stats) await writeFile(options.stats, `${JSON.stringify(numbered ? allStats : allStats[0], null, 2)}\n`);
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

/** Writes each Display's files (names relative to the scene's folder); returns how many. */
async function writeDisplays(
  rendered: RenderedFrame, frame: Frame, displays: Display[], sceneDir: string, prefix: string, writtenBy: Map<string, string>, frameLabel: string,
): Promise<number> {
  let count = 0;
  for (const display of displays) {
    const settings = { exposure: frame.options.exposure, quantize: frame.options.quantize };
    const { files, warnings } = displayFiles(rendered.image, display, settings, rendered.variables);
    for (const warning of warnings) console.error(`${prefix}warning: ${warning}`);
    for (const file of files) {
      const target = path.resolve(sceneDir, file.name);
      const earlier = writtenBy.get(target);
      const at = display.source ? ` (Display at ${display.source.file}:${display.source.line}:${display.source.column})` : '';
      if (earlier !== undefined) console.error(`${prefix}warning: ${target} replaces the file frame ${earlier} wrote there${at}`);
      writtenBy.set(target, frameLabel);
      await writeFile(target, file.bytes);
      const how = display.type === 'framebuffer' ? `framebuffer display "${display.name}": no window here; ` : '';
      console.log(`${prefix}${how}wrote ${target} (${file.contents})`);
      count++;
    }
  }
  return count;
}

/** A renderer warning as stderr shows it: one that starts at a position (file:line:col: the request
 * it is about) reads `file:line:col: warning: ...`, as the RIB front end's and the compiler's do. */
function renderWarningLine(warning: string): string {
  const positioned = /^([^\n]+?:\d+:\d+): /.exec(warning);
  if (!positioned) return `warning: ${warning}`;
  // The compiler's diagnostics arrive formatted, severity included.
  const rest = warning.slice(positioned[0].length);
  return `${positioned[1]}: ${rest.startsWith('warning: ') ? rest : `warning: ${rest}`}`;
}
