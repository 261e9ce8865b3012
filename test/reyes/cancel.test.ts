// Cancelling a render with RenderOptions.signal, on Dawn: the render stops at the next region and
// rejects with an AbortError, every buffer it made is released (the allocator's live bytes return to
// what they were), and the next render on the same device gives the same picture as an uncancelled one.
import { describe, expect, it } from 'vitest';
import { prepareFrame, renderFrame } from '../../src/reyes/index.ts';
import type { RegionReport } from '../../src/reyes/index.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText } from './render-helpers.ts';

const SCENE = `Format 64 48 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 5
WorldBegin
  LightSource "distantlight" 1
  Color [0.9 0.4 0.2]
  Surface "plastic"
  Sphere 1.2 -1.2 1.2 360
  Translate 1 0.6 -1
  Color [0.2 0.5 0.9]
  Sphere 0.8 -0.8 0.8 360
WorldEnd
`;

interface Canceller {
  signal: AbortSignal;
  /** Regions reported before the abort, and after it. */
  before: RegionReport[];
  after: RegionReport[];
  onRegion(kind: RegionReport['kind'], rect: RegionReport['rect'], split: boolean): void;
}

/** A signal aborted when the render reports its `n`th region of kind `kind`. */
function abortAtRegion(kind: RegionReport['kind'], n: number): Canceller {
  const controller = new AbortController();
  const canceller: Canceller = {
    signal: controller.signal, before: [], after: [],
    onRegion: (k, rect, split) => {
      (controller.signal.aborted ? canceller.after : canceller.before).push({ kind: k, rect, split });
      if (canceller.before.filter((r) => r.kind === kind).length === n) controller.abort();
    },
  };
  return canceller;
}

describe('cancelling a render', () => {
  const gpu = useGpuRuntime();
  /** Bytes of the buffers in use (the pool emptied first). */
  const inUse = (): number => {
    gpu().allocator.trim();
    return gpu().allocator.live;
  };

  it('stops a bucket render at the next bucket, releases its buffers, and the next render is right', async () => {
    const frame = await frameFromText(SCENE);
    const options = { bucketSize: 16, gpuTimings: false };
    const reference = await renderFrame(gpu(), frame, options);
    const buckets = reference.regions.filter((r) => r.kind === 'bucket').length;
    expect(buckets).toBe(12);
    const live = inUse();
    const cancel = abortAtRegion('bucket', 3);
    await expect(renderFrame(gpu(), frame, { ...options, signal: cancel.signal, onRegion: cancel.onRegion })).rejects.toMatchObject({ name: 'AbortError' });
    // Aborted as bucket 3 was about to start: two buckets rendered, nothing after.
    expect(cancel.before.filter((r) => r.kind === 'sampling' && !r.split)).toHaveLength(2);
    expect(cancel.after).toEqual([]);
    expect(inUse()).toBe(live);
    const again = await renderFrame(gpu(), frame, options);
    expect(Array.from(again.image.rgba)).toEqual(Array.from(reference.image.rgba));
    expect(again.regions.filter((r) => r.kind === 'bucket')).toHaveLength(buckets);
  });

  it('stops the schedulers mid-frame under a small budget, and a signal aborted before the start renders nothing', async () => {
    const frame = await frameFromText(SCENE);
    const options = { budgetBytes: 2 * 1024 * 1024, gpuTimings: false };
    const reference = await renderFrame(gpu(), frame, options);
    const finished = reference.regions.filter((r) => !r.split).length;
    expect(finished).toBeGreaterThan(4);
    const live = inUse();
    const budget = gpu().allocator.budget;
    const cancel = abortAtRegion('sampling', 2);
    await expect(renderFrame(gpu(), frame, { ...options, signal: cancel.signal, onRegion: cancel.onRegion })).rejects.toMatchObject({ name: 'AbortError' });
    // After the abort no region is sampled or cut: at most the running dicing regions report their end.
    expect(cancel.after.every((r) => r.kind === 'dicing' && !r.split)).toBe(true);
    expect(cancel.before.length + cancel.after.length).toBeLessThan(reference.regions.length);
    expect(inUse()).toBe(live);
    expect(gpu().allocator.budget).toBe(budget);
    const before = AbortSignal.abort();
    let regions = 0;
    await expect(renderFrame(gpu(), frame, { ...options, signal: before, onRegion: () => regions++ })).rejects.toMatchObject({ name: 'AbortError' });
    expect(regions).toBe(0);
    const again = await renderFrame(gpu(), frame, options);
    expect(Array.from(again.image.rgba)).toEqual(Array.from(reference.image.rgba));
  });

  it('cancels a prepared frame\'s re-render; the next re-render renders the edit right and dispose releases everything', async () => {
    const frame = await frameFromText(SCENE);
    const live = inUse();
    const options = { bucketSize: 16, gpuTimings: false };
    const prepared = await prepareFrame(gpu(), frame, options);
    expect(prepared.retained).toBe(true);
    const dimmer = { ...frame, lights: frame.lights.map((l) => ({ ...l, params: [{ name: 'intensity', storage: 'uniform', type: 'float', arrayLength: null, values: [0.25], inferred: false }] })) } as typeof frame;
    const expected = await renderFrame(gpu(), dimmer, options);
    const cancel = abortAtRegion('sampling', 1);
    await expect(prepared.render(dimmer, { signal: cancel.signal, onRegion: cancel.onRegion })).rejects.toMatchObject({ name: 'AbortError' });
    const after = await prepared.render(dimmer);
    expect(Array.from(after.image.rgba)).toEqual(Array.from(expected.image.rgba));
    prepared.dispose();
    expect(inUse()).toBe(live);
  });
});
