// The patches of a PatchMesh are joined where they share an edge (the seam table then matches grids
// across it), with the shared boundary control points the same bits in both records; patches that do
// not meet (a basis whose step overlaps them) are not joined. Separate bicubic Patch requests are
// joined where two of them have the same boundary points.
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame } from '../../src/reyes/convert/convert-frame.ts';
import { RECORD, RecordEdge } from '../../src/layout/primitive-record.ts';
import type { PrimitiveRecords } from '../../src/reyes/primitive-record.ts';
import { userPrimitiveVariables } from '../../src/reyes/primvars.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { frameFromText } from './render-helpers.ts';

async function records(geometry: string): Promise<PrimitiveRecords> {
  const frame = await frameFromText(`Format 64 64 1\nProjection "perspective" "fov" 40\nTranslate 0 0 5\nWorldBegin\n${geometry}\nWorldEnd`);
  const warnings: string[] = [];
  const warn = (m: string): void => { warnings.push(m); };
  const layout = gridLayout(256, userPrimitiveVariables(frame.primitives, warn));
  const camera = frameCamera(frame);
  const converted = convertFrame(frame, camera, kernelSpaces(camera), layout, builtinShadingProvider, warn);
  expect(warnings).toEqual([]);
  return converted.records;
}

/** The edge across each edge of each record: [record, edge, reversed] or undefined. */
function joins(list: PrimitiveRecords): ([number, number, boolean] | undefined)[][] {
  const across = list.edgeNeighbours();
  return Array.from({ length: list.count }, (_, r) => [0, 1, 2, 3].map((e) => {
    const code = across[r * 4 + e]!;
    return code < 0 ? undefined : [code >> 3, (code >> 1) & 3, (code & 1) === 1];
  }));
}

/** Object-space Bézier control point (row v, column u) of record r, as stored (f32). */
function control(list: PrimitiveRecords, r: number, row: number, column: number): number[] {
  const at = r * RECORD.floats + RECORD.geometry + (row * 4 + column) * 3;
  return Array.from(list.floats().subarray(at, at + 3));
}

