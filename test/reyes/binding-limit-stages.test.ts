// Every buffer each stage binds must fit one storage binding: with a device that reports a tiny
// storage binding limit, bound/split works through its queue in windows and gives up on regions whose
// ready pieces would not fit, the dicing scheduler splits regions until their grids fit, and the
// picture is the one rendered without the limit. Without the windows the split queue of the first
// region alone would pass the limit (a Dawn validation error). Records past the limit:
// binding-limit-batches.test.ts.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { GpuRuntime } from '../../src/gpu/runtime.ts';
import { PIECE } from '../../src/layout/ready-piece.ts';
import { boundSplit, boundSplitCapacity, gaveUp } from '../../src/reyes/stages/bound-split.ts';
import type { Frame } from '../../src/rib/scene.ts';
import { useGpuRuntime, withBindingLimit } from '../gpu/gpu-fixture.ts';
import { boundSplitFrame } from './bound-split-frame.ts';
import { frameFromText, render } from './render-helpers.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

// Grids of 2 × 2 vertices: one micropolygon each, so a small sphere makes hundreds of pieces.
const SCENE = `Format 32 32 1
PixelSamples 2 2
ShadingRate 8
Projection "perspective" "fov" 40
Translate 0 0 3.2
WorldBegin
Color [0.9 0.5 0.2]
Sphere 1 -1 1 360
WorldEnd`;

/** The ready pieces of the whole picture, one string per piece, sorted. */
async function readyPieces(runtime: GpuRuntime, frame: Frame, maxReady?: number): Promise<string[] | undefined> {
  const gpuFrame = boundSplitFrame(runtime, frame, 4).frame;
  try {
    const ready = await boundSplit(gpuFrame, { x0: 0, y0: 0, x1: 32, y1: 32 }, maxReady);
    if (gaveUp(ready)) return undefined;
    const words = await runtime.readU32(ready.buffer, ready.count * PIECE.words);
    runtime.allocator.release(ready.buffer);
    return Array.from({ length: ready.count }, (_, k) => Array.from(words.subarray(k * PIECE.words, (k + 1) * PIECE.words)).join(' ')).sort();
  } finally {
    runtime.allocator.release(gpuFrame.prims);
    runtime.allocator.release(gpuFrame.userCorners);
  }
}

describe('storage binding limit in bound/split and dicing', () => {
  const gpu = useGpuRuntime();

  it('bound/split gives the same ready pieces working in windows of a small binding', async () => {
    const frame = await frameFromText(SCENE);
    const reference = await readyPieces(gpu(), frame);
    // 4 KiB holds 128 pieces: fewer than the sphere's ready pieces, so bound/split gives up.
    expect(reference!.length).toBeGreaterThan(128);
    expect(await readyPieces(withBindingLimit(gpu(), 4 * KiB), frame)).toBeUndefined();
    // 15 KiB: up to 480 ready pieces, queue windows of 240 pieces (narrower than the queue gets).
    expect(reference!.length).toBeLessThanOrEqual(480);
    const windowed = await readyPieces(withBindingLimit(gpu(), 15 * KiB), frame);
    expect(windowed).toEqual(reference);
    // The caller's limit on ready pieces: given up past it.
    expect(await readyPieces(gpu(), frame, reference!.length - 1)).toBeUndefined();
    expect(await readyPieces(gpu(), frame, reference!.length)).toEqual(reference);
  });

  it('sizes bound/split windows to half a binding, at binding offsets', () => {
    // 16 KiB of 32-byte pieces: 512; windows of 256 (their children take twice as much).
    expect(boundSplitCapacity(16 * KiB, 256)).toEqual({ window: 256, ready: 512, align: 8 });
    // Windows start at multiples of the offset alignment (256 bytes = 8 pieces).
    expect(boundSplitCapacity(15 * KiB, 256)).toEqual({ window: 240, ready: 480, align: 8 });
    expect(boundSplitCapacity(15 * KiB + 1000, 256)).toEqual({ window: 248, ready: 511, align: 8 });
    expect(() => boundSplitCapacity(256, 256)).toThrow(/cannot hold two bound\/split queue windows/);
  });

  it('renders the same picture with a 64 KiB binding limit', async () => {
    const frame = await frameFromText(SCENE);
    const reference = await render(gpu(), frame, { budgetBytes: 64 * MiB, maxVertices: 4 });
    // Unlimited, one dicing region holds every grid; their buffer (144 floats a grid) is far past
    // 64 KiB, so the dicing scheduler must split regions for the binding limit, with bound/split
    // giving up early on the regions that hold too many.
    expect(reference.rendered.stats.dicingRegions).toBe(1);
    expect(reference.rendered.stats.grids * 144 * 4).toBeGreaterThan(3 * 64 * KiB);
    const limited = await render(withBindingLimit(gpu(), 64 * KiB), frame, { budgetBytes: 64 * MiB, maxVertices: 4 });
    expect(limited.rendered.stats.dicingSplits).toBeGreaterThan(0);
    expect(limited.rendered.warnings).toEqual([]);
    expect(compareImages(limited.image, reference.image).max).toBeLessThanOrEqual(1);
  });
});
