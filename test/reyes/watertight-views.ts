// Shared by the watertightness tests: seeded random views of an object, the scene text for one, rays
// through raster points, analytic silhouettes, and the pinhole count (pixels fully inside a
// silhouette whose alpha is not exactly 1).
import type { RenderOptions } from '../../src/reyes/index.ts';
import type { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

export const WIDTH = 128;
export const HEIGHT = 96;
export const FOV = 40;
export const VIEWS = 20;
export const SHADING_RATES = [0.5, 1, 2, 4, 8];
/** Half width of the default gaussian 2 × 2 filter, plus the margin. */
export const REACH = 1 + 1;

export type Vec3 = [number, number, number];

/** xorshift32, so a failing view can be reproduced from its index. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}

/** A random rotation (rows of an orthonormal matrix with determinant 1) from a unit quaternion. */
export function randomRotation(next: () => number): [Vec3, Vec3, Vec3] {
  const [u1, u2, u3] = [next(), next(), next()];
  const [x, y, z, w] = [
    Math.sqrt(1 - u1) * Math.sin(2 * Math.PI * u2), Math.sqrt(1 - u1) * Math.cos(2 * Math.PI * u2),
    Math.sqrt(u1) * Math.sin(2 * Math.PI * u3), Math.sqrt(u1) * Math.cos(2 * Math.PI * u3),
  ];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ];
}

export interface View {
  /** Object space → camera space: p_camera = p · rows + centre (RIB's row-vector convention). */
  rows: [Vec3, Vec3, Vec3];
  centre: Vec3;
  shadingRate: number;
}

export function views(seed: number, distance: [number, number]): View[] {
  const next = random(seed);
  const tan = Math.tan((FOV / 2) * (Math.PI / 180));
  return Array.from({ length: VIEWS }, (_, k) => {
    const d = distance[0] + (distance[1] - distance[0]) * next();
    const centre: Vec3 = [(next() - 0.5) * d * tan, (next() - 0.5) * d * tan, d];
    return { rows: randomRotation(next), centre, shadingRate: SHADING_RATES[k % SHADING_RATES.length]! };
  });
}

export function sceneText(view: View, sides: 1 | 2, geometry: string, surface = 'Surface "constant"'): string {
  const m = [...view.rows[0], 0, ...view.rows[1], 0, ...view.rows[2], 0, ...view.centre, 1];
  return `Format ${WIDTH} ${HEIGHT} 1
PixelSamples 4 4
ShadingRate ${view.shadingRate}
Projection "perspective" "fov" ${FOV}
Transform [${m.join(' ')}]
WorldBegin
Sides ${sides}
${surface}
${geometry}
WorldEnd`;
}

/** The camera-space direction of the ray through raster point (x, y) (RI spec 3.2: the field of
 * view spans the shorter side, screen window ±aspect × ±1, raster y down). */
export function rayThrough(x: number, y: number): Vec3 {
  const tan = Math.tan((FOV / 2) * (Math.PI / 180));
  return [((x - WIDTH / 2) * 2 / HEIGHT) * tan, ((HEIGHT / 2 - y) * 2 / HEIGHT) * tan, 1];
}

export const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

export function hitsSphere(centre: Vec3, radius: number, d: Vec3): boolean {
  const t = dot(centre, d) / dot(d, d);
  if (t <= 0) return false;
  const closest: Vec3 = [d[0] * t - centre[0], d[1] * t - centre[1], d[2] * t - centre[2]];
  return dot(closest, closest) < radius * radius;
}

export function hitsDisk(centre: Vec3, normal: Vec3, radius: number, d: Vec3): boolean {
  const t = dot(centre, normal) / dot(d, normal);
  if (!(t > 0)) return false;
  const p: Vec3 = [d[0] * t - centre[0], d[1] * t - centre[1], d[2] * t - centre[2]];
  return dot(p, p) < radius * radius;
}

/**
 * Renders each view and returns the pixels (view, x, y, alpha) that lie fully inside the silhouette
 * but are not opaque. The silhouettes are convex, so a square is inside when its corners are.
 */
export async function pinholes(gpu: ReturnType<ReturnType<typeof useGpuRuntime>>, list: View[], sides: 1 | 2, geometry: string,
  covers: (view: View, d: Vec3) => boolean, shading?: { surface: string; options: RenderOptions }): Promise<{ holes: string[]; inside: number }> {
  const holes: string[] = [];
  let inside = 0;
  for (const [k, view] of list.entries()) {
    const { rendered } = await render(gpu, await frameFromText(sceneText(view, sides, geometry, shading?.surface)), shading?.options);
    const { rgba } = rendered.image;
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const corners = [[x + 0.5 - REACH, y + 0.5 - REACH], [x + 0.5 + REACH, y + 0.5 - REACH],
          [x + 0.5 - REACH, y + 0.5 + REACH], [x + 0.5 + REACH, y + 0.5 + REACH]] as const;
        if (!corners.every(([cx, cy]) => covers(view, rayThrough(cx, cy)))) continue;
        inside++;
        const alpha = rgba[(y * WIDTH + x) * 4 + 3]!;
        if (alpha !== 1) holes.push(`view ${k} (shading rate ${view.shadingRate}) pixel ${x},${y} alpha ${alpha}`);
      }
    }
  }
  return { holes, inside };
}

