// Several devices rendering one frame (Node): one worker thread per device (device-thread.ts), each
// with its own Dawn device — one per adapter where a machine has several GPUs, else several on one
// adapter, which overlaps one device's CPU work (conversion, scheduling, read-backs) with another's
// GPU work. The regions are dealt out and stolen as region-scheduler.ts says; the frame is put
// together from the regions' pixels. The pool lives across frames, so kernels compile once per device.
import { Worker } from 'node:worker_threads';
import { nodeGpu } from '../../gpu/node-gpu.ts';
import { createFloatImage, blitDepth, blitRgba, type FloatImage, type VariableImage } from '../../image/image.ts';
import type { Frame } from '../../rib/scene.ts';
import { frameCamera, type PixelRect } from '../camera.ts';
import type { RenderedFrame, RenderOptions } from '../frame/render-options.ts';
import type { FrameStats } from '../stats.ts';
import { cropWindowFor, pictureArea } from './crop-rect.ts';
import type { DeviceShading, FromDevice, RegionPixels, RegionRenderOptions, ToDevice } from './device-messages.ts';
import { RegionScheduler, type DeviceSchedule } from './region-scheduler.ts';

export interface DevicePoolOptions {
  devices: number;
}

export interface DevicesRenderOptions extends RegionRenderOptions {
  /** Shader and texture look-up on disk (as `reyes render`); default the standard shaders only. */
  shading?: DeviceShading;
  /** Regions cut per device before stealing starts (default 4). */
  regionsPerDevice?: number;
  /** Called as regions finish, with the pixels of the picture done so far. */
  onProgress?: RenderOptions['onProgress'];
}

/** Per device: what the scheduler gave it, how long it rendered and how long it waited. */
export interface DeviceReport extends DeviceSchedule {
  adapter: string;
  busyMs: number;
  /** Wall time of the frame less busyMs: waiting for a region or for the others to finish. */
  idleMs: number;
}

export type DevicesFrameStats = FrameStats & { devices: DeviceReport[] };
export type DevicesRenderedFrame = RenderedFrame & { stats: DevicesFrameStats };

/** The device thread's entry, beside this module: in the sources a bootstrap that loads the
 * TypeScript (device-thread.js), in the library build its own bundle (vite.lib.config.ts). A
 * variable, so bundlers leave it alone rather than inline it as an asset. */
const THREAD_ENTRY = './device-thread.js';

/** Counters summed over the regions (the rest are the frame's, taken from its first region). */
const SUMMED = [
  'primitivesAfterSplit', 'boundSplitIterations', 'eyeSplitCulls', 'grids', 'micropolygons', 'verticesShaded', 'samplePoints',
  'gridsDiced', 'gridsReused', 'gridsShaded', 'dicingRegions', 'samplingRegions', 'shadingBatches', 'dicingSplits', 'samplingSplits', 'opaqueWalks', 'opaqueTies', 'gridsSampled', 'pipelinesCreated', 'pipelinesCreatedOnUse',
] as const;

class DeviceThread {
  adapter = '';
  private pending: { resolve(m: FromDevice): void; reject(e: Error): void } | undefined;
  private failure: Error | undefined;

  constructor(readonly worker: Worker) {
    worker.on('message', (message: FromDevice) => {
      const pending = this.pending;
      this.pending = undefined;
      pending?.resolve(message);
    });
    const fail = (error: Error): void => {
      this.failure = error;
      this.pending?.reject(error);
      this.pending = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`device thread exited (code ${code})`)));
  }

  /** The thread's next message (after sending `message`, if given). */
  request(message?: ToDevice): Promise<FromDevice> {
    if (this.failure) return Promise.reject(this.failure);
    const reply = new Promise<FromDevice>((resolve, reject) => (this.pending = { resolve, reject }));
    if (message) this.worker.postMessage(message);
    return reply;
  }

  send(message: ToDevice): void {
    this.worker.postMessage(message);
  }
}

export class DevicePool {
  private constructor(private readonly threads: DeviceThread[]) {}

