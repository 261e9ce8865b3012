// `reyes farm submit`: one job per frame, or per crop tile of a frame with a merge job waiting for
// its tiles (a BullMQ flow: the merge runs when the last tile has finished, and fails when a tile
// does). Jobs are named by the submission's key (jobs.ts), so submitting the same scene again adds
// only what is not done: frames done are skipped, frames waiting or rendering are left alone, and
// failed ones are removed and queued again.
import { readFile } from 'node:fs/promises';
import { FlowProducer, Queue, type FlowJob, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Scene } from '../rib/scene.ts';
import { QUEUE_NAME } from './connection.ts';
import { frameJobId, JOB_NAMES, submissionKey, tileJobId, type FrameJobData, type MergeJobData, type RenderSettings, type TileJobData } from './jobs.ts';
import { frameNumberOf } from './frame-list.ts';
import { frameTiles } from './tiles.ts';
import { tileFilePath } from './tile-file.ts';

export interface SubmitOptions {
  settings: RenderSettings;
  /** Indices of the scene's frames to render. */
  frames: number[];
  /** --tiles C×R. */
  tiles?: [number, number];
  /** BullMQ priority: 1 is taken first, larger numbers later. */
  priority?: number;
  /** Tries per job before it is marked failed. */
  attempts: number;
}

export interface SubmitSummary {
  key: string;
  queued: number[];
  /** Frames whose job had failed, queued again. */
  requeued: number[];
  done: number[];
  /** Frames already waiting or rendering. */
  pending: number[];
}

/** Tries per job, and the wait before the second (doubled each time). */
export const DEFAULT_ATTEMPTS = 3;
const BACKOFF_MS = 1000;

export async function submitSequence(connection: Redis, scene: Scene, options: SubmitOptions): Promise<SubmitSummary> {
  const { settings } = options;
  const texts = await Promise.all(settings.scene.map((file) => readFile(file)));
  const tiling = options.tiles ? options.tiles.join('x') : undefined;
  const key = submissionKey(settings, texts, tiling);
  const summary: SubmitSummary = { key, queued: [], requeued: [], done: [], pending: [] };
  const jobOptions: JobsOptions = {
    attempts: options.attempts, backoff: { type: 'exponential', delay: BACKOFF_MS },
    ...(options.priority ? { priority: options.priority } : {}),
  };
  const queue = new Queue(QUEUE_NAME, { connection });
  const flows = new FlowProducer({ connection });
  try {
    for (const frameIndex of options.frames) {
      const frameNumber = frameNumberOf(scene.frames[frameIndex]!, frameIndex);
      const id = frameJobId(key, frameIndex);
      const existing = await queue.getJob(id);
      const state = existing ? await existing.getState() : undefined;
      if (state === 'completed') {
        summary.done.push(frameNumber);
        continue;
      }
      if (state === 'failed') {
        await queue.remove(id, { removeChildren: true });
        summary.requeued.push(frameNumber);
      } else if (state !== undefined && state !== 'unknown') {
        summary.pending.push(frameNumber);
        continue;
      } else summary.queued.push(frameNumber);
      const data: FrameJobData = { settings, frameIndex, frameNumber };
      if (!options.tiles) {
        await queue.add(JOB_NAMES.frame, data, { ...jobOptions, jobId: id });
        continue;
      }
      const [columns, rows] = options.tiles;
      const tiles = frameTiles(scene.frames[frameIndex]!.options, settings.resolution, columns, rows).map((tile) => {
        const tileId = tileJobId(key, frameIndex, tile.index);
        return { tile, tileFile: tileFilePath(settings.outputDir, tileId), id: tileId };
      });
      const merge: MergeJobData = { ...data, tiles: tiles.map(({ tile, tileFile }) => ({ tile, tileFile })) };
      const flow: FlowJob = {
        name: JOB_NAMES.merge, queueName: QUEUE_NAME, data: merge, opts: { ...jobOptions, jobId: id },
        children: tiles.map(({ tile, tileFile, id: tileId }): FlowJob => ({
          name: JOB_NAMES.tile, queueName: QUEUE_NAME, data: { ...data, tile, tileFile } satisfies TileJobData,
          opts: { ...jobOptions, jobId: tileId, failParentOnFailure: true },
        })),
      };
      await flows.add(flow);
    }
  } finally {
    await flows.close();
    await queue.close();
  }
  return summary;
}
