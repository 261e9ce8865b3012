// What a farm worker does with each job, on its GPU: a frame job renders the frame and writes its
// Displays as `reyes render` does; a tile job renders one crop tile into a tile file; a merge job
// puts a frame's tiles together and writes its Displays. Scenes are parsed once per worker (again when
// a file changes) and keep their shading provider, so kernels compile once per worker.
// A farm does not deliver a frame that is not what the scene asks for: RIB errors and a shader that
// is missing or does not compile fail the job with their messages (`reyes render` renders on with a
// warning); other warnings go to the job's log.
import { stat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeDisplays, renderWarningLine, type DisplayReport } from '../cli/render.ts';
import { parseRibInputs } from '../cli/rib-inputs.ts';
import { createFloatImage, blitDepth, blitRgba, type FloatImage, type VariableImage } from '../image/image.ts';
import { outputVariables } from '../image/display-files.ts';
import type { GpuRuntime } from '../gpu/runtime.ts';
import { regionRenderOptions } from '../reyes/devices/device-messages.ts';
import type { DevicePool } from '../reyes/devices/device-pool.ts';
import { renderFrame, type RenderedFrame, type RenderOptions } from '../reyes/render-frame.ts';
import { nodeRslShading } from '../reyes/shading/node-shaders.ts';
import { formatDiagnostic } from '../rib/index.ts';
import type { Frame, Scene } from '../rib/scene.ts';
import { runTextureRequests, texturesBetween } from '../texture/make-textures.ts';
import { nodeTextureStorage } from '../texture/node-texture-storage.ts';
import { TextureRegistry } from '../texture/texture-registry.ts';
import type { TextureStorage } from '../texture/texture-storage.ts';
import type { FrameJobData, JobResult, MergeJobData, RenderSettings, TileJobData } from './jobs.ts';
import { readTileFile, removeTileFile, writeTileFile, type TilePixels } from './tile-file.ts';

/** Render warnings that fail a farm job: a shader the scene names that cannot be used. */
const UNUSABLE_SHADER = /shader "[^"]*" (not found|does not compile)|is a \w+ shader, not a/;

/** Where a job reports as it goes: its log lines and its progress in percent. */
export interface JobReporter {
  log(line: string): void;
  progress(percent: number): void;
}

export class JobFailure extends Error {}

interface LoadedScene {
  scene: Scene;
  sceneDir: string;
  /** Modification times of the RIB files when parsed. */
  mtimes: number[];
  shading: ReturnType<typeof nodeRslShading>;
  textures: TextureRegistry;
  textureStorage: TextureStorage;
  /** Make* requests of frames before this index have run in this worker. */
  texturesRun: number;
}

export class JobRenderer {
  private readonly scenes = new Map<string, LoadedScene>();

  /** The device pool's renders, one after another (its threads take one region at a time). */
  private poolTurn: Promise<unknown> = Promise.resolve();

  /** `pool`: render on its devices instead of `gpu` (`reyes farm worker --devices n`). */
  constructor(private readonly gpu: GpuRuntime, private readonly budgetBytes?: number, private readonly pool?: DevicePool) {}

  async renderFrameJob(data: FrameJobData, report: JobReporter): Promise<JobResult> {
    const started = performance.now();
    const { frame, rendered, warnings } = await this.render(data, undefined, report);
    const files = await this.writeFrame(data, frame, rendered, report);
    return { files, warnings, workMs: performance.now() - started };
  }

  async renderTileJob(data: TileJobData, report: JobReporter): Promise<JobResult> {
    const started = performance.now();
    const { rendered, warnings } = await this.render(data, data.tile.crop, report);
    await writeTileFile(data.tileFile, rendered);
    report.log(`wrote tile ${data.tile.index} of frame ${data.frameNumber} to ${data.tileFile}`);
    return { files: [], warnings, workMs: performance.now() - started };
  }

  /** Assembles the tiles (rendered with the frame's own settings) and writes the frame's Displays. */
  async mergeJob(data: MergeJobData, report: JobReporter): Promise<JobResult> {
    const started = performance.now();
    const loaded = await this.load(data.settings);
    const frame = frameOf(loaded.scene, data);
    const tiles = await Promise.all(data.tiles.map(async ({ tileFile }) => readTileFile(tileFile)));
    const merged = mergeTiles(data, tiles);
    const files = await this.writeFrame(data, frame, merged, report);
    await Promise.all(data.tiles.map(({ tileFile }) => removeTileFile(tileFile)));
    return { files, warnings: [], workMs: performance.now() - started };
  }

  private async render(data: FrameJobData, crop: [number, number, number, number] | undefined, report: JobReporter) {
    const loaded = await this.load(data.settings);
    const frame = frameOf(loaded.scene, data);
    this.makeTextures(loaded, data.frameIndex, report);
    const framed = crop ? { ...frame, options: { ...frame.options, cropWindow: crop } } : frame;
    const options: RenderOptions = {
      shading: loaded.shading.provide,
      outputVariables: outputVariables(frame.options.displays, frame.options.displayChannels),
      onProgress: throttledProgress(report),
      ...(data.settings.resolution ? { resolution: data.settings.resolution } : {}),
      ...(data.settings.samples ? { samples: data.settings.samples } : {}),
      ...(this.budgetBytes ? { budgetBytes: this.budgetBytes } : {}),
    };
    const rendered = await this.renderOn(framed, options, loaded, data.settings);
    const warnings = rendered.warnings.map(renderWarningLine);
    for (const line of warnings) report.log(line);
    const unusable = rendered.warnings.filter((w) => UNUSABLE_SHADER.test(w));
    if (unusable.length > 0) {
      const what = crop ? `tile of frame ${data.frameNumber}` : `frame ${data.frameNumber}`;
      throw new JobFailure([`${what} not rendered: a farm renders no frame without the shaders its scene names`, ...unusable.map(renderWarningLine)].join('\n'));
    }
    return { frame, rendered, warnings };
  }

