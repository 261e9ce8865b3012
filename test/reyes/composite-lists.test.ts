// The compositing passes (reyes-composite.wgsl through stages/composite.ts encodeComposite) on sample
// points made here, against the A-buffer's definition computed on the CPU: each subpixel's points in
// (depth, sample index) order, composited front to back (C += T·Ci, A += T·mean(Oi), T ·= 1 − Oi;
// a matte hides what is behind it and adds nothing) until T is below 1e-4; depth the nearest
// composited point's, record the first composited point's. Up to 40 points a subpixel (three passes
// of 16 nearest), many at equal depths (ordered by their index), uncovered points, and points
// written in an order unrelated to their subpixels, as sampling writes them micropolygon by
// micropolygon.
import { describe, expect, it } from 'vitest';
import { SAMPLE_KEY, SAMPLE_PAYLOAD } from '../../src/layout/sample-point.ts';
import { SOLID_TABLE } from '../../src/layout/solid-table.ts';
import { encodeComposite } from '../../src/reyes/stages/composite.ts';
import { randomWords, useGpuRuntime } from '../gpu/gpu-fixture.ts';

const SUBPIXELS = 2000;
const UNCOVERED = 0xffffffff;

interface Point { subpixel: number; depth: number; colour: number[]; opacity: number[]; record: number; matte: boolean }

function points(count: number): Point[] {
  const words = randomWords(count * 8, 0xc0ffee);
  const unit = (k: number): number => words[k]! / 2 ** 32;
  return Array.from({ length: count }, (_, i) => {
    const w = (k: number) => unit(i * 8 + k);
    // A fifth of the subpixels hold most points: deep lists beside short ones and empty ones.
    const subpixel = w(0) < 0.02 ? UNCOVERED : w(1) < 0.6 ? Math.floor(w(2) * SUBPIXELS / 5) : Math.floor(w(2) * SUBPIXELS);
    return {
      subpixel,
      depth: Math.fround(1 + Math.floor(w(3) * 8) / 4),
      colour: [w(4), w(5), w(6)].map(Math.fround),
      opacity: [0.05, 0.2, 0.5, 1].map((o, c) => Math.fround(c === 3 ? o : o * (0.5 + w(7)))).slice(0, 3),
      record: i * 7 + 3,
      matte: w(7) > 0.97,
    };
  });
}

function expectedSubpixel(list: { point: Point; index: number }[]): { rgba: number[]; depth: number; record: number } {
  const depthBits = (d: number) => new Uint32Array(Float32Array.of(d).buffer)[0]!;
  const sorted = [...list].sort((a, b) => depthBits(a.point.depth) - depthBits(b.point.depth) || a.index - b.index);
  const rgba = [0, 0, 0, 0];
  const transmit = [1, 1, 1];
  let depth = Math.fround(3e38);
  let record = UNCOVERED;
  for (const { point } of sorted) {
    if (record === UNCOVERED) record = point.record;
    const oi = point.matte ? [1, 1, 1] : point.opacity.map((o) => Math.min(1, Math.max(0, o)));
    depth = Math.min(depth, point.depth);
    if (!point.matte) {
      for (let c = 0; c < 3; c++) rgba[c]! += transmit[c]! * point.colour[c]!;
      rgba[3]! += (transmit[0]! * oi[0]! + transmit[1]! * oi[1]! + transmit[2]! * oi[2]!) / 3;
    }
    for (let c = 0; c < 3; c++) transmit[c]! *= 1 - oi[c]!;
    if (Math.max(...transmit) < 1e-4) break;
  }
  return { rgba, depth, record };
}

describe('compositing sample points in per-subpixel lists', () => {
  const gpu = useGpuRuntime();

  it('composites each subpixel\'s points in depth order, ties by index, as the A-buffer defines it', async () => {
    const made = points(12_000);
    const keys = new Uint32Array(made.length * SAMPLE_KEY.words);
    const payload = new Float32Array(made.length * SAMPLE_PAYLOAD.vec4s * 4);
    made.forEach((p, i) => {
      keys[i * SAMPLE_KEY.words + SAMPLE_KEY.depth] = new Uint32Array(Float32Array.of(p.depth).buffer)[0]!;
      keys[i * SAMPLE_KEY.words + SAMPLE_KEY.subpixel] = p.subpixel;
      const tag = (p.record + 1) * (p.matte ? -1 : 1);
      payload.set([...p.colour, tag], (i * SAMPLE_PAYLOAD.vec4s + SAMPLE_PAYLOAD.color) * 4);
      payload.set([...p.opacity, 0], (i * SAMPLE_PAYLOAD.vec4s + SAMPLE_PAYLOAD.opacity) * 4);
    });
    const lists = Array.from({ length: SUBPIXELS }, () => [] as { point: Point; index: number }[]);
    made.forEach((point, index) => { if (point.subpixel !== UNCOVERED) lists[point.subpixel]!.push({ point, index }); });
    expect(Math.max(...lists.map((l) => l.length))).toBeGreaterThan(32);

    const runtime = gpu();
    const { allocator } = runtime;
    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
    const buffers = {
      keys: allocator.createBufferWithData('keys', keys, GPUBufferUsage.STORAGE),
      payload: allocator.createBufferWithData('payload', payload, GPUBufferUsage.STORAGE),
      color: allocator.createBuffer({ label: 'colour', size: SUBPIXELS * 16, usage: storage }),
      depth: allocator.createBuffer({ label: 'depth', size: SUBPIXELS * 4, usage: storage }),
      ids: allocator.createBuffer({ label: 'ids', size: SUBPIXELS * 4, usage: storage }),
    };
    try {
      const recorder = runtime.recorder('composite');
      const solids = new Uint32Array(SOLID_TABLE.leaves);
      await encodeComposite(runtime, recorder, { ...buffers, sampleCount: made.length, subpixelCount: SUBPIXELS, solids });
      await recorder.submit();
      const rgba = new Float32Array(await runtime.read(buffers.color));
      const depth = new Float32Array(await runtime.read(buffers.depth));
      const ids = new Uint32Array(await runtime.read(buffers.ids));
      let wrong = 0;
      lists.forEach((list, s) => {
        const want = expectedSubpixel(list);
        const got = { rgba: Array.from(rgba.subarray(s * 4, s * 4 + 4)), depth: depth[s]!, record: ids[s]! };
        const close = got.rgba.every((v, c) => Math.abs(v - want.rgba[c]!) < 1e-5);
        if ((!close || got.depth !== want.depth || got.record !== want.record) && wrong++ < 3) expect({ s, ...got }).toEqual({ s, ...want });
      });
      expect(wrong).toBe(0);
    } finally {
      for (const buffer of Object.values(buffers)) allocator.release(buffer);
    }
  });
});