describe('PatchMesh patches are joined along their shared edges', () => {
  it('joins every edge of a periodic B-spline torus to its neighbour, wrapping, with equal boundary points', async () => {
    const [around, across] = [8, 6];
    const points: number[] = [];
    for (let j = 0; j < across; j++) {
      for (let i = 0; i < around; i++) {
        const [phi, theta] = [(2 * Math.PI * i) / around, (2 * Math.PI * j) / across];
        const ring = 1 + 0.45 * Math.cos(theta);
        points.push(ring * Math.cos(phi), ring * Math.sin(phi), 0.45 * Math.sin(theta));
      }
    }
    const list = await records(`Basis "b-spline" 1 "b-spline" 1\nPatchMesh "bicubic" ${around} "periodic" ${across} "periodic" "P" [${points.join(' ')}]`);
    expect(list.count).toBe(around * across);
    const found = joins(list);
    for (let pj = 0; pj < across; pj++) {
      for (let pi = 0; pi < around; pi++) {
        const r = pj * around + pi;
        const right = pj * around + ((pi + 1) % around);
        const up = ((pj + 1) % across) * around + pi;
        expect(found[r]![RecordEdge.u1]).toEqual([right, RecordEdge.u0, false]);
        expect(found[right]![RecordEdge.u0]).toEqual([r, RecordEdge.u1, false]);
        expect(found[r]![RecordEdge.v1]).toEqual([up, RecordEdge.v0, false]);
        for (let k = 0; k < 4; k++) {
          expect(control(list, r, k, 3)).toEqual(control(list, right, k, 0));
          expect(control(list, r, 3, k)).toEqual(control(list, up, 0, k));
        }
      }
    }
    // The shared points moved by no more than the conversion's rounding: patch 0 spans mesh points
    // 0..3 each way, and its corner is the B-spline surface there, (1, 4, 1) / 6 around point 1, 1.
    const expected = [0, 1, 2].map((c) => {
      let sum = 0;
      for (const [j, wj] of [[0, 1], [1, 4], [2, 1]] as const) for (const [i, wi] of [[0, 1], [1, 4], [2, 1]] as const) sum += (wj * wi * points[(j * around + i) * 3 + c]!) / 36;
      return sum;
    });
    control(list, 0, 0, 0).forEach((x, c) => expect(x).toBeCloseTo(expected[c]!, 6));
  });

  it('joins the inner edges of an open bilinear mesh and leaves its border alone', async () => {
    const list = await records('PatchMesh "bilinear" 3 "nonperiodic" 2 "nonperiodic" "P" [0 0 0 1 0 0 2 0 0 0 1 0 1 1 0 2 1 0]');
    expect(joins(list)).toEqual([
      [undefined, undefined, undefined, [1, RecordEdge.u0, false]],
      [undefined, undefined, [0, RecordEdge.u1, false], undefined],
    ]);
  });

  it('joins separate Bézier patches with the same boundary points, either way along the edge', async () => {
    // A: points (k, l) / 4 at row l, column k (exact in f32). B continues it past u = 1 with its
    // rows running down (B's u0 column is A's u1 column reversed). C sits below A, its u1 column
    // being A's v0 row (an edge along v meeting one along u).
    const patch = (at: (k: number, l: number) => [number, number]) =>
      `Patch "bicubic" "P" [${Array.from({ length: 16 }, (_, i) => [...at(i % 4, Math.floor(i / 4)), 0]).flat().join(' ')}]`;
    const list = await records([
      'Basis "bezier" 3 "bezier" 3',
      patch((k, l) => [k / 4, l / 4]),
      patch((k, l) => [0.75 + k / 4, 0.75 - l / 4]),
      patch((k, l) => [l / 4, -0.75 + k / 4]),
    ].join('\n'));
    const found = joins(list);
    expect(found[0]![RecordEdge.u1]).toEqual([1, RecordEdge.u0, true]);
    expect(found[1]![RecordEdge.u0]).toEqual([0, RecordEdge.u1, true]);
    expect(found[0]![RecordEdge.v0]).toEqual([2, RecordEdge.u1, false]);
    expect(found[2]![RecordEdge.u1]).toEqual([0, RecordEdge.v0, false]);
    expect([found[0]![RecordEdge.u0], found[0]![RecordEdge.v1], found[1]![RecordEdge.v0]]).toEqual([undefined, undefined, undefined]);
    // The shared points are the same bits in both records (the basis conversion rounds them apart).
    for (let l = 0; l < 4; l++) expect(control(list, 0, l, 3)).toEqual(control(list, 1, 3 - l, 0));
    for (let k = 0; k < 4; k++) expect(control(list, 0, 0, k)).toEqual(control(list, 2, k, 3));
  });

  it('leaves an edge that three patches share unjoined', async () => {
    const patch = (z: number) =>
      `Patch "bicubic" "P" [${Array.from({ length: 16 }, (_, i) => [(i % 4) / 3, Math.floor(i / 4) / 3, Math.floor(i / 4) * z]).flat().join(' ')}]`;
    const list = await records(['Basis "bezier" 3 "bezier" 3', patch(0), patch(1), patch(-1)].join('\n'));
    expect(joins(list).flat().every((j) => j === undefined)).toBe(true);
  });

  it('joins the two patches that share a curve when a third has only its end points', async () => {
    // All three start at row v = 0 from (0, 0, 0) to (1, 0, 0); the third's row bulges out in y.
    const patch = (z: number, bulge: number) =>
      `Patch "bicubic" "P" [${Array.from({ length: 16 }, (_, i) => {
        const [k, l] = [i % 4, Math.floor(i / 4)];
        return [k / 4 + (k === 3 ? 0.25 : 0), l / 4 - (l === 0 && (k === 1 || k === 2) ? bulge : 0), l * z];
      }).flat().join(' ')}]`;
    const list = await records(['Basis "bezier" 3 "bezier" 3', patch(0.25, 0), patch(-0.25, 0), patch(0.5, 0.25)].join('\n'));
    const found = joins(list);
    expect(found[0]![RecordEdge.v0]).toEqual([1, RecordEdge.v0, false]);
    expect(found[2]![RecordEdge.v0]).toBeUndefined();
  });

  it('does not join Bézier patches that a step of 1 makes overlap instead of meet', async () => {
    const list = await records(`Basis "bezier" 1 "bezier" 3\nPatchMesh "bicubic" 5 "nonperiodic" 4 "nonperiodic" "P" [${
      Array.from({ length: 20 }, (_, k) => [k % 5, Math.floor(k / 5), ((k * 7) % 5) * 0.3]).flat().join(' ')}]`);
    expect(list.count).toBe(2);
    expect(joins(list)).toEqual([[undefined, undefined, undefined, undefined], [undefined, undefined, undefined, undefined]]);
  });
});