  private renderOn(frame: Frame, options: RenderOptions, loaded: LoadedScene, settings: RenderSettings): Promise<RenderedFrame> {
    const pool = this.pool;
    if (!pool) return renderFrame(this.gpu, frame, options);
    const shading = { sceneDir: loaded.sceneDir, outputDir: settings.outputDir, shaderPath: settings.shaderPath };
    const turn = this.poolTurn.catch(() => undefined).then(() => pool.render(frame, {
      ...regionRenderOptions(options), shading, ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    }));
    this.poolTurn = turn;
    return turn;
  }

  private async writeFrame(data: FrameJobData, frame: Frame, rendered: Pick<RenderedFrame, 'image' | 'variables' | 'camera'> | TilePixels, report: JobReporter): Promise<string[]> {
    const { outputDir } = data.settings;
    await mkdir(outputDir, { recursive: true });
    const files: string[] = [];
    const problems: string[] = [];
    const lines: DisplayReport = {
      out(line) {
        files.push(line);
        report.log(line);
      },
      err(line) {
        if (/\berror: /.test(line)) problems.push(line);
        report.log(line);
      },
    };
    const output = { dir: outputDir, allowAny: false, trusted: false };
    await writeDisplays(rendered, frame, frame.options.displays, output, '', new Map(), String(data.frameNumber), lines);
    if (problems.length > 0) throw new JobFailure(problems.join('\n'));
    if (files.length === 0) report.log(`warning: frame ${data.frameNumber} has no Display; nothing written`);
    return files;
  }

  /** Make* requests up to and including the frame's, each once per worker. */
  private makeTextures(loaded: LoadedScene, frameIndex: number, report: JobReporter): void {
    if (frameIndex < loaded.texturesRun) return;
    const made = runTextureRequests(texturesBetween(loaded.scene, loaded.texturesRun, frameIndex), loaded.textureStorage);
    for (const d of made.warnings) report.log(formatDiagnostic(d));
    for (const file of made.written) report.log(`wrote ${file} (texture)`);
    if (made.written.length > 0) loaded.textures.forget();
    loaded.texturesRun = frameIndex + 1;
  }

  private async load(settings: RenderSettings): Promise<LoadedScene> {
    const key = JSON.stringify([settings.scene, settings.outputDir, settings.shaderPath]);
    const mtimes = await Promise.all(settings.scene.map(async (file) => (await stat(file)).mtimeMs));
    const known = this.scenes.get(key);
    if (known && known.mtimes.every((t, k) => t === mtimes[k])) return known;
    const scene = await parseRibInputs(settings.scene, { shaderSearchPaths: settings.shaderPath });
    if (scene.errors.length > 0) throw new JobFailure(scene.errors.map(formatDiagnostic).join('\n'));
    const sceneDir = path.dirname(settings.scene[settings.scene.length - 1]!);
    const textureStorage = nodeTextureStorage(sceneDir, settings.outputDir);
    const textures = new TextureRegistry(textureStorage);
    const shading = nodeRslShading({ sceneDir, shaderPath: settings.shaderPath, textures });
    const loaded = { scene, sceneDir, mtimes, shading, textures, textureStorage, texturesRun: 0 };
    this.scenes.set(key, loaded);
    return loaded;
  }
}

function frameOf(scene: Scene, data: FrameJobData): Frame {
  const frame = scene.frames[data.frameIndex];
  if (!frame) throw new JobFailure(`${data.settings.scene.join(' ')} has ${scene.frames.length} frame(s); there is no frame ${data.frameNumber} (index ${data.frameIndex})`);
  return frame;
}

/** The frame's picture from its tiles: each tile's pixels at its place, output variables alike. */
function mergeTiles(data: MergeJobData, tiles: readonly TilePixels[]): TilePixels {
  const width = Math.max(...data.tiles.map(({ tile }) => tile.rect.x1));
  const height = Math.max(...data.tiles.map(({ tile }) => tile.rect.y1));
  const place = (target: FloatImage, source: FloatImage, rect: MergeJobData['tiles'][number]['tile']['rect']): void => {
    blitRgba(target, rect.x0, rect.y0, source.width, source.height, source.rgba);
    blitDepth(target, rect.x0, rect.y0, source.width, source.height, source.depth);
  };
  const image = createFloatImage(width, height);
  const variables = new Map<string, VariableImage>();
  tiles.forEach((tile, k) => {
    const { rect } = data.tiles[k]!.tile;
    if (tile.image.width !== rect.x1 - rect.x0 || tile.image.height !== rect.y1 - rect.y0) {
      throw new JobFailure(`tile ${k} of frame ${data.frameNumber} is ${tile.image.width}×${tile.image.height} pixels, not the ${rect.x1 - rect.x0}×${rect.y1 - rect.y0} of its place`);
    }
    place(image, tile.image, rect);
    for (const [name, variable] of tile.variables) {
      let merged = variables.get(name);
      if (!merged) variables.set(name, (merged = { ...variable, image: createFloatImage(width, height) }));
      place(merged.image, variable.image, rect);
    }
  });
  return { image, variables, camera: tiles[0]!.camera };
}

/** Progress in whole percent, at most twice a second (each is a Redis write). */
function throttledProgress(report: JobReporter): RenderOptions['onProgress'] {
  let last = 0;
  let sent = -1;
  return (done, total) => {
    const percent = Math.floor((100 * done) / total);
    const now = performance.now();
    if (percent === sent || (percent < 100 && now - last < 500)) return;
    last = now;
    sent = percent;
    report.progress(percent);
  };
}
