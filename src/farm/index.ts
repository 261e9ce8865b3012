/**
 * Rendering a sequence on a farm of machines through a BullMQ queue on Redis, as `reyes farm
 * submit|worker|status` does: one job per frame, or per crop tile of a frame with a merge job after
 * its tiles. Node only (Redis, files in a folder every machine shares, Dawn through the worker's
 * GpuRuntime).
 *
 * ```ts
 * import { GpuRuntime } from 'webgpu-reyes';
 * import { acquireNodeGpu, parseRibFile } from 'webgpu-reyes/node';
 * import { connectRedis, redisUrl, selectFrames, startFarmWorker, submitSequence, DEFAULT_ATTEMPTS } from 'webgpu-reyes/farm';
 * const connection = await connectRedis(redisUrl(), false);
 * const scene = await parseRibFile('/farm/shot.rib');
 * await submitSequence(connection, scene, { settings: { scene: ['/farm/shot.rib'], outputDir: '/farm/out', shaderPath: [] }, frames: selectFrames(scene.frames, '1-24'), attempts: DEFAULT_ATTEMPTS });
 * const worker = await startFarmWorker(new GpuRuntime(await acquireNodeGpu()), { redisUrl: redisUrl(), concurrency: 1, print: console.log });
 * ```
 *
 * @packageDocumentation
 * @module webgpu-reyes/farm
 */
/** The Redis server the farm uses: REDIS_URL, or one on this machine. */
export { redisUrl } from './connection.ts';
/** The Redis URL used when REDIS_URL is not set. */
export { DEFAULT_REDIS_URL } from './connection.ts';
/** The BullMQ queue every farm command and worker uses. */
export { QUEUE_NAME } from './connection.ts';
/** A connection for BullMQ; a `persistent` one (a worker's) keeps trying while the server is away. */
export { connectRedis } from './connection.ts';
/** The indices of a scene's frames a `--frames 1-240,250` list names; throws FrameListError. */
export { selectFrames } from './frame-list.ts';
/** A frame list naming frames that are not there, or written wrong. */
export { FrameListError } from './frame-list.ts';
/** Columns and rows of a `--tiles CxR` grid; throws TileLayoutError. */
export { parseTileGrid } from './tiles.ts';
/** A tile grid written wrong. */
export { TileLayoutError } from './tiles.ts';
/** Queues a scene's frames (or their tiles and merges); what was done, queued, requeued or pending already. */
export { submitSequence } from './submit.ts';
/** Tries per job before it is marked failed, unless the submission says otherwise. */
export { DEFAULT_ATTEMPTS } from './submit.ts';
/** What submitSequence renders and how (frames, tiles, priority, attempts, render settings). */
export type { SubmitOptions, SubmitSummary } from './submit.ts';
/** The render settings a submission carries to every job (scene files, resolution, samples, folders). */
export type { RenderSettings } from './jobs.ts';
/** Takes the farm's jobs and renders them on this machine's GPU until closed. */
export { startFarmWorker } from './worker.ts';
/** Options of startFarmWorker: the Redis URL, concurrency, budget, devices, lock timings, a line printer. */
export type { FarmWorkerOptions } from './worker.ts';
/** What the queue holds and which workers are connected, read from Redis. */
export { farmStatus } from './status.ts';
/** A farm status as the text `reyes farm status` prints. */
export { formatStatus } from './status.ts';
/** The queue's jobs and workers (farmStatus). */
export type { FarmStatus, JobStatus, JobPhase, WorkerStatus } from './status.ts';
