// Issue 19, the page's Farm panel, in headless Chromium: served by a dev server started with
// REDIS_URL naming a real redis-server (the page's own /farm/status.json, no routed answers), the
// collapsed panel opened shows the job submitted with no worker as waiting, then, once a BullMQ
// worker whose jobs all throw has taken it, the worker and the job failed with the reason; closed,
// it stops asking. Served without REDIS_URL, it says there is no farm, with no console errors (the
// page asks nothing).
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../src/farm/connection.ts';
import { NO_FARM } from '../../src/viewer/farm-panel.ts';
import { startRedis, type RedisServer } from '../farm/redis-server.ts';
import { submitWaitingJob, WAITING_FRAME, withRedisUrl } from '../farm/waiting-job.ts';
import { openViewer, type OpenViewer } from './viewer-page.ts';

const SCENE = `?scene=${encodeURIComponent('/scenes/features/sphere-default.rib')}`;

const REASON = 'shader "nowhere" not found';

interface FarmViewer extends OpenViewer {
  consoleErrors: string[];
  /** How many times the page asked for /farm/status.json. */
  farmRequests(): number;
}

/** The page served with `redisUrl` as REDIS_URL (none when undefined). */
async function openWithFarm(redisUrl: string | undefined): Promise<FarmViewer> {
  const consoleErrors: string[] = [];
  let farmRequests = 0;
  const viewer = await withRedisUrl(redisUrl, () => openViewer(SCENE, async (page) => {
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('request', (r) => {
      if (r.url().includes('/farm/')) farmRequests++;
    });
  }));
  return { ...viewer, consoleErrors, farmRequests: () => farmRequests };
}

describe('the Farm panel, in headless Chromium', () => {
  let redis: RedisServer;
  const viewers: FarmViewer[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    for (const viewer of viewers) await viewer.close();
    await redis?.stop();
  });

  it('shows the waiting job, then the worker and the failed job with its reason; closed, it stops asking', async () => {
    await submitWaitingJob(redis.url);
    const viewer = await openWithFarm(redis.url);
    viewers.push(viewer);
    const { page } = viewer;
    const panel = page.locator('#farm-panel');
    const summary = page.locator('#farm-summary');
    await summary.waitFor({ state: 'attached' });
    expect(await panel.getAttribute('open')).toBeNull();
    expect(viewer.farmRequests()).toBe(0);
    await panel.locator('summary').click();
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe('1 waiting · 0 active · 0 done · 0 failed');
    expect(await page.locator('#farm-workers').textContent()).toBe('No workers connected');
    const row = page.locator('#farm-jobs tr.farm-job');
    expect(await row.count()).toBe(1);
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['waiting.rib', String(WAITING_FRAME), 'waiting']);
    expect(cells[3]).toMatch(/^for \d+\.\d s$/);

    // Every try fails (three, a second and two apart), so the job ends failed with the reason.
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const worker = new Worker(QUEUE_NAME, async () => {
      throw new Error(REASON);
    }, { connection, name: 'panel-test' });
    try {
      await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe('0 waiting · 0 active · 0 done · 1 failed');
      expect(await page.locator('#farm-workers').textContent()).toMatch(/^Workers: panel-test \(for \d+\.\d s\)$/);
      expect(await row.locator('td').allTextContents()).toEqual(['waiting.rib', String(WAITING_FRAME), 'failed', 'after 3 attempts']);
      expect(await page.locator('#farm-jobs tr.farm-failure').textContent()).toBe(REASON);
    } finally {
      await worker.close();
      connection.disconnect();
    }

    await panel.locator('summary').click();
    const asked = viewer.farmRequests();
    await page.waitForTimeout(4000);
    expect(viewer.farmRequests()).toBe(asked);
    expect(viewer.pageErrors).toEqual([]);
    expect(viewer.consoleErrors).toEqual([]);
  });

  it('says there is no farm when the page is served without REDIS_URL', async () => {
    const viewer = await openWithFarm(undefined);
    viewers.push(viewer);
    const { page } = viewer;
    await page.locator('#farm-summary').waitFor({ state: 'attached' });
    await page.locator('#farm-panel summary').click();
    expect(await page.locator('#farm-summary').textContent()).toBe(NO_FARM);
    expect(await page.locator('#farm-summary').getAttribute('data-state')).toBe('none');
    // Nothing asked (a 404 would be a console error).
    await page.waitForTimeout(4000);
    expect(viewer.farmRequests()).toBe(0);
    expect(viewer.pageErrors).toEqual([]);
    expect(viewer.consoleErrors).toEqual([]);
  });
});
