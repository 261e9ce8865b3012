// `reyes farm status`: what the queue holds (jobs waiting, active, done and failed, with their
// times and where they ran) and the workers connected to it now, read from Redis as data (for
// --json and the page) and as text.
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import path from 'node:path';
import { QUEUE_NAME } from './connection.ts';
import { JOB_NAMES, type FrameJobData, type JobResult, type TileJobData } from './jobs.ts';

export type JobPhase = 'waiting' | 'active' | 'done' | 'failed';

export interface JobStatus {
  id: string;
  name: string;
  phase: JobPhase;
  /** BullMQ's own state (waiting, prioritized, delayed, waiting-children, active, completed, failed). */
  state: string;
  /** The RIB files. */
  scene: string[];
  frame: number;
  tile?: number;
  /** Percent, while active. */
  progress: number;
  attempts: number;
  worker?: string;
  submittedAt: number;
  startedAt?: number;
  finishedAt?: number;
  files?: string[];
  failedReason?: string;
  /** A failed job's log (warnings and files of its last attempts). */
  log?: string[];
}

export interface WorkerStatus {
  name: string;
  address: string;
  /** Seconds connected. */
  ageSeconds: number;
}

export interface FarmStatus {
  counts: Record<JobPhase, number>;
  jobs: JobStatus[];
  workers: WorkerStatus[];
}

const STATES: Record<string, JobPhase> = {
  waiting: 'waiting', prioritized: 'waiting', delayed: 'waiting', 'waiting-children': 'waiting', paused: 'waiting',
  active: 'active', completed: 'done', failed: 'failed',
};

export async function farmStatus(connection: Redis): Promise<FarmStatus> {
  const queue = new Queue(QUEUE_NAME, { connection });
  try {
    const jobs: JobStatus[] = [];
    for (const state of Object.keys(STATES)) {
      for (const job of await queue.getJobs([state as 'waiting'], 0, -1, true)) {
        if (!job) continue;
        const status = jobStatus(job, state);
        if (status.phase === 'failed') status.log = (await queue.getJobLogs(status.id)).logs;
        jobs.push(status);
      }
    }
    jobs.sort((a, b) => a.submittedAt - b.submittedAt || a.frame - b.frame || (a.tile ?? -1) - (b.tile ?? -1));
    const counts: Record<JobPhase, number> = { waiting: 0, active: 0, done: 0, failed: 0 };
    for (const job of jobs) counts[job.phase]++;
    const workers = new Map<string, WorkerStatus>();
    for (const client of await queue.getWorkers()) {
      const raw = String(client['rawname'] ?? client['name'] ?? '');
      const name = raw.includes(':w:') ? raw.slice(raw.indexOf(':w:') + 3) : raw;
      if (!workers.has(name)) workers.set(name, { name, address: String(client['addr'] ?? ''), ageSeconds: Number(client['age'] ?? 0) });
    }
    return { counts, jobs, workers: [...workers.values()] };
  } finally {
    await queue.close();
  }
}

function jobStatus(job: Job, state: string): JobStatus {
  const data = job.data as FrameJobData;
  const result = job.returnvalue as JobResult | null | undefined;
  return {
    id: job.id ?? '',
    name: job.name,
    phase: STATES[state]!,
    state,
    scene: data.settings.scene,
    frame: data.frameNumber,
    ...(job.name === JOB_NAMES.tile ? { tile: (data as TileJobData).tile.index } : {}),
    progress: typeof job.progress === 'number' ? job.progress : 0,
    attempts: job.attemptsMade,
    ...(job.processedBy ? { worker: job.processedBy } : {}),
    submittedAt: job.timestamp,
    ...(job.processedOn ? { startedAt: job.processedOn } : {}),
    ...(job.finishedOn ? { finishedAt: job.finishedOn } : {}),
    ...(result?.files ? { files: result.files } : {}),
    ...(job.failedReason ? { failedReason: job.failedReason } : {}),
  };
}

/** Jobs listed per phase before the rest are counted only. */
const LISTED = 20;

export function formatStatus(status: FarmStatus, redisUrl: string, now = Date.now()): string {
  const { counts, jobs, workers } = status;
  const lines = [`queue ${QUEUE_NAME} at ${redisUrl}: ${counts.waiting} waiting, ${counts.active} active, ${counts.done} done, ${counts.failed} failed`];
  lines.push(workers.length === 0 ? 'no workers connected' : `${workers.length} worker${workers.length === 1 ? '' : 's'} connected:`);
  for (const w of workers) lines.push(`  ${w.name} (${w.address}, for ${duration(w.ageSeconds * 1000)})`);
  const seconds = (ms: number): string => duration(Math.max(0, ms));
  const describe: Record<JobPhase, (job: JobStatus) => string> = {
    waiting: (job) => `${job.state === 'waiting-children' ? 'waiting for its tiles' : job.state === 'delayed' ? `retrying after ${job.attempts} failed attempt(s)` : 'waiting'} for ${seconds(now - job.submittedAt)}`,
    active: (job) => `${job.progress}% on ${job.worker ?? '?'}, started ${seconds(now - (job.startedAt ?? now))} ago (attempt ${job.attempts + 1})`,
    done: (job) => `waited ${seconds((job.startedAt ?? job.submittedAt) - job.submittedAt)}, took ${seconds((job.finishedAt ?? 0) - (job.startedAt ?? 0))} on ${job.worker ?? '?'}`,
    failed: (job) => `failed after ${job.attempts} attempt(s): ${(job.failedReason ?? '').split('\n').join('\n      ')}`,
  };
  for (const phase of ['active', 'waiting', 'done', 'failed'] as const) {
    const listed = jobs.filter((j) => j.phase === phase);
    if (listed.length === 0) continue;
    lines.push(`${phase}:`);
    for (const job of listed.slice(0, LISTED)) {
      const what = job.name === JOB_NAMES.merge ? 'merge of frame' : job.name === JOB_NAMES.tile ? `tile ${job.tile} of frame` : 'frame';
      lines.push(`  ${what} ${job.frame} of ${job.scene.map((f) => path.basename(f)).join(' ')}: ${describe[phase](job)}`);
    }
    if (listed.length > LISTED) lines.push(`  … and ${listed.length - LISTED} more`);
  }
  return lines.join('\n');
}

/** 950 → "0.95 s", 125000 → "2 min 5 s". */
function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  return s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
