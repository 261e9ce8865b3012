// SubdivisionMesh (Catmull-Clark): limit positions against the limit mask computed by hand, an
// infinitely sharp crease against the cubic B-spline of its vertices, vertex variables following P,
// tags, and an opaque closed subdivision surface with no pinholes (rendered on the GPU).
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame } from '../../src/reyes/convert/convert-frame.ts';
import { PrimitiveKind, RECORD } from '../../src/layout/primitive-record.ts';
import { userPrimitiveVariables } from '../../src/reyes/primvars.ts';
import { JOIN_HALF } from '../../src/reyes/primitive-record.ts';
import { edgeKey, type SubdivisionMesh } from '../../src/reyes/convert/subdivision-mesh.ts';
import { refine } from '../../src/reyes/convert/subdivision-refine.ts';
import { LimitMesh } from '../../src/reyes/convert/subdivision-patches.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

type Vec3 = [number, number, number];

async function patches(body: string): Promise<{ controls: Vec3[][]; warnings: string[]; kinds: number[]; joined: number; across: Int32Array; colours: number[][]; st: number[][][] }> {
  const frame = await frameFromText(`Format 64 64 1\nProjection "perspective" "fov" 40\nTranslate 0 0 8\nWorldBegin\n${body}\nWorldEnd`);
  const warnings: string[] = [];
  const warn = (m: string): void => { warnings.push(m); };
  const layout = gridLayout(256, userPrimitiveVariables(frame.primitives, warn));
  const camera = frameCamera(frame);
  const { records } = convertFrame(frame, camera, kernelSpaces(camera), layout, builtinShadingProvider, warn);
  const floats = records.floats();
  const words = new Uint32Array(floats.buffer, floats.byteOffset, floats.length);
  const controls: Vec3[][] = [];
  const kinds: number[] = [];
  for (let r = 0; r < records.count; r++) {
    kinds.push(words[r * RECORD.floats + RECORD.kind]!);
    const at = r * RECORD.floats + RECORD.geometry;
    controls.push(Array.from({ length: 16 }, (_, i) => [floats[at + i * 3]!, floats[at + i * 3 + 1]!, floats[at + i * 3 + 2]!] as Vec3));
  }
  const across = records.edgeNeighbours();
  const joined = Array.from(across).filter((e) => e >= 0).length;
  // Each record's Cs at its first corner (RECORD.Cs holds the four corners' rgb in turn).
  const colours = Array.from({ length: records.count }, (_, r) => Array.from(floats.subarray(r * RECORD.floats + RECORD.Cs, r * RECORD.floats + RECORD.Cs + 3)));
  // Each record's four corner (s, t).
  const st = Array.from({ length: records.count }, (_, r) => [0, 1, 2, 3].map((k) => [floats[r * RECORD.floats + RECORD.s + k]!, floats[r * RECORD.floats + RECORD.t + k]!]));
  return { controls, warnings, kinds, joined, across, colours, st };
}

const CUBE_POINTS: Vec3[] = [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]];
/** Counter-clockwise seen from outside. */
const CUBE_FACES = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [2, 3, 7, 6], [0, 4, 7, 3], [1, 2, 6, 5]];
const cube = (extra = '') => `SubdivisionMesh "catmull-clark" [${CUBE_FACES.map(() => 4).join(' ')}] [${CUBE_FACES.flat().join(' ')}] ${extra} "P" [${CUBE_POINTS.flat().join(' ')}]`;

const distance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
/** The four corners of a Bézier patch (on its surface). */
const corners = (c: Vec3[]) => [c[0]!, c[3]!, c[12]!, c[15]!];

/** The Catmull-Clark limit of a smooth vertex v of valence n with edge neighbours e and face-diagonal
 * neighbours f (Halstead, Kass and DeRose 1993): (n² v + 4 Σ e + Σ f) / (n (n + 5)). */
function limitMask(v: Vec3, e: Vec3[], f: Vec3[]): Vec3 {
  const n = e.length;
  return [0, 1, 2].map((d) => (n * n * v[d]! + 4 * e.reduce((s, p) => s + p[d]!, 0) + f.reduce((s, p) => s + p[d]!, 0)) / (n * (n + 5))) as Vec3;
}

