// Vertex-class primitive variables on bicubic patches follow the patch basis like P (RenderMan's
// "vertex" class), read back from the diced grids: a variable that is a linear function of the control
// points' coordinates must be the same linear function of the diced P at every grid vertex. Varying
// variables stay bilinear over the corners. Non-uniform control points make the two interpolations
// differ, so a corner-bilinear dicer fails these checks. Also: "float[2] st" read two numbers a vertex.
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame } from '../../src/reyes/convert/convert-frame.ts';
import type { FrameGpu } from '../../src/reyes/frame-gpu.ts';
import { userPrimitiveVariables } from '../../src/reyes/primvars.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { dice } from '../../src/reyes/stages/dice.ts';
import type { FrameStats } from '../../src/reyes/stats.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import type { Frame } from '../../src/rib/scene.ts';
import { storageUsage, useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText } from './render-helpers.ts';

const N = 9;

/** A 4×4 (or nu × nv) grid of irregular control points in the z = 0.3 x plane-ish. */
function controlPoints(nu: number, nv: number): number[][] {
  const xs = [-1.2, -0.3, 0.1, 1.4, 1.9, 2.2, 3.0];
  const ys = [-1.0, -0.6, 0.5, 1.3, 1.7, 2.6, 3.1];
  const points: number[][] = [];
  for (let j = 0; j < nv; j++) {
    for (let i = 0; i < nu; i++) points.push([xs[i]! + 0.17 * j * j, ys[j]! - 0.11 * i * i, 0.4 * Math.sin(i + 2 * j)]);
  }
  return points;
}

/**
 * Vertex variables that are linear functions of the control points, and a varying one. `c` is the
 * constant term of foo and N.z: a basis whose weights do not sum to one (Hermite's tangents, the
 * power basis' coefficients) reproduces linear functions only without it.
 */
function primvars(points: number[][], varyingCount: number, c: number): string {
  const f = (p: number[]): number => 2 * p[0]! + c;
  const list = (g: (p: number[]) => number[]): string => `[${points.flatMap(g).join(' ')}]`;
  return [
    `"P" ${list((p) => p)}`,
    `"vertex float foo" ${list((p) => [f(p)])}`,
    `"vertex color Cs" ${list((p) => [p[0]!, p[1]!, p[0]! - p[1]!])}`,
    `"vertex normal N" ${list((p) => [p[1]!, p[0]!, c])}`,
    `"vertex float[2] st" ${list((p) => [p[1]!, 3 * p[0]!])}`,
    `"vertex point Pref" ${list((p) => p)}`,
    `"varying float bar" [${Array.from({ length: varyingCount }, (_, k) => k + 1).join(' ')}]`,
  ].join(' ');
}

const camera = `Format 64 64 1
Projection "perspective" "fov" [60]
Translate 0.3 -0.2 8
Rotate 20 0 1 0
WorldBegin
Surface "constant"
`;

async function diceAll(gpu: ReturnType<ReturnType<typeof useGpuRuntime>>, frame: Frame): Promise<{ grid: Float32Array; bases: Uint32Array; offset: (name: string) => number; count: number }> {
  const warnings: string[] = [];
  const warn = (m: string): void => { warnings.push(m); };
  const layout = gridLayout(256, userPrimitiveVariables(frame.primitives, warn));
  const cam = frameCamera(frame);
  const spaces = kernelSpaces(cam);
  const converted = convertFrame(frame, cam, spaces, layout, builtinShadingProvider, warn);
  expect(warnings).toEqual([]);
  const usage = storageUsage();
  const prims = gpu.allocator.createBufferWithData('prims', converted.records.floats(), usage);
  const userCorners = gpu.allocator.createBufferWithData('aux', converted.records.userFloatsData(), usage);
  const count = converted.records.count;
  const pieces = new Uint32Array(count * 8);
  const f = new Float32Array(pieces.buffer);
  for (let p = 0; p < count; p++) {
    pieces[p * 8] = p;
    f[p * 8 + 2] = 0; f[p * 8 + 3] = 1; f[p * 8 + 4] = 0; f[p * 8 + 5] = 1;
    pieces[p * 8 + 6] = N; pieces[p * 8 + 7] = N;
  }
  const ready = gpu.allocator.createBufferWithData('ready', pieces, usage);
  const stageMs = { convert: 0, boundSplit: 0, dice: 0, shade: 0, sample: 0, composite: 0, filter: 0 };
  const frameGpu = { gpu, camera: cam, spaces, layout, prims, userCorners, primCount: count, shapeKinds: converted.records.kinds, pipelines: [], stats: { stageMs } as unknown as FrameStats, profile: false } as unknown as FrameGpu;
  const diced = await dice(frameGpu, { buffer: ready, count });
  const grid = new Float32Array(await gpu.read(diced.grids));
  for (const b of [prims, userCorners, ready, diced.grids, diced.gridInfo]) gpu.allocator.release(b);
  return {
    grid, count, bases: diced.bases,
    offset: (name) => layout.variables.find((v) => v.name === name)!.offset,
  };
}

