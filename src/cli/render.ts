// `reyes render scene.rib`: renders every frame of a RIB scene (or the one --frame picks), in
// order (the scene may be several files and "-" for standard input, read as one stream by
// rib-inputs.ts; --crop overrides their CropWindow), each writing its Displays as their drivers
// say (src/image/display-files.ts) before the next frame starts, so a depth map one frame writes
// is there for the next. -o replaces the Displays with one file whose format follows its
// extension (.tif/.tiff TIFF, .exr EXR, else PNG); with several frames each gets its own, the
// frame number inserted before the extension (out.png → out.0001.png). --depth FILE writes
// camera-space depth as a float TIFF too. Every file written is listed on stdout; a frame writing
// over an earlier frame's file is warned about. Progress is shown as progress.ts says.
// A scene from anywhere must not write where it likes: Display names are placed in the output
// folder (--output-dir, default the scene's folder) and one that is absolute or climbs out with
// '..' (or reaches out through a symbolic link) is refused at its request's position, unless
// --allow-any-output; even then an existing file outside the folder is not overwritten. -o,
// --depth and --stats are the user's own choices and go where they say.
// Exit status 0 on success (warnings printed), 1 on a fatal
// error (unreadable scene, GPU failure), 2 when there is no GPU, 3 when the memory budget is too
// small to render any region, 4 for bad arguments, 5 when frames rendered but the scene had
// errors (RIB errors, refused Displays).
import { lstat, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BudgetTooSmallError, depthCamera, type Display, displayFiles, encodeDepthTiff, formatDiagnostic, type Frame, GpuBudgetError, GpuRuntime, GpuUnavailableError, imageTooLarge, outputVariables, parsePipelineConfig, type PipelineConfig, PipelineConfigError, placeDisplayFile, type RenderedFrame, renderFrame, type RenderOptions, runTextureRequests, type Scene, TextureRegistry, texturesBetween } from '../index.ts';
import { acquireNodeGpu, DevicePool, nodeRslShading, nodeTextureStorage, regionRenderOptions } from '../node.ts';
import { frameProgress, progressMode } from './progress.ts';
import { parseRibInputs, sceneFolder, STDIN } from './rib-inputs.ts';

export interface RenderCommandOptions {
  output?: string;
  res?: string;
  samples?: string;
  budget?: string;
  bucket?: string;
  /** --pipeline: a JSON pipeline configuration (src/reyes/pipeline/pipeline-config.ts). */
  pipeline?: string;
  stats?: string;
  frame?: string;
  shaderPath?: string;
  /** --depth: a float TIFF of camera-space depth. */
  depth?: string;
  /** --output-dir: where Display names are placed (default the scene's folder). */
  outputDir?: string;
  /** --allow-any-output: Displays may name absolute paths and folders outside the output folder. */
  allowAnyOutput?: boolean;
  /** --crop x0 x1 y0 y1: the CropWindow, overriding the scene's. */
  crop?: string;
  /** --progress: progress lines even when stderr is not a terminal (progress.ts). */
  progress?: boolean;
  /** --quiet: no progress display. */
  quiet?: boolean;
  /** --devices n: each frame rendered on n GPU devices (src/reyes/devices). */
  devices?: string;
}

export const EXIT = { ok: 0, fatal: 1, noGpu: 2, budget: 3, usage: 4, sceneErrors: 5 } as const;

