// The dev server's /farm/status.json (src/farm/vite-farm-status.ts, registered in vite.config.ts),
// fetched from a Vite dev server made from the project's config as `npm start` makes it: a job
// submitted to a real redis-server with no worker is listed waiting; without REDIS_URL the answer
// is 404 and the page gets no meta tag; with a server that is not there, 503 with the connection's
// message; closing the dev server closes its Redis connection.
import { createServer as createNetServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FarmStatus } from '../../src/farm/status.ts';
import type { FarmPanelStatus } from '../../src/viewer/farm-panel.ts';
import { servePage } from '../browser/chromium.ts';
import { startRedis, type RedisServer } from './redis-server.ts';
import { submitWaitingJob, WAITING_FRAME, withRedisUrl } from './waiting-job.ts';

const devServer = (redisUrl: string | undefined): ReturnType<typeof servePage> => withRedisUrl(redisUrl, servePage);

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('GET /farm/status.json from the dev server', () => {
  let redis: RedisServer;
  let scene: string;

  beforeAll(async () => {
    redis = await startRedis();
    scene = await submitWaitingJob(redis.url);
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it('lists the waiting job as `reyes farm status --json` does, and closes its connection with the server', async () => {
    const { server, url } = await devServer(redis.url);
    const watcher = new Redis(redis.url);
    try {
      const response = await fetch(`${url}farm/status.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      // The panel's own type is what the farm sends (checked by tsc: FarmStatus must fit it).
      const status: FarmPanelStatus = (await response.json()) as FarmStatus;
      expect(status.counts).toEqual({ waiting: 1, active: 0, done: 0, failed: 0 });
      expect(status.workers).toEqual([]);
      expect(status.jobs).toMatchObject([{ name: 'frame', phase: 'waiting', state: 'waiting', scene: [scene], frame: WAITING_FRAME, attempts: 0 }]);
      expect(await (await fetch(url)).text()).toContain('<meta name="reyes-farm-status" content="/farm/status.json"');
      // The dev server's connection and the watcher's.
      expect(clients(await watcher.client('LIST'))).toBe(2);
      await server.close();
      expect(clients(await watcher.client('LIST'))).toBe(1);
    } finally {
      watcher.disconnect();
      await server.close();
    }
  });

  it('answers 404 without REDIS_URL, and the page has no meta tag to ask it', async () => {
    const { server, url } = await devServer(undefined);
    try {
      const response = await fetch(`${url}farm/status.json`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'no farm: set REDIS_URL' });
      expect(await (await fetch(url)).text()).not.toContain('reyes-farm-status');
    } finally {
      await server.close();
    }
  });

  it('answers 503 with the connection\'s message when Redis is not there', async () => {
    const port = await closedPort();
    const { server, url } = await devServer(`redis://127.0.0.1:${port}`);
    try {
      const response = await fetch(`${url}farm/status.json`);
      expect(response.status).toBe(503);
      const { error } = (await response.json()) as { error: string };
      expect(error).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
      expect(error).toContain('ECONNREFUSED');
    } finally {
      await server.close();
    }
  });
});

/** Connections in a CLIENT LIST reply. */
function clients(list: unknown): number {
  return String(list).trim().split('\n').length;
}
