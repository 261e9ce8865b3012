// The work-stealing region scheduler of several-device renders: regions dealt out in BSP order, a
// device that runs dry takes the largest unstarted region of the busiest device, splitting that
// device's last one, and every pixel is given out exactly once.
import { describe, expect, it } from 'vitest';
import { cutRegions, RegionScheduler } from '../../src/reyes/devices/region-scheduler.ts';
import type { PixelRect } from '../../src/reyes/camera.ts';

const area = (r: PixelRect): number => (r.x1 - r.x0) * (r.y1 - r.y0);

function coverOnce(picture: PixelRect, regions: PixelRect[]): boolean {
  const width = picture.x1 - picture.x0;
  const hits = new Uint8Array(width * (picture.y1 - picture.y0));
  for (const r of regions) for (let y = r.y0; y < r.y1; y++) for (let x = r.x0; x < r.x1; x++) hits[(y - picture.y0) * width + x - picture.x0]!++;
  return hits.every((n) => n === 1);
}

describe('RegionScheduler', () => {
  const picture = { x0: 10, y0: 5, x1: 650, y1: 485 };

  it('cuts the picture by BSP into regions that cover it once', () => {
    const regions = cutRegions(picture, 8, 8);
    expect(regions).toHaveLength(8);
    expect(coverOnce(picture, regions)).toBe(true);
    // Halving the longer side: 640 × 480 → 320 × 480 → 320 × 240 → 160 × 240 …
    expect(regions.map(area)).toEqual(Array(8).fill((640 * 480) / 8));
  });

  it('deals each device its own regions, then lets a dry device steal from the busiest', () => {
    const scheduler = new RegionScheduler(picture, 2, 2);
    const given: PixelRect[] = [];
    // Device 0 takes both of its regions, device 1 one of its two.
    for (const device of [0, 0, 1]) {
      const next = scheduler.next(device)!;
      expect(next.stolenFrom).toBeUndefined();
      given.push(next.region);
    }
    // Device 0 runs dry: device 1 has one unstarted region, which is split; device 0 takes half.
    const stolen = scheduler.next(0)!;
    expect(stolen.stolenFrom).toBe(1);
    expect(area(stolen.region)).toBe((640 * 480) / 8);
    given.push(stolen.region);
    // Device 1 takes the half left to it; then nothing is left for anyone.
    const last = scheduler.next(1)!;
    expect(last.stolenFrom).toBeUndefined();
    given.push(last.region);
    expect(scheduler.next(0)).toBeUndefined();
    expect(scheduler.next(1)).toBeUndefined();
    expect(coverOnce(picture, given)).toBe(true);
    expect(scheduler.devices).toEqual([
      { regions: 3, pixels: (640 * 480) * (2 / 4 + 1 / 8), steals: 1 },
      { regions: 2, pixels: (640 * 480) * (1 / 4 + 1 / 8), steals: 0 },
    ]);
  });

  it('steals the largest unstarted region when the busiest device has several', () => {
    const scheduler = new RegionScheduler({ x0: 0, y0: 0, x1: 100, y1: 64 }, 3, 3);
    // Devices 1 and 2 never ask; device 0 takes its own three, then steals from the others.
    const given = [0, 1, 2].map(() => scheduler.next(0)!);
    const theft = scheduler.next(0)!;
    expect(theft.stolenFrom).toBeDefined();
    const remaining = [];
    for (let next = scheduler.next(0); next; next = scheduler.next(0)) remaining.push(next);
    expect(coverOnce({ x0: 0, y0: 0, x1: 100, y1: 64 }, [...given, theft, ...remaining].map((g) => g.region))).toBe(true);
    expect(scheduler.devices[0]!.pixels).toBe(6400);
  });

  it('stops splitting at the smallest side', () => {
    const regions = cutRegions({ x0: 0, y0: 0, x1: 20, y1: 10 }, 64, 8);
    expect(regions.length).toBeLessThan(64);
    for (const r of regions) expect(Math.min(r.x1 - r.x0, r.y1 - r.y0)).toBeGreaterThanOrEqual(8);
    expect(coverOnce({ x0: 0, y0: 0, x1: 20, y1: 10 }, regions)).toBe(true);
  });
});
