// `reyes farm worker`: takes the farm's jobs from the queue and renders them on this machine's GPU (or,
// with --devices n, on n device threads sharing each frame by work stealing),
// `concurrency` at a time (they share the device). The job's lock is renewed while it renders; a
// worker that dies (killed, machine lost) stops renewing it, and another worker's stalled-job check
// puts the job back in the queue. Failed jobs are retried (submit.ts sets how often); the
// message and log of the last attempt stay with the job.
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import type { GpuRuntime } from '../gpu/runtime.ts';
import { DevicePool } from '../reyes/devices/device-pool.ts';
import { connectRedis, QUEUE_NAME } from './connection.ts';
import { JOB_NAMES, type FrameJobData, type JobResult, type MergeJobData, type TileJobData } from './jobs.ts';
import { JobRenderer, type JobReporter } from './render-job.ts';

export interface FarmWorkerOptions {
  redisUrl: string;
  /** Jobs rendered at once. */
  concurrency: number;
  /** GPU memory budget per render, bytes (default what the adapter allows). */
  budgetBytes?: number;
  /** Render each job on this many devices (src/reyes/devices) instead of the one given. */
  devices?: number;
  /** How often this worker looks for jobs whose worker died (ms; BullMQ's default 30 s). */
  stalledInterval?: number;
  /** How long a job's lock lasts without renewal (ms; BullMQ's default 30 s): a dead worker's job
   * is found stalled at the first check after this. */
  lockDuration?: number;
  /** Lines about each job (started, written, failed). */
  print(line: string): void;
}

/** This worker's name as `reyes farm status` lists it. */
export function workerName(): string {
  return `${hostname()}:${process.pid}`;
}

export async function startFarmWorker(gpu: GpuRuntime, options: FarmWorkerOptions): Promise<{ close(): Promise<void> }> {
  const connection = await connectRedis(options.redisUrl, true);
  const pool = options.devices && options.devices > 1 ? await DevicePool.start({ devices: options.devices }) : undefined;
  const renderer = new JobRenderer(gpu, options.budgetBytes, pool);
  const { print } = options;
  const processJob = async (job: Job): Promise<JobResult> => {
    const data = job.data as FrameJobData;
    const label = `${job.name} ${job.id} (frame ${data.frameNumber}${job.name === JOB_NAMES.tile ? `, tile ${(data as TileJobData).tile.index}` : ''})`;
    print(`${label}: started (attempt ${job.attemptsMade + 1})`);
    const report: JobReporter = {
      log: (line) => void job.log(line),
      progress: (percent) => void job.updateProgress(percent),
    };
    const result =
      job.name === JOB_NAMES.tile ? await renderer.renderTileJob(job.data as TileJobData, report)
        : job.name === JOB_NAMES.merge ? await renderer.mergeJob(job.data as MergeJobData, report)
          : await renderer.renderFrameJob(data, report);
    for (const line of result.files) print(`${label}: ${line}`);
    print(`${label}: done in ${(result.workMs / 1000).toFixed(2)} s`);
    return result;
  };
  const worker = new Worker(QUEUE_NAME, processJob, {
    connection,
    name: workerName(),
    concurrency: options.concurrency,
    autorun: false,
    maxStalledCount: 2,
    ...(options.stalledInterval ? { stalledInterval: options.stalledInterval } : {}),
    ...(options.lockDuration ? { lockDuration: options.lockDuration } : {}),
  });
  worker.on('failed', (job, error) => {
    if (job) print(`${job.name} ${job.id} (frame ${(job.data as FrameJobData).frameNumber}): failed (attempt ${job.attemptsMade}): ${error.message}`);
  });
  worker.on('error', (error) => print(`worker error: ${error.message}`));
  await worker.waitUntilReady();
  const on = pool ? `, ${pool.size} devices` : '';
  print(`worker ${workerName()} taking jobs from ${QUEUE_NAME} (concurrency ${options.concurrency}${on})`);
  worker.run().catch((error: Error) => print(`worker error: ${error.message}`));
  return {
    async close() {
      await worker.close();
      await connection.quit();
      await pool?.close();
    },
  };
}