  /** Starts `devices` threads, each acquiring its device; rejects with the first thread's failure. */
  static async start(options: DevicePoolOptions): Promise<DevicePool> {
    if (!Number.isInteger(options.devices) || options.devices < 1) throw new Error(`devices must be a whole number of at least 1, not ${options.devices}`);
    // The Vulkan driver is chosen through the environment (VK_ICD_FILENAMES), which the loader reads
    // from the process's real environment: a worker thread's process.env is its own copy, so the
    // choice is made here, on the main thread, before any thread starts Dawn.
    nodeGpu();
    const threads = Array.from({ length: options.devices }, () => new DeviceThread(new Worker(new URL(THREAD_ENTRY, import.meta.url))));
    const pool = new DevicePool(threads);
    try {
      const replies = await Promise.all(threads.map((t) => t.request()));
      replies.forEach((reply, k) => {
        if (reply.type === 'error') throw new Error(`a device thread could not get a GPU device: ${reply.message}`);
        if (reply.type === 'ready') threads[k]!.adapter = reply.adapter;
      });
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  get size(): number {
    return this.threads.length;
  }

  async render(frame: Frame, options: DevicesRenderOptions = {}): Promise<DevicesRenderedFrame> {
    const started = performance.now();
    const { regionsPerDevice = 4, onProgress, shading, ...renderOptions } = options;
    const area = pictureArea(frame.options, renderOptions.resolution);
    const scheduler = new RegionScheduler(area.rect, this.threads.length, regionsPerDevice);
    const camera = frameCamera(frame, renderOptions.resolution ? { resolution: renderOptions.resolution } : {});
    const width = area.rect.x1 - area.rect.x0;
    const height = area.rect.y1 - area.rect.y0;
    const image = createFloatImage(width, height);
    const variables = new Map<string, VariableImage>();
    const parts: RegionPixels[] = [];
    const busy = this.threads.map(() => 0);
    let pixelsDone = 0;
    // After one device fails the others stop at their next region.
    let failed = false;
    const place = (target: FloatImage, source: FloatImage, r: PixelRect): void => {
      blitRgba(target, r.x0 - area.rect.x0, r.y0 - area.rect.y0, source.width, source.height, source.rgba);
      blitDepth(target, r.x0 - area.rect.x0, r.y0 - area.rect.y0, source.width, source.height, source.depth);
    };
    await Promise.all(this.threads.map(async (thread, device) => {
      thread.send({ type: 'frame', frame, options: renderOptions, ...(shading ? { shading } : {}) });
      for (let assigned = scheduler.next(device); assigned && !failed; assigned = scheduler.next(device)) {
        const { region } = assigned;
        const regionStart = performance.now();
        const reply = await thread.request({ type: 'region', region, cropWindow: cropWindowFor(region, area.width, area.height) });
        busy[device]! += performance.now() - regionStart;
        if (reply.type === 'error') {
          failed = true;
          throw new Error(reply.message);
        }
        if (reply.type !== 'pixels') continue;
        const { pixels } = reply;
        place(image, pixels.image, region);
        for (const [name, variable] of pixels.variables) {
          let merged = variables.get(name);
          if (!merged) variables.set(name, (merged = { ...variable, image: createFloatImage(width, height) }));
          place(merged.image, variable.image, region);
        }
        parts.push(pixels);
        pixelsDone += (region.x1 - region.x0) * (region.y1 - region.y0);
        onProgress?.(pixelsDone, width * height);
      }
    }));
    const totalMs = performance.now() - started;
    const devices = scheduler.devices.map((schedule, d) => ({
      ...schedule, adapter: this.threads[d]!.adapter, busyMs: busy[d]!, idleMs: Math.max(0, totalMs - busy[d]!),
    }));
    const warnings = [...new Set(parts.flatMap((p) => p.warnings))];
    return { image, camera, variables, warnings, regions: parts.flatMap((p) => p.regions), stats: mergeStats(parts, warnings, devices, totalMs) };
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map(async (t) => {
      t.send({ type: 'close' });
      await new Promise<void>((resolve) => {
        t.worker.once('exit', () => resolve());
        setTimeout(() => void t.worker.terminate().then(() => resolve()), 5000).unref();
      });
    }));
  }
}

function mergeStats(parts: readonly RegionPixels[], warnings: string[], devices: DeviceReport[], totalMs: number): DevicesFrameStats {
  const first = parts[0]!.stats;
  const stats: DevicesFrameStats = { ...first, stageMs: { ...first.stageMs }, warnings, devices, totalMs };
  for (const part of parts.slice(1)) {
    for (const key of SUMMED) stats[key] += part.stats[key];
    for (const stage of Object.keys(stats.stageMs) as (keyof FrameStats['stageMs'])[]) stats.stageMs[stage] += part.stats.stageMs[stage];
    stats.peakBytes = Math.max(stats.peakBytes, part.stats.peakBytes);
  }
  delete stats.stageGpuMs;
  delete stats.passGpuMs;
  return stats;
}
