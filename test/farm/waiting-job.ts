// For the tests of what the page reads of the farm (src/farm/vite-farm-status.ts): a farm with one
// job waiting and no worker to take it (a one-frame scene submitted with the farm's own
// submitSequence), and a dev server started with a given REDIS_URL.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectRedis, selectFrames, submitSequence, DEFAULT_ATTEMPTS } from '../../src/farm/index.ts';
import { parseRibFile } from '../../src/node.ts';

export const WAITING_FRAME = 7;

/** Submits frame WAITING_FRAME of a new scene to the farm at `url`; the scene's path. */
export async function submitWaitingJob(url: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'reyes-farm-page-'));
  const file = path.join(dir, 'waiting.rib');
  writeFileSync(file, [`FrameBegin ${WAITING_FRAME}`, 'Format 32 24 1', 'Display "waiting.png" "png" "rgba"', 'WorldBegin', 'Sphere 1 -1 1 360', 'WorldEnd', 'FrameEnd', ''].join('\n'));
  const scene = await parseRibFile(file);
  const connection = await connectRedis(url, false);
  try {
    await submitSequence(connection, scene, {
      settings: { scene: [file], outputDir: dir, shaderPath: [] }, frames: selectFrames(scene.frames, String(WAITING_FRAME)), attempts: DEFAULT_ATTEMPTS,
    });
  } finally {
    connection.disconnect();
  }
  return file;
}

/** Runs `start` (which starts a dev server) with `url` as REDIS_URL, or none when undefined. */
export async function withRedisUrl<T>(url: string | undefined, start: () => Promise<T>): Promise<T> {
  const saved = process.env['REDIS_URL'];
  if (url === undefined) delete process.env['REDIS_URL'];
  else process.env['REDIS_URL'] = url;
  try {
    return await start();
  } finally {
    if (saved === undefined) delete process.env['REDIS_URL'];
    else process.env['REDIS_URL'] = saved;
  }
}
