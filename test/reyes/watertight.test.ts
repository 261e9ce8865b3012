// Watertightness: an opaque surface leaves no pinholes. Every pixel whose whole filter support lies
// inside the analytically computed silhouette (with a margin of one pixel for the micropolygons'
// chords) must have alpha exactly 1, for closed surfaces seen one-sided (a crack in the front would
// show the empty inside) and a disk, from 20 seeded random camera positions and orientations over
// several shading rates and 4 × 4 pixel samples. The surfaces are cut into many grids of different
// dicing rates, so their seams cross these pixels.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';
import {
  dot, FOV, hitsDisk, hitsSphere, HEIGHT, pinholes, REACH, sceneText, views, VIEWS, WIDTH, type Vec3, type View,
} from './watertight-views.ts';
/** A closed polygon mesh on the unit sphere: `rings` latitude bands of `segments` quads (triangles at
 * the poles), counter-clockwise seen from outside; and the radius of the sphere it contains. */
function polygonSphere(rings: number, segments: number): { rib: string; inner: number } {
  const points: Vec3[] = [];
  const at = (ring: number, segment: number): Vec3 => {
    const theta = (Math.PI * ring) / rings;
    const phi = (2 * Math.PI * segment) / segments;
    return [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
  };
  const index = new Map<string, number>();
  const vertex = (ring: number, segment: number) => {
    const key = ring === 0 || ring === rings ? `pole${ring}` : `${ring},${segment % segments}`;
    if (!index.has(key)) {
      index.set(key, points.length);
      points.push(at(ring, segment));
    }
    return index.get(key)!;
  };
  const faces: number[][] = [];
  let inner = 1;
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const face = [vertex(r, s), vertex(r + 1, s), vertex(r + 1, s + 1), vertex(r, s + 1)];
      const unique = face.filter((v, i) => face.indexOf(v) === i);
      faces.push(unique);
      const [a, b, c] = unique.map((v) => points[v]!) as [Vec3, Vec3, Vec3];
      const e1: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const e2: Vec3 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n: Vec3 = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      inner = Math.min(inner, Math.abs(dot(n, a)) / Math.sqrt(dot(n, n)));
    }
  }
  const rib = `PointsPolygons [${faces.map((f) => f.length).join(' ')}] [${faces.flat().join(' ')}] "P" [${points.flat().join(' ')}]`;
  return { rib, inner };
}

describe('opaque surfaces are watertight', () => {
  const gpu = useGpuRuntime();

  it('a one-sided sphere has alpha exactly 1 wherever it covers a pixel\'s whole filter support', async () => {
    const result = await pinholes(gpu(), views(0x51ab1e, [3, 9]), 1, 'Sphere 1 -1 1 360',
      (view, d) => hitsSphere(view.centre, 1, d));
    expect(result.inside).toBeGreaterThan(VIEWS * 500);
    expect(result.holes.slice(0, 10), `${result.holes.length} pinholes`).toEqual([]);
  }, 240_000);

  it('a one-sided polygon mesh sphere of 240 faces has alpha exactly 1 inside its inscribed sphere', async () => {
    const mesh = polygonSphere(12, 20);
    const result = await pinholes(gpu(), views(0xc0ffee, [3, 9]), 1, mesh.rib,
      (view, d) => hitsSphere(view.centre, mesh.inner, d));
    expect(result.inside).toBeGreaterThan(VIEWS * 400);
    expect(result.holes.slice(0, 10), `${result.holes.length} pinholes`).toEqual([]);
  }, 240_000);

  it('a disk cut into many grids has alpha exactly 1 wherever it covers a pixel\'s whole filter support', async () => {
    const result = await pinholes(gpu(), views(0xd15c, [2, 5]), 2, 'Disk 0 1 360',
      (view, d) => hitsDisk(view.centre, view.rows[2], 1, d));
    expect(result.inside).toBeGreaterThan(VIEWS * 200);
    expect(result.holes.slice(0, 10), `${result.holes.length} pinholes`).toEqual([]);
  }, 240_000);
});

