// The render farm as a user runs it: `reyes farm submit` into a real redis-server, two
// `reyes farm worker` processes, `reyes farm status`. Frames and 2×2-tiled frames come out as the
// same files `reyes render` writes; a shader that cannot be found fails its frame's job (after its
// retries) with the message while the other frames render; resubmitting skips what is done; a
// worker killed with SIGKILL in the middle of a job has the job taken over by the other.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../src/farm/connection.ts';
import { frameJobId } from '../../src/farm/jobs.ts';
import type { FarmStatus } from '../../src/farm/status.ts';
import { reyes } from '../cli/run-reyes.ts';
import { startRedis, type RedisServer } from './redis-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A sphere per frame, moving across, at `size`, under a light with a specular highlight. */
function sequence(name: string, frames: number, size: [number, number], samples: number, surface: (frame: number) => string): string {
  return Array.from({ length: frames }, (_, k) => [
    `FrameBegin ${k + 1}`, `Format ${size[0]} ${size[1]} 1`, `PixelSamples ${samples} ${samples}`, 'PixelFilter "gaussian" 2 2',
    `Display "${name}.${k + 1}.png" "png" "rgba"`, 'Projection "perspective" "fov" 40', `Translate ${0.4 * k - 0.4} 0 5`, 'WorldBegin',
    'LightSource "distantlight" 1 "from" [1 1 -1] "to" [0 0 0]', 'LightSource "ambientlight" 2 "intensity" 0.2',
    surface(k + 1), `Color [1 ${0.3 * k} 0.2]`, 'Sphere 1 -1 1 360', 'WorldEnd', 'FrameEnd', '',
  ].join('\n')).join('');
}

/** One frame whose wide Catmull-Rom filter reaches across tile edges, with a depth map beside the picture. */
const TILED = [
  'Format 40 30 1', 'PixelSamples 3 3', 'PixelFilter "catmull-rom" 3 3', 'Display "tiled.png" "png" "rgba"', 'Display "+tiled.z" "zfile" "z"',
  'Projection "perspective" "fov" 45', 'WorldBegin', 'LightSource "distantlight" 1', 'Surface "plastic"',
  'AttributeBegin', 'Translate -0.7 0.2 4', 'Color [0.9 0.6 0.1]', 'Sphere 1 -1 1 360', 'AttributeEnd',
  'AttributeBegin', 'Translate 0.9 -0.3 6', 'Color [0.2 0.5 0.9]', 'Sphere 1.5 -1.5 1.5 360', 'AttributeEnd', 'WorldEnd', '',
].join('\n');

interface WorkerProcess {
  child: ChildProcess;
  /** As `reyes farm status` and BullMQ's processedBy name it. */
  name: string;
  output: string;
}

function startWorker(url: string): Promise<WorkerProcess> {
  // Short lock and stalled-check times, so a killed worker's job is retried within seconds. The lock
  // must outlast the longest stretch a busy machine keeps a worker's event loop from renewing it
  // (pipeline creation blocks it): with 2 s, a loaded machine saw a live worker's job count as stalled.
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/reyes.js'), 'farm', 'worker', '--stalled-interval', '1000', '--lock-duration', '10000'], {
    cwd: ROOT, env: { ...process.env, REDIS_URL: url }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: WorkerProcess = { child, name: `${hostname()}:${child.pid}`, output: '' };
  return new Promise((resolve, reject) => {
    const take = (chunk: Buffer): void => {
      worker.output += chunk.toString();
      if (worker.output.includes('taking jobs')) resolve(worker);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code) => reject(new Error(`reyes farm worker exited with ${code}:\n${worker.output}`)));
  });
}

