// Noise built-ins by their properties (RI 3.2 section 15.1): noise and pnoise lie in [0, 1] with mean
// about 0.5 and are continuous; pnoise repeats exactly with its period and stays continuous across the
// seam; the 4-D forms vary continuously in the fourth coordinate; cellnoise is constant on each unit
// cell and differs between cells; everything is deterministic.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../../src/rsl/compile.ts';
import { useGpuRuntime } from '../../gpu/gpu-fixture.ts';
import { randomWords } from '../../gpu/gpu-fixture.ts';
import { shadeGrid } from '../grid-runner.ts';

const gpu = useGpuRuntime();
const COUNT = 64;
/** Sample points on a 1/64 lattice in [-8, 8)^3 (and t in [-4, 4)): sums with whole periods stay exact in f32. */
const words = randomWords(4 * COUNT, 0x2545f491);
const lattice = (w: number, range: number): number => ((w % (128 * range)) - 64 * range) / 64;
const POINTS = [...Array(COUNT).keys()].map((k) => [lattice(words[4 * k]!, 8), lattice(words[4 * k + 1]!, 8), lattice(words[4 * k + 2]!, 8)]);
const TIMES = [...Array(COUNT).keys()].map((k) => [lattice(words[4 * k + 3]!, 4)]);
const EPS = 1 / 1024;

async function shade(body: string, params = ''): Promise<{ Ci: number[][]; Oi: number[][] }> {
  const compiled = compilePipeline({ surface: { source: `surface noisy(${params}) {\n${body}\n}`, file: 'noise.sl' }, maxVertices: COUNT });
  const grid = await shadeGrid(gpu(), compiled, COUNT, 1, { P: POINTS, t: TIMES, s: POINTS.map((p) => [p[0]!]) });
  return { Ci: grid.Ci!, Oi: grid.Oi! };
}

const column = (rows: number[][], c: number): number[] => rows.map((r) => r[c]!);
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const spread = (xs: number[]): number => Math.max(...xs) - Math.min(...xs);

function expectNoiseRange(xs: number[]): void {
  expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...xs)).toBeLessThanOrEqual(1);
  expect(Math.abs(mean(xs) - 0.5)).toBeLessThan(0.08);
  expect(spread(xs)).toBeGreaterThan(0.2);
}

describe('noise', () => {
  it('3-D and 4-D noise: range, mean, continuity, and dependence on the fourth coordinate', async () => {
    const { Ci, Oi } = await shade(`
      Ci = color(noise(P), noise(P + vector(${EPS}, 0, 0)), noise(P, t));
      Oi = color(noise(P, t + ${EPS}), noise(P, t + 0.5), float noise(s));`);
    for (const xs of [column(Ci, 0), column(Ci, 2), column(Oi, 2)]) expectNoiseRange(xs);
    // Gradient noise has a bounded slope: a step of 1/1024 moves it by far less than 0.01.
    expect(Math.max(...Ci.map((c) => Math.abs(c[0]! - c[1]!)))).toBeLessThan(0.01);
    expect(Math.max(...Ci.map((c, k) => Math.abs(c[2]! - Oi[k]![0]!)))).toBeLessThan(0.01);
    // The fourth coordinate matters: half a cell away in t the values are different.
    expect(mean(Ci.map((c, k) => Math.abs(c[2]! - Oi[k]![1]!)))).toBeGreaterThan(0.02);
  });

  it('colour noise has three different channels, each a noise', async () => {
    const { Ci, Oi } = await shade('Ci = color noise(P); Oi = color noise(P, t);');
    for (const rows of [Ci, Oi]) {
      for (let c = 0; c < 3; c++) expectNoiseRange(column(rows, c));
      expect(mean(rows.map((r) => Math.abs(r[0]! - r[1]!)))).toBeGreaterThan(0.02);
    }
  });

  it('is deterministic: the same point gives the same value', async () => {
    const a = await shade('Ci = color(noise(P), noise(P, t), cellnoise(P)); Oi = color noise(P);');
    const b = await shade('Ci = color(noise(P), noise(P, t), cellnoise(P)); Oi = color noise(P) + 0;');
    expect(b.Ci).toEqual(a.Ci);
    expect(b.Oi).toEqual(a.Oi);
  });
});