describe('vertex primitive variables on bicubic patches', () => {
  const gpu = useGpuRuntime();

  /** Checks every vertex of `grids` against the linear functions of P the primitive variables are. */
  function check(d: Awaited<ReturnType<typeof diceAll>>, grids: number[], fromCamera: (p: number[]) => number[], c0: number): void {
    const at = (g: number, name: string, c: number, k: number): number => d.grid[d.bases[g]! + d.offset(name) + c * 256 + k]!;
    let worst = 0;
    for (const g of grids) {
      for (let k = 0; k < N * N; k++) {
        const P = [0, 1, 2].map((c) => at(g, 'P', c, k));
        const o = fromCamera(P); // object-space position
        const expected: [string, number, number][] = [
          ['foo', 0, 2 * o[0]! + c0],
          ['Cs', 0, o[0]!], ['Cs', 1, o[1]!], ['Cs', 2, o[0]! - o[1]!],
          ['N', 0, o[1]!], ['N', 1, o[0]!], ['N', 2, c0],
          ['s', 0, o[1]!], ['t', 0, 3 * o[0]!],
          ['Pref', 0, P[0]!], ['Pref', 1, P[1]!], ['Pref', 2, P[2]!],
        ];
        for (const [name, c, want] of expected) {
          let value = at(g, name, c, k);
          if (name === 'N') value = rotation([0, 1, 2].map((i) => at(g, 'N', i, k)))[c]!;
          const error = Math.abs(value - want);
          worst = Math.max(worst, error);
          expect(error, `grid ${g} vertex ${k} ${name}[${c}] = ${value}, expected ${want}`).toBeLessThan(1e-4);
        }
      }
    }
    expect(worst).toBeLessThan(1e-4);
  }

  /** Camera-space normals back to object space (camera = R · object + T, rigid: normals rotate). */
  let rotation: (v: number[]) => number[] = (v) => v;

  /** Camera-space points back to object space (object = world in these scenes). */
  function fromCamera(frame: Frame): (p: number[]) => number[] {
    const m = Array.from(kernelSpaces(frameCamera(frame)).world as ArrayLike<number>); // world → camera, column-major
    // Rigid: the inverse rotation is the transpose.
    rotation = (v) => [0, 1, 2].map((c) => m[c * 4]! * v[0]! + m[c * 4 + 1]! * v[1]! + m[c * 4 + 2]! * v[2]!);
    return (p) => rotation([p[0]! - m[12]!, p[1]! - m[13]!, p[2]! - m[14]!]);
  }

  for (const basis of ['b-spline', 'catmull-rom', 'hermite', 'power']) {
    it(`Patch "bicubic" with Basis "${basis}": vertex variables follow the basis like P`, async () => {
      const step = basis === 'hermite' ? 2 : basis === 'power' ? 4 : 1;
      const c0 = basis === 'hermite' || basis === 'power' ? 0 : 0.5;
      const frame = await frameFromText(`${camera}Basis "${basis}" ${step} "${basis}" ${step}
Patch "bicubic" ${primvars(controlPoints(4, 4), 4, c0)}
WorldEnd`);
      const d = await diceAll(gpu(), frame);
      check(d, [0], fromCamera(frame), c0);
      // The varying variable stays bilinear over the four corners (1, 2, 3, 4).
      for (let k = 0; k < N * N; k++) {
        const u = (k % N) / (N - 1);
        const v = Math.floor(k / N) / (N - 1);
        const want = (1 - v) * ((1 - u) * 1 + u * 2) + v * ((1 - u) * 3 + u * 4);
        expect(Math.abs(d.grid[d.offset('bar') + k]! - want)).toBeLessThan(1e-5);
      }
    });
  }

  it('PatchMesh "bicubic" periodic in u and not in v (B-spline, step 1; Catmull-Rom in v), and a bilinear Patch beside it', async () => {
    const nu = 5;
    const nv = 6;
    // Periodic in u: 5 patches; v: (6 - 4) / 1 + 1 = 3 patches; varying: 5 × 4.
    const frame = await frameFromText(`${camera}Basis "b-spline" 1 "catmull-rom" 1
PatchMesh "bicubic" ${nu} "periodic" ${nv} "nonperiodic" ${primvars(controlPoints(nu, nv), 5 * 4, 0.5)}
Patch "bilinear" "P" [0 0 0  1 0 0  0 1 0  1 1 0] "vertex float foo" [0.5 2.5 0.5 2.5] "varying float bar" [1 2 3 4] "varying float[2] st" [0 10  1 11  2 12  3 13]
WorldEnd`);
    const d = await diceAll(gpu(), frame);
    expect(d.count).toBe(16);
    check(d, Array.from({ length: 15 }, (_, g) => g), fromCamera(frame), 0.5);
    // The bilinear patch after the mesh: its corner values at its own offset in the auxiliary buffer.
    const base = d.bases[15]!;
    for (let k = 0; k < N * N; k++) {
      const u = (k % N) / (N - 1);
      const v = Math.floor(k / N) / (N - 1);
      expect(Math.abs(d.grid[base + d.offset('foo') + k]! - (0.5 + 2 * u))).toBeLessThan(1e-5);
      expect(Math.abs(d.grid[base + d.offset('bar') + k]! - ((1 - v) * (1 + u) + v * (3 + u)))).toBeLessThan(1e-5);
      // st (float[2]: two numbers a vertex) at the four corners.
      const sWant = (1 - v) * u + v * (2 + u);
      expect(Math.abs(d.grid[base + d.offset('s') + k]! - sWant)).toBeLessThan(1e-5);
      expect(Math.abs(d.grid[base + d.offset('t') + k]! - (10 + sWant))).toBeLessThan(1e-5);
    }
  });

  it('PatchMesh "bicubic" with ustep 3 (Bézier) and periodic in v (B-spline)', async () => {
    // u: (7 - 4) / 3 + 1 = 2 patches; v periodic: 5 patches; varying 3 × 5.
    const frame = await frameFromText(`${camera}Basis "bezier" 3 "b-spline" 1
PatchMesh "bicubic" 7 "nonperiodic" 5 "periodic" ${primvars(controlPoints(7, 5), 15, 0.5)}
WorldEnd`);
    const d = await diceAll(gpu(), frame);
    expect(d.count).toBe(10);
    check(d, Array.from({ length: 10 }, (_, g) => g), fromCamera(frame), 0.5);
  });
});