/** The uniform cubic B-spline basis at t (RI spec 3.2, RiBSplineBasis). */
function bsplineBasis(t: number): [number, number, number, number] {
  const s = 1 - t;
  return [(s * s * s) / 6, (3 * t * t * t - 6 * t * t + 4) / 6, (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6, (t * t * t) / 6];
}

/**
 * A closed periodic bicubic B-spline PatchMesh around the z axis (`around` × `across` control points
 * on a torus of radii 1 and 0.45, so as many patches each way), its RIB, and its surface evaluated
 * directly from the B-spline definition (patch i, j uses control points i..i+3, j..j+3 modulo the
 * counts), independently of the renderer's conversion to Bézier patches.
 */
function bsplineTorus(around: number, across: number): { rib: string; control(i: number, j: number): Vec3; at(u: number, v: number): Vec3 } {
  const control = (i: number, j: number): Vec3 => {
    const phi = (2 * Math.PI * (((i % around) + around) % around)) / around;
    const theta = (2 * Math.PI * (((j % across) + across) % across)) / across;
    const ring = 1 + 0.45 * Math.cos(theta);
    return [ring * Math.cos(phi), ring * Math.sin(phi), 0.45 * Math.sin(theta)];
  };
  const points: number[] = [];
  for (let j = 0; j < across; j++) for (let i = 0; i < around; i++) points.push(...control(i, j));
  const rib = `Basis "b-spline" 1 "b-spline" 1\nPatchMesh "bicubic" ${around} "periodic" ${across} "periodic" "P" [${points.join(' ')}]`;
  const at = (u: number, v: number): Vec3 => {
    const pi = Math.min(Math.floor(u * around), around - 1);
    const pj = Math.min(Math.floor(v * across), across - 1);
    const bu = bsplineBasis(u * around - pi);
    const bv = bsplineBasis(v * across - pj);
    const p = [0, 0, 0];
    for (let l = 0; l < 4; l++) {
      for (let k = 0; k < 4; k++) {
        const c = control(pi + k, pj + l);
        for (let a = 0; a < 3; a++) p[a]! += bu[k]! * bv[l]! * c[a]!;
      }
    }
    return p as Vec3;
  };
  return { rib, control, at };
}

/**
 * The same surface as `bsplineTorus` given as separate Bézier Patch requests: the B-spline control
 * net converted once to one Bézier net (RI spec 3.2 bases: segment k's Bézier points are
 * (P_k + 4 P_k+1 + P_k+2) / 6, (2 P_k+1 + P_k+2) / 3, (P_k+1 + 2 P_k+2) / 3, then the next segment's
 * first), each patch a 4 × 4 window of it, so neighbouring patches repeat the same numbers.
 */
function bezierTorusPatches(around: number, across: number): string {
  const torus = bsplineTorus(around, across);
  const control: Vec3[][] = [];
  for (let j = 0; j < across; j++) control.push(Array.from({ length: around }, (_, i) => torus.control(i, j)));
  const toBezier = (points: Vec3[]): Vec3[] => {
    const n = points.length;
    const at = (k: number) => points[((k % n) + n) % n]!;
    const mix = (weights: [number, number, number], k: number): Vec3 =>
      [0, 1, 2].map((c) => (weights[0] * at(k)[c]! + weights[1] * at(k + 1)[c]! + weights[2] * at(k + 2)[c]!) / 6) as Vec3;
    return Array.from({ length: 3 * n }, (_, m) => {
      const k = Math.floor(m / 3);
      return mix(m % 3 === 0 ? [1, 4, 1] : m % 3 === 1 ? [0, 4, 2] : [0, 2, 4], k);
    });
  };
  const rows = control.map(toBezier); // across × 3 around
  const columns = Array.from({ length: 3 * around }, (_, i) => toBezier(rows.map((row) => row[i]!))); // 3 around × 3 across
  const net = (i: number, j: number) => columns[i % (3 * around)]![j % (3 * across)]!;
  const patches: string[] = [];
  for (let pj = 0; pj < across; pj++) {
    for (let pi = 0; pi < around; pi++) {
      const points: number[] = [];
      for (let l = 0; l < 4; l++) for (let k = 0; k < 4; k++) points.push(...net(3 * pi + k, 3 * pj + l));
      patches.push(`Patch "bicubic" "P" [${points.join(' ')}]`);
    }
  }
  return `Basis "bezier" 3 "bezier" 3\n${patches.join('\n')}`;
}

/** Subsamples per pixel side of the silhouette masks. */
const MASK = 4;

/**
 * The pixels of `view` whose filter support plus the margin lies inside the silhouette of the
 * closed surface `at` (u, v in [0, 1], periodic both ways): the surface tessellated into `n` × `n`
 * quads far finer than a pixel, projected, and its triangles filled into a mask of MASK × MASK
 * subsamples per pixel; a pixel is inside when every subsample of its reach is covered.
 */
function silhouetteInside(view: View, at: (u: number, v: number) => Vec3, n: number): Uint8Array {
  const tan = Math.tan((FOV / 2) * (Math.PI / 180));
  const project = (p: Vec3): [number, number] => {
    const c = [0, 1, 2].map((a) => p[0] * view.rows[0][a]! + p[1] * view.rows[1][a]! + p[2] * view.rows[2][a]! + view.centre[a]!);
    return [WIDTH / 2 + ((c[0]! / c[2]!) / tan) * (HEIGHT / 2), HEIGHT / 2 - ((c[1]! / c[2]!) / tan) * (HEIGHT / 2)];
  };
  const grid: [number, number][] = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) grid.push(project(at(i / n, j / n)));
  const mw = WIDTH * MASK;
  const mh = HEIGHT * MASK;
  const covered = new Uint8Array(mw * mh);
  const fill = (a: [number, number], b: [number, number], c: [number, number]) => {
    const area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if (area === 0) return;
    const x0 = Math.max(0, Math.floor(Math.min(a[0], b[0], c[0]) * MASK));
    const x1 = Math.min(mw - 1, Math.ceil(Math.max(a[0], b[0], c[0]) * MASK));
    const y0 = Math.max(0, Math.floor(Math.min(a[1], b[1], c[1]) * MASK));
    const y1 = Math.min(mh - 1, Math.ceil(Math.max(a[1], b[1], c[1]) * MASK));
    const edge = (p: [number, number], q: [number, number], x: number, y: number) =>
      Math.sign(area) * ((q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const [sx, sy] = [(x + 0.5) / MASK, (y + 0.5) / MASK];
        if (edge(a, b, sx, sy) >= 0 && edge(b, c, sx, sy) >= 0 && edge(c, a, sx, sy) >= 0) covered[y * mw + x] = 1;
      }
    }
  };
  const corner = (i: number, j: number) => grid[(j % n) * (n + 1) + (i % n)]!;
  // The orientation on screen of triangle 0 (p00, p10, p11) and 1 (p00, p11, p01) of quad i, j.
  const facing = (i: number, j: number, t: 0 | 1) => {
    const [a, b, c] = t === 0 ? [corner(i, j), corner(i + 1, j), corner(i + 1, j + 1)] : [corner(i, j), corner(i + 1, j + 1), corner(i, j + 1)];
    return Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  };
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      fill(corner(i, j), corner(i + 1, j), corner(i + 1, j + 1));
      fill(corner(i, j), corner(i + 1, j + 1), corner(i, j + 1));
    }
  }
  // The silhouette runs along contour edges (between triangles facing opposite ways on screen);
  // where it folds into thin slivers (the tips of a torus's hole) the subsamples can miss it, so
  // the subsamples near every contour edge count as uncovered.
  const clearAlong = (a: [number, number], b: [number, number]) => {
    const steps = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) * MASK * 2) + 1;
    for (let k = 0; k <= steps; k++) {
      const x = (a[0] + ((b[0] - a[0]) * k) / steps) * MASK - 0.5;
      const y = (a[1] + ((b[1] - a[1]) * k) / steps) * MASK - 0.5;
      for (let yy = Math.floor(y) - 1; yy <= Math.ceil(y) + 1; yy++) {
        for (let xx = Math.floor(x) - 1; xx <= Math.ceil(x) + 1; xx++) if (xx >= 0 && yy >= 0 && xx < mw && yy < mh) covered[yy * mw + xx] = 0;
      }
    }
  };
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const lower = facing(i, j, 0);
      if (lower !== facing(i, j, 1)) clearAlong(corner(i, j), corner(i + 1, j + 1));
      if (lower !== facing(i + 1, j, 1)) clearAlong(corner(i + 1, j), corner(i + 1, j + 1));
      if (lower !== facing(i, j + n - 1, 1)) clearAlong(corner(i, j), corner(i + 1, j));
    }
  }
  // Uncovered subsamples summed over rectangles (a summed-area table, one row and column of zeros).
  const sums = new Int32Array((mw + 1) * (mh + 1));
  for (let y = 0; y < mh; y++) {
    for (let x = 0; x < mw; x++) {
      sums[(y + 1) * (mw + 1) + x + 1] = 1 - covered[y * mw + x]! + sums[y * (mw + 1) + x + 1]! + sums[(y + 1) * (mw + 1) + x]! - sums[y * (mw + 1) + x]!;
    }
  }
  const inside = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const [ax, ay] = [Math.round((x + 0.5 - REACH) * MASK), Math.round((y + 0.5 - REACH) * MASK)];
      const [bx, by] = [Math.round((x + 0.5 + REACH) * MASK), Math.round((y + 0.5 + REACH) * MASK)];
      if (ax < 0 || ay < 0 || bx > mw || by > mh) continue;
      const gaps = sums[by * (mw + 1) + bx]! - sums[ay * (mw + 1) + bx]! - sums[by * (mw + 1) + ax]! + sums[ay * (mw + 1) + ax]!;
      if (gaps === 0) inside[y * WIDTH + x] = 1;
    }
  }
  return inside;
}