/** A cube's surface cut n × n per face: quads counter-clockwise seen from outside, and their points. */
function dicedCube(n: number): { faces: number[]; points: number[] } {
  const index = new Map<string, number>();
  const points: number[] = [];
  const vertex = (p: number[]): number => {
    const key = p.join(',');
    if (!index.has(key)) {
      index.set(key, points.length / 3);
      points.push(...p);
    }
    return index.get(key)!;
  };
  const faces: number[] = [];
  // Each face: its normal axis and sign, and two tangent axes with u × v along the outward normal.
  for (const [axis, sign] of [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]] as const) {
    const [a, b] = sign > 0 ? [(axis + 1) % 3, (axis + 2) % 3] : [(axis + 2) % 3, (axis + 1) % 3];
    const at = (i: number, j: number) => {
      const p = [0, 0, 0];
      p[axis] = sign;
      p[a] = -1 + (2 * i) / n;
      p[b] = -1 + (2 * j) / n;
      return vertex(p);
    };
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) faces.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
  }
  return { faces, points };
}

/** The quads and points of dicedCube as RIB, with `tags` after the vertex indices. */
const quadMesh = ({ faces, points }: { faces: number[]; points: number[] }, tags = '') =>
  `SubdivisionMesh "catmull-clark" [${new Array(faces.length / 4).fill(4).join(' ')}] [${faces.join(' ')}] ${tags} "P" [${points.join(' ')}]`;