/** Waits until every job is completed or failed; their states. */
async function settle(queue: Queue, ids: string[], timeoutMs = 240_000): Promise<Record<string, string>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const states = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await queue.getJob(id))?.getState() ?? 'missing'] as const)));
    const resolved = Object.fromEntries(await Promise.all(Object.entries(states).map(async ([id, s]) => [id, await s] as const)));
    if (Object.values(resolved).every((s) => s === 'completed' || s === 'failed')) {
      // A job failed that should not have: its reason in the test's output.
      for (const [id, s] of Object.entries(resolved)) if (s === 'failed') console.log(`${id} failed: ${(await queue.getJob(id))?.failedReason}`);
      return resolved;
    }
    if (Date.now() > until) throw new Error(`jobs not finished after ${timeoutMs / 1000} s: ${JSON.stringify(resolved)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The submission key `reyes farm submit` prints. */
function submissionOf(stdout: string): string {
  const key = /submission (\w+)/.exec(stdout)?.[1];
  expect(key, stdout).toBeDefined();
  return key!;
}

describe('reyes farm', () => {
  let redis: RedisServer;
  let connection: Redis;
  let queue: Queue;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const workers: WorkerProcess[] = [];
  let reference: Promise<Awaited<ReturnType<typeof reyes>>>;

  beforeAll(async () => {
    redis = await startRedis();
    env = { REDIS_URL: redis.url };
    connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE_NAME, { connection });
    dir = mkdtempSync(path.join(tmpdir(), 'reyes-farm-'));
    writeFileSync(path.join(dir, 'seq.rib'), sequence('seq', 3, [32, 24], 2, () => 'Surface "plastic"'));
    writeFileSync(path.join(dir, 'tiled.rib'), TILED);
    writeFileSync(path.join(dir, 'bad.rib'), sequence('bad', 3, [24, 18], 1, (n) => (n === 2 ? 'Surface "nosuchshader"' : 'Surface "matte"')));
    writeFileSync(path.join(dir, 'heavy.rib'), sequence('heavy', 3, [256, 192], 6, () => 'Surface "shinymetal"'));
    // The pictures `reyes render` makes of the same frames, rendered while the workers start.
    reference = reyes(['render', 'seq.rib', 'tiled.rib', 'heavy.rib', '--output-dir', path.join(dir, 'ref'), '-q'].map((a) => (a.endsWith('.rib') ? path.join(dir, a) : a)));
    workers.push(...(await Promise.all([startWorker(redis.url), startWorker(redis.url)])));
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
      if (w.child.exitCode !== null || w.child.signalCode !== null) return resolve();
      w.child.once('exit', () => resolve());
      w.child.kill('SIGTERM');
    })));
    await queue?.close();
    connection?.disconnect();
    await redis?.stop();
  });

  const out = (name: string): string => path.join(dir, 'out', name);
  const ref = (name: string): string => path.join(dir, 'ref', name);

  it('renders a sequence one job per frame, a frame in 2×2 tiles, and fails only the frame whose shader is missing', async () => {
    const submit = (scene: string, ...args: string[]) => reyes(['farm', 'submit', path.join(dir, scene), '--output-dir', path.join(dir, 'out'), ...args], env);
    const [seq, tiled, bad] = await Promise.all([submit('seq.rib'), submit('tiled.rib', '--tiles', '2x2'), submit('bad.rib')]);
    for (const s of [seq, tiled, bad]) expect(s.code, s.stderr).toBe(0);
    expect(seq.stdout).toContain('3 frame(s) queued');
    expect(tiled.stdout).toContain('1 frame(s) queued (2×2 tiles each)');
    const seqIds = [0, 1, 2].map((k) => frameJobId(submissionOf(seq.stdout), k));
    const badIds = [0, 1, 2].map((k) => frameJobId(submissionOf(bad.stdout), k));
    const tiledId = frameJobId(submissionOf(tiled.stdout), 0);
    const states = await settle(queue, [...seqIds, tiledId, ...badIds]);
    expect(states).toEqual({
      ...Object.fromEntries(seqIds.map((id) => [id, 'completed'])), [tiledId]: 'completed',
      [badIds[0]!]: 'completed', [badIds[1]!]: 'failed', [badIds[2]!]: 'completed',
    });

    const rendered = await reference;
    expect(rendered.code, rendered.stderr).toBe(0);
    for (const file of ['seq.1.png', 'seq.2.png', 'seq.3.png', 'tiled.png', 'tiled.z']) {
      expect(readFileSync(out(file)).equals(readFileSync(ref(file))), `${file} differs from reyes render's`).toBe(true);
    }
    // The merge job put the four tiles together and removed them; both workers took jobs.
    expect(existsSync(path.join(dir, 'out', '.reyes-farm-tiles', `${tiledId}-t0.tile`))).toBe(false);
    const merged = (await queue.getJob(tiledId))!;
    expect(Object.keys(await merged.getChildrenValues())).toHaveLength(4);
    // Every job of the three submissions (frames, tiles, merge), not only the frames: which
    // worker takes which is up to the queue, and a busy machine may give one worker all frames.
    const ranOn = new Set((await queue.getJobs(['completed', 'failed'])).map((job) => job.processedBy));
    expect(ranOn.size).toBe(2);

    // The missing shader: three attempts, then failed with the message at its request.
    const failed = (await queue.getJob(badIds[1]!))!;
    expect(failed.attemptsMade).toBe(3);
    const line = readFileSync(path.join(dir, 'bad.rib'), 'utf8').split('\n').indexOf('Surface "nosuchshader"') + 1;
    expect(failed.failedReason).toContain('frame 2 not rendered: a farm renders no frame without the shaders its scene names\n');
    expect(failed.failedReason).toContain(`${path.join(dir, 'bad.rib')}:${line}:1: warning: surface shader "nosuchshader" not found`);
    expect(existsSync(out('bad.1.png')) && existsSync(out('bad.3.png'))).toBe(true);
    expect(existsSync(out('bad.2.png'))).toBe(false);

    const status = await reyes(['farm', 'status'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('0 waiting, 0 active, 10 done, 1 failed');
    expect(status.stdout).toContain('2 workers connected');
    for (const w of workers) expect(status.stdout).toContain(w.name);
    expect(status.stdout).toMatch(/frame 2 of bad\.rib: failed after 3 attempt\(s\): .*\n.*surface shader "nosuchshader" not found/);
    expect(status.stdout).toMatch(/tile 3 of frame 1 of tiled\.rib: waited [\d.]+ s, took [\d.]+ s on /);
    const json = JSON.parse((await reyes(['farm', 'status', '--json'], env)).stdout) as FarmStatus;
    expect(json.counts).toEqual({ waiting: 0, active: 0, done: 10, failed: 1 });
    const failedJob = json.jobs.find((j) => j.phase === 'failed')!;
    expect(failedJob).toMatchObject({ id: badIds[1], frame: 2, attempts: 3 });
    // Each attempt logged the warning before failing.
    expect(failedJob.log!.filter((l) => l.includes('surface shader "nosuchshader" not found'))).toHaveLength(3);
    expect(json.jobs.find((j) => j.id === seqIds[0])!.files).toEqual([`wrote ${out('seq.1.png')} (8-bit RGBA PNG)`]);

    // Submitted again, the sequence is done; the failed frame is queued again.
    const again = await submit('seq.rib');
    expect(again.stdout).toContain('0 frame(s) queued');
    expect(again.stdout).toContain('done already, skipped: 1, 2, 3');
    const retry = await submit('bad.rib', '--frames', '1-2');
    expect(retry.stdout).toContain('done already, skipped: 1');
    expect(retry.stdout).toContain('failed before, queued again: 2');
  });

  it('finishes the sequence when a worker is killed in the middle of a job', async () => {
    const submitted = await reyes(['farm', 'submit', path.join(dir, 'heavy.rib'), '--output-dir', path.join(dir, 'out')], env);
    expect(submitted.code, submitted.stderr).toBe(0);
    const ids = [0, 1, 2].map((k) => frameJobId(submissionOf(submitted.stdout), k));
    // The first job a worker starts on: kill that worker.
    let victim: { id: string; worker: WorkerProcess } | undefined;
    while (!victim) {
      for (const id of ids) {
        const job = await queue.getJob(id);
        const worker = workers.find((w) => w.name === job?.processedBy);
        if (job && worker && (await job.getState()) === 'active') victim = { id, worker };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    victim.worker.child.kill('SIGKILL');
    const killedAt = Date.now();
    const survivor = workers.find((w) => w !== victim!.worker)!;
    expect(await settle(queue, ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'completed'])));
    const retried = (await queue.getJob(victim.id))!;
    expect(retried.processedBy).toBe(survivor.name);
    expect(retried.finishedOn!).toBeGreaterThan(killedAt);
    for (const file of ['heavy.1.png', 'heavy.2.png', 'heavy.3.png']) {
      expect(readFileSync(out(file)).equals(readFileSync(ref(file))), `${file} differs from reyes render's`).toBe(true);
    }
  });
});