/**
 * A torus of radii 1 and 0.45 around the z axis as one rational quadratic NuPatch: a circle of
 * circles (the nine-point circle with weights 1 and √2/2 both ways, knots [0 0 0 ¼ ¼ ½ ½ ¾ ¾ 1 1 1]),
 * so exactly a torus; its RIB and the torus evaluated directly.
 */
function nurbsTorus(): { rib: string; at(u: number, v: number): Vec3 } {
  const circle: [number, number, number][] = [[1, 0, 1], [1, 1, Math.SQRT1_2], [0, 1, 1], [-1, 1, Math.SQRT1_2], [-1, 0, 1],
    [-1, -1, Math.SQRT1_2], [0, -1, 1], [1, -1, Math.SQRT1_2], [1, 0, 1]];
  const pw: number[] = [];
  for (const [cx, cy, wv] of circle) {
    for (const [ax, ay, wu] of circle) {
      const ring = 1 + 0.45 * cx;
      const w = wu * wv;
      pw.push(ring * ax * w, ring * ay * w, 0.45 * cy * w, w);
    }
  }
  const knots = '[0 0 0 0.25 0.25 0.5 0.5 0.75 0.75 1 1 1]';
  const rib = `NuPatch 9 3 ${knots} 0 1 9 3 ${knots} 0 1 "Pw" [${pw.join(' ')}]`;
  const at = (u: number, v: number): Vec3 => {
    const [phi, theta] = [2 * Math.PI * u, 2 * Math.PI * v];
    const ring = 1 + 0.45 * Math.cos(theta);
    return [ring * Math.cos(phi), ring * Math.sin(phi), 0.45 * Math.sin(theta)];
  };
  return { rib, at };
}