describe('SubdivisionMesh', () => {
  const gpu = useGpuRuntime();

  /** Pixels that should be opaque and are not: `mesh`, whose limit surface lies outside the ball of
   * radius 0.83 about the origin, rendered one-sided and constant; pixels whose whole filter support
   * (gaussian 2 × 2, plus a pixel for chords) sees that ball must have alpha 1. Views from the eight
   * octants at several shading rates cut the surface into grids of different rates. */
  async function pinholes(mesh: string): Promise<string[]> {
    const [W, H, FOV, REACH] = [96, 72, 40, 2];
    const tan = Math.tan((FOV / 2) * (Math.PI / 180));
    const holes: string[] = [];
    let inside = 0;
    for (const [k, rate] of [0.5, 1, 2, 4, 8, 1, 2, 4].entries()) {
      const [ax, ay] = [35 + 90 * (k & 1), 20 + 45 * k];
      const frame = await frameFromText(`Format ${W} ${H} 1\nPixelSamples 4 4\nShadingRate ${rate}\nProjection "perspective" "fov" ${FOV}
Translate ${0.3 * (k % 3 - 1)} ${0.2 * ((k >> 1) % 3 - 1)} ${3 + k * 0.4}\nRotate ${ax} 1 0 0\nRotate ${ay} 0 1 0\nWorldBegin\nSides 1\nSurface "constant"\n${mesh}\nWorldEnd`);
      const centre: Vec3 = [0.3 * (k % 3 - 1), 0.2 * ((k >> 1) % 3 - 1), 3 + k * 0.4];
      const seesBall = (x: number, y: number): boolean => {
        const d: Vec3 = [((x - W / 2) * 2 / H) * tan, ((H / 2 - y) * 2 / H) * tan, 1];
        const t = (d[0] * centre[0] + d[1] * centre[1] + d[2] * centre[2]) / (d[0] ** 2 + d[1] ** 2 + d[2] ** 2);
        return distance(d.map((c) => c * t), centre) < 0.83;
      };
      const { rendered } = await render(gpu(), frame);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
        if (![[-1, -1], [1, -1], [-1, 1], [1, 1]].every(([sx, sy]) => seesBall(x + 0.5 + sx! * REACH, y + 0.5 + sy! * REACH))) continue;
        inside++;
        const alpha = rendered.image.rgba[(y * W + x) * 4 + 3]!;
        if (alpha !== 1) holes.push(`view ${k} (shading rate ${rate}) pixel ${x},${y} alpha ${alpha}`);
      }
    }
    expect(inside).toBeGreaterThan(8 * 300);
    return holes.slice(0, 10).concat(holes.length > 10 ? [`… ${holes.length} in all`] : []);
  }

  it('a cube\'s patches meet at the limit positions of its vertices and face centres (limit masks by hand, within 1e-4)', async () => {
    const { controls, warnings, kinds, joined } = await patches(cube());
    expect(warnings).toEqual([]);
    expect(kinds.every((k) => k === PrimitiveKind.bezier)).toBe(true);
    // A closed surface: every edge of every patch is joined to its neighbour's (for the dicer's seams).
    expect(joined).toBe(4 * controls.length);
    const all = controls.flatMap(corners);
    for (const v of CUBE_POINTS) {
      // Valence 3: the three neighbours along edges differ in one coordinate, the three across faces in two.
      const e = CUBE_POINTS.filter((p) => distance(p, v) === 2);
      const f = CUBE_POINTS.filter((p) => Math.abs(distance(p, v) - 2 * Math.SQRT2) < 1e-9);
      const expected = limitMask(v, e, f);
      expect(expected.map(Math.abs)).toEqual([0.5, 0.5, 0.5]);
      // The three patches around the vertex each have a corner there.
      expect(all.filter((p) => distance(p, expected) < 1e-4)).toHaveLength(3);
    }
    // The centre of face z = 1 after one step is a valence-4 vertex: its edge neighbours are the edge
    // points (0.75, 0, 0.75) and the like, its diagonal neighbours the vertex points (5/9, 5/9, 5/9)
    // and the like (Catmull-Clark rules on the cube): limit z = (16 + 4·4·0.75 + 4·5/9) / 36.
    const centre = limitMask([0, 0, 1], [[0.75, 0, 0.75], [0, 0.75, 0.75], [-0.75, 0, 0.75], [0, -0.75, 0.75]],
      [[5 / 9, 5 / 9, 5 / 9], [-5 / 9, 5 / 9, 5 / 9], [-5 / 9, -5 / 9, 5 / 9], [5 / 9, -5 / 9, 5 / 9]]);
    expect(centre[2]).toBeCloseTo(0.839506, 5);
    expect(all.filter((p) => distance(p, centre) < 1e-4).length).toBeGreaterThanOrEqual(4);
    // Every patch corner lies between the two: the limit surface is inside the cube, outside a ball.
    for (const p of all) {
      expect(Math.max(...p.map(Math.abs))).toBeLessThan(0.86);
      expect(Math.hypot(...p)).toBeGreaterThan(0.83);
    }
  });

  it('an infinitely sharp crease is the cubic B-spline curve of its vertices', async () => {
    // A flat grid x = 0..6, y = -2..2 whose middle row is creased and lifted to heights h.
    const h = [0, 1, -0.5, 2, 0.3, -1, 0.5];
    const index = (x: number, y: number) => (y + 2) * 7 + x;
    const points: number[] = [];
    for (let y = -2; y <= 2; y++) for (let x = 0; x <= 6; x++) points.push(x, y, y === 0 ? h[x]! : 0);
    const faces: number[] = [];
    for (let y = -2; y < 2; y++) for (let x = 0; x < 6; x++) faces.push(index(x, y), index(x + 1, y), index(x + 1, y + 1), index(x, y + 1));
    const crease = [0, 1, 2, 3, 4, 5, 6].map((x) => index(x, 0));
    const { controls, warnings } = await patches(`SubdivisionMesh "catmull-clark" [${new Array(24).fill(4).join(' ')}] [${faces.join(' ')}]
      ["crease" "interpolateboundary"] [7 1 0 0] [${crease.join(' ')}] [20] "P" [${points.join(' ')}]`);
    expect(warnings).toEqual([]);
    const bspline = (x: number): number => {
      const i = Math.min(Math.max(Math.floor(x), 1), 4);
      const t = x - i;
      const N = [(1 - t) ** 3 / 6, (3 * t ** 3 - 6 * t ** 2 + 4) / 6, (-3 * t ** 3 + 3 * t ** 2 + 3 * t + 1) / 6, t ** 3 / 6];
      return N.reduce((s, n, k) => s + n * h[i - 1 + k]!, 0);
    };
    // Edges of patches lying on y = 0, between x = 1 and 5 (away from the crease's end conditions).
    const EDGES = [[0, 1, 2, 3], [12, 13, 14, 15], [0, 4, 8, 12], [3, 7, 11, 15]];
    let covered = 0;
    for (const c of controls) {
      for (const edge of EDGES) {
        const p = edge.map((i) => c[i]!);
        if (!p.every((q) => Math.abs(q[1]) < 1e-6) || Math.min(p[0]![0], p[3]![0]) < 1 || Math.max(p[0]![0], p[3]![0]) > 5) continue;
        covered += Math.abs(p[3]![0] - p[0]![0]);
        for (const t of [0, 0.25, 0.5, 0.75, 1]) {
          const b = [(1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3];
          const x = b.reduce((s, w, k) => s + w * p[k]![0], 0);
          const z = b.reduce((s, w, k) => s + w * p[k]![2], 0);
          expect(z).toBeCloseTo(bspline(x), 5);
        }
      }
    }
    // Both sides of the crease: each stretch of it is an edge of two patches.
    expect(covered).toBeCloseTo(2 * 4, 5);
  });

  it('an opaque closed subdivision surface seen one-sided has alpha exactly 1 wherever it covers a pixel fully', async () => {
    // The cube's limit surface lies outside the ball of radius 0.83 (test above).
    expect(await pinholes(cube())).toEqual([]);
  }, 300_000);

  it('a cage whose patches are of three levels (regular faces at once, the ring of each corner refined twice) has no pinholes', async () => {
    // The cube's faces cut 4 × 4: its 8 corners are the only extraordinary vertices, so the faces
    // away from them are patches at level 0, the faces around them at levels 1 and 2, meeting the
    // coarser ones at T-junctions. Its limit surface lies outside the same ball (checked here).
    const mesh = quadMesh(dicedCube(4));
    const { controls, warnings, joined, across } = await patches(mesh);
    expect(warnings).toEqual([]);
    // Closed: every patch edge is joined, to an edge of its level or as half of a coarser one's.
    expect(joined).toBe(4 * controls.length);
    // Each half is the coarse edge's curve from the end its parameter starts at, to the midpoint
    // (the dicer's seams map it so): Bernstein evaluation of both against each other.
    const EDGE = [[0, 1, 2, 3], [12, 13, 14, 15], [0, 4, 8, 12], [3, 7, 11, 15]];
    const curve = (record: number, edge: number, t: number): Vec3 => {
      const b = [(1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3];
      return [0, 1, 2].map((d) => b.reduce((sum, w, k) => sum + w * controls[record]![EDGE[edge]![k]!]![d]!, 0)) as Vec3;
    };
    let halves = 0;
    across.forEach((entry, at) => {
      if (!(entry & JOIN_HALF)) return;
      halves++;
      const code = entry & ~JOIN_HALF;
      for (const s of [0, 0.25, 0.5, 0.75, 1]) {
        const t = code & 1 ? 1 - s / 2 : s / 2;
        expect(distance(curve(at >> 2, at & 3, s), curve(code >> 3, (code >> 1) & 3, t))).toBeLessThan(1e-5);
      }
    });
    // At each corner, on levels 1 and 2: the 3 faces refined there have 2 edges each on coarser patches, 2 halves each.
    expect(halves).toBe(8 * 2 * 3 * 2 * 2);
    expect(Math.min(...controls.flatMap(corners).map((p) => Math.hypot(...p)))).toBeGreaterThan(0.83);
    // 96 faces: 72 regular at level 0; the 24 at the corners make 96, of which 72 regular at level
    // 1; the 24 at the corners again make 96 at level 2.
    expect(controls.length).toBe(72 + 72 + 96);
    expect(await pinholes(mesh)).toEqual([]);
  }, 300_000);

  it('patches of every level lie on the surface refined uniformly: at their corners and, where regular, at half their parameters, limit points of the mesh refined three levels', async () => {
    // The diced cube with a semi-sharp crease (sharpness 1.5) along part of one edge of the cube:
    // refined adaptively to level 2, its regular patches are exact B-spline patches, which split at
    // half their parameters into those of the next level, whose corners are that level's limit points.
    const cage = dicedCube(4);
    const crease = [0, 1, 2].map((i) => cage.points.findIndex((_, k) => k % 3 === 0 && [1, -1, -1 + i / 2].every((c, d) => cage.points[k + d] === c)) / 3);
    const { controls, warnings } = await patches(quadMesh(cage, `["crease"] [3 1] [${crease.join(' ')}] [1.5]`));
    expect(warnings).toEqual([]);
    let mesh: SubdivisionMesh = {
      faceStart: Int32Array.from({ length: cage.faces.length / 4 + 1 }, (_, f) => f * 4), faceVerts: Int32Array.from(cage.faces),
      vertexCount: cage.points.length / 3, data: Float64Array.from(cage.points), dimension: 3, varying: new Float64Array(0), varyingDimension: 0,
      faceVarying: new Float64Array(0), faceVaryingDimension: 0, uniformOf: new Int32Array(cage.faces.length / 4),
      hole: new Uint8Array(cage.faces.length / 4), edgeSharpness: new Map([[edgeKey(crease[0]!, crease[1]!), 1.5], [edgeKey(crease[1]!, crease[2]!), 1.5]]),
      vertexSharpness: new Float64Array(cage.points.length / 3), boundaryMode: 0,
    };
    for (let level = 0; level < 3; level++) mesh = refine(mesh);
    const limit = new LimitMesh(mesh);
    const targets = Array.from({ length: mesh.vertexCount }, (_, v) => Array.from(limit.limitOf(v)));
    const onSurface = (p: Vec3) => targets.some((q) => distance(p, q) < 1e-5);
    const at = (c: Vec3[], u: number, v: number): Vec3 => {
      const b = (t: number) => [(1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3];
      const [bu, bv] = [b(u), b(v)];
      return [0, 1, 2].map((d) => c.reduce((sum, p, i) => sum + bv[i >> 2]! * bu[i & 3]! * p[d]!, 0)) as Vec3;
    };
    let regular = 0;
    for (const c of controls) {
      expect(corners(c).every(onSurface)).toBe(true);
      if ([[0.5, 0], [0, 0.5], [0.5, 0.5], [1, 0.5], [0.5, 1]].every(([u, v]) => onSurface(at(c, u!, v!)))) regular++;
    }
    // All but the 24 patches at the cube's corners on level 2 (Loop–Schaefer approximations) are
    // exact; uniform refinement to level 2 would make 96 × 16 patches.
    expect(controls.length - regular).toBe(24);
    expect(controls.length).toBeLessThan(96 * 4);
  });

  it('"hole" leaves its face out: through it a one-sided cube shows nothing (its inside faces away), a two-sided one its inside', async () => {
    const alphaAtCentre = async (sides: number) => {
      const frame = await frameFromText(`Format 32 32 1\nPixelSamples 2 2\nProjection "perspective" "fov" 30\nTranslate 0 0 6
WorldBegin\nSides ${sides}\nSurface "constant"\n${cube('["hole" "interpolateboundary"] [1 0 0 0] [0] []')}\nWorldEnd`);
      const { rendered } = await render(gpu(), frame);
      return [rendered.image.rgba[(16 * 32 + 16) * 4 + 3], rendered.image.rgba[(16 * 32 + 2) * 4 + 3]];
    };
    // Face 0 (z = -1) faces the camera; the centre pixel looks through it, the edge pixel misses the cube.
    expect(await alphaAtCentre(1)).toEqual([0, 0]);
    expect(await alphaAtCentre(2)).toEqual([1, 0]);
  }, 120_000);

  it('interpolateboundary: 1 pins a boundary corner, 2 makes it a crease vertex, none leaves the boundary faces out', async () => {
    // A flat 3 × 3 grid of faces over [0, 3]².
    const points: number[] = [];
    for (let y = 0; y <= 3; y++) for (let x = 0; x <= 3; x++) points.push(x, y, 0);
    const faces: number[] = [];
    for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) faces.push(y * 4 + x, y * 4 + x + 1, (y + 1) * 4 + x + 1, (y + 1) * 4 + x);
    const grid = (tags: string) => patches(`SubdivisionMesh "catmull-clark" [4 4 4 4 4 4 4 4 4] [${faces.join(' ')}] ${tags} "P" [${points.join(' ')}]`);
    const edgeAndCorner = await grid('["interpolateboundary"] [0 0] [] []');
    const edgeOnly = await grid('["interpolateboundary"] [1 0] [2] []');
    const none = await grid('');
    const allCorners = (r: Awaited<ReturnType<typeof grid>>) => r.controls.flatMap(corners);
    const near = (list: Vec3[], p: Vec3) => list.some((q) => distance(q, p) < 1e-6);
    // Edge and corner: the corner vertex stays where it is.
    expect(near(allCorners(edgeAndCorner), [0, 0, 0])).toBe(true);
    // Edge only: a crease vertex, at (left + 4 v + right) / 6 = (1/6, 1/6).
    expect(near(allCorners(edgeOnly), [0, 0, 0])).toBe(false);
    expect(near(allCorners(edgeOnly), [1 / 6, 1 / 6, 0])).toBe(true);
    expect(edgeOnly.controls.length).toBe(edgeAndCorner.controls.length);
    // None: the faces on the boundary (after refinement) are not drawn, so nothing reaches the border.
    expect(none.controls.length).toBeLessThan(edgeAndCorner.controls.length);
    for (const p of none.controls.flat()) expect(Math.min(p[0], p[1], 3 - p[0], 3 - p[1])).toBeGreaterThan(0.2);
    for (const r of [edgeAndCorner, edgeOnly, none]) expect(r.warnings).toEqual([]);
  });

  it('a closed mesh of triangles (a tetrahedron) becomes joined quads, each with its control face\'s uniform colour', async () => {
    const colours = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]];
    const { controls, warnings, joined, colours: got } = await patches(`SubdivisionMesh "catmull-clark" [3 3 3 3] [0 2 1  0 1 3  1 2 3  2 0 3]
      "P" [1 1 1  -1 -1 1  -1 1 -1  1 -1 -1] "uniform color Cs" [${colours.flat().join(' ')}]`);
    expect(warnings).toEqual([]);
    // One level makes 12 quads, one more 48; all edges shared.
    expect(controls.length).toBe(48);
    expect(joined).toBe(4 * 48);
    for (const c of colours) expect(got.filter((g) => g.every((x, k) => Math.abs(x - c[k]!) < 1e-6))).toHaveLength(12);
  });

  it('facevarying st interpolates linearly across each control face, apart on either side of an edge', async () => {
    // Two quads side by side; face 0's corners take (s, t) on [0, 1]², face 1's on [2, 3] × [0, 1].
    const { st, warnings } = await patches(`SubdivisionMesh "catmull-clark" [4 4] [0 1 4 3  1 2 5 4] ["interpolateboundary"] [0 0] [] []
      "P" [0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0] "facevarying float[2] st" [0 0  1 0  1 1  0 1  2 0  3 0  3 1  2 1]`);
    expect(warnings).toEqual([]);
    // Bilinear over each face: the refined corners sit at quarters of it.
    const expected = (offset: number) => new Set([0, 1, 2, 3, 4].flatMap((j) => [0, 1, 2, 3, 4].map((i) => `${offset + i / 4},${j / 4}`)));
    const [left, right] = [expected(0), expected(2)];
    let [fromLeft, fromRight] = [0, 0];
    for (const corners of st) {
      const keys = corners.map(([s0, t0]) => `${Math.round(s0! * 1e6) / 1e6},${Math.round(t0! * 1e6) / 1e6}`);
      if (keys.every((k) => left.has(k))) fromLeft++;
      else if (keys.every((k) => right.has(k))) fromRight++;
    }
    expect([fromLeft, fromRight]).toEqual([st.length / 2, st.length / 2]);
  });
});