function positiveInt(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer, not "${text}"`);
  return n;
}

class UsageError extends Error {}

async function readPipeline(file: string): Promise<PipelineConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--pipeline: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parsePipelineConfig(text, file);
  } catch (error) {
    if (error instanceof PipelineConfigError) throw new UsageError(`--pipeline: ${error.message}`);
    throw error;
  }
}

/** --crop "x0 x1 y0 y1" (or commas): fractions of the image, as CropWindow takes them. */
function parseCrop(text: string): [number, number, number, number] {
  const values = text.trim().split(/[\s,]+/).map(Number);
  const [x0, x1, y0, y1] = values;
  if (values.length !== 4 || values.some((v) => !(v >= 0 && v <= 1)) || !(x0! < x1! && y0! < y1!)) {
    throw new UsageError(`--crop must be four fractions x0 x1 y0 y1 in [0,1] with x0 < x1 and y0 < y1, not "${text}"`);
  }
  return [x0!, x1!, y0!, y1!];
}

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

/** The `render` command; with `processExits` (the process ends once it returns) the GPU device is
 * left to the process's end: destroying it and its pooled buffers took 15-21 ms at the end of every
 * render, which the exit does without. */
export async function renderCommand(inputs: string[], options: RenderCommandOptions, processExits = false): Promise<number> {
  let renderOptions: RenderOptions;
  let frameIndex: number | undefined;
  let crop: Frame['options']['cropWindow'] | undefined;
  let devices = 1;
  try {
    renderOptions = {};
    if (options.res !== undefined) {
      const m = /^(\d+)x(\d+)$/i.exec(options.res);
      if (!m || Number(m[1]) === 0 || Number(m[2]) === 0) throw new UsageError(`--res must be WxH (e.g. 640x480), not "${options.res}"`);
      const tooLarge = imageTooLarge(Number(m[1]), Number(m[2]));
      if (tooLarge) throw new UsageError(`--res ${options.res}: ${tooLarge}`);
      renderOptions.resolution = [Number(m[1]), Number(m[2])];
    }
    const samples = positiveInt(options.samples, '--samples');
    if (samples) renderOptions.samples = samples;
    const budget = options.budget === undefined ? undefined : Number(options.budget);
    if (budget !== undefined && !(budget > 0)) throw new UsageError(`--budget must be a positive number of MiB, not "${options.budget}"`);
    if (budget) renderOptions.budgetBytes = Math.floor(budget * 1024 * 1024);
    const bucket = positiveInt(options.bucket, '--bucket');
    if (bucket) renderOptions.bucketSize = bucket;
    if (options.pipeline !== undefined) renderOptions.pipeline = await readPipeline(options.pipeline);
    if (options.crop !== undefined) crop = parseCrop(options.crop);
    devices = positiveInt(options.devices, '--devices') ?? 1;
    frameIndex = options.frame === undefined ? undefined : (positiveInt(String(Number(options.frame) + 1), '--frame') ?? 1) - 1;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`reyes render: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }

  const sceneDir = sceneFolder(inputs);
  const scenePath = inputs.join(' ');
  const outputDir = path.resolve(options.outputDir ?? sceneDir);
  // Shaders are looked up in --shader-path (and the RIB's Option "searchpath" "shader"), then
  // among the standard shaders.
  const shaderPath = (options.shaderPath ?? '').split(path.delimiter).filter(Boolean);
  const textureStorage = nodeTextureStorage(sceneDir, outputDir);
  const textures = new TextureRegistry(textureStorage);
  renderOptions.shading = nodeRslShading({ sceneDir, shaderPath, textures }).provide;
  let scene: Scene;
  try {
    if (inputs.includes(STDIN) && process.stdin.isTTY) console.error('reyes render: reading RIB from the terminal; end it with Ctrl+D');
    scene = await parseRibInputs(inputs, { shaderSearchPaths: shaderPath.map((d) => path.resolve(d)) });
  } catch (error) {
    console.error(`reyes render: ${(error as Error).message}`);
    return EXIT.fatal;
  }
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
    gpu = new GpuRuntime(await acquireNodeGpu());
  } catch (error) {
    if (error instanceof GpuUnavailableError) {
      console.error(`reyes render: no WebGPU adapter: ${error.message}`);
      return EXIT.noGpu;
    }
    throw error;
  }
  let pool: DevicePool | undefined;
  try {
    if (devices > 1) pool = await DevicePool.start({ devices });
    await mkdir(outputDir, { recursive: true });
    const sceneOutput: OutputFolder = { dir: outputDir, allowAny: options.allowAnyOutput === true, trusted: false };
    let refused = 0;
    const numbered = frames.length > 1;
    const allStats = [];
    /** Files written so far, with the frame that wrote them, to warn when a later frame overwrites one. */
    const writtenBy = new Map<string, string>();
    // Make* requests run when the frames reach them, so a depth map one frame writes can become the
    // next one's shadow map.
    let texturesRun = 0;
    const makeTextures = (upTo: number, prefix: string): void => {
      const made = runTextureRequests(texturesBetween(scene, texturesRun, upTo), textureStorage);
      for (const d of made.warnings) console.error(`${prefix}${formatDiagnostic(d)}`);
      for (const file of made.written) console.log(`${prefix}wrote ${file} (texture)`);
      // Maps are read again where a request rewrote one.
      if (made.written.length > 0) textures.forget();
      texturesRun = upTo + 1;
    };
    for (const [k, frame] of frames.entries()) {
      const frameNumber = frame.frameNumber ?? (frameIndex ?? k) + 1;
      const prefix = numbered ? `frame ${frameNumber}: ` : '';
      makeTextures((frameIndex ?? 0) + k, prefix);
      const name = (file: string): string => (numbered ? numberedName(file, frameNumber) : file);
      const displays = options.output ? [outputDisplay(path.resolve(name(options.output)))] : frame.options.displays;
      const output = options.output ? { dir: process.cwd(), allowAny: true, trusted: true } : sceneOutput;
      const framed = crop ? { ...frame, options: { ...frame.options, cropWindow: crop } } : frame;
      const progress = frameProgress(progressMode(options, process.stderr.isTTY === true), prefix);
      let rendered: RenderedFrame;
      try {
        const variables = outputVariables(displays, frame.options.displayChannels);
        rendered = pool
          ? await pool.render(framed, {
            ...regionRenderOptions(renderOptions), outputVariables: variables, shading: { sceneDir, outputDir, shaderPath },
            ...(progress.callbacks.onProgress ? { onProgress: progress.callbacks.onProgress } : {}),
          })
          : await renderFrame(gpu, framed, { ...renderOptions, ...progress.callbacks, outputVariables: variables });
      } finally {
        progress.finish();
      }
      for (const warning of rendered.warnings) console.error(`${prefix}${renderWarningLine(warning)}`);
      const { written, errors } = await writeDisplays(rendered, frame, displays, output, prefix, writtenBy, String(frameNumber));
      refused += errors;
      if (options.depth) {
        const target = path.resolve(name(options.depth));
        // With its camera, as a depth Display writes it, so that MakeShadow can use it too.
        const camera = depthCamera(rendered.camera.worldToCamera, rendered.camera.cameraToNdc);
        await writeFile(target, encodeDepthTiff(rendered.image.width, rendered.image.height, rendered.image.depth, camera));
        console.log(`${prefix}wrote ${target} (float depth TIFF)`);
      } else if (written === 0) {
        console.error(`${prefix}warning: no -o and no Display in the scene; nothing written`);
      }
      allStats.push(rendered.stats);
    }
    if (frameIndex === undefined) makeTextures(scene.frames.length, '');
    if (options.stats) await writeFile(options.stats, `${JSON.stringify(numbered ? allStats : allStats[0], null, 2)}\n`);
    return scene.errors.length > 0 || refused > 0 ? EXIT.sceneErrors : EXIT.ok;
  } catch (error) {
    if (error instanceof BudgetTooSmallError || error instanceof GpuBudgetError) {
      console.error(`reyes render: ${error.message}`);
      return EXIT.budget;
    }
    console.error(`reyes render: ${(error as Error).message}`);
    return EXIT.fatal;
  } finally {
    await pool?.close();
    if (!processExits) {
      gpu.allocator.trim();
      gpu.context.destroy();
    }
  }
}