describe('opaque patch models are watertight across their patches', () => {
  const gpu = useGpuRuntime();

  /** Pixels inside the torus's silhouette (`silhouetteInside`) that are not opaque, over 20 views. */
  async function torusPinholes(rib: string, at = bsplineTorus(8, 6).at, list = views(0x70a5, [4, 10])): Promise<{ holes: string[]; inside: number }> {
    const holes: string[] = [];
    let inside = 0;
    for (const [k, view] of list.entries()) {
      const mask = silhouetteInside(view, at, 256);
      const { rendered } = await render(gpu(), await frameFromText(sceneText(view, 1, rib)));
      const { rgba } = rendered.image;
      for (let p = 0; p < WIDTH * HEIGHT; p++) {
        if (!mask[p]) continue;
        inside++;
        const alpha = rgba[p * 4 + 3]!;
        if (alpha !== 1) holes.push(`view ${k} (shading rate ${view.shadingRate}) pixel ${p % WIDTH},${Math.floor(p / WIDTH)} alpha ${alpha}`);
      }
    }
    return { holes, inside };
  }

  it('a one-sided periodic B-spline torus of 8 × 6 patches has alpha exactly 1 inside its silhouette', async () => {
    const { holes, inside } = await torusPinholes(bsplineTorus(8, 6).rib);
    expect(inside).toBeGreaterThan(VIEWS * 300);
    expect(holes.slice(0, 10), `${holes.length} pinholes`).toEqual([]);
  }, 300_000);

  it('the same torus as 48 separate Bézier patches has alpha exactly 1 inside its silhouette', async () => {
    const { holes, inside } = await torusPinholes(bezierTorusPatches(8, 6));
    expect(inside).toBeGreaterThan(VIEWS * 300);
    expect(holes.slice(0, 10), `${holes.length} pinholes`).toEqual([]);
  }, 300_000);

  it('a one-sided rational NURBS torus (one NuPatch of 4 × 4 quadratic spans) has alpha exactly 1 inside its silhouette', async () => {
    const torus = nurbsTorus();
    const { holes, inside } = await torusPinholes(torus.rib, torus.at);
    expect(inside).toBeGreaterThan(VIEWS * 300);
    expect(holes.slice(0, 10), `${holes.length} pinholes`).toEqual([]);
  }, 300_000);

  // Its 512 pieces meet grids of other dicing rates along many record edges. Before samples within
  // a few ulps of an edge's line counted as on it (reyes-sample.wgsl inside), these views had 4 and
  // 2 pixels under alpha 1 (seed 11, view 5: one sample of pixel 75, 45 fell between a coarse
  // grid's edge and the finer grid's vertex placed on it, 4e-6 pixels off the line).
  it('the NURBS torus seen closer (2.5 to 10 away, 40 more views) has alpha exactly 1 inside its silhouette', async () => {
    const torus = nurbsTorus();
    for (const seed of [11, 12]) {
      const { holes, inside } = await torusPinholes(torus.rib, torus.at, views(seed, [2.5, 10]));
      expect(inside).toBeGreaterThan(VIEWS * 300);
      expect(holes.slice(0, 10), `seed ${seed}: ${holes.length} pinholes`).toEqual([]);
    }
  }, 600_000);
});
