// `npm run bench:farm`: the render farm and several-device renders on this machine.
// - Frames per minute for a sequence (default 24 frames at 640×480) rendered through a local
//   redis-server by 1, 2 and 4 `reyes farm worker` processes (from the first job's start to the
//   last one's end, so worker start-up is left out; it is printed apart).
// - Queue overhead per job: submit to start with a worker idle and waiting, and for a 2×2-tiled
//   frame, the last tile's end to its merge's start.
// - One frame on 1 and 2 devices (`--devices`), each pool warmed by a first render.
// Usage: npm run bench:farm [-- --frames 24 --res 640x480 --workers 1,2,4] (--workers none: devices only)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAME } from '../src/farm/connection.ts';
import { frameJobId, tileJobId } from '../src/farm/jobs.ts';
import { DevicePool } from '../src/reyes/devices/device-pool.ts';
import { parseRib } from '../src/rib/index.ts';
import { startRedis } from '../test/farm/redis-server.ts';

const { values: options } = parseArgs({
  options: {
    frames: { type: 'string', default: '24' },
    res: { type: 'string', default: '640x480' },
    workers: { type: 'string', default: '1,2,4' },
  },
});
const FRAMES = Number(options.frames);
const [WIDTH, HEIGHT] = options.res.split('x').map(Number) as [number, number];
const ROOT = path.resolve(import.meta.dirname, '..');
const REYES = path.join(ROOT, 'bin/reyes.js');

/** A camera turning around a ring of shaded spheres, one frame per step. */
function sequence(frames: number): string {
  let text = '';
  for (let k = 0; k < frames; k++) {
    text += `FrameBegin ${k + 1}\nFormat ${WIDTH} ${HEIGHT} 1\nPixelSamples 4 4\nDisplay "bench.${String(k + 1).padStart(4, '0')}.png" "png" "rgba"\n`;
    text += `Projection "perspective" "fov" 40\nTranslate 0 0 9\nRotate -25 1 0 0\nRotate ${(360 * k) / frames} 0 1 0\nWorldBegin\n`;
    text += 'LightSource "distantlight" 1 "from" [1 2 -1] "to" [0 0 0]\nLightSource "ambientlight" 2 "intensity" 0.15\nSurface "plastic"\n';
    for (let s = 0; s < 12; s++) {
      const a = (2 * Math.PI * s) / 12;
      text += `AttributeBegin\nTranslate ${(3 * Math.cos(a)).toFixed(3)} 0 ${(3 * Math.sin(a)).toFixed(3)}\nColor [${(0.3 + 0.05 * s).toFixed(2)} 0.5 0.7]\nSphere 0.7 -0.7 0.7 360\nAttributeEnd\n`;
    }
    text += 'Polygon "P" [-6 -0.7 -6  6 -0.7 -6  6 -0.7 6  -6 -0.7 6]\nWorldEnd\nFrameEnd\n';
  }
  return text;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REYES, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`reyes ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

async function startWorkers(count: number, url: string): Promise<{ children: ChildProcess[]; startMs: number }> {
  const started = performance.now();
  const children = await Promise.all(Array.from({ length: count }, () => new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(process.execPath, [REYES, 'farm', 'worker'], { env: { ...process.env, REDIS_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const take = (c: Buffer): void => {
      out += c.toString();
      if (out.includes('taking jobs')) resolve(child);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('exit', (code) => reject(new Error(`worker exited ${code}:\n${out}`)));
  })));
  return { children, startMs: performance.now() - started };
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  })));
}

async function finished(queue: Queue, ids: string[]): Promise<{ startedOn: number[]; finishedOn: number[]; submittedOn: number[] }> {
  for (;;) {
    const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
    const states = await Promise.all(jobs.map((j) => j?.getState()));
    if (states.some((s) => s === 'failed')) throw new Error(`a job failed: ${jobs.find((j, k) => states[k] === 'failed')?.failedReason}`);
    if (states.every((s) => s === 'completed')) {
      return { startedOn: jobs.map((j) => j!.processedOn!), finishedOn: jobs.map((j) => j!.finishedOn!), submittedOn: jobs.map((j) => j!.timestamp) };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'reyes-farm-bench-'));
const scenePath = path.join(dir, 'bench.rib');
writeFileSync(scenePath, sequence(FRAMES));
const redis = await startRedis();
const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
const queue = new Queue(QUEUE_NAME, { connection });
const env = { REDIS_URL: redis.url };
const key = (stdout: string): string => /submission (\w+)/.exec(stdout)![1]!;
console.log(`farm: ${FRAMES} frames at ${WIDTH}×${HEIGHT}, PixelSamples 4 4, 12 plastic spheres and a floor`);
try {
  for (const count of options.workers.split(',').map(Number).filter((n) => n > 0)) {
    const { children, startMs } = await startWorkers(count, redis.url);
    const submitted = await run(['farm', 'submit', scenePath, '--output-dir', path.join(dir, `out-${count}`)], env);
    const ids = Array.from({ length: FRAMES }, (_, k) => frameJobId(key(submitted), k));
    const times = await finished(queue, ids);
    const spanMs = Math.max(...times.finishedOn) - Math.min(...times.startedOn);
    console.log(`  ${count} worker(s): ${((FRAMES * 60_000) / spanMs).toFixed(1)} frames/min (${(spanMs / 1000).toFixed(1)} s for ${FRAMES}; workers started in ${(startMs / 1000).toFixed(1)} s)`);
    if (count === 1) {
      // Queue overhead with the worker idle: submit one frame and see when it starts.
      const one = await run(['farm', 'submit', scenePath, '--frames', '1', '--output-dir', path.join(dir, 'overhead')], env);
      const single = await finished(queue, [frameJobId(key(one), 0)]);
      console.log(`  queue overhead, submit to start with an idle worker: ${(single.startedOn[0]! - single.submittedOn[0]!).toFixed(0)} ms`);
      const tiled = await run(['farm', 'submit', scenePath, '--frames', '1', '--tiles', '2x2', '--output-dir', path.join(dir, 'tiled')], env);
      const tiles = await finished(queue, [0, 1, 2, 3].map((t) => tileJobId(key(tiled), 0, t)));
      const merge = await finished(queue, [frameJobId(key(tiled), 0)]);
      console.log(`  tiled frame: last tile's end to its merge's start ${(merge.startedOn[0]! - Math.max(...tiles.finishedOn)).toFixed(0)} ms, merge ${(merge.finishedOn[0]! - merge.startedOn[0]!).toFixed(0)} ms`);
    }
    await stopWorkers(children);
  }

  const scene = await parseRib(sequence(1));
  const frame = scene.frames[0]!;
  console.log(`devices: one frame at ${WIDTH}×${HEIGHT} (second render of each pool)`);
  let oneDevice = 0;
  for (const devices of [1, 2]) {
    const pool = await DevicePool.start({ devices });
    try {
      await pool.render(frame);
      const started = performance.now();
      const rendered = await pool.render(frame);
      const ms = performance.now() - started;
      if (devices === 1) oneDevice = ms;
      const per = rendered.stats.devices.map((d) => `${d.regions} regions, ${d.steals} steals, idle ${d.idleMs.toFixed(0)} ms`).join('; ');
      console.log(`  --devices ${devices}: ${ms.toFixed(0)} ms${devices > 1 ? ` (speed-up ${(oneDevice / ms).toFixed(2)}×)` : ''} [${per}]`);
    } finally {
      await pool.close();
    }
  }
} finally {
  await queue.close();
  connection.disconnect();
  await redis.stop();
}