describe('pnoise', () => {
  it('repeats exactly with whole periods, in 1, 2, 3 and 4 dimensions', async () => {
    const { Ci, Oi } = await shade(`
      Ci = color(pnoise(P, point(px, py, pz)) - pnoise(P + vector(px, -2 * py, 3 * pz), point(px, py, pz)),
                 pnoise(s, px) - pnoise(s - 3 * px, px),
                 pnoise(s, t, px, py) - pnoise(s + px, t + 2 * py, px, py));
      Oi = color(pnoise(P, t, point(px, py, pz), pt) - pnoise(P - vector(0, py, 0), t + pt, point(px, py, pz), pt),
                 pnoise(P, point(px, py, pz)), pnoise(P, t, point(px, py, pz), pt));`,
    'uniform float px = 3; uniform float py = 2; uniform float pz = 5; uniform float pt = 4');
    for (const c of [0, 1, 2]) expect(Math.max(...column(Ci, c).map(Math.abs))).toBe(0);
    expect(Math.max(...column(Oi, 0).map(Math.abs))).toBe(0);
    expectNoiseRange(column(Oi, 1));
    expectNoiseRange(column(Oi, 2));
  });

  it('is continuous across the seam of the period', async () => {
    // Just below a whole period and at 0 (the same point of the period) the values nearly agree.
    const { Ci } = await shade(`
      Ci = color(pnoise(point(3 - ${EPS}, ycomp(P), zcomp(P)), point(3, 3, 3)), pnoise(point(0, ycomp(P), zcomp(P)), point(3, 3, 3)),
                 pnoise(3 - ${EPS}, 3) - pnoise(0, 3));`);
    expect(Math.max(...Ci.map((c) => Math.abs(c[0]! - c[1]!)))).toBeLessThan(0.01);
    expect(Math.max(...Ci.map((c) => Math.abs(c[2]!)))).toBeLessThan(0.01);
    // And the seam is not a constant: the compared values vary over the samples.
    expect(spread(column(Ci, 1))).toBeGreaterThan(0.1);
  });
});

describe('cellnoise', () => {
  it('is constant on each unit cell, in [0, 1), and differs between cells', async () => {
    const { Ci, Oi } = await shade(`
      point c = point(floor(xcomp(P)), floor(ycomp(P)), floor(zcomp(P)));
      Ci = color(cellnoise(P), cellnoise(c + vector(0.25, 0.75, 0.5)), cellnoise(c + vector(1.25, 0.5, 0.5)));
      Oi = color(cellnoise(P, t), cellnoise(c + vector(0.5), floor(t) + 0.9), cellnoise(s) - cellnoise(floor(s) + 0.1));`);
    expect(Ci.map((c) => c[0])).toEqual(Ci.map((c) => c[1]));
    expect(Oi.map((c) => c[0])).toEqual(Oi.map((c) => c[1]));
    expect(Math.max(...column(Oi, 2).map(Math.abs))).toBe(0);
    for (const xs of [column(Ci, 0), column(Oi, 0)]) {
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...xs)).toBeLessThan(1);
      expect(Math.abs(mean(xs) - 0.5)).toBeLessThan(0.1);
    }
    // The neighbouring cell has another value (almost everywhere).
    expect(Ci.filter((c) => c[0] !== c[2]).length).toBeGreaterThan(COUNT - 3);
  });
});

describe('random', () => {
  it('gives a different value in [0, 1) per call and per vertex, uniformly spread', async () => {
    const { Ci } = await shade('Ci = color(random(), random(), float random());');
    const all = Ci.flat();
    expect(Math.min(...all)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...all)).toBeLessThan(1);
    expect(Math.abs(mean(all) - 0.5)).toBeLessThan(0.08);
    expect(new Set(all).size).toBeGreaterThan(all.length - 3);
  });
});
