// The pixel filter kernel (image-filter.wgsl: blocks of pixels walking their supports together)
// against the filter's definition computed here from the same subpixels: each pixel the normalised
// sum of the RI formulas' weights (src/image/pixel-filters.ts) at the jittered sample locations
// (jitter-reference.ts) within its support, depth the nearest of its own subpixels, and the record
// the first in row order among the nearest that has one. Random colours, depths on a coarse grid
// (ties) and records with gaps, for every filter and for sample counts, widths and region sizes that
// leave partial blocks, a subpixel buffer clipped at the picture's edges and one whose subpixel count
// is not a multiple of four (depth and records are read four at a time).
import { describe, expect, it } from 'vitest';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import { PIXEL_FILTERS, pixelFilterWeight, type PixelFilterName } from '../../src/image/pixel-filters.ts';
import type { FrameGpu, Region } from '../../src/reyes/frame-gpu.ts';
import { filterRegion } from '../../src/reyes/stages/filter.ts';
import { allocateSubpixels, releaseSubpixels, type SubpixelRect } from '../../src/reyes/stages/sample.ts';
import { emptyStats } from '../../src/reyes/stats.ts';
import { randomWords, useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { sampleLocation } from './jitter-reference.ts';

const NO_RECORD = 0xffffffff;
/** The kernel's starting depth (3.0e38 as an f32), which cleared subpixels hold too. */
const CLEARED_DEPTH = Math.fround(3e38);

interface Case {
  filter: PixelFilterName;
  width: number;
  nx: number;
  ny: number;
  /** Picture size in pixels; the region filtered is `region` of it. */
  picture: [number, number];
  region: Region;
}

interface Subpixels {
  rect: SubpixelRect;
  colour: Float32Array<ArrayBuffer>;
  depth: Float32Array<ArrayBuffer>;
  record: Uint32Array<ArrayBuffer>;
}

/** Random subpixels over the region widened by the filter's reach, clipped to the picture. */
function subpixelsFor(c: Case, seed: number): Subpixels {
  const reach = Math.ceil(c.width / 2) + 1;
  const x0 = Math.max(0, c.region.x0 - reach) * c.nx;
  const y0 = Math.max(0, c.region.y0 - reach) * c.ny;
  const x1 = Math.min(c.picture[0], c.region.x1 + reach) * c.nx;
  const y1 = Math.min(c.picture[1], c.region.y1 + reach) * c.ny;
  const rect = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  const count = rect.width * rect.height;
  const words = randomWords(count * 6, seed);
  const unit = (k: number): number => words[k]! / 2 ** 32;
  return {
    rect,
    colour: Float32Array.from({ length: count * 4 }, (_, k) => unit(k) * 1.5 - 0.25),
    depth: Float32Array.from({ length: count }, (_, s) => (unit(count * 4 + s) < 0.15 ? CLEARED_DEPTH : Math.floor(unit(count * 4 + s) * 12) / 4)),
    record: Uint32Array.from({ length: count }, (_, s) => (unit(count * 5 + s) < 0.25 ? NO_RECORD : words[count * 5 + s]! >>> 8)),
  };
}

/** The filter's definition at pixel (px, py): colour, depth and record. */
function expectedPixel(c: Case, sub: Subpixels, px: number, py: number): { rgba: number[]; depth: number; record: number } {
  const { rect } = sub;
  const sum = [0, 0, 0, 0];
  let total = 0;
  let depth = CLEARED_DEPTH;
  let record = NO_RECORD;
  let nearestAt = -1;
  for (let sy = rect.y; sy < rect.y + rect.height; sy++) {
    for (let sx = rect.x; sx < rect.x + rect.width; sx++) {
      const s = (sy - rect.y) * rect.width + (sx - rect.x);
      const [x, y] = sampleLocation(sx, sy, c.nx, c.ny);
      const w = pixelFilterWeight(c.filter, x - (px + 0.5), y - (py + 0.5), c.width, c.width);
      if (w !== 0) {
        for (let k = 0; k < 4; k++) sum[k]! += w * sub.colour[s * 4 + k]!;
        total += w;
      }
      const own = Math.floor(sx / c.nx) === px && Math.floor(sy / c.ny) === py;
      if (own && sub.depth[s]! < depth) [depth, nearestAt] = [sub.depth[s]!, s];
      else if (own && sub.depth[s] === depth && nearestAt < 0) nearestAt = s;
    }
  }
  // Among the subpixels at the nearest depth, the first in row order that has a record.
  for (let sy = py * c.ny; sy < (py + 1) * c.ny && nearestAt >= 0 && record === NO_RECORD; sy++) {
    for (let sx = px * c.nx; sx < (px + 1) * c.nx && record === NO_RECORD; sx++) {
      const s = (sy - rect.y) * rect.width + (sx - rect.x);
      if (sub.depth[s] === depth) record = sub.record[s]!;
    }
  }
  return { rgba: sum.map((v) => (total !== 0 ? v / total : 0)), depth, record };
}

function testFrame(gpu: GpuRuntime, c: Case): FrameGpu {
  const code = PIXEL_FILTERS.indexOf(c.filter);
  return { gpu, nx: c.nx, ny: c.ny, filter: { code, xWidth: c.width, yWidth: c.width }, profile: false, stats: emptyStats() } as unknown as FrameGpu;
}

const CASES: Case[] = [
  ...PIXEL_FILTERS.map((filter): Case => ({ filter, width: 2, nx: 4, ny: 4, picture: [23, 14], region: { x0: 0, y0: 0, x1: 23, y1: 14 } })),
  { filter: 'gaussian', width: 2, nx: 3, ny: 3, picture: [40, 30], region: { x0: 9, y0: 5, x1: 30, y1: 30 } },
  { filter: 'sinc', width: 6, nx: 4, ny: 2, picture: [30, 20], region: { x0: 6, y0: 3, x1: 19, y1: 17 } },
  { filter: 'catmull-rom', width: 3, nx: 5, ny: 5, picture: [17, 11], region: { x0: 0, y0: 2, x1: 17, y1: 11 } },
  { filter: 'box', width: 1, nx: 1, ny: 1, picture: [33, 21], region: { x0: 4, y0: 0, x1: 33, y1: 19 } },
  { filter: 'triangle', width: 1.5, nx: 2, ny: 3, picture: [26, 19], region: { x0: 1, y0: 1, x1: 26, y1: 19 } },
];

describe('pixel filter kernel against the filter\'s definition', () => {
  const gpu = useGpuRuntime();

  CASES.forEach((c, k) => {
    const { x0, y0, x1, y1 } = c.region;
    it(`${c.filter} ${c.width} wide, ${c.nx}×${c.ny} samples, pixels ${x0}..${x1} × ${y0}..${y1} of ${c.picture.join('×')}`, async () => {
      const frame = testFrame(gpu(), c);
      const sub = subpixelsFor(c, 0x51f15e + k);
      const buffers = allocateSubpixels(frame, sub.rect);
      try {
        gpu().device.queue.writeBuffer(buffers.color, 0, sub.colour);
        gpu().device.queue.writeBuffer(buffers.depth, 0, sub.depth);
        gpu().device.queue.writeBuffer(buffers.ids, 0, sub.record);
        const out = await filterRegion(frame, { ...buffers, rect: sub.rect }, c.region, true);
        const width = x1 - x0;
        let differences = 0;
        for (let py = y0; py < y1; py++) {
          for (let px = x0; px < x1; px++) {
            const want = expectedPixel(c, sub, px, py);
            const o = (py - y0) * width + (px - x0);
            const got = Array.from(out.rgba.subarray(o * 4, o * 4 + 4));
            if (got.some((v, ch) => Math.abs(v - want.rgba[ch]!) > 2e-5) || out.depth[o] !== want.depth || out.ids![o] !== want.record) {
              if (differences++ < 3) expect({ px, py, rgba: got, depth: out.depth[o], record: out.ids![o] }).toEqual({ px, py, ...want });
            }
          }
        }
        expect(differences).toBe(0);
      } finally {
        releaseSubpixels(frame, buffers);
      }
    });
  });
});
