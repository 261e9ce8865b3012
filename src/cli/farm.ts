// `reyes farm submit|worker|status`: rendering a sequence on a farm of machines through a BullMQ
// queue on Redis (src/farm). REDIS_URL names the server; the scene, its shaders and textures and the
// output folder must be at the same paths on every machine (a shared folder).
import path from 'node:path';
import { formatDiagnostic, GpuRuntime, GpuUnavailableError, imageTooLarge } from '../index.ts';
import { acquireNodeGpu } from '../node.ts';
import { connectRedis, DEFAULT_ATTEMPTS, farmStatus, formatStatus, FrameListError, parseTileGrid, redisUrl, selectFrames, startFarmWorker, submitSequence, TileLayoutError } from '../farm/index.ts';
import { EXIT } from './render.ts';
import { parseRibInputs, STDIN } from './rib-inputs.ts';

export interface FarmSubmitOptions {
  frames?: string;
  tiles?: string;
  priority?: string;
  res?: string;
  samples?: string;
  shaderPath?: string;
  outputDir?: string;
  attempts?: string;
}

export interface FarmWorkerCommandOptions {
  concurrency?: string;
  budget?: string;
  devices?: string;
  stalledInterval?: string;
  lockDuration?: string;
}

class UsageError extends Error {}

function wholeNumber(text: string | undefined, name: string, least: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < least) throw new UsageError(`${name} must be a whole number of at least ${least}, not "${text}"`);
  return n;
}

function resolution(text: string | undefined): [number, number] | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)x(\d+)$/i.exec(text);
  if (!m || Number(m[1]) === 0 || Number(m[2]) === 0) throw new UsageError(`--res must be WxH (e.g. 640x480), not "${text}"`);
  const tooLarge = imageTooLarge(Number(m[1]), Number(m[2]));
  if (tooLarge) throw new UsageError(`--res ${text}: ${tooLarge}`);
  return [Number(m[1]), Number(m[2])];
}

/** Runs `body`, turning a UsageError into the usage exit status and other errors into a message. */
async function guarded(command: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    console.error(`reyes farm ${command}: ${(error as Error).message}`);
    return error instanceof UsageError || error instanceof FrameListError || error instanceof TileLayoutError ? EXIT.usage : EXIT.fatal;
  }
}

export function farmSubmitCommand(inputs: string[], options: FarmSubmitOptions): Promise<number> {
  return guarded('submit', async () => {
    if (inputs.includes(STDIN)) throw new UsageError('the workers read the scene from its file; standard input ("-") cannot be submitted');
    const tiles = options.tiles === undefined ? undefined : parseTileGrid(options.tiles);
    const priority = wholeNumber(options.priority, '--priority', 1);
    const attempts = wholeNumber(options.attempts, '--attempts', 1) ?? DEFAULT_ATTEMPTS;
    const res = resolution(options.res);
    const samples = wholeNumber(options.samples, '--samples', 1);
    const scene = await parseRibInputs(inputs);
    for (const d of [...scene.errors, ...scene.warnings]) console.error(formatDiagnostic(d));
    if (scene.errors.length > 0) {
      console.error(`reyes farm submit: the scene has errors; nothing submitted`);
      return EXIT.sceneErrors;
    }
    const frames = selectFrames(scene.frames, options.frames);
    if (frames.length === 0) throw new Error(`${inputs.join(' ')} has no frame to render`);
    const files = inputs.map((f) => path.resolve(f));
    const settings = {
      scene: files,
      outputDir: path.resolve(options.outputDir ?? path.dirname(files[files.length - 1]!)),
      shaderPath: (options.shaderPath ?? '').split(path.delimiter).filter(Boolean).map((d) => path.resolve(d)),
      ...(res ? { resolution: res } : {}),
      ...(samples ? { samples } : {}),
    };
    const url = redisUrl();
    const connection = await connectRedis(url, false);
    try {
      const summary = await submitSequence(connection, scene, {
        settings, frames, attempts, ...(tiles ? { tiles } : {}), ...(priority ? { priority } : {}),
      });
      const list = (numbers: number[]): string => numbers.join(', ');
      const per = tiles ? ` (${tiles[0]}×${tiles[1]} tiles each)` : '';
      console.log(`submission ${summary.key} to ${url}: ${summary.queued.length + summary.requeued.length} frame(s) queued${per}`);
      if (summary.queued.length > 0) console.log(`  queued: ${list(summary.queued)}`);
      if (summary.requeued.length > 0) console.log(`  failed before, queued again: ${list(summary.requeued)}`);
      if (summary.done.length > 0) console.log(`  done already, skipped: ${list(summary.done)}`);
      if (summary.pending.length > 0) console.log(`  waiting or rendering already, left alone: ${list(summary.pending)}`);
      return EXIT.ok;
    } finally {
      await connection.quit();
    }
  });
}

export function farmWorkerCommand(options: FarmWorkerCommandOptions): Promise<number> {
  return guarded('worker', async () => {
    const concurrency = wholeNumber(options.concurrency, '--concurrency', 1) ?? 1;
    const devices = wholeNumber(options.devices, '--devices', 1) ?? 1;
    const budget = options.budget === undefined ? undefined : Number(options.budget);
    if (budget !== undefined && !(budget > 0)) throw new UsageError(`--budget must be a positive number of MiB, not "${options.budget}"`);
    const stalledInterval = wholeNumber(options.stalledInterval, '--stalled-interval', 1);
    const lockDuration = wholeNumber(options.lockDuration, '--lock-duration', 1);
    let gpu: GpuRuntime;
    try {
      gpu = new GpuRuntime(await acquireNodeGpu());
    } catch (error) {
      if (error instanceof GpuUnavailableError) {
        console.error(`reyes farm worker: no WebGPU adapter: ${error.message}`);
        return EXIT.noGpu;
      }
      throw error;
    }
    const worker = await startFarmWorker(gpu, {
      redisUrl: redisUrl(), concurrency, devices, print: (line) => console.log(line),
      ...(budget ? { budgetBytes: Math.floor(budget * 1024 * 1024) } : {}),
      ...(stalledInterval ? { stalledInterval } : {}),
      ...(lockDuration ? { lockDuration } : {}),
    });
    // Runs until stopped: SIGINT or SIGTERM let the jobs in hand finish first.
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        console.log('stopping: finishing the jobs in hand');
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await worker.close();
    gpu.allocator.trim();
    gpu.context.destroy();
    return EXIT.ok;
  });
}

export function farmStatusCommand(options: { json?: boolean }): Promise<number> {
  return guarded('status', async () => {
    const url = redisUrl();
    const connection = await connectRedis(url, false);
    try {
      const status = await farmStatus(connection);
      console.log(options.json ? JSON.stringify(status, null, 2) : formatStatus(status, url));
      return EXIT.ok;
    } finally {
      await connection.quit();
    }
  });
}