export interface OutputFolder {
  /** Absolute. */
  dir: string;
  /** --allow-any-output. */
  allowAny: boolean;
  /** The names are the user's (-o), not the scene's: written where they say, unchecked. */
  trusted: boolean;
}

/** Why `target`, a name placed inside the output folder, may still not be written there: a folder
 * on the way or the file itself is a symbolic link leading out, or the folder is missing. */
async function linkEscape(target: string, outputDir: string): Promise<string | undefined> {
  const inside = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  let folder: string;
  try {
    folder = await realpath(path.dirname(target));
  } catch {
    return `the folder ${path.dirname(target)} does not exist`;
  }
  if (!inside(await realpath(outputDir), folder)) return `${path.dirname(target)} leads outside the output folder ${outputDir} through a symbolic link`;
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isSymbolicLink()) return `${target} is a symbolic link; a Display does not write through links`;
  return undefined;
}

/** Where writeDisplays reports: the files written (stdout) and warnings and refusals (stderr). */
export interface DisplayReport {
  out(line: string): void;
  err(line: string): void;
}

/** Writes each Display's files, placed in the output folder; returns how many, and how many were refused. */
export async function writeDisplays(
  rendered: Pick<RenderedFrame, 'image' | 'variables'> & { camera: Pick<RenderedFrame['camera'], 'worldToCamera' | 'cameraToNdc'> },
  frame: Frame, displays: Display[], output: OutputFolder, prefix: string, writtenBy: Map<string, string>, frameLabel: string,
  report: DisplayReport = { out: (line) => console.log(line), err: (line) => console.error(line) },
): Promise<{ written: number; errors: number }> {
  let count = 0;
  let errors = 0;
  for (const display of displays) {
    const settings = {
      exposure: frame.options.exposure, quantize: frame.options.quantize, depthCamera: depthCamera(rendered.camera.worldToCamera, rendered.camera.cameraToNdc),
    };
    const { files, warnings } = displayFiles(rendered.image, display, settings, rendered.variables);
    for (const warning of warnings) report.err(`${prefix}warning: ${warning}`);
    const position = display.source ? `${display.source.file}:${display.source.line}:${display.source.column}: ` : '';
    const refuse = (why: string): void => {
      report.err(`${prefix}${position}error: Display "${display.name}": ${why}; not written`);
      errors++;
    };
    for (const file of files) {
      const placed = output.trusted ? { path: path.resolve(output.dir, file.name), escapes: false } : placeDisplayFile(file.name, output.dir);
      const target = path.resolve(placed.path);
      if (placed.escapes && !output.allowAny) {
        refuse(`${file.name} is outside the output folder ${output.dir} (pass --allow-any-output to allow it)`);
        continue;
      }
      const escape = placed.escapes || output.trusted ? undefined : await linkEscape(target, output.dir);
      if (escape !== undefined) {
        refuse(escape);
        continue;
      }
      const earlier = writtenBy.get(target);
      const at = display.source ? ` (Display at ${display.source.file}:${display.source.line}:${display.source.column})` : '';
      if (earlier !== undefined) report.err(`${prefix}warning: ${target} replaces the file frame ${earlier} wrote there${at}`);
      // Outside the output folder (--allow-any-output) only new files are made, or ones this render made.
      try {
        await writeFile(target, file.bytes, { flag: placed.escapes && earlier === undefined ? 'wx' : 'w' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        refuse(`${target} exists outside the output folder ${output.dir}; only files inside it are overwritten`);
        continue;
      }
      writtenBy.set(target, frameLabel);
      const how = display.type === 'framebuffer' ? `framebuffer display "${display.name}": no window here; ` : '';
      report.out(`${prefix}${how}wrote ${target} (${file.contents})`);
      count++;
    }
  }
  return { written: count, errors };
}

/** A renderer warning as stderr shows it: one that starts at a position (file:line:col: the request
 * it is about) reads `file:line:col: warning: ...`, as the RIB front end's and the compiler's do. */
export function renderWarningLine(warning: string): string {
  const positioned = /^([^\n]+?:\d+:\d+): /.exec(warning);
  if (!positioned) return `warning: ${warning}`;
  // The compiler's diagnostics arrive formatted, severity included.
  const rest = warning.slice(positioned[0].length);
  return `${positioned[1]}: ${rest.startsWith('warning: ') ? rest : `warning: ${rest}`}`;
}
